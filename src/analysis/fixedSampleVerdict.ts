import { LimitError } from '../core/errors.js';
import { formatCountOf } from '../core/format.js';
import { goodmanCertifier, largestDeviationBound } from '../stats/intervals.js';
import { rollsToDetect } from '../stats/power.js';
import { firstTotal } from '../stats/sequential.js';
import type { FaceEstimate, FailedCheck, InconclusiveVerdict, Verdict } from '../stats/verdict.js';
import { namesOf, type LevelAnalysis } from './levelAnalysis.js';

/** A level's headline p-value after control across every test of the analysis. */
export interface AdjustedLevel {
  readonly analysis: LevelAnalysis;
  readonly adjustedP: number;
  readonly adjustedLogP: number;
}

export interface FixedVerdictInput {
  readonly levels: readonly AdjustedLevel[];
  readonly alpha: number;
  /**
   * The level of each die's FAIR_WITHIN: the level its intervals were made at (`alpha` over the dice of the analysis,
   * Bonferroni, so that a wrong FAIR_WITHIN among all the dice has a chance of at most `alpha`, as a wrong UNFAIR has).
   */
  readonly certifyAlpha: number;
  readonly delta: number;
  /** Number of tests in the family, for the roll projection's per-test level. */
  readonly family: number;
  readonly failedChecks: readonly FailedCheck[];
  readonly serialAlpha: number;
}

const INTERVAL_METHOD = 'Goodman simultaneous (Wilson score, Bonferroni over faces)';
const PROJECTION_CAP = 1e9;

/**
 * The verdict on a log whose number of rolls was fixed in advance:
 * RIG_SUSPECT when the serial checks failed; UNFAIR when a level's adjusted
 * p-value is below alpha; FAIR_WITHIN(delta) when every face's simultaneous
 * interval lies inside expected ± delta at every level; otherwise INCONCLUSIVE
 * with the rolls each decision would still take if the observed proportions hold.
 */
export function fixedSampleVerdict(input: FixedVerdictInput): Verdict {
  const { levels, alpha, delta } = input;
  const n = levels[0]?.analysis.n ?? 0;
  if (input.failedChecks.length > 0) return { kind: 'RIG_SUSPECT', n, alpha: input.serialAlpha, failedChecks: input.failedChecks };

  const strongest = unfairLevel(levels, alpha);
  if (strongest !== undefined) {
    const a = strongest.analysis;
    const faces = estimates(a);
    return {
      kind: 'UNFAIR',
      n,
      evidence: {
        kind: 'p-value',
        p: strongest.adjustedP,
        logP: strongest.adjustedLogP,
        method: `${a.headline.method} by ${a.level}, adjusted for ${input.family} test${input.family === 1 ? '' : 's'}`,
      },
      effectSize: { measure: "Cohen's w", value: a.cohensW },
      drivers: drivers(a, faces),
      faces,
      intervalMethod: INTERVAL_METHOD,
    };
  }

  const certified = levels.map((l) => largestDeviationBound(l.analysis.expected, l.analysis.intervals));
  if (certified.every((d) => d <= delta)) {
    const finest = levels[levels.length - 1] as AdjustedLevel;
    return {
      kind: 'FAIR_WITHIN',
      n,
      delta,
      alpha: input.certifyAlpha,
      certifiedDelta: Math.max(...certified),
      faces: estimates(finest.analysis),
      intervalMethod: INTERVAL_METHOD,
    };
  }
  return inconclusive(input, n);
}

/** The level a fixed-sample UNFAIR rests on: the one with the smallest adjusted p, when that is below alpha. */
export function unfairLevel(levels: readonly AdjustedLevel[], alpha: number): AdjustedLevel | undefined {
  const strongest = [...levels].sort((a, b) => a.adjustedLogP - b.adjustedLogP)[0];
  return strongest !== undefined && strongest.adjustedP < alpha ? strongest : undefined;
}

function inconclusive(input: FixedVerdictInput, n: number): InconclusiveVerdict {
  const { levels, alpha, delta } = input;
  let toCertify: number | null = 0;
  let toReject: number | null = null;
  let leading: FaceEstimate | undefined;
  let leadingGap = -1;
  for (const { analysis } of levels) {
    const need = rollsToCertify(analysis, input.certifyAlpha, delta);
    toCertify = need === null || toCertify === null ? null : Math.max(toCertify, need);
    const reject = rollsToReject(analysis, alpha / input.family);
    if (reject !== null) toReject = toReject === null ? reject : Math.min(toReject, reject);
    for (const f of estimates(analysis)) {
      const gap = Math.abs(f.observed - f.expected);
      if (gap > leadingGap) {
        leadingGap = gap;
        leading = f;
      }
    }
  }
  const more = (total: number | null) => (total === null ? null : Math.max(1, Math.ceil(total - n)));
  const projection = {
    toCertify: more(toCertify),
    toReject: more(toReject),
    assumption: 'the observed proportions stay as they are',
  };
  let target: 'FAIR_WITHIN' | 'UNFAIR' | null = null;
  let rollsNeeded: number | null = null;
  if (projection.toCertify !== null && (projection.toReject === null || projection.toCertify <= projection.toReject)) {
    target = 'FAIR_WITHIN';
    rollsNeeded = projection.toCertify;
  } else if (projection.toReject !== null) {
    target = 'UNFAIR';
    rollsNeeded = projection.toReject;
  }
  return {
    kind: 'INCONCLUSIVE',
    n,
    rollsNeeded,
    target,
    why: `no face is clearly off, but ${formatCountOf(n, 'roll')} cannot yet bound every face within ±${delta}`,
    delta,
    projection,
    ...(leading ? { leadingDeviation: leading } : {}),
  };
}

/**
 * Total rolls at which the FAIR_WITHIN rule itself (every Goodman interval within expected ± delta) holds on counts in
 * the observed shares: null if a share is already delta or more from its odds, or past the cap. The rule, not a
 * normal half-width: a Wilson interval's centre leans toward 1/2, so "deviation + z·√(p(1−p)/n) ≤ delta" holds some
 * rolls before the rule does (a d6 at exact shares: 1,075 against 1,222 at alpha 0.05, ±0.03), and a die between
 * the two was told it needed "about 1 more roll".
 */
function rollsToCertify(a: LevelAnalysis, alpha: number, delta: number): number | null {
  const shares = a.expected.map((p0, i) => (a.n > 0 ? (a.counts[i] as number) / a.n : p0));
  if (shares.some((p, i) => Math.abs(p - (a.expected[i] as number)) >= delta)) return null;
  const certifies = goodmanCertifier(a.expected, alpha, delta);
  return firstTotal(a.n, (total) => certifies(shares.map((p) => p * total)));
}

/** Total rolls for the Pearson test to reject with power 0.8 if the observed proportions are the truth. */
function rollsToReject(a: LevelAnalysis, alpha: number): number | null {
  if (a.n === 0) return null;
  const alternative = a.counts.map((c) => c / a.n);
  if (alternative.every((p, i) => Math.abs(p - (a.expected[i] as number)) < 1e-12)) return null;
  if (a.expected.some((p, i) => p === 0 && (alternative[i] as number) > 0)) return a.n + 1;
  try {
    const total = rollsToDetect({ expected: a.expected, alternative, alpha, power: 0.8 });
    return total <= PROJECTION_CAP ? total : null;
  } catch (e) {
    if (e instanceof LimitError) return null; // a deviation too small for any practical number of rolls
    throw e;
  }
}

export function estimates(a: LevelAnalysis): FaceEstimate[] {
  return namesOf(a).map((label, i) => ({
    index: i,
    label,
    expected: a.expected[i] as number,
    observed: a.n > 0 ? (a.counts[i] as number) / a.n : Number.NaN,
    count: a.counts[i] as number,
    lower: (a.intervals[i] as { lower: number }).lower,
    upper: (a.intervals[i] as { upper: number }).upper,
  }));
}

/** Faces whose simultaneous interval excludes the expected value, most deviant first; at least the single most deviant face. */
function drivers(a: LevelAnalysis, faces: readonly FaceEstimate[]): FaceEstimate[] {
  const z = (f: FaceEstimate) => (f.expected > 0 ? Math.abs(f.count - a.n * f.expected) / Math.sqrt(a.n * f.expected * (1 - f.expected)) : Infinity);
  const sorted = [...faces].sort((x, y) => z(y) - z(x));
  const outside = sorted.filter((f) => f.expected < f.lower || f.expected > f.upper);
  return outside.length > 0 ? outside : sorted.slice(0, 1);
}
