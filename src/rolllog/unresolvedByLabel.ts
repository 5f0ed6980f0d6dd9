import { unresolvedCount, type ParsedLog } from './types.js';

/**
 * Per die label, the unresolved rolls (no face: the reader declined them or found no die, and nobody labelled them)
 * the logs hold, added over files and, when given, to `also` (a store's own count of them). A die none has is absent.
 */
export function unresolvedByLabel(logs: readonly ParsedLog[], also: ReadonlyMap<string, number> = new Map()): Map<string, number> {
  const out = new Map(also);
  for (const log of logs) {
    for (const die of log.dice) {
      const n = unresolvedCount(die);
      if (n > 0) out.set(die.label, (out.get(die.label) ?? 0) + n);
    }
  }
  return out;
}
