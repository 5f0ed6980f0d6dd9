/**
 * Fixed-sample goodness-of-fit tests of observed face counts against expected
 * odds: Pearson's X², the likelihood-ratio G and the Cressie–Read power
 * divergence. p-values come from the chi-square upper tail with its log, so
 * a strongly biased die still gets an exact "p = 1e-250" rather than 0.
 */
import { chiSquareSf } from './special.js';
import { validateCountsAndProbabilities } from './validate.js';

export type GofTestName = 'pearson' | 'g' | 'cressie-read';

/** Result of one goodness-of-fit test. */
export interface GofResult {
  readonly test: GofTestName;
  readonly statistic: number;
  /** Faces with positive expected probability, minus 1. */
  readonly df: number;
  readonly p: number;
  readonly logP: number;
  /** The Cressie–Read exponent (only for 'cressie-read'). */
  readonly lambda?: number;
}

/**
 * Sums `term(observed, expected)` over the faces with positive expected
 * probability. Expected counts use the probabilities rescaled to sum exactly
 * to 1 (they are validated to within 1e-9), so Σ expected = Σ observed and the
 * non-negative per-face forms below are exact rewrites of the textbook sums.
 * Returns NaN as the statistic when a face with zero probability was rolled.
 */
function divergence(
  counts: readonly number[],
  probs: readonly number[],
  term: (observed: number, expected: number) => number,
): { statistic: number; df: number } {
  const n = validateCountsAndProbabilities(counts, probs);
  let total = 0;
  for (const p of probs) total += p;
  let statistic = 0;
  let positive = 0;
  let impossibleRolled = false;
  for (let i = 0; i < counts.length; i++) {
    const p = probs[i] as number;
    const o = counts[i] as number;
    if (p === 0) {
      if (o > 0) impossibleRolled = true;
      continue;
    }
    positive++;
    statistic += term(o, (n * p) / total);
  }
  return { statistic: impossibleRolled ? Infinity : statistic, df: positive - 1 };
}

function result(test: GofTestName, statistic: number, df: number, lambda?: number): GofResult {
  // A die whose every roll lands on its only possible face has nothing left to test.
  const tail = statistic === Infinity ? { p: 0, logP: -Infinity } : df === 0 ? { p: 1, logP: 0 } : chiSquareSf(statistic, df);
  const base = { test, statistic, df, p: tail.p, logP: tail.logP };
  return lambda === undefined ? base : { ...base, lambda };
}

/** Pearson's chi-square test: X² = Σ (O − E)² / E, df = (faces with E > 0) − 1. */
export function pearsonTest(counts: readonly number[], probs: readonly number[]): GofResult {
  const { statistic, df } = divergence(counts, probs, (o, e) => ((o - e) * (o - e)) / e);
  return result('pearson', statistic, df);
}

/**
 * Likelihood-ratio (G) test: G = 2 Σ O ln(O / E). Each face contributes
 * 2 (O ln(O/E) − O + E) ≥ 0, which sums to the same value and cannot cancel.
 */
export function gTest(counts: readonly number[], probs: readonly number[]): GofResult {
  const { statistic, df } = divergence(counts, probs, gTerm);
  return result('g', 2 * statistic, df);
}

function gTerm(o: number, e: number): number {
  return o === 0 ? e : o * Math.log(o / e) - o + e;
}

/**
 * Cressie–Read power-divergence test:
 * 2 / (λ(λ+1)) Σ O ((O/E)^λ − 1), default λ = 2/3 (Cressie & Read 1984).
 * λ = 1 is Pearson, λ = 0 the G test, λ = −1 the modified G (Kullback) test;
 * the two limits are taken exactly, as SciPy's `power_divergence` does.
 * For λ < 0 an empty face with positive expectation makes the statistic infinite.
 */
export function cressieReadTest(counts: readonly number[], probs: readonly number[], lambda = 2 / 3): GofResult {
  if (!Number.isFinite(lambda)) throw new RangeError(`Cressie–Read lambda must be finite, got ${lambda}`);
  let scale: number;
  let term: (o: number, e: number) => number;
  if (lambda === 0) {
    scale = 2;
    term = gTerm;
  } else if (lambda === -1) {
    scale = 2;
    // E ln(E/O) − E + O, the mirror image of the G term.
    term = (o, e) => (o === 0 ? Infinity : e * Math.log(e / o) - e + o);
  } else {
    scale = 2 / (lambda * (lambda + 1));
    // O((O/E)^λ − 1) − λ(O − E): adds λ Σ (E − O) = 0, and has the sign of λ(λ+1) face by face.
    // An empty face with λ < 0 diverges; its sign is that of λ(λ+1), so that times `scale` it is +Infinity.
    const emptyDiverges = scale > 0 ? Infinity : -Infinity;
    term = (o, e) => (o === 0 ? (lambda < 0 ? emptyDiverges : lambda * e) : o * Math.expm1(lambda * Math.log(o / e)) - lambda * (o - e));
  }
  const { statistic, df } = divergence(counts, probs, term);
  return result('cressie-read', scale * statistic, df, lambda);
}
