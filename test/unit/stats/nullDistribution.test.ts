import { describe, expect, it } from 'vitest';
import { exactMultinomialTest } from '../../../src/stats/exactMultinomial.js';
import { gTest, pearsonTest } from '../../../src/stats/goodnessOfFit.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

/** p-values of `test` on `samples` fair-die samples of `n` rolls, from one seed. */
function nullPValues(samples: number, n: number, seed: number, test: (counts: number[]) => number): number[] {
  const random = seededRandom(seed);
  const cumulative = cumulativeOf(RED);
  const ps: number[] = [];
  for (let s = 0; s < samples; s++) {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) counts[drawIndex(cumulative, random)]! += 1;
    ps.push(test(counts));
  }
  return ps;
}

/** Largest distance between the empirical CDF of `ps` and the uniform CDF (Kolmogorov–Smirnov D). */
function ksDistance(ps: readonly number[]): number {
  const s = [...ps].sort((a, b) => a - b);
  let d = 0;
  s.forEach((p, i) => (d = Math.max(d, (i + 1) / s.length - p, p - i / s.length)));
  return d;
}

const below = (ps: readonly number[], a: number) => ps.filter((p) => p <= a).length;

describe('p-values under the null hypothesis', () => {
  // Bounds are the 0.0005 and 0.9995 binomial quantiles, so a correct test fails about 1 seed in 1,000:
  //   from scipy.stats import binom, kstwo
  //   [(a, binom.ppf(0.0005, 2000, a), binom.ppf(0.9995, 2000, a)) for a in (0.01, 0.05, 0.1, 0.5)]
  //   -> (0.01, 7, 36), (0.05, 69, 133), (0.1, 157, 245), (0.5, 926, 1074)
  //   kstwo.ppf(0.999, 2000) -> 0.043501554658541254
  const bounds: [number, number, number][] = [
    [0.01, 7, 36],
    [0.05, 69, 133],
    [0.1, 157, 245],
    [0.5, 926, 1074],
  ];

  it('are uniform for Pearson chi-square on a fair red die (2,000 samples of 400 rolls)', () => {
    const ps = nullPValues(2000, 400, 2024, (c) => pearsonTest(c, RED).p);
    for (const [a, lo, hi] of bounds) {
      expect(below(ps, a)).toBeGreaterThanOrEqual(lo);
      expect(below(ps, a)).toBeLessThanOrEqual(hi);
    }
    expect(ksDistance(ps)).toBeLessThan(0.043501554658541254);
  });

  it('are uniform for the G-test on a fair red die (2,000 samples of 400 rolls)', () => {
    const ps = nullPValues(2000, 400, 2025, (c) => gTest(c, RED).p);
    for (const [a, lo, hi] of bounds) {
      expect(below(ps, a)).toBeGreaterThanOrEqual(lo);
      expect(below(ps, a)).toBeLessThanOrEqual(hi);
    }
    expect(ksDistance(ps)).toBeLessThan(0.043501554658541254);
  });

  it('never exceed their level for the exact multinomial test with small counts (1,000 samples of 12 rolls)', () => {
    // A discrete test cannot be exactly uniform; it must be valid: P(p <= a) <= a.
    //   binom.ppf(0.999, 1000, a) for a in (0.01, 0.05, 0.1) -> 21, 73, 130
    const ps = nullPValues(1000, 12, 2026, (c) => exactMultinomialTest(c, RED).p);
    expect(below(ps, 0.01)).toBeLessThanOrEqual(21);
    expect(below(ps, 0.05)).toBeLessThanOrEqual(73);
    expect(below(ps, 0.1)).toBeLessThanOrEqual(130);
  });
});
