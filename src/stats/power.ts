/**
 * The sample-size planner core: how many rolls a Pearson test needs to tell a
 * die with given odds from the expected ones. Power uses the noncentral
 * chi-square approximation (Cohen 1988): under the alternative X² is
 * approximately noncentral chi-square with df = k − 1 and λ = n·w², w being
 * Cohen's w of the alternative against the expected odds.
 */
import { InputError, LimitError } from '../core/errors.js';
import { effectSizeW } from './effectSize.js';
import { chiSquareUpperQuantile, noncentralChiSquareSf } from './special.js';
import { validateProbabilities } from './validate.js';

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`The significance level alpha must be between 0 and 1, got ${alpha}.`);
}

function degreesOfFreedom(expected: readonly number[]): number {
  let positive = 0;
  for (const p of expected) if (p > 0) positive++;
  if (positive < 2) throw new InputError('A power calculation needs at least two faces with positive expected probability.');
  return positive - 1;
}

/** Precomputed pieces of a power calculation that do not depend on n. */
interface PowerPlan {
  readonly w: number;
  readonly df: number;
  readonly critical: number;
}

function plan(expected: readonly number[], alternative: readonly number[], alpha: number): PowerPlan {
  checkAlpha(alpha);
  const w = effectSizeW(expected, alternative);
  const df = degreesOfFreedom(expected);
  return { w, df, critical: chiSquareUpperQuantile(alpha, df) };
}

function powerAt(n: number, { w, df, critical }: PowerPlan): number {
  if (w === Infinity) return 1; // the alternative rolls a face that cannot come up: one such roll decides
  return noncentralChiSquareSf(critical, df, n * w * w);
}

/**
 * Probability that Pearson's test at level `alpha` rejects the expected odds
 * after `n` rolls of a die whose true odds are `alternative`.
 */
export function powerOfPearson(n: number, expected: readonly number[], alternative: readonly number[], alpha = 0.05): number {
  if (!(n >= 0 && Number.isFinite(n))) throw new InputError(`The number of rolls must be a non-negative number, got ${n}.`);
  return powerAt(n, plan(expected, alternative, alpha));
}

/** What {@link rollsToDetect} needs. */
export interface DetectionTarget {
  readonly expected: readonly number[];
  readonly alternative: readonly number[];
  readonly alpha?: number;
  readonly power?: number;
}

/** Beyond this many rolls a plan is meaningless for a physical rig. */
export const MAX_PLANNED_ROLLS = 1e12;

/**
 * Smallest whole number of rolls n for which Pearson's test at level `alpha`
 * (default 0.05) reaches `power` (default 0.8) against `alternative`: power
 * grows with n, so doubling then bisection finds it.
 */
export function rollsToDetect({ expected, alternative, alpha = 0.05, power = 0.8 }: DetectionTarget): number {
  const p = plan(expected, alternative, alpha);
  if (!(power > alpha && power < 1)) {
    throw new InputError(`The target power must be above alpha (${alpha}) and below 1, got ${power}.`);
  }
  if (p.w === 0) throw new InputError('The alternative odds equal the expected odds; no number of rolls can tell them apart.');
  let lo = 0; // power(lo) < target
  let hi = 1;
  while (powerAt(hi, p) < power) {
    lo = hi;
    hi *= 2;
    if (hi > MAX_PLANNED_ROLLS) {
      throw new LimitError(`Detecting this alternative needs more than ${MAX_PLANNED_ROLLS.toExponential(0)} rolls; the difference is too small to plan for.`, {
        w: p.w,
      });
    }
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (powerAt(mid, p) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}

function checkGroup(k: number, groupIndices: readonly number[]): Set<number> {
  const group = new Set(groupIndices);
  if (group.size === 0) throw new InputError('The face group is empty; name at least one face.');
  if (group.size !== groupIndices.length) throw new InputError('The face group names a face more than once.');
  for (const i of group) {
    if (!(Number.isInteger(i) && i >= 0 && i < k)) throw new InputError(`The face group names face ${i}, but the die has faces 0 to ${k - 1}.`);
  }
  if (group.size === k) throw new InputError('The face group contains every face; a group must leave some faces out.');
  return group;
}

/** Two-outcome (group, rest) odds for a targeted 1-df test. */
export interface CollapsedOdds {
  readonly expected: [number, number];
  readonly alternative: [number, number];
}

/**
 * Collapses both distributions to "a face in the group" vs "any other face",
 * e.g. hit + crit vs focus + blank on a red die: a targeted test with 1 df
 * needs fewer rolls when the bias is where the group says.
 */
export function collapseToGroup(expected: readonly number[], alternative: readonly number[], groupIndices: readonly number[]): CollapsedOdds {
  if (expected.length !== alternative.length) {
    throw new InputError(`There are ${expected.length} expected probabilities but ${alternative.length} alternative ones.`);
  }
  validateProbabilities(expected);
  validateProbabilities(alternative);
  const group = checkGroup(expected.length, groupIndices);
  let e = 0;
  let a = 0;
  for (const i of group) {
    e += expected[i] as number;
    a += alternative[i] as number;
  }
  e = Math.min(1, e);
  a = Math.min(1, a);
  return { expected: [e, 1 - e], alternative: [a, 1 - a] };
}

/**
 * An alternative to `expected` in which the faces of the group together come
 * up with probability `target`, shared inside the group in proportion to their
 * expected odds, the remaining 1 − target shared the same way among the other
 * faces. E.g. a red die whose hits come up 0.5 instead of 0.375.
 */
export function alternativeWithGroupAt(expected: readonly number[], groupIndices: readonly number[], target: number): number[] {
  validateProbabilities(expected);
  const group = checkGroup(expected.length, groupIndices);
  if (!(target >= 0 && target <= 1)) throw new InputError(`The group's target probability must be between 0 and 1, got ${target}.`);
  let inGroup = 0;
  let total = 0;
  for (let i = 0; i < expected.length; i++) {
    total += expected[i] as number;
    if (group.has(i)) inGroup += expected[i] as number;
  }
  const outGroup = total - inGroup;
  if (inGroup === 0 && target > 0) throw new InputError('The faces of the group have zero expected probability, so they cannot be given a share.');
  if (outGroup <= 0 && target < 1) throw new InputError('The faces outside the group have zero expected probability, so they cannot take the rest.');
  return expected.map((p, i) => (group.has(i) ? (target * p) / inGroup : ((1 - target) * p) / outGroup));
}
