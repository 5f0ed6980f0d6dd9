import { Rational } from '../core/rational.js';
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
 * - `interception`: only for an obstructed pass, E > S — the obstructing ship
 *   closest to the receiver takes the ball;
 * - `fumble`: every other roll — the pass misses (every hit and crit cancelled)
 *   and the receiver drops the ball. Unobstructed, that is S <= E, because no
 *   ship is there to intercept; obstructed, it is S = E (including 0 = 0).
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
  const obstructed = Boolean(pass.obstructed);
  return {
    defenseDice,
    caught: margin.probability((m) => m > 0),
    fumble: margin.probability((m) => (obstructed ? m === 0 : m <= 0)),
    interception: obstructed ? margin.probability((m) => m < 0) : Rational.ZERO,
  };
}

/** Sides of the D6 a fumbled ball scatters by: face n points the ball in direction n of the variant's diagram. */
export const FUMBLE_DIRECTIONS = [1, 2, 3, 4, 5, 6] as const;

/**
 * Whether a fumble direction rolled on the D6 keeps the ball inside the play area;
 * a roll that does not is rerolled. `excluded` lists the directions that would put the
 * ball outside (near an edge), as read off the diagram by the players.
 */
export function fumbleLandsInPlay(direction: number, excluded: readonly number[]): boolean {
  return !excluded.includes(direction);
}

/**
 * Exact odds of each fumble direction once the D6 is rerolled until the ball lands
 * inside the play area: uniform over the directions not excluded (rerolling a fair die
 * until it shows one of k allowed faces gives each 1/k). Refuses an exclusion that
 * names a side the D6 does not have, or that leaves no direction at all.
 */
export function fumbleDirectionOdds(excluded: readonly number[]): { direction: number; probability: Rational }[] {
  for (const d of excluded) {
    if (!(FUMBLE_DIRECTIONS as readonly number[]).includes(d)) {
      throw new RangeError(`A fumble direction is a D6 side, 1 to 6; ${d} is not one.`);
    }
  }
  const inPlay = FUMBLE_DIRECTIONS.filter((d) => fumbleLandsInPlay(d, excluded));
  if (inPlay.length === 0) throw new RangeError('Every fumble direction is excluded: the ball cannot land inside the play area.');
  const each = Rational.of(1, inPlay.length);
  return FUMBLE_DIRECTIONS.map((direction) => ({ direction, probability: inPlay.includes(direction) ? each : Rational.ZERO }));
}
