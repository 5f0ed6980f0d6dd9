import { cohensW, relativeDeviations } from '../stats/effectSize.js';
import { countCompositions, exactMultinomialTest, type ExactMultinomialResult } from '../stats/exactMultinomial.js';
import { gTest, pearsonTest, type GofResult } from '../stats/goodnessOfFit.js';
import { goodmanIntervals, type Interval } from '../stats/intervals.js';

/** Exact enumeration is used for the headline p-value when it is this small or smaller (fast: well under 0.1 s). */
const EXACT_OUTCOME_CAP = 200_000;
/** Below this smallest expected count the chi-square approximation is poor, so the exact test leads. */
const MIN_EXPECTED_FOR_CHI_SQUARE = 5;

/** Fixed-sample goodness of fit of one die at one level (symbols or physical faces). */
export interface LevelAnalysis {
  readonly level: 'symbol' | 'face';
  readonly labels: readonly string[];
  readonly counts: readonly number[];
  readonly expected: readonly number[];
  readonly n: number;
  readonly pearson: GofResult;
  readonly g: GofResult;
  readonly exact?: ExactMultinomialResult;
  /** The test whose p-value enters multiplicity control: exact when counts are small, else Pearson. */
  readonly headline: { readonly p: number; readonly logP: number; readonly method: string };
  readonly cohensW: number;
  readonly relativeDeviations: readonly number[];
  /** Goodman simultaneous intervals per category at the analysis alpha. */
  readonly intervals: readonly Interval[];
}

export function countsOf(indices: ArrayLike<number>, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < indices.length; i++) (counts[indices[i] as number] as number)++;
  return counts;
}

export function analyzeLevel(
  level: 'symbol' | 'face',
  labels: readonly string[],
  counts: readonly number[],
  expected: readonly number[],
  alpha: number,
): LevelAnalysis {
  const n = counts.reduce((a, b) => a + b, 0);
  const pearson = pearsonTest(counts, expected);
  const g = gTest(counts, expected);
  const minExpected = Math.min(...expected.filter((p) => p > 0)) * n;
  const positiveFaces = expected.filter((p) => p > 0).length;
  let exact: ExactMultinomialResult | undefined;
  if (countCompositions(n, positiveFaces) <= EXACT_OUTCOME_CAP) exact = exactMultinomialTest(counts, expected, { maxOutcomes: EXACT_OUTCOME_CAP });
  const useExact = exact !== undefined && minExpected < MIN_EXPECTED_FOR_CHI_SQUARE;
  const headline = useExact && exact
    ? { p: exact.p, logP: exact.logP, method: 'exact multinomial test' }
    : { p: pearson.p, logP: pearson.logP, method: 'Pearson chi-square' };
  return {
    level,
    labels,
    counts,
    expected,
    n,
    pearson,
    g,
    ...(exact ? { exact } : {}),
    headline,
    cohensW: cohensW(counts, expected),
    relativeDeviations: relativeDeviations(counts, expected),
    intervals: goodmanIntervals(counts, alpha),
  };
}
