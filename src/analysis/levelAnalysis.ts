import { cohensW, relativeDeviations } from '../stats/effectSize.js';
import type { ExactMultinomialResult } from '../stats/exactMultinomial.js';
import { fixedSampleTests, type HeadlineTest } from '../stats/fixedSampleTests.js';
import type { GofResult } from '../stats/goodnessOfFit.js';
import { goodmanIntervals, type Interval } from '../stats/intervals.js';

/** Fixed-sample goodness of fit of one die at one level (symbols or physical faces). */
export interface LevelAnalysis {
  readonly level: 'symbol' | 'face';
  /** Each category's id: a symbol, or a face id (what logs and stored sessions name it by). */
  readonly labels: readonly string[];
  /** What sentences and tables call each category, where an id could be read as another's (faceNames.ts); else the labels. */
  readonly names?: readonly string[];
  readonly counts: readonly number[];
  readonly expected: readonly number[];
  readonly n: number;
  readonly pearson: GofResult;
  readonly g: GofResult;
  readonly exact?: ExactMultinomialResult;
  /**
   * The test whose p-value enters multiplicity control: the exact multinomial
   * test when expected counts are small (by seeded Monte Carlo over 200,000
   * outcomes; `method` says which), else Pearson.
   */
  readonly headline: HeadlineTest;
  readonly cohensW: number;
  readonly relativeDeviations: readonly number[];
  /** Goodman simultaneous intervals per category at the analysis alpha (widened over `widenedOver` unresolved rolls, when set). */
  readonly intervals: readonly Interval[];
  /** The unresolved rolls the intervals are widened over (each face's lower end with none of them its, its upper end with all), when any. */
  readonly widenedOver?: number;
}

/** What sentences and tables call each category of a level. */
export function namesOf(l: Pick<LevelAnalysis, 'labels' | 'names'>): readonly string[] {
  return l.names ?? l.labels;
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
  monteCarloSeed?: number,
): LevelAnalysis {
  const n = counts.reduce((a, b) => a + b, 0);
  const { pearson, g, exact, headline } = fixedSampleTests(counts, expected, monteCarloSeed === undefined ? {} : { seed: monteCarloSeed });
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
