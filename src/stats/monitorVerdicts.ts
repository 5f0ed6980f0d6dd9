/**
 * Builds the verdict records of the sequential monitors (sequential.ts and
 * robustMonitor.ts) from what they measured, so both word their verdicts alike.
 */
import type { ProbabilityInterval } from './confidenceSequence.js';
import { deviationWhatever, type FaceEstimate, type FairWithinVerdict, type InconclusiveVerdict, type RollProjection, type UnfairVerdict } from './verdict.js';

/** Each face's estimate: `observed` is count / seen (NaN before any roll), with its interval. */
export function faceEstimates(
  labels: readonly string[],
  expected: ArrayLike<number>,
  counts: ArrayLike<number>,
  seen: number,
  intervals: readonly ProbabilityInterval[],
): FaceEstimate[] {
  return intervals.map((ci, i) => ({
    index: i,
    label: labels[i] as string,
    expected: expected[i] as number,
    observed: seen > 0 ? (counts[i] as number) / seen : NaN,
    count: counts[i] as number,
    lower: ci.lower,
    upper: ci.upper,
  }));
}

export interface UnfairInput {
  readonly n: number;
  readonly logE: number;
  readonly method: string;
  readonly faces: readonly FaceEstimate[];
  /** Proportions the effect size is measured at (the observed ones, or the least favourable completion). */
  readonly proportions: readonly number[];
  readonly intervalMethod: string;
}

/**
 * UNFAIR with its e-value. Drivers: faces whose interval excludes the expected
 * odds, most standardized deviation first; if none does yet (the joint evidence
 * can come before any single face's), the most deviant face.
 */
export function unfairVerdict(input: UnfairInput): UnfairVerdict {
  const { faces, proportions, n } = input;
  const deviation = (f: FaceEstimate): number => Math.abs((proportions[f.index] as number) - f.expected) / Math.sqrt((f.expected * (1 - f.expected)) / n);
  const ranked = [...faces].sort((x, y) => deviation(y) - deviation(x));
  const excluding = ranked.filter((f) => f.expected < f.lower || f.expected > f.upper);
  let w2 = 0;
  for (const f of faces) w2 += ((proportions[f.index] as number) - f.expected) ** 2 / f.expected;
  return {
    kind: 'UNFAIR',
    n,
    evidence: { kind: 'e-value', e: Math.exp(input.logE), logE: input.logE, p: Math.min(1, Math.exp(-input.logE)), logP: Math.min(0, -input.logE), method: input.method },
    effectSize: { measure: "Cohen's w", value: Math.sqrt(w2) },
    drivers: excluding.length > 0 ? excluding : ranked.slice(0, 1),
    faces,
    intervalMethod: input.intervalMethod,
  };
}

/** FAIR_WITHIN(delta), certified by the largest distance from an interval end to its expected odds. */
export function fairWithinVerdict(n: number, delta: number, alpha: number, faces: readonly FaceEstimate[], intervalMethod: string): FairWithinVerdict {
  let certified = 0;
  for (const f of faces) certified = Math.max(certified, f.expected - f.lower, f.upper - f.expected);
  return { kind: 'FAIR_WITHIN', n, delta, alpha, certifiedDelta: certified, faces, intervalMethod };
}

/**
 * INCONCLUSIVE toward whichever verdict the projection reaches first, naming the face furthest from its odds: with
 * `unresolved` rolls among the `n`, furthest whatever they were (none when every face's share could be its odds; the
 * read rolls alone would name the face the reader declines).
 */
export function inconclusiveVerdict(n: number, why: string, delta: number, projection: RollProjection, faces: readonly FaceEstimate[], unresolved = 0): InconclusiveVerdict {
  const options: ['FAIR_WITHIN' | 'UNFAIR', number][] = [];
  if (projection.toCertify !== null) options.push(['FAIR_WITHIN', projection.toCertify]);
  if (projection.toReject !== null) options.push(['UNFAIR', projection.toReject]);
  options.sort((x, y) => x[1] - y[1]);
  const best = options[0];
  const off = (f: FaceEstimate): number => (unresolved > 0 ? deviationWhatever(f, n, unresolved) : Math.abs(f.observed - f.expected));
  const leading = faces.reduce<FaceEstimate | undefined>((top, f) => ((top === undefined || off(f) > off(top)) && (unresolved === 0 || off(f) > 0) ? f : top), undefined);
  const base = { kind: 'INCONCLUSIVE' as const, n, rollsNeeded: best ? best[1] : null, target: best ? best[0] : null, why, delta, projection };
  return leading ? { ...base, leadingDeviation: leading } : base;
}
