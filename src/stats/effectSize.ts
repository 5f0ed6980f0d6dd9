/**
 * Effect sizes: how far a die is from its expected odds, in numbers a player
 * can read ("hit comes up 0.47 instead of 0.375") and in Cohen's w, the
 * quantity that sets how many rolls a test needs.
 */
import { InputError } from '../core/errors.js';
import { wilsonInterval, type Interval } from './intervals.js';
import { validateCountsAndProbabilities, validateProbabilities } from './validate.js';

/**
 * Cohen's w between two distributions over the same faces:
 * √(Σ (q_i − p_i)² / p_i) with p the expected odds and q the alternative.
 * Infinity if q puts mass on a face p says is impossible.
 */
export function effectSizeW(expected: readonly number[], alternative: readonly number[]): number {
  if (expected.length !== alternative.length) {
    throw new InputError(`There are ${expected.length} expected probabilities but ${alternative.length} alternative ones.`);
  }
  validateProbabilities(expected);
  validateProbabilities(alternative);
  let sum = 0;
  for (let i = 0; i < expected.length; i++) {
    const p = expected[i] as number;
    const q = alternative[i] as number;
    if (p === 0) {
      if (q > 0) return Infinity;
      continue;
    }
    sum += ((q - p) * (q - p)) / p;
  }
  return Math.sqrt(sum);
}

/** Cohen's w of observed counts against expected odds: √(X² / n). */
export function cohensW(counts: readonly number[], probs: readonly number[]): number {
  const n = validateCountsAndProbabilities(counts, probs);
  let sum = 0;
  for (let i = 0; i < counts.length; i++) {
    const p = probs[i] as number;
    const q = (counts[i] as number) / n;
    if (p === 0) {
      if (q > 0) return Infinity;
      continue;
    }
    sum += ((q - p) * (q - p)) / p;
  }
  return Math.sqrt(sum);
}

/**
 * Observed / expected − 1 for each face (0.1 = the face comes up 10 % more
 * often than it should). A face with zero expected probability gives 0 if it
 * never came up and Infinity if it did.
 */
export function relativeDeviations(counts: readonly number[], probs: readonly number[]): number[] {
  const n = validateCountsAndProbabilities(counts, probs);
  return counts.map((c, i) => {
    const e = n * (probs[i] as number);
    if (e === 0) return c === 0 ? 0 : Infinity;
    return c / e - 1;
  });
}

/** An observed rate against the rate the die should show, with a Wilson interval. */
export interface RateDelta {
  readonly rate: number;
  readonly expected: number;
  /** rate − expected. */
  readonly delta: number;
  /** rate / expected − 1. */
  readonly relative: number;
  /** Wilson score interval for the true rate at level 1 − alpha. */
  readonly interval: Interval;
}

/** Compares `successes` out of `n` (e.g. hits + crits) with `expectedRate`. */
export function rateDelta(successes: number, n: number, expectedRate: number, alpha = 0.05): RateDelta {
  if (!(expectedRate > 0 && expectedRate <= 1)) {
    throw new InputError(`The expected rate must be in (0, 1], got ${expectedRate}.`);
  }
  const interval = wilsonInterval(successes, n, alpha);
  const rate = successes / n;
  const delta = rate - expectedRate;
  return { rate, expected: expectedRate, delta, relative: delta / expectedRate, interval };
}
