/**
 * Choosing a tournament pool from tested dice. Dice are ranked by the upper
 * simultaneous bound of their largest deviation from the expected odds — not
 * by point estimate or p-value, which would pick dice that merely got lucky
 * in a short test — so a die earns a good rank by being both close to fair
 * and well measured.
 */
import { InputError } from '../core/errors.js';
import { goodmanIntervals, largestDeviationBound, widenedGoodmanIntervals, type Interval } from './intervals.js';
import { validateCountsAndProbabilities } from './validate.js';

/** One tested die offered for the pool. */
export interface PoolCandidate {
  readonly label: string;
  readonly counts: readonly number[];
  readonly expected: readonly number[];
  /** Set by the caller when the die was rejected after multiplicity control. */
  readonly rejected?: boolean;
  /** Why it was rejected, when not by the pool's own multiplicity control (e.g. the session that decided it said UNFAIR). */
  readonly rejectedBecause?: string;
  /**
   * Its rolls the reader left unresolved (declined, or the die not found) and nobody labelled: each could be any face,
   * and the declines may depend on the face, so its intervals are widened over every face they could have.
   */
  readonly unresolved?: number;
  /**
   * Its simultaneous intervals as they were already made, used as they are: a sequential session's own (anytime-valid
   * where it chose to stop, widened over its unresolved rolls and misread bounds), so the pool certifies what the
   * session's verdict does. Without them, Goodman intervals of `counts` at the pool's alpha.
   */
  readonly intervals?: readonly Interval[];
}

/** A die that qualified, with the figures it was ranked by. */
export interface RankedDie {
  readonly label: string;
  readonly rolls: number;
  /**
   * The largest distance any face's true probability can be from its
   * expected value, at simultaneous level 1 − alpha: max over faces of
   * max(upper − p, p − lower) of the Goodman intervals. Lower is better.
   */
  readonly score: number;
  /** Observed face frequencies. */
  readonly estimates: number[];
  /** Goodman simultaneous intervals per face (widened over its unresolved rolls, if any). */
  readonly intervals: Interval[];
  /** Its unresolved rolls the intervals allow for. */
  readonly unresolved: number;
}

/** How far apart the dice of the pool are on one face. */
export interface FaceBalance {
  readonly face: number;
  readonly min: number;
  readonly max: number;
  /** max − min of the point estimates across the pool. */
  readonly spread: number;
}

export interface PoolSelection {
  /** The `size` best-ranked dice. */
  readonly pool: RankedDie[];
  /** Every qualifying die, best first. */
  readonly ranking: RankedDie[];
  /** The worst score in the pool: every pool die is within this of the expected odds on every face. */
  readonly certifiedDelta: number;
  /** Spread of the point estimates across the pool, per face. */
  readonly balance: FaceBalance[];
  readonly excluded: { label: string; reason: string }[];
}

export interface PoolOptions {
  readonly size: number;
  /** Simultaneous level of each die's intervals (default 0.05). */
  readonly alpha?: number;
}

/** The level of each candidate's intervals in a pool of `candidates` dice at `alpha`: Bonferroni over the candidates. */
export function poolIntervalLevel(alpha: number, candidates: number): number {
  return alpha / Math.max(1, candidates);
}

/** Ranks `candidates` and picks the `size` dice with the smallest certified deviation. */
export function selectPool(candidates: readonly PoolCandidate[], { size, alpha = 0.05 }: PoolOptions): PoolSelection {
  if (!(Number.isInteger(size) && size > 0)) throw new InputError(`The pool size must be a positive whole number, got ${size}.`);
  const faces = candidates[0]?.expected.length;
  const excluded: { label: string; reason: string }[] = [];
  const ranking: RankedDie[] = [];
  // The pool is chosen after looking at every die's bound: the chosen ones' bounds hold only if all of them hold
  // together, so each die's intervals are at alpha over the candidates (else the luckiest dice's bounds run short).
  const level = poolIntervalLevel(alpha, candidates.length);
  for (const die of candidates) {
    if (die.expected.length !== faces) {
      throw new InputError(`Die "${die.label}" has ${die.expected.length} faces but "${candidates[0]?.label}" has ${faces}; a pool is chosen among dice of one kind.`);
    }
    if (die.rejected) {
      excluded.push({ label: die.label, reason: die.rejectedBecause ?? 'rejected as unfair after multiplicity control' });
      continue;
    }
    if (die.counts.every((c) => c === 0)) {
      excluded.push({ label: die.label, reason: 'no rolls recorded' });
      continue;
    }
    ranking.push(rank(die, level));
  }
  ranking.sort((a, b) => a.score - b.score || b.rolls - a.rolls || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  if (ranking.length < size) {
    throw new InputError(
      `Only ${ranking.length} of ${candidates.length} dice qualify for a pool of ${size}` +
        (excluded.length > 0 ? ` (${excluded.length} excluded: ${excluded.map((e) => `${e.label}, ${e.reason}`).join('; ')}).` : '.'),
    );
  }
  const pool = ranking.slice(0, size);
  return { pool, ranking, certifiedDelta: (pool[pool.length - 1] as RankedDie).score, balance: balanceOf(pool), excluded };
}

function rank(die: PoolCandidate, alpha: number): RankedDie {
  let n: number;
  try {
    n = validateCountsAndProbabilities(die.counts, die.expected);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`Die "${die.label}": ${error.problem}`, {}, { cause: error });
    throw error;
  }
  const unresolved = die.unresolved ?? 0;
  if (!(Number.isInteger(unresolved) && unresolved >= 0)) throw new InputError(`Die "${die.label}": ${unresolved} unresolved rolls is not a count.`);
  if (die.intervals !== undefined && die.intervals.length !== die.expected.length) {
    throw new InputError(`Die "${die.label}": ${die.intervals.length} intervals given for ${die.expected.length} faces.`);
  }
  const intervals = die.intervals !== undefined ? [...die.intervals] : unresolved === 0 ? goodmanIntervals(die.counts, alpha) : widenedGoodmanIntervals(die.counts, unresolved, alpha);
  const score = largestDeviationBound(die.expected, intervals);
  return { label: die.label, rolls: n, score, estimates: die.counts.map((c) => c / n), intervals, unresolved };
}

function balanceOf(pool: readonly RankedDie[]): FaceBalance[] {
  const faces = (pool[0] as RankedDie).estimates.length;
  const balance: FaceBalance[] = [];
  for (let face = 0; face < faces; face++) {
    let min = Infinity;
    let max = -Infinity;
    for (const die of pool) {
      const e = die.estimates[face] as number;
      if (e < min) min = e;
      if (e > max) max = e;
    }
    balance.push({ face, min, max, spread: max - min });
  }
  return balance;
}
