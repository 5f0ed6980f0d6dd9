import { InputError } from '../core/errors.js';
import { OWN_DIE_HINT } from '../dice/catalogue.js';
import type { DieType } from '../dice/types.js';
import type { ParsedLog } from '../rolllog/types.js';

/**
 * Refuses a `--die` type of analyze, pool or import that no die has, even where
 * no row needs it: a typo there would pass unseen until a log without types
 * came along. Compared as the logs' types are, whatever the case.
 */
export function checkDieOption(die: string | undefined, dice: readonly DieType[]): void {
  if (die === undefined || dice.some((d) => d.id.toLowerCase() === die.toLowerCase())) return;
  throw new InputError(`--die "${die}" is not a known die type (known: ${dice.map((d) => d.id).join(', ')}); ${OWN_DIE_HINT}`);
}

/** The note for stderr when `--die` typed no roll (every row names its own type, or every source is a stored session), else undefined. */
export function unusedDieNote(die: string | undefined, logs: readonly ParsedLog[]): string | undefined {
  if (die === undefined || logs.some((l) => l.typeOptionUsed === true)) return undefined;
  return `dicerig: note: --die ${die} was not used: every roll read names its own die type.\n`;
}
