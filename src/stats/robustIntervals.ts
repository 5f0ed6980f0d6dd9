/**
 * The per-face confidence sequences of confidenceSequence.ts, widened to hold
 * whatever the unresolved rolls were and whatever misreads within the
 * calibration's rates did.
 *
 * Unresolved: face i came up between c_i and c_i + U times in n rolls. The
 * beta-mixture interval moves up with the count (its log-martingale is convex
 * in the count and the interval is {p : log M < threshold}), so the union of
 * the intervals over every possible count is [lower at c_i, upper at c_i + U].
 * Each face is widened on its own (ignoring that the U rolls are shared), which
 * is conservative: every joint assignment is inside.
 *
 * Misreads: the intervals cover the probability q_i that a roll is READ as
 * face i. A roll of face i is read as another with probability at most r_i,
 * so q_i ≥ (1 − r_i) p_i, and other faces flow in at most
 * in_i = Σ_{j≠i} r_j p_j, so p_i ∈ [q_i − in_i, q_i/(1 − r_i)]. On the event that
 * every face's interval covers (the one the intervals' alpha is about), p_j is
 * at most its upper end, which bounds in_i; for the margin check, every face
 * must be below expected + delta anyway, which bounds it too.
 */
import { betaBinomialLogMarginal, betaMixtureInterval, DEFAULT_CS_CONCENTRATION, mixtureLogMartingale, type ProbabilityInterval } from './confidenceSequence.js';
import type { PartialCounts } from './leastFavourable.js';

export interface RobustIntervalOptions {
  /** Miscoverage across all faces (Bonferroni: alpha / k per face), as in FaceConfidenceSequences. */
  readonly alpha: number;
  /** Prior concentration of each face's beta mixture (default 1,000). */
  readonly concentration?: number;
  /** Per-face upper bound on the misread rate (default: none). */
  readonly misreadRates?: readonly number[];
}

interface FaceBounds {
  readonly successesLow: number;
  readonly successesHigh: number;
  readonly n: number;
  readonly a: number;
  readonly b: number;
  readonly rateOut: number;
}

function faceBounds(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions, i: number): FaceBounds {
  const c = options.concentration ?? DEFAULT_CS_CONCENTRATION;
  let known = 0;
  for (let j = 0; j < expected.length; j++) known += partial.counts[j] as number;
  const p0 = expected[i] as number;
  const s = partial.counts[i] as number;
  return { successesLow: s, successesHigh: s + partial.unresolved, n: known + partial.unresolved, a: c * p0, b: c * (1 - p0), rateOut: options.misreadRates?.[i] ?? 0 };
}

/** in_i = Σ_{j≠i} r_j · (upper bound on p_j): the most probability misreads can move into face i. */
function inflow(rates: readonly number[] | undefined, upper: readonly number[], i: number): number {
  if (!rates) return 0;
  let total = 0;
  rates.forEach((r, j) => (total += j === i ? 0 : r * Math.min(1, upper[j] as number)));
  return total;
}

/** Each face's interval for its true probability, simultaneous over the faces and anytime-valid, robust to the unresolved rolls and misreads. */
export function robustFaceIntervals(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions): ProbabilityInterval[] {
  const k = expected.length;
  const readIntervals = expected.map((_, i) => {
    const f = faceBounds(partial, expected, options, i);
    if (f.n === 0) return { lower: 0, upper: 1, rateOut: f.rateOut };
    const lower = betaMixtureInterval(f.successesLow, f.n, f.a, f.b, options.alpha / k).lower;
    const upper = betaMixtureInterval(f.successesHigh, f.n, f.a, f.b, options.alpha / k).upper;
    return { lower, upper, rateOut: f.rateOut };
  });
  const upper = readIntervals.map((q) => Math.min(1, q.upper / (1 - q.rateOut)));
  return readIntervals.map((q, i) => ({ lower: Math.max(0, q.lower - inflow(options.misreadRates, upper, i)), upper: upper[i] as number }));
}

/**
 * True when every face's robust interval lies inside expected ± delta. Checks
 * that the margin's ends are excluded (O(k), no root finding), as
 * FaceConfidenceSequences.insideEquivalenceMargin does.
 */
export function robustInsideMargin(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions, delta: number): boolean {
  const k = expected.length;
  const threshold = Math.log(k / options.alpha);
  const faces = expected.map((_, i) => faceBounds(partial, expected, options, i));
  if ((faces[0] as FaceBounds).n === 0) return false;
  // Upper ends first: once every face is below expected + delta, that bounds the misread inflow of the lower ends.
  for (let i = 0; i < k; i++) {
    const f = faces[i] as FaceBounds;
    const hi = (expected[i] as number) + delta;
    if (hi < 1 && !excludedAbove(f.successesHigh, f.n, f.a, f.b, hi * (1 - f.rateOut), threshold)) return false;
  }
  const ceiling = expected.map((p) => p + delta);
  for (let i = 0; i < k; i++) {
    const f = faces[i] as FaceBounds;
    const lo = (expected[i] as number) - delta;
    if (lo > 0 && !excludedBelow(f.successesLow, f.n, f.a, f.b, lo + inflow(options.misreadRates, ceiling, i), threshold)) return false;
  }
  return true;
}

/** The interval at `s` successes of `n` lies above q (q < s/n and q excluded). */
function excludedBelow(s: number, n: number, a: number, b: number, q: number, threshold: number): boolean {
  if (q <= 0) return true;
  if (!(s / n > q) || q >= 1) return false;
  return mixtureLogMartingale(q, s, n - s, betaBinomialLogMarginal(s, n - s, a, b)) >= threshold;
}

/** The interval at `s` successes of `n` lies below q. */
function excludedAbove(s: number, n: number, a: number, b: number, q: number, threshold: number): boolean {
  if (q >= 1) return true;
  if (!(s / n < q) || q <= 0) return false;
  return mixtureLogMartingale(q, s, n - s, betaBinomialLogMarginal(s, n - s, a, b)) >= threshold;
}
