import { InputError } from '../core/errors.js';
import { sameDieId } from '../dice/catalogue.js';
import type { DieType } from '../dice/types.js';
import { quoteFew, quoteValue } from '../rolllog/quoteValue.js';
import type { DieLog, DieRolls } from '../rolllog/types.js';

/**
 * Matches a die's logged tokens to its type. The type comes from the log, else
 * from `fallbackType` (`--die`), else it is inferred: the one known die whose
 * faces or symbols cover every token. Tokens compare case-insensitively.
 */
export function resolveDieRolls(log: DieLog, dice: readonly DieType[], fallbackType?: string): DieRolls {
  const die = chooseType(log, dice, fallbackType);
  const names = log.level === 'face' ? die.faces.map((f) => f.id) : die.symbols;
  const lookup = new Map<string, number>();
  names.forEach((n, i) => lookup.set(n.toLowerCase(), i));
  // Map each distinct token once, then translate the coded column through a small table.
  const indexOfCode = log.dictionary.map((token) => {
    const idx = lookup.get(token.toLowerCase());
    if (idx === undefined) {
      const unknown = log.dictionary.filter((t) => !lookup.has(t.toLowerCase()));
      const more = unknown.length > 1 ? `; ${unknown.length.toLocaleString('en-US')} distinct values are not: ${quoteFew(unknown)}` : '';
      throw new InputError(`${quoteValue(token)} is not a ${log.level} of die ${quoteValue(log.label)} (${die.id}: ${names.join(', ')})${more}`, log.firstSeen.get(token) ?? {});
    }
    return idx;
  });
  if (log.level === 'face') checkFaceSymbols(log, die, indexOfCode);
  const n = log.codes.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = indexOfCode[log.codes[i] as number] as number;
  const files = [...log.files];
  const unresolved = {
    ...(log.unresolvedAt !== undefined && log.unresolvedAt.length > 0 ? { unresolvedAt: [...log.unresolvedAt] } : {}),
    ...(log.reviewed !== undefined && log.reviewed.length > 0 ? { reviewed: [...log.reviewed] } : {}),
  };
  if (log.level === 'symbol') return { label: log.label, die, level: 'symbol', symbols: out, files, ...unresolved };
  const symbolOfFace = die.faces.map((f) => die.symbols.indexOf(f.symbol));
  const symbols = new Uint8Array(n);
  for (let i = 0; i < n; i++) symbols[i] = symbolOfFace[out[i] as number] as number;
  return { label: log.label, die, level: 'face', symbols, faces: out, files, ...unresolved };
}

/** Refuses a face logged beside a symbol it does not show (`DieLog.faceSymbols`: one per face, where first written). */
function checkFaceSymbols(log: DieLog, die: DieType, indexOfCode: readonly number[]): void {
  log.faceSymbols?.forEach((given, code) => {
    if (given === undefined) return;
    const face = die.faces[indexOfCode[code] as number] as DieType['faces'][number];
    if (face.symbol.toLowerCase() === given.symbol.toLowerCase()) return;
    throw new InputError(`face ${quoteValue(face.id)} of die ${quoteValue(log.label)} (${die.id}) shows ${face.symbol}, but its symbol column says ${quoteValue(given.symbol)}`, { file: given.file, line: given.line });
  });
}

function chooseType(log: DieLog, dice: readonly DieType[], fallbackType: string | undefined): DieType {
  const where = log.firstSeen.values().next().value ?? {};
  const known = dice.map((d) => d.id).join(', ');
  const wanted = log.typeId ?? fallbackType;
  if (wanted !== undefined) {
    const die = dice.find((d) => sameDieId(d.id, wanted));
    if (die === undefined) throw new InputError(`die ${quoteValue(log.label)} has unknown type ${quoteValue(wanted)} (known: ${known}); a die of your own: give its dice file with --dice-file`, where);
    return die;
  }
  const tokens = [...log.firstSeen.keys()].map((t) => t.toLowerCase());
  const fits = dice.filter((d) => {
    const names = new Set((log.level === 'face' ? d.faces.map((f) => f.id) : d.symbols).map((s) => s.toLowerCase()));
    return tokens.every((t) => names.has(t));
  });
  if (fits.length === 1) return fits[0] as DieType;
  if (fits.length === 0) {
    throw new InputError(`cannot tell the type of die ${quoteValue(log.label)}: no known die has all of ${quoteFew(tokens)}; name it with --die (known: ${known})`, where);
  }
  throw new InputError(`die "${log.label}" could be ${fits.map((d) => d.id).join(' or ')}: name its type with --die or a type column`, where);
}
