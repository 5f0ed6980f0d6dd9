import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { misreadRateBounds } from '../../../src/stats/misreadRate.js';

describe('misreadRateBounds', () => {
  it('gives the one-sided Clopper–Pearson upper bounds SciPy gives', () => {
    // from scipy.stats import beta
    // beta.ppf(0.95, 1, 217)  -> 0.013710362830302095   (0 misread of 217: 1 - 0.05**(1/217))
    // beta.ppf(0.95, 3, 97)   -> 0.06222809568671874    (2 misread of 99: Beta(x + 1, n - x))
    // beta.ppf(0.99, 1, 30)   -> 0.14230410140910588    (0 misread of 30, 99 %)
    const [a, b] = misreadRateBounds([
      { read: 217, misread: 0 },
      { read: 99, misread: 2 },
    ]);
    expect(a).toBeCloseTo(0.013710362830302095, 12);
    expect(b).toBeCloseTo(0.06222809568671874, 12);
    expect(misreadRateBounds([{ read: 30, misread: 0 }], 0.99)[0]).toBeCloseTo(0.14230410140910588, 12);
  });

  it('knows nothing about a face never read, and refuses impossible counts', () => {
    expect(misreadRateBounds([{ read: 0, misread: 0 }])).toEqual([1]);
    expect(() => misreadRateBounds([{ read: 5, misread: 6 }])).toThrow(InputError);
    expect(() => misreadRateBounds([{ read: 5, misread: 1 }], 1)).toThrow(RangeError);
  });
});
