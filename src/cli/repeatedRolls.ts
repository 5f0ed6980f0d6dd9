/**
 * One log's rolls given twice under two names: a session and a copy of its export without the manifest beside it,
 * or two copies of one file. The manifest check (`refuseSessionsCountedTwice`) needs a manifest; this one needs only
 * the rolls: a die whose rolls in two sources are the same, in the same order, over enough rolls that distinct
 * sessions would not share them by chance, is one record counted twice.
 */
import { InputError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import type { ParsedLog } from '../rolllog/types.js';
import { SAME_ROLLS_MIN } from '../store/rollsStoredBefore.js';

export function refuseRepeatedRolls(logs: readonly ParsedLog[], unidentified: (file: string) => boolean): void {
  const seen = new Map<string, string>();
  for (const log of logs) {
    for (const die of log.dice) {
      if (die.codes.length < SAME_ROLLS_MIN) continue;
      const tokens = die.codes.map((c) => die.dictionary[c] ?? '').join('\u0000');
      const key = `${die.label}\u0001${die.level}\u0001${(die.unresolvedAt ?? []).join(',')}\u0001${tokens}`;
      const first = seen.get(key);
      if (first !== undefined && first !== log.file && (unidentified(first) || unidentified(log.file))) {
        throw new InputError(
          `${first} and ${log.file} hold the same ${formatCount(die.codes.length)} rolls of die ${die.label}, in the same order: one is a copy of the other (an export without its manifest, say), and its rolls would count twice: give one of them`,
        );
      }
      seen.set(key, log.file);
    }
  }
}
