import { LimitError } from '../core/errors.js';
import { Distribution, numberKey } from './distribution.js';
import type { Rational } from '../core/rational.js';

/**
 * D6 rules of The Ninth Age (T9A), as exact distributions.
 * - D3: a D6 halved, rounded up.
 * - Reroll: the chosen dice are rerolled once and the second result is final.
 * - Maximised Roll: roll one extra D6 and discard the lowest; Minimised Roll:
 *   discard the highest. Instances stack (two Maximised = two extra dice, two
 *   lowest discarded), and each Maximised cancels one Minimised.
 * Game rules about natural 1s and 6s on to-hit rolls are not applied here:
 * `N+` is the plain probability that the kept total is at least N.
 */

/** Which results of a roll are rerolled (once). `ones` is a natural 1 on a single-die roll. */
export type RerollRule = 'none' | 'failures' | 'successes' | 'ones';

export interface RollSpec {
  /** Dice whose results are added (1 for an N+ roll, 2 for 2D6, ...). */
  readonly dice?: number;
  /** Instances of Maximised Roll. */
  readonly maximised?: number;
  /** Instances of Minimised Roll. */
  readonly minimised?: number;
}

/** Most dice rolled at once (kept plus discarded) that the exact tables accept. */
export const MAX_T9A_DICE = 12;

/** One fair D6. */
export function d6(): Distribution<number> {
  return Distribution.uniform([1, 2, 3, 4, 5, 6], numberKey);
}

/** A D3 read from a D6: halved, rounded up. */
export function d3(): Distribution<number> {
  return d6().map((v) => Math.ceil(v / 2), numberKey);
}

/**
 * Distribution of the total of `dice` D6 after Maximised / Minimised Roll:
 * roll dice + |maximised - minimised| D6 and keep the `dice` highest
 * (more Maximised) or lowest (more Minimised).
 */
export function rollTotal(spec: RollSpec = {}): Distribution<number> {
  const dice = spec.dice ?? 1;
  const max = spec.maximised ?? 0;
  const min = spec.minimised ?? 0;
  for (const [name, v] of [['dice', dice], ['maximised', max], ['minimised', min]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`The number of ${name} must be a whole number >= 0, not ${v}.`);
  }
  if (dice < 1) throw new RangeError('A roll needs at least one die.');
  const net = max - min;
  const rolled = dice + Math.abs(net);
  if (rolled > MAX_T9A_DICE) throw new LimitError(`Exact T9A odds are computed for at most ${MAX_T9A_DICE} dice rolled at once, not ${rolled}.`);
  // Keep a sorted multiset of the `dice` best (or worst) so far: a few dozen states instead of 6^rolled sequences.
  const keep = (kept: readonly number[], v: number): number[] => {
    const all = [...kept, v].sort((a, b) => a - b);
    if (all.length <= dice) return all;
    return net >= 0 ? all.slice(1) : all.slice(0, -1);
  };
  return d6()
    .repeat(rolled, [] as number[], keep, (k) => k.join(','))
    .map((k) => k.reduce((a, b) => a + b, 0), numberKey);
}

/**
 * Distribution of the kept total after an optional reroll of the whole roll
 * (a rerolled roll is rolled again with the same Maximised / Minimised dice).
 * `target` decides what a success is (total >= target) for the `failures` and `successes` rules.
 */
export function rollWithReroll(spec: RollSpec, reroll: RerollRule = 'none', target?: number): Distribution<number> {
  const roll = rollTotal(spec);
  if (reroll === 'none') return roll;
  if (reroll === 'ones') {
    if ((spec.dice ?? 1) !== 1) throw new RangeError('Rerolling ones applies to a single-die roll.');
    return roll.rerollOnce((v) => v === 1);
  }
  if (target === undefined) throw new RangeError(`Rerolling ${reroll} needs a target to tell success from failure.`);
  return reroll === 'failures' ? roll.rerollOnce((v) => v < target) : roll.rerollOnce((v) => v >= target);
}

/** Exact probability that the roll's kept total is at least `target` (an "N+" roll), with an optional reroll. */
export function atLeast(target: number, spec: RollSpec = {}, reroll: RerollRule = 'none'): Rational {
  if (!Number.isInteger(target)) throw new RangeError(`A target must be a whole number, not ${target}.`);
  return rollWithReroll(spec, reroll, target).probability((v) => v >= target);
}
