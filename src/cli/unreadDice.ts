import { formatCount } from '../core/format.js';
import { InputError } from '../core/errors.js';
import type { DieRolls } from '../rolllog/types.js';

/**
 * The dice with at least one read roll, and a note naming those without (a log whose rows of a die are all marked
 * `unresolved`): such a die has nothing to judge, and its unresolved rolls could be any face. None read at all is an
 * InputError.
 */
export function readDice(rolls: readonly DieRolls[]): { read: DieRolls[]; note?: string } {
  const read = rolls.filter((r) => r.symbols.length > 0);
  const unread = rolls.filter((r) => r.symbols.length === 0);
  const named = unread.map((r) => `${r.label} (${formatCount(r.unresolvedAt?.length ?? 0)} unresolved)`).join(', ');
  if (read.length === 0) throw new InputError(`no roll of any die was read: ${named}; there is nothing to judge until some are labelled`);
  if (unread.length === 0) return { read };
  return { read, note: `dicerig: note: no roll of ${unread.length === 1 ? 'die' : 'dice'} ${named} was read: left out, with nothing to judge.\n` };
}
