/**
 * Confidence and credible intervals for face probabilities: Wilson score for
 * one rate, Goodman's simultaneous intervals for all faces of a die (the
 * basis of the FAIR_WITHIN certificate and of pool ranking), and the Beta
 * marginals of a Dirichlet posterior.
 */
import { InputError } from '../core/errors.js';
import { betaQuantile, chiSquareUpperQuantile, normalQuantile } from './special.js';
import { validateCounts } from './validate.js';

/** A closed interval inside [0, 1]. */
export interface Interval {
  readonly lower: number;
  readonly upper: number;
}

/** A posterior mean and equal-tailed credible interval for one face. */
export interface PosteriorInterval extends Interval {
  readonly mean: number;
}

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`The significance level alpha must be between 0 and 1, got ${alpha}.`);
}

/**
 * Wilson score interval for x successes in n trials with critical value z²,
 * clamped to [0, 1]: centre (x + z²/2)/(n + z²), half-width
 * z √(x(n−x)/n + z²/4) / (n + z²).
 */
export function wilsonScore(successes: number, n: number, zSquared: number): Interval {
  const denominator = n + zSquared;
  const centre = (successes + zSquared / 2) / denominator;
  const half = (Math.sqrt(zSquared) * Math.sqrt((successes * (n - successes)) / n + zSquared / 4)) / denominator;
  // The bound at an edge is exactly 0 (no successes) or 1 (all successes); the formula only rounds to it.
  const lower = successes === 0 ? 0 : Math.max(0, centre - half);
  const upper = successes === n ? 1 : Math.min(1, centre + half);
  return { lower, upper };
}

function checkSuccesses(successes: number, n: number): void {
  if (!(Number.isInteger(n) && n > 0)) throw new InputError(`The number of trials must be a positive integer, got ${n}.`);
  if (!(Number.isInteger(successes) && successes >= 0 && successes <= n)) {
    throw new InputError(`The number of successes must be an integer between 0 and ${n}, got ${successes}.`);
  }
}

/** Two-sided Wilson score interval at level 1 − alpha for `successes` out of `n`. */
export function wilsonInterval(successes: number, n: number, alpha = 0.05): Interval {
  checkSuccesses(successes, n);
  checkAlpha(alpha);
  const z = normalQuantile(alpha / 2);
  return wilsonScore(successes, n, z * z);
}

/**
 * Goodman (1965) simultaneous intervals for all k face probabilities at joint
 * level 1 − alpha: a Wilson score interval per face with z² the upper alpha/k
 * point of chi-square(1) (Bonferroni across faces).
 */
export function goodmanIntervals(counts: readonly number[], alpha = 0.05): Interval[] {
  const n = validateCounts(counts);
  if (n === 0) throw new InputError('Simultaneous intervals need at least one roll; every count is 0.');
  checkAlpha(alpha);
  const zSquared = chiSquareUpperQuantile(alpha / counts.length, 1);
  return counts.map((c) => wilsonScore(c, n, zSquared));
}

/**
 * Goodman intervals over all n + u rolls whatever faces the u unresolved ones had: each face's lower end with none of
 * them its, its upper end with all of them (a Wilson end grows with its count), so the interval of every assignment
 * lies inside, and the simultaneous level holds whatever the reader declined.
 */
export function widenedGoodmanIntervals(counts: readonly number[], unresolved: number, alpha: number): Interval[] {
  const n = counts.reduce((a, b) => a + b, 0) + unresolved;
  const zSquared = chiSquareUpperQuantile(alpha / counts.length, 1);
  return counts.map((c) => ({ lower: wilsonScore(c, n, zSquared).lower, upper: wilsonScore(c + unresolved, n, zSquared).upper }));
}

/**
 * Whether a die with unresolved rolls is unfair whatever faces they had, at level `alpha`: some face's widened
 * Goodman interval (`widenedGoodmanIntervals`) leaves out its expected odds. A test on its read rolls alone would call a fair
 * die unfair when the reader declines one face (a logo it cannot read), which is the selection a verdict must not make.
 */
export function unfairWhateverUnresolved(counts: readonly number[], expected: readonly number[], unresolved: number, alpha: number): boolean {
  if (counts.every((c) => c === 0) && unresolved === 0) return false;
  return widenedGoodmanIntervals(counts, unresolved, alpha).some((iv, i) => (expected[i] as number) < iv.lower || (expected[i] as number) > iv.upper);
}

/**
 * Posterior of the face probabilities under a Dirichlet(prior) prior: each
 * face's marginal is Beta(c_i + a_i, Σ(c + a) − c_i − a_i); returns its mean
 * and equal-tailed credible interval at `level`. `prior` is one concentration
 * per face or one value for all (default 1, the uniform prior).
 */
export function dirichletPosterior(counts: readonly number[], prior: readonly number[] | number = 1, level = 0.95): PosteriorInterval[] {
  validateCounts(counts);
  const k = counts.length;
  if (k < 2) throw new InputError(`A Dirichlet posterior needs at least two faces, got ${k}.`);
  if (!(level > 0 && level < 1)) throw new InputError(`The credible level must be between 0 and 1, got ${level}.`);
  const priors = typeof prior === 'number' ? new Array<number>(k).fill(prior) : prior;
  if (priors.length !== k) throw new InputError(`There are ${k} counts but ${priors.length} prior concentrations.`);
  let total = 0;
  for (let i = 0; i < k; i++) {
    const a = priors[i] as number;
    if (!(a > 0 && Number.isFinite(a))) {
      throw new InputError(`The prior concentration for face ${i} is ${a}; it must be a positive finite number.`);
    }
    total += (counts[i] as number) + a;
  }
  const tail = (1 - level) / 2;
  return counts.map((c, i) => {
    const a = c + (priors[i] as number);
    const b = total - a;
    return { mean: a / total, lower: betaQuantile(tail, a, b), upper: betaQuantile(1 - tail, a, b) };
  });
}

/**
 * The fixed-n FAIR_WITHIN rule (analyze's) as a function of the counts: every Goodman interval (at alpha: Wilson score
 * with z² the chi-square(1) upper alpha/k point, as `goodmanIntervals`) within expected ± delta. z² is computed once,
 * and counts may be fractional (a projection's counts n·p).
 */
export function goodmanCertifier(expected: readonly number[], alpha: number, delta: number): (counts: readonly number[]) => boolean {
  const zSquared = chiSquareUpperQuantile(alpha / expected.length, 1);
  return (counts) => {
    let n = 0;
    for (const c of counts) n += c;
    if (!(n > 0)) return false;
    const intervals = counts.map((c) => wilsonScore(c, n, zSquared));
    return largestDeviationBound(expected, intervals) <= delta;
  };
}

/**
 * The largest distance any category's true probability can still be from its
 * expected value: max over i of max(upper_i − p_i, p_i − lower_i). With
 * simultaneous intervals this certifies "every face within ± this".
 */
export function largestDeviationBound(expected: readonly number[], intervals: readonly Interval[]): number {
  let worst = 0;
  for (let i = 0; i < intervals.length; i++) {
    const { lower, upper } = intervals[i] as Interval;
    const p = expected[i] as number;
    worst = Math.max(worst, upper - p, p - lower);
  }
  return worst;
}
