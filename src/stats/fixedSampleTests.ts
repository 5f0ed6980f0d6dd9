/**
 * The fixed-sample goodness-of-fit tests of one die's counts, and which of them
 * leads: Pearson's chi-square when every expected count is at least 5,
 * otherwise the exact multinomial test — enumerated up to 200,000 outcomes
 * (well under 0.1 s), and above that estimated by a SEEDED Monte Carlo (so the
 * same counts always give the same p). Below 5 expected per face the
 * chi-square approximation is poor: one red die at n = 30 by face gave
 * Pearson p 0.395 where the exact p is 0.255.
 */
import { countCompositions, exactMultinomialTest, type ExactMultinomialResult } from './exactMultinomial.js';
import { gTest, pearsonTest, type GofResult } from './goodnessOfFit.js';
import { seededRandom } from './random.js';

/** Exact enumeration is used up to this many outcomes. */
export const EXACT_OUTCOME_CAP = 200_000;
/** Below this smallest expected count the exact test leads instead of Pearson. */
export const MIN_EXPECTED_FOR_CHI_SQUARE = 5;
/** Monte Carlo samples above the cap: standard error ≤ 0.0016 at any p. */
export const HEADLINE_MONTE_CARLO_SAMPLES = 100_000;
/** Default seed of the Monte Carlo estimate: fixed, so a report is reproducible. */
export const DEFAULT_MONTE_CARLO_SEED = 20_240_611;

export interface HeadlineTest {
  readonly p: number;
  readonly logP: number;
  /** What produced p, printable as is: "Pearson chi-square", "exact multinomial test", or the Monte Carlo estimate with its samples and seed. */
  readonly method: string;
  readonly test: 'pearson' | 'exact' | 'monte-carlo';
  /** Standard error of a Monte Carlo p. */
  readonly standardError?: number;
}

export interface FixedSampleTests {
  readonly pearson: GofResult;
  readonly g: GofResult;
  /** The exact test: enumerated when within the cap, by Monte Carlo when over it and expected counts are small. */
  readonly exact?: ExactMultinomialResult;
  readonly headline: HeadlineTest;
}

export interface FixedSampleOptions {
  /** Seed of the Monte Carlo estimate above the cap (default {@link DEFAULT_MONTE_CARLO_SEED}). */
  readonly seed?: number;
  readonly samples?: number;
}

/** Runs the fixed-sample tests of `counts` against `expected` and picks the headline p-value. */
export function fixedSampleTests(counts: readonly number[], expected: readonly number[], options: FixedSampleOptions = {}): FixedSampleTests {
  const n = counts.reduce((a, b) => a + b, 0);
  const pearson = pearsonTest(counts, expected);
  const g = gTest(counts, expected);
  const positive = expected.filter((p) => p > 0);
  const smallExpected = Math.min(...positive) * n < MIN_EXPECTED_FOR_CHI_SQUARE;
  const withinCap = countCompositions(n, positive.length) <= EXACT_OUTCOME_CAP;
  let exact: ExactMultinomialResult | undefined;
  if (withinCap || smallExpected) {
    const seed = options.seed ?? DEFAULT_MONTE_CARLO_SEED;
    const samples = options.samples ?? HEADLINE_MONTE_CARLO_SAMPLES;
    exact = exactMultinomialTest(counts, expected, { maxOutcomes: EXACT_OUTCOME_CAP, random: seededRandom(seed), samples });
  }
  let headline: HeadlineTest;
  if (exact && smallExpected) {
    headline =
      exact.method === 'exact'
        ? { p: exact.p, logP: exact.logP, method: 'exact multinomial test', test: 'exact' }
        : {
            p: exact.p,
            logP: exact.logP,
            method: `exact multinomial test by Monte Carlo (${exact.samples?.toLocaleString('en-US')} samples, seed ${options.seed ?? DEFAULT_MONTE_CARLO_SEED}; ${exact.outcomes.toLocaleString('en-US')} outcomes is over the ${EXACT_OUTCOME_CAP.toLocaleString('en-US')} enumerated)`,
            test: 'monte-carlo',
            ...(exact.standardError !== undefined ? { standardError: exact.standardError } : {}),
          };
  } else headline = { p: pearson.p, logP: pearson.logP, method: 'Pearson chi-square', test: 'pearson' };
  return { pearson, g, ...(exact ? { exact } : {}), headline };
}
