import type { Rational } from '../core/rational.js';
import { attackPool, defensePool } from './xwing-dice.js';
import type { AttackModifier, DefenseModifier } from './xwing-dice.js';

/** A pass in X-Wing Rugby (a fan variant): the passer's attack value against defense dice set by range. */
export interface RugbyPass {
  /** The passer's attack value: how many red dice it rolls. */
  readonly attack: number;
  /** Range to the receiver, 1..3: the number of green dice (no agility is added). */
  readonly range: 1 | 2 | 3;
  /** An obstructed pass adds one defense die. */
  readonly obstructed?: boolean;
  readonly attackModifier?: AttackModifier;
  readonly defenseModifier?: DefenseModifier;
}

/**
 * The three outcomes of a pass, which partition every roll (they sum to 1).
 * With S = hits + crits on the red dice and E = evades on the green dice:
 * - `caught`: S > E — the receiver catches the ball;
 * - `fumble`: S = E (including 0 = 0) — the pass misses and the ball is dropped;
 * - `interception`: E > S — more evades than hits and crits.
 */
export interface RugbyOdds {
  readonly defenseDice: number;
  readonly caught: Rational;
  readonly fumble: Rational;
  readonly interception: Rational;
}

/** Number of green dice for a pass: the range, plus one when obstructed. */
export function rugbyDefenseDice(range: number, obstructed = false): number {
  if (range !== 1 && range !== 2 && range !== 3) throw new RangeError(`A pass range must be 1, 2 or 3, not ${range}.`);
  return range + (obstructed ? 1 : 0);
}

/** Exact odds of a caught pass, a fumble and an interception. */
export function rugbyPassOdds(pass: RugbyPass): RugbyOdds {
  const defenseDice = rugbyDefenseDice(pass.range, pass.obstructed);
  const margin = attackPool(pass.attack, pass.attackModifier ?? 'none')
    .map((r) => r.hits + r.crits, String)
    .combine(defensePool(defenseDice, pass.defenseModifier ?? 'none'), (s, e) => s - e, String);
  return {
    defenseDice,
    caught: margin.probability((m) => m > 0),
    fumble: margin.probability((m) => m === 0),
    interception: margin.probability((m) => m < 0),
  };
}
