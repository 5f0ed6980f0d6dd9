/**
 * The exact multinomial goodness-of-fit test: p is the total probability,
 * under the expected odds, of every outcome with the same number of rolls
 * that is no more likely than the one observed. Small samples are enumerated
 * exactly; past a size cap the p-value is estimated by Monte Carlo.
 */
import gammaln from '@stdlib/math-base-special-gammaln';
import { LimitError } from '../core/errors.js';
import { drawBinomial, logFactorials, type RandomSource } from './random.js';
import { validateCountsAndProbabilities } from './validate.js';

/** Options for {@link exactMultinomialTest}. */
export interface ExactMultinomialOptions {
  /** Largest number of outcomes to enumerate (default 2,000,000); above it Monte Carlo is used. */
  readonly maxOutcomes?: number;
  /** Random source for the Monte Carlo fallback; required when the cap is exceeded. */
  readonly random?: RandomSource;
  /** Monte Carlo samples (default 100,000). */
  readonly samples?: number;
  /** Relative tolerance under which two outcome probabilities count as tied (default 1e-7). */
  readonly tolerance?: number;
}

/** Result of {@link exactMultinomialTest}. */
export interface ExactMultinomialResult {
  readonly p: number;
  /** Natural log of p (finite when the exact p underflows). */
  readonly logP: number;
  readonly method: 'exact' | 'monte-carlo';
  /** Number of outcomes enumerated, or that would have been (same n, faces with positive probability). */
  readonly outcomes: number;
  readonly samples?: number;
  readonly standardError?: number;
}

export const DEFAULT_MAX_OUTCOMES = 2_000_000;
export const DEFAULT_MONTE_CARLO_SAMPLES = 100_000;

/**
 * Exact multinomial test of `counts` against `probs`, outcomes ordered by
 * their probability (outcomes within a relative `tolerance` of the observed
 * probability count as equally likely). Enumerates the C(n+k−1, k−1)
 * compositions when there are at most `maxOutcomes`; otherwise draws
 * `samples` multinomial outcomes from `random` and returns the
 * (hits + 1) / (samples + 1) estimate, which is never 0 and is a valid p-value.
 * Throws `LimitError` when enumeration is over the cap and no random source is given.
 */
export function exactMultinomialTest(
  counts: readonly number[],
  probs: readonly number[],
  options: ExactMultinomialOptions = {},
): ExactMultinomialResult {
  const n = validateCountsAndProbabilities(counts, probs);
  const maxOutcomes = options.maxOutcomes ?? DEFAULT_MAX_OUTCOMES;
  const tolerance = options.tolerance ?? 1e-7;
  if (!(tolerance >= 0)) throw new RangeError(`tie tolerance must be non-negative, got ${tolerance}`);

  // Faces that cannot come up take part in no outcome with positive probability.
  const p: number[] = [];
  const x: number[] = [];
  let total = 0;
  let impossibleRolled = false;
  for (let i = 0; i < probs.length; i++) {
    const pi = probs[i] as number;
    if (pi > 0) {
      p.push(pi);
      x.push(counts[i] as number);
      total += pi;
    } else if ((counts[i] as number) > 0) impossibleRolled = true;
  }
  for (let i = 0; i < p.length; i++) p[i] = (p[i] as number) / total;
  const k = p.length;
  const outcomes = countCompositions(n, k);
  if (impossibleRolled) return { p: 0, logP: -Infinity, method: 'exact', outcomes };
  if (k === 1) return { p: 1, logP: 0, method: 'exact', outcomes: 1 };

  const logP = p.map((pi) => Math.log(pi));
  // log P(outcome) without the n! constant, which is common to all outcomes.
  let observed = 0;
  for (let i = 0; i < k; i++) observed += (x[i] as number) * (logP[i] as number) - gammaln((x[i] as number) + 1);
  const threshold = observed + Math.log1p(tolerance);

  if (outcomes <= maxOutcomes) return enumerate(n, p, logP, observed, threshold, outcomes);

  const random = options.random;
  if (!random) {
    throw new LimitError(
      `The exact multinomial test would enumerate ${formatCount(outcomes)} outcomes, over the cap of ${formatCount(maxOutcomes)}; pass a random source for a Monte Carlo p-value.`,
      { outcomes, maxOutcomes },
    );
  }
  const samples = options.samples ?? DEFAULT_MONTE_CARLO_SAMPLES;
  if (!(Number.isInteger(samples) && samples > 0)) throw new RangeError(`Monte Carlo samples must be a positive integer, got ${samples}`);
  return monteCarlo(n, p, logP, threshold, samples, random, outcomes);
}

/** C(n + k − 1, k − 1), the number of outcomes of n rolls of a k-faced die; exact below 2^53. */
export function countCompositions(n: number, k: number): number {
  let r = 1;
  // r·(n+i)/i is C(n+i, i), an integer at every step.
  for (let i = 1; i < k; i++) r = (r * (n + i)) / i;
  return Math.round(r);
}

function formatCount(x: number): string {
  return x < 1e15 ? x.toLocaleString('en-US') : x.toExponential(2);
}

/**
 * Walks every composition of n into k parts. Per face c ↦ c·log p − lnΓ(c+1)
 * is tabulated once, so the inner loop over the last-but-one face is additions
 * and one exp. Both the "no more likely" mass and the total mass are summed
 * (each relative to a reference log-probability so neither overflows), and p
 * is their ratio: that cancels the dropped n! and any rounding common to all
 * terms, and keeps a p near 1 as accurate as a small one.
 */
function enumerate(
  n: number,
  p: readonly number[],
  logP: readonly number[],
  observed: number,
  threshold: number,
  outcomes: number,
): ExactMultinomialResult {
  const k = p.length;
  const tables: Float64Array[] = [];
  for (let i = 0; i < k; i++) {
    const t = new Float64Array(n + 1);
    const lp = logP[i] as number;
    for (let c = 0; c <= n; c++) t[c] = c * lp - gammaln(c + 1);
    tables.push(t);
  }
  // Reference for the total: the log-probability of the rounded expected outcome,
  // within a few nats of the mode, so exp(term - reference) stays finite.
  let reference = 0;
  for (let i = 0; i < k; i++) {
    const c = Math.floor(n * (p[i] as number));
    reference += (tables[i] as Float64Array)[c] as number;
  }
  reference = Math.max(reference, observed);

  let lessLikely = 0; // relative to exp(observed)
  let all = 0; // relative to exp(reference)
  const last = tables[k - 1] as Float64Array;
  const penultimate = tables[k - 2] as Float64Array;
  const partial = new Float64Array(k);
  const counts = new Int32Array(k);
  const remaining = new Int32Array(k + 1);

  // Iterative walk over faces 0..k-3; faces k-2 and k-1 are handled by the inner loop.
  const outer = k - 2;
  let depth = 0;
  remaining[0] = n;
  counts[0] = -1;
  while (depth >= 0) {
    if (depth === outer) {
      const rest = remaining[depth] as number;
      const base = depth === 0 ? 0 : (partial[depth - 1] as number);
      for (let c = 0; c <= rest; c++) {
        const l = base + (penultimate[c] as number) + (last[rest - c] as number);
        all += Math.exp(l - reference);
        if (l <= threshold) lessLikely += Math.exp(l - observed);
      }
      depth--;
      continue;
    }
    const c = (counts[depth] as number) + 1;
    if (c > (remaining[depth] as number)) {
      depth--;
      continue;
    }
    counts[depth] = c;
    partial[depth] = (depth === 0 ? 0 : (partial[depth - 1] as number)) + ((tables[depth] as Float64Array)[c] as number);
    remaining[depth + 1] = (remaining[depth] as number) - c;
    depth++;
    if (depth < outer) counts[depth] = -1;
  }

  const logPValue = Math.min(0, Math.log(lessLikely) + observed - reference - Math.log(all));
  return { p: Math.exp(logPValue), logP: logPValue, method: 'exact', outcomes };
}

function monteCarlo(
  n: number,
  p: readonly number[],
  logP: readonly number[],
  threshold: number,
  samples: number,
  random: RandomSource,
  outcomes: number,
): ExactMultinomialResult {
  const k = p.length;
  // Conditional binomial decomposition: face i gets Bin(left, p_i / mass left).
  const conditional = new Float64Array(k);
  let mass = 1;
  for (let i = 0; i < k; i++) {
    conditional[i] = mass > 0 ? Math.min(1, (p[i] as number) / mass) : 1;
    mass -= p[i] as number;
  }
  // ln c! for every count a face can get: the loop below then calls no gammaln.
  const logFactorial = logFactorials(n);
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    let left = n;
    let l = 0;
    for (let i = 0; i < k && left > 0; i++) {
      const c = i === k - 1 ? left : drawBinomial(left, conditional[i] as number, random, logFactorial);
      l += c * (logP[i] as number) - (logFactorial[c] as number);
      left -= c;
    }
    if (l <= threshold) hits++;
  }
  const estimate = (hits + 1) / (samples + 1);
  return {
    p: estimate,
    logP: Math.log(estimate),
    method: 'monte-carlo',
    outcomes,
    samples,
    standardError: Math.sqrt((estimate * (1 - estimate)) / samples),
  };
}
