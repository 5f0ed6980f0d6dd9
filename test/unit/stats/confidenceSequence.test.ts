import { describe, expect, it } from 'vitest';
import { betaMixtureInterval, FaceConfidenceSequences } from '../../../src/stats/confidenceSequence.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

function redWithHit(hit: number): number[] {
  return RED.map((p, i) => (i === 0 ? hit : (p * (1 - hit)) / (5 / 8)));
}

/*
 * Golden intervals (SciPy 1.17): the set {p : log M(p) < log(1/alpha)} solved with brentq.
 *
 *   import numpy as np
 *   from scipy.special import betaln, xlogy, xlog1py
 *   from scipy.optimize import brentq
 *   def logM(p, s, n, a, b): return betaln(a+s, b+n-s) - betaln(a, b) - xlogy(s, p) - xlog1py(n-s, -p)
 *   def interval(s, n, a, b, alpha):
 *       thr = -np.log(alpha); c = s/n
 *       lo = 0.0 if s == 0 else brentq(lambda p: logM(p,s,n,a,b) - thr, 1e-300, c, xtol=1e-15)
 *       hi = 1.0 if s == n else brentq(lambda p: logM(p,s,n,a,b) - thr, c, 1-1e-16, xtol=1e-15)
 *       return lo, hi
 *   interval(40, 100, 1000*3/8, 1000*5/8, 0.05/4)   # (0.26134265762551717, 0.5504652194751389)
 *   interval(10, 100, 1000/8, 1000*7/8, 0.05/4)     # (0.032643718224136024, 0.21573782331033353)
 *   interval(0, 50, 1, 1, 0.05)                     # (0.0, 0.12938128909150773)
 *   interval(1234, 5000, 3.75, 6.25, 0.01)          # (0.22292766333402617, 0.2717551828185201)
 */
describe('betaMixtureInterval', () => {
  it.each([
    [40, 100, 375, 625, 0.0125, 0.26134265762551717, 0.5504652194751389],
    [10, 100, 125, 875, 0.0125, 0.032643718224136024, 0.21573782331033353],
    [0, 50, 1, 1, 0.05, 0, 0.12938128909150773],
    [1234, 5000, 3.75, 6.25, 0.01, 0.22292766333402617, 0.2717551828185201],
  ])('gives the interval SciPy gives for %i of %i with a Beta(%d, %d) mixture at alpha %d', (s, n, a, b, alpha, lower, upper) => {
    const ci = betaMixtureInterval(s, n, a, b, alpha);
    expect(ci.lower).toBeCloseTo(lower, 10);
    expect(ci.upper).toBeCloseTo(upper, 10);
  });

  it('is [0, 1] before any trial', () => {
    expect(betaMixtureInterval(0, 0, 2, 3, 0.05)).toEqual({ lower: 0, upper: 1 });
  });
});

describe('FaceConfidenceSequences', () => {
  it('gives each face of a red die the SciPy interval, Bonferroni-split over the four faces', () => {
    const cs = new FaceConfidenceSequences(RED, { alpha: 0.05, concentration: 1000 });
    const counts = [40, 10, 25, 25];
    const left = [...counts];
    while (left.some((c) => c > 0)) {
      left.forEach((c, i) => {
        if (c > 0) {
          cs.observe(i);
          left[i] = c - 1;
        }
      });
    }
    const [hit, crit] = cs.intervals();
    expect(hit?.lower).toBeCloseTo(0.26134265762551717, 9);
    expect(hit?.upper).toBeCloseTo(0.5504652194751389, 9);
    expect(crit?.lower).toBeCloseTo(0.032643718224136024, 9);
    expect(crit?.upper).toBeCloseTo(0.21573782331033353, 9);
    expect(cs.threshold).toBeCloseTo(Math.log(4 / 0.05), 15);
  });

  it('gives the same intervals from bulk counts as from rolls one by one', () => {
    const one = new FaceConfidenceSequences(RED, { alpha: 0.05 });
    const random = seededRandom(8);
    const cumulative = cumulativeOf(RED);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 5000; i++) {
      const face = drawIndex(cumulative, random);
      one.observe(face);
      counts[face]! += 1;
    }
    const bulk = new FaceConfidenceSequences(RED, { alpha: 0.05 });
    bulk.setCounts(counts);
    bulk.intervals().forEach((ci, i) => {
      expect(ci.lower).toBeCloseTo(one.intervals()[i]!.lower, 9);
      expect(ci.upper).toBeCloseTo(one.intervals()[i]!.upper, 9);
    });
  });

  it('agrees with its intervals on whether every face lies inside expected +/- delta', () => {
    const cs = new FaceConfidenceSequences(RED, { alpha: 0.05 });
    cs.setCounts([3750, 1250, 2500, 2500]);
    for (const delta of [0.01, 0.015, 0.02, 0.03, 0.05]) {
      const inside = cs.intervals().every((ci, i) => ci.lower > RED[i]! - delta && ci.upper < RED[i]! + delta);
      expect(cs.insideEquivalenceMargin(delta)).toBe(inside);
    }
    expect(cs.insideEquivalenceMargin(0.03)).toBe(true);
    expect(cs.insideEquivalenceMargin(0.01)).toBe(false);
  });

  /*
   * Monte Carlo slack: a count over D dice of an event with probability at most r is
   * at most Binomial(D, r); we allow its 0.999 quantile (SciPy):
   *   scipy.stats.binom.ppf(0.999, 300, 0.2)  = 82
   *   scipy.stats.binom.ppf(0.999, 300, 0.05) = 25
   */
  // With concentration 10 the sequences are close to tight here (49 of 300 missed with this seed, alpha 0.2);
  // with the default 1,000 they are conservative at n < 2,000 (4 of 300).
  it.each([10, 1000])('covers every face of fair dice at every roll at once, failing for at most alpha of the dice (concentration %i, alpha 0.2, 2,000 rolls)', (concentration) => {
    const random = seededRandom(424242);
    const cumulative = cumulativeOf(RED);
    let missed = 0;
    for (let d = 0; d < 300; d++) {
      const cs = new FaceConfidenceSequences(RED, { alpha: 0.2, concentration });
      let ever = false;
      for (let n = 0; n < 2000 && !ever; n++) {
        cs.observe(drawIndex(cumulative, random));
        for (let j = 0; j < 4; j++) if (cs.logMartingale(j, RED[j]!) >= cs.threshold) ever = true;
      }
      if (ever) missed++;
    }
    expect(missed).toBeLessThanOrEqual(82);
  });

  it('rarely puts a die sitting exactly delta off inside the margin, even when checked after every roll', () => {
    const random = seededRandom(77);
    const cumulative = cumulativeOf(redWithHit(0.405));
    let certified = 0;
    for (let d = 0; d < 300; d++) {
      const cs = new FaceConfidenceSequences(RED, { alpha: 0.05 });
      for (let n = 0; n < 6000; n++) {
        cs.observe(drawIndex(cumulative, random));
        if (cs.insideEquivalenceMargin(0.03)) {
          certified++;
          break;
        }
      }
    }
    expect(certified).toBeLessThanOrEqual(25);
  });

  it('refuses an alpha or concentration it cannot use', () => {
    expect(() => new FaceConfidenceSequences(RED, { alpha: 1 })).toThrow(RangeError);
    expect(() => new FaceConfidenceSequences(RED, { alpha: 0.05, concentration: 0 })).toThrow(RangeError);
  });
});
