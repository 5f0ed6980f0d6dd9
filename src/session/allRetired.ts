/**
 * Why a session ends once none of its dice rolls on: every die decided, or some left INCONCLUSIVE because the roll
 * budget ran out (a die retires then too: that is not a decision, and the end must not say it was).
 */
import { formatCountOf } from '../core/format.js';

export interface AllRetired {
  readonly kind: 'all-decided' | 'roll-budget';
  readonly reason: string;
}

/** `inconclusive`: the dice the budget left INCONCLUSIVE, of `dice`; `counted`: the session's counted throws. */
export function allRetired(dice: number, inconclusive: number, budgetRolls: number, counted: number): AllRetired {
  const after = `after ${formatCountOf(counted, 'counted throw')}`;
  if (inconclusive === 0) return { kind: 'all-decided', reason: `Every die has a verdict (${after}).` };
  const which = inconclusive === dice ? (dice === 1 ? 'the die' : dice === 2 ? 'both dice' : `all ${dice} dice`) : `${inconclusive} of ${dice} dice`;
  return {
    kind: 'roll-budget',
    reason: `The roll budget of ${formatCountOf(budgetRolls, 'roll')} a die is spent: ${which} ${inconclusive === 1 ? 'is' : 'are'} left INCONCLUSIVE (${after}).`,
  };
}
