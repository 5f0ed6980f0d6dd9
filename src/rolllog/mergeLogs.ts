import { InputError } from '../core/errors.js';
import { quoteValue } from './quoteValue.js';
import type { DieLog, ParsedLog } from './types.js';

/**
 * Joins the dice of several files: rolls of a die label found in more than one
 * file are appended in the order the files were given (a long test is often
 * split over days).
 */
export function mergeLogs(logs: readonly ParsedLog[]): DieLog[] {
  const byLabel = new Map<string, DieLog>();
  // A die found in one file only is passed on as parsed; a die found again is copied once, then appended to.
  const copies = new Set<DieLog>();
  for (const log of logs) {
    for (let die of log.dice) {
      const found = byLabel.get(die.label);
      if (found === undefined) {
        byLabel.set(die.label, die);
        continue;
      }
      let seen = found;
      if (!copies.has(found)) {
        seen = { ...found, dictionary: [...found.dictionary], codes: [...found.codes], firstSeen: new Map(found.firstSeen), files: new Set(found.files) };
        if (found.unresolvedAt !== undefined) seen.unresolvedAt = [...found.unresolvedAt];
        if (found.reviewed !== undefined) seen.reviewed = [...found.reviewed];
        if (found.faceSymbols !== undefined) seen.faceSymbols = [...found.faceSymbols];
        copies.add(seen);
        byLabel.set(die.label, seen);
      }
      const where = { file: log.file, line: die.firstSeen.values().next().value?.line };
      // A die with unresolved rolls only in one file has no level of its own there.
      if (die.codes.length === 0) die = { ...die, level: seen.level };
      else if (seen.codes.length === 0) seen.level = die.level;
      if (seen.level !== die.level) {
        throw new InputError(`die "${die.label}" is logged by ${die.level} here but by ${seen.level} in ${[...seen.files].join(', ')}`, where);
      }
      if (die.typeId !== undefined && seen.typeId !== undefined && die.typeId !== seen.typeId) {
        throw new InputError(`die "${die.label}" is type "${die.typeId}" here but "${seen.typeId}" in ${[...seen.files].join(', ')}`, where);
      }
      seen.typeId ??= die.typeId;
      // Re-code this file's tokens into the merged dictionary.
      const recode = die.dictionary.map((token) => {
        let code = seen.dictionary.indexOf(token);
        if (code < 0) {
          code = seen.dictionary.push(token) - 1;
          seen.firstSeen.set(token, die.firstSeen.get(token) as { file: string; line: number });
        }
        return code;
      });
      die.faceSymbols?.forEach((given, c) => {
        if (given === undefined) return;
        const code = recode[c] as number;
        const known = (seen.faceSymbols ??= [])[code];
        if (known === undefined) seen.faceSymbols[code] = given;
        else if (known.symbol.toLowerCase() !== given.symbol.toLowerCase()) {
          const face = seen.dictionary[code] as string;
          throw new InputError(`face ${quoteValue(face)} of die ${quoteValue(die.label)} has the symbol ${quoteValue(given.symbol)} here but ${quoteValue(known.symbol)} in ${known.file} line ${known.line}; a face shows one symbol`, { file: given.file, line: given.line });
        }
      });
      const before = seen.codes.length;
      for (const at of die.unresolvedAt ?? []) (seen.unresolvedAt ??= []).push(before + at);
      for (const r of die.reviewed ?? []) (seen.reviewed ??= []).push({ ...r, roll: before + r.roll });
      for (const c of die.codes) seen.codes.push(recode[c] as number);
      for (const f of die.files) seen.files.add(f);
    }
  }
  return [...byLabel.values()];
}
