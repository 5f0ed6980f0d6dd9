import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { analyzeLevel } from '../../../src/analysis/levelAnalysis.js';
import { redAttackDie } from '../../../src/dice/catalogue.js';
import { fromFaces } from './helpers.js';

/*
 * Golden: one red die by face, n = 30 (8 faces at 1/8, 10,295,472 outcomes: over the 200,000 enumerated).
 * Exact p by our own enumeration in Python, over the partitions of 30 into at most 8 parts
 * (outcome probability ∝ 1/Π c_i! for uniform faces), each counted 8!/Π mult! times:
 *
 *   from math import lgamma, exp, log, factorial
 *   from collections import Counter
 *   from scipy.stats import chisquare
 *   def partitions(n, k, maxpart=None):
 *       if maxpart is None: maxpart = n
 *       if k == 0:
 *           if n == 0: yield ()
 *           return
 *       for first in range(min(n, maxpart), -1, -1):
 *           for rest in partitions(n - first, k - 1, first): yield (first,) + rest
 *   def exact_uniform(counts):
 *       k = len(counts); n = sum(counts); logobs = -sum(lgamma(c + 1) for c in counts); tot = 0.0
 *       for part in partitions(n, k):
 *           lp = -sum(lgamma(c + 1) for c in part)
 *           if lp <= logobs + log(1 + 1e-7):
 *               mult = factorial(k)
 *               for m in Counter(part).values(): mult //= factorial(m)
 *               tot += mult * exp(lp + lgamma(n + 1) - n * log(k))
 *       return tot
 *   chisquare([6,0,5,5,4,3,2,5]).pvalue   # 0.3950175376353373 (Pearson, expected counts 3.75 < 5)
 *   exact_uniform([6,0,5,5,4,3,2,5])      # 0.254580880148767
 */
const COUNTS = [6, 0, 5, 5, 4, 3, 2, 5];
const EXACT_P = 0.254580880148767;
const UNIFORM8 = Array.from({ length: 8 }, () => 1 / 8);

describe('analyzeLevel: small samples over the enumeration cap', () => {
  it('leads with the seeded Monte Carlo exact test, not Pearson, for a red die at n = 30 by face, and says so', () => {
    const level = analyzeLevel('face', redAttackDie.faces.map((f) => f.id), COUNTS, UNIFORM8, 0.05);
    expect(level.pearson.p).toBeCloseTo(0.3950175376353373, 12);
    expect(level.headline.test).toBe('monte-carlo');
    expect(level.headline.method).toBe(
      'exact multinomial test by Monte Carlo (100,000 samples, seed 20240611; 10,295,472 outcomes is over the 200,000 enumerated)',
    );
    // Within 4 standard errors (±0.0055) of the exact p, far from Pearson's 0.395.
    expect(Math.abs(level.headline.p - EXACT_P)).toBeLessThan(4 * (level.headline.standardError as number));
    expect(level.exact?.method).toBe('monte-carlo');
  });

  it('gives the same p for the same counts and seed, and another seed when asked', () => {
    const a = analyzeLevel('face', redAttackDie.faces.map((f) => f.id), COUNTS, UNIFORM8, 0.05);
    const b = analyzeLevel('face', redAttackDie.faces.map((f) => f.id), COUNTS, UNIFORM8, 0.05);
    const c = analyzeLevel('face', redAttackDie.faces.map((f) => f.id), COUNTS, UNIFORM8, 0.05, 7);
    expect(b.headline.p).toBe(a.headline.p);
    expect(c.headline.method).toContain('seed 7;');
    expect(Math.abs(c.headline.p - EXACT_P)).toBeLessThan(4 * (c.headline.standardError as number));
  });

  it('reaches the face-level headline of analyzeDice', () => {
    const faces = new Uint8Array(COUNTS.flatMap((c, i) => Array.from({ length: c }, () => i)));
    const a = analyzeDice([fromFaces('red', redAttackDie, faces)]);
    expect(a.dice[0]!.face?.headline.test).toBe('monte-carlo');
    expect(a.dice[0]!.face?.headline.p).toBeCloseTo(EXACT_P, 2);
  });

  it('keeps Pearson when every expected count is 5 or more', () => {
    const level = analyzeLevel('face', redAttackDie.faces.map((f) => f.id), COUNTS.map((c) => c * 2), UNIFORM8, 0.05);
    expect(level.headline.test).toBe('pearson');
    expect(level.exact).toBeUndefined();
  });
});
