import { describe, expect, it } from 'vitest';
import { chanceSpreadWithin } from '../../src/vision/spreadByChance.js';

/*
 * Golden values by SciPy, computed once (2026-11-29) with this script, and checked there against a numpy simulation of
 * 400,000 face-blind readers (seed 7; the simulated shares in the last column agree within 2 standard errors):
 *
 *   import numpy as np; from fractions import Fraction; from scipy.stats import binom
 *   def exact(totals, rate, ratio=2):
 *       f = [n for n in totals if n > 0]
 *       def between(n, lo, hi):
 *           hi = min(hi, n)
 *           return 0.0 if lo > hi else binom.cdf(hi, n, rate) - (binom.cdf(lo - 1, n, rate) if lo > 0 else 0.0)
 *       tot = np.prod([binom.pmf(0, n, rate) for n in f])
 *       for m in sorted({Fraction(k, n) for n in f for k in range(1, n + 1)}):
 *           hi = lambda n: int(np.floor(Fraction(ratio) * m * n))
 *           tot += np.prod([between(n, int(np.ceil(m * n)), hi(n)) for n in f]) - np.prod([between(n, int(np.floor(m * n)) + 1, hi(n)) for n in f])
 *       return tot
 *   def sim(totals, rate, ratio=2, draws=400000, seed=7):
 *       rng = np.random.default_rng(seed); n = np.array([t for t in totals if t > 0])
 *       r = rng.binomial(n, rate, size=(draws, len(n))) / n; hi = r.max(1); lo = r.min(1)
 *       return ((hi == 0) | ((lo > 0) & (hi <= ratio * lo + 1e-12))).mean()
 */
const GOLDEN: { totals: number[]; rate: number; ratio: number; within: number; simulated: number }[] = [
  // One foreign-2 test set's flat dice per face (red-hit .. green-blank), 4.5 % declined.
  { totals: [250, 65, 138, 146, 243, 131, 236], rate: 0.045, ratio: 2, within: 0.1292364064593262, simulated: 0.129305 },
  // Five such sets pooled, at their pooled 5.15 %.
  { totals: [1125, 326, 668, 696, 1096, 660, 1098], rate: 0.0515, ratio: 2, within: 0.9200506897795423, simulated: 0.9208025 },
  { totals: [10, 10], rate: 0.3, ratio: 2, within: 0.7197814866737103, simulated: 0.72115 },
  { totals: [5, 7, 0, 9], rate: 0.2, ratio: 1.5, within: 0.06038221569981734, simulated: 0.060435 },
  { totals: [20, 30, 40], rate: 0.05, ratio: 3, within: 0.3415827965800475, simulated: 0.34084 },
];

describe('the chance a face-blind reader meets the decline-spread target', () => {
  it.each(GOLDEN)('matches SciPy on faces of $totals dice declined at $rate, spread within $ratio', ({ totals, rate, ratio, within }) => {
    expect(chanceSpreadWithin(totals, rate, ratio)).toBeCloseTo(within, 12);
  });

  it('says one test set of X-Wing dice seldom shows a face-blind reader within 2x, and five pooled mostly do', () => {
    expect(chanceSpreadWithin([250, 65, 138, 146, 243, 131, 236], 0.045)).toBeLessThan(0.2);
    expect(chanceSpreadWithin([1125, 326, 668, 696, 1096, 660, 1098], 0.045)).toBeGreaterThan(0.85);
  });

  it('grows with the dice and with the ratio allowed', () => {
    const few = chanceSpreadWithin([100, 100, 100], 0.05);
    const more = chanceSpreadWithin([400, 400, 400], 0.05);
    expect(more).toBeGreaterThan(few);
    expect(chanceSpreadWithin([100, 100, 100], 0.05, 3)).toBeGreaterThan(few);
  });

  it('is certain when nothing or everything is declined, or there is one face to compare', () => {
    expect(chanceSpreadWithin([10, 20], 0)).toBe(1);
    expect(chanceSpreadWithin([10, 20], 1)).toBe(1);
    expect(chanceSpreadWithin([10, 0], 0.3)).toBe(1);
  });

  it('counts the outcome with no die declined as within the target, as the spread does', () => {
    // Two faces of one die each at 0.5: none declined (0.25) or both (0.25) are within; one of them alone is not.
    expect(chanceSpreadWithin([1, 1], 0.5)).toBeCloseTo(0.5, 15);
  });

  it('refuses a rate outside 0..1, a ratio under 1 and a fractional count, naming them', () => {
    expect(() => chanceSpreadWithin([10, 10], 1.2)).toThrow(/decline rate must be within 0\.\.1, got 1\.2/);
    expect(() => chanceSpreadWithin([10, 10], 0.1, 0.5)).toThrow(/spread ratio must be at least 1, got 0\.5/);
    expect(() => chanceSpreadWithin([10, 2.5], 0.1)).toThrow(/non-negative integers, got 2\.5/);
  });
});
