import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { validateCountsAndProbabilities } from '../../../src/stats/validate.js';

const red = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

describe('validateCountsAndProbabilities', () => {
  it('returns the number of rolls for valid input', () => {
    expect(validateCountsAndProbabilities([40, 10, 25, 25], red)).toBe(100);
  });

  it('accepts probabilities that sum to 1 only up to rounding', () => {
    expect(validateCountsAndProbabilities([1, 2, 3], [0.333333333333, 0.333333333333, 0.333333333334])).toBe(6);
  });

  it('refuses counts and probabilities of different lengths', () => {
    expect(() => validateCountsAndProbabilities([1, 2, 3], red)).toThrow(/3 counts but 4 expected probabilities/);
  });

  it('refuses a single face', () => {
    expect(() => validateCountsAndProbabilities([5], [1])).toThrow(/at least two faces/);
  });

  it.each([[-1], [2.5], [Number.NaN], [Infinity]])('refuses the count %s with an InputError naming the face', (bad) => {
    const call = (): number => validateCountsAndProbabilities([40, bad, 25, 25], red);
    expect(call).toThrow(InputError);
    expect(call).toThrow(/face 1 .*non-negative integers/);
  });

  it.each([[-0.1], [1.5], [Number.NaN], [Infinity]])('refuses the probability %s', (bad) => {
    expect(() => validateCountsAndProbabilities([1, 1, 1], [0.5, bad, 0.5])).toThrow(/face 1 .*between 0 and 1/);
  });

  it('refuses weights that do not sum to 1 instead of treating them as counts, as stdlib chi2gof does', () => {
    expect(() => validateCountsAndProbabilities([40, 10, 25, 25], [3, 1, 2, 2])).toThrow(InputError);
    expect(() => validateCountsAndProbabilities([40, 10, 25, 25], [0.375, 0.125, 0.25, 0.2499])).toThrow(/sum to 0\.9999/);
  });

  it('refuses a test with no rolls', () => {
    expect(() => validateCountsAndProbabilities([0, 0, 0, 0], red)).toThrow(/no rolls/);
  });
});
