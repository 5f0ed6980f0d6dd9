/**
 * The one input check every fixed-sample test shares. @stdlib's chi2gof
 * silently treats probabilities that do not sum to 1 as counts; we refuse them
 * instead, and say which face is wrong.
 */
import { InputError } from '../core/errors.js';

/** How far the probabilities may sum from 1 (rounding in a die definition, not a second distribution). */
export const PROBABILITY_SUM_TOLERANCE = 1e-9;

/**
 * Checks a vector of observed counts against a vector of expected face
 * probabilities and returns the number of rolls n. Throws `InputError` when
 * the lengths differ, there are fewer than two faces, a count is not a
 * non-negative integer, a probability is not finite in [0, 1], the
 * probabilities do not sum to 1 within 1e-9, or there are no rolls.
 */
export function validateCountsAndProbabilities(counts: readonly number[], probs: readonly number[]): number {
  if (counts.length !== probs.length) {
    throw new InputError(`There are ${counts.length} counts but ${probs.length} expected probabilities; each face needs one of each.`);
  }
  if (counts.length < 2) {
    throw new InputError(`A fairness test needs at least two faces, got ${counts.length}.`);
  }
  const n = validateCounts(counts);
  validateProbabilities(probs);
  if (n === 0) throw new InputError('There are no rolls to test: every count is 0.');
  return n;
}

/** Checks that every count is a non-negative integer and returns their total (which may be 0). */
export function validateCounts(counts: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] as number;
    if (!Number.isInteger(c) || c < 0) {
      throw new InputError(`The count for face ${i} is ${c}; counts must be non-negative integers.`);
    }
    n += c;
  }
  if (!Number.isSafeInteger(n)) throw new InputError(`The total count ${n} is too large to add up exactly.`);
  return n;
}

/** Checks that every probability is finite in [0, 1] and that they sum to 1 within 1e-9. */
export function validateProbabilities(probs: readonly number[]): void {
  let sum = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i] as number;
    if (!(Number.isFinite(p) && p >= 0 && p <= 1)) {
      throw new InputError(`The expected probability for face ${i} is ${p}; it must be a finite number between 0 and 1.`);
    }
    sum += p;
  }
  if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) {
    throw new InputError(`The expected probabilities sum to ${sum}, not 1; give probabilities, not counts or weights.`);
  }
}
