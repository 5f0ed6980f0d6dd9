import { describe, expect, it } from 'vitest';
import { drawBinomial, drawMultinomial, logFactorials, seededRandom } from '../../../src/stats/random.js';

describe('drawMultinomial', () => {
  it('puts every roll on a face, with mean counts n·p (4,000 draws of 1,000 rolls, within 4 standard errors)', () => {
    const random = seededRandom(5);
    const p = [0.38, 0.12, 0.25, 0.25];
    const sums = [0, 0, 0, 0];
    const draws = 4_000;
    for (let d = 0; d < draws; d++) {
      const c = drawMultinomial(1000, p, random);
      expect(c.reduce((a, b) => a + b, 0)).toBe(1000);
      c.forEach((x, i) => (sums[i] = sums[i]! + x));
    }
    p.forEach((pi, i) => {
      const se = Math.sqrt((1000 * pi * (1 - pi)) / draws);
      expect(Math.abs(sums[i]! / draws - 1000 * pi)).toBeLessThan(4 * se);
    });
  });

  it('draws a binomial with the right variance n·p·(1 − p)', () => {
    const random = seededRandom(6);
    const table = logFactorials(200);
    let s = 0;
    let s2 = 0;
    const draws = 50_000;
    for (let d = 0; d < draws; d++) {
      const x = drawBinomial(200, 0.3, random, table);
      s += x;
      s2 += x * x;
    }
    const variance = s2 / draws - (s / draws) ** 2;
    // Variance of the sample variance ≈ 2σ⁴/draws for a near-normal count: 4 standard errors is ±0.75.
    expect(Math.abs(variance - 42)).toBeLessThan(4 * Math.sqrt((2 * 42 * 42) / draws));
  });
});
