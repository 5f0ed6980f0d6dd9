/**
 * Which dice a session can read, in one place and one wording: D6-faced dice with the pip reader (face level), or
 * X-Wing red and green dice with a calibration profile (symbol level), one family per session. The config check
 * (`configMeaning.ts`), the session's set-up, and `plan`/`campaign create` (which promise only what `run` does) all
 * ask here.
 */
import { ConfigError } from '../core/errors.js';
import { isD6Faced } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';

const isXWing = (t: DieType): boolean => t.id === 'red' || t.id === 'green';

/** Why no session reader reads dice of `type`, or undefined when one does. */
export function noReaderFor(type: DieType): string | undefined {
  if (isD6Faced(type) || isXWing(type)) return undefined;
  return `no reader can read a "${type.id}" die (faces ${type.faces.map((f) => f.id).join(', ')}): a session reads D6-faced dice, whose six faces are "1" to "6" (d6, d3, direction, or a die of your own that extends d6), and X-Wing red and green dice`;
}

/** One session reads one family of dice: D6-faced dice with the pip reader (face level), or X-Wing dice with a calibration profile (symbol level). */
export function readerFamily(types: readonly DieType[]): 'pips' | 'xwing' {
  const unread = types.map(noReaderFor).find((why) => why !== undefined);
  if (unread !== undefined) throw new ConfigError('dice', unread);
  if (types.every(isD6Faced)) return 'pips';
  if (types.every(isXWing)) return 'xwing';
  throw new ConfigError('dice', 'one session reads one kind of dice: D6-faced dice (pips) or X-Wing dice (icons), not both; run them as two sessions');
}
