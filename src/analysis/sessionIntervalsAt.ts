/**
 * A stored session's anytime-valid intervals for a die, made again at a stricter level. A session's intervals are at
 * its own share of its error rate (its alpha over its dice); a pool that picks among many dice needs each die's at
 * alpha over the candidates, or the luckiest dice are chosen for bounds that ran short. The session's intervals are
 * a confidence sequence, valid at whatever roll the session stopped, so the same sequence at another level, computed
 * from the counts it stopped at (its unresolved rolls and misread bounds included), is valid there too.
 */
import { robustFaceIntervals } from '../stats/robustIntervals.js';

/** What a session stored of a die's intervals: the faces' intervals, its level, and the counts they were made from. */
export interface StoredIntervals {
  readonly faces?: readonly { readonly label: string; readonly expected: number; readonly lower: number; readonly upper: number }[];
  readonly alphaPerDie?: number;
  readonly partial?: { readonly counts: readonly number[]; readonly unresolved: number; readonly misreadRates?: readonly number[] };
}

/** How far a recomputed interval at the session's own level may be from the stored one and still be the same sequence. */
const SAME = 1e-9;

/**
 * The die's intervals at `level` when the session's level is above it (made again from its counts), else as stored.
 * Undefined when they cannot be had at `level`: none stored, or no counts to make them from, or the counts do not
 * give back the stored intervals at the session's own level (made by another rule: not to be re-levelled).
 */
export function sessionIntervalsAt<T extends StoredIntervals>(v: T, level: number): T['faces'] | undefined {
  const faces = v.faces;
  if (faces === undefined || v.alphaPerDie === undefined) return undefined;
  if (v.alphaPerDie <= level) return faces;
  const partial = v.partial;
  if (partial === undefined || partial.counts.length !== faces.length) return undefined;
  const expected = faces.map((f) => f.expected);
  const options = (alpha: number) => ({ alpha, ...(partial.misreadRates !== undefined ? { misreadRates: partial.misreadRates } : {}) });
  const own = robustFaceIntervals(partial, expected, options(v.alphaPerDie));
  const reproduced = own.every((iv, i) => Math.abs(iv.lower - (faces[i]?.lower as number)) <= SAME && Math.abs(iv.upper - (faces[i]?.upper as number)) <= SAME);
  if (!reproduced) return undefined;
  return robustFaceIntervals(partial, expected, options(level)).map((iv, i) => ({ ...(faces[i] as (typeof faces)[number]), lower: iv.lower, upper: iv.upper }));
}
