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
 * and other faces flow in at most max_{j≠i} r_j (1 − p_i), so
 * p_i ∈ [(q_i − r_in)/(1 − r_in), q_i/(1 − r_i)].
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
  readonly rateIn: number;
}

function faceBounds(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions, i: number): FaceBounds {
  const c = options.concentration ?? DEFAULT_CS_CONCENTRATION;
  let known = 0;
  for (let j = 0; j < expected.length; j++) known += partial.counts[j] as number;
  const rates = options.misreadRates;
  let rateIn = 0;
  if (rates) rates.forEach((r, j) => (rateIn = j === i ? rateIn : Math.max(rateIn, r)));
  const p0 = expected[i] as number;
  const s = partial.counts[i] as number;
  return { successesLow: s, successesHigh: s + partial.unresolved, n: known + partial.unresolved, a: c * p0, b: c * (1 - p0), rateOut: rates ? (rates[i] as number) : 0, rateIn };
}

/** Each face's interval for its true probability, simultaneous over the faces and anytime-valid, robust to the unresolved rolls and misreads. */
export function robustFaceIntervals(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions): ProbabilityInterval[] {
  const k = expected.length;
  return expected.map((_, i) => {
    const f = faceBounds(partial, expected, options, i);
    if (f.n === 0) return { lower: 0, upper: 1 };
    const low = betaMixtureInterval(f.successesLow, f.n, f.a, f.b, options.alpha / k).lower;
    const high = betaMixtureInterval(f.successesHigh, f.n, f.a, f.b, options.alpha / k).upper;
    return { lower: Math.max(0, (low - f.rateIn) / (1 - f.rateIn)), upper: Math.min(1, high / (1 - f.rateOut)) };
  });
}

/**
 * True when every face's robust interval lies inside expected ± delta. Checks
 * that the margin's ends are excluded (O(k), no root finding), as
 * FaceConfidenceSequences.insideEquivalenceMargin does.
 */
export function robustInsideMargin(partial: PartialCounts, expected: readonly number[], options: RobustIntervalOptions, delta: number): boolean {
  const k = expected.length;
  const threshold = Math.log(k / options.alpha);
  for (let i = 0; i < k; i++) {
    const f = faceBounds(partial, expected, options, i);
    if (f.n === 0) return false;
    const p0 = expected[i] as number;
    const lo = p0 - delta;
    const hi = p0 + delta;
    if (lo > 0) {
      // The true p above lo needs the read probability's lower end above lo(1 − r_in) + r_in.
      const q = lo * (1 - f.rateIn) + f.rateIn;
      if (!excludedBelow(f.successesLow, f.n, f.a, f.b, q, threshold)) return false;
    }
    if (hi < 1) {
      const q = hi * (1 - f.rateOut);
      if (!excludedAbove(f.successesHigh, f.n, f.a, f.b, q, threshold)) return false;
    }
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
