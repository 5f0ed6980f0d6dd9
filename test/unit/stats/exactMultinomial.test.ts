import { describe, expect, it } from 'vitest';
import { LimitError } from '../../../src/core/errors.js';
import { countCompositions, exactMultinomialTest } from '../../../src/stats/exactMultinomial.js';
import { seededRandom } from '../../../src/stats/random.js';

function expectRelative(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

const redOdds = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

/*
 * Reference p-values by brute-force enumeration in Python with SciPy's multinomial pmf:
 *
 *   import numpy as np, itertools, math
 *   from scipy import stats
 *   def compositions(n, k):
 *       for bars in itertools.combinations(range(n + k - 1), k - 1):
 *           prev = -1; out = []
 *           for b in bars: out.append(b - prev - 1); prev = b
 *           out.append(n + k - 1 - prev - 1); yield out
 *   def exact_p(counts, probs, tol=1e-7):
 *       n = sum(counts); X = np.array(list(compositions(n, len(counts))))
 *       lp = stats.multinomial.logpmf(X, n, probs); l0 = stats.multinomial.logpmf(counts, n, probs)
 *       return float(np.exp(lp[lp <= l0 + math.log1p(tol)]).sum()), len(X)
 *
 *   [40, 10, 25, 25] red          -> 0.9054972474111875, 176851 outcomes
 *   [8, 2, 2] green               -> 0.16424393421038977, 91
 *   [9, 2, 6, 4, 5, 4] d6         -> 0.39027224352033174, 324632
 *   [30, 0, 0, 0] red             -> 8.98570477205005e-12, 5456
 *   [14, 2, 10, 4] red            -> 0.27507067575365846, 5456
 *   [5, 1] coin                   -> 0.2187500000000002, 7
 * And by hand: [3000, 0] for a fair coin has p = 2 · 2^-3000, log p = -2999 ln 2 = -2078.748394499276.
 */
describe('exact enumeration', () => {
  it.each([
    [[40, 10, 25, 25], redOdds, 0.9054972474111875, 176_851],
    [[8, 2, 2], [3 / 8, 2 / 8, 3 / 8], 0.16424393421038977, 91],
    [[9, 2, 6, 4, 5, 4], new Array<number>(6).fill(1 / 6), 0.39027224352033174, 324_632],
    [[30, 0, 0, 0], redOdds, 8.98570477205005e-12, 5456],
    [[14, 2, 10, 4], redOdds, 0.27507067575365846, 5456],
    [[5, 1], [0.5, 0.5], 0.2187500000000002, 7],
  ])('gives the p-value of a Python enumeration for %j', (counts, probs, p, outcomes) => {
    const r = exactMultinomialTest(counts, probs);
    expect(r.method).toBe('exact');
    expect(r.outcomes).toBe(outcomes);
    expectRelative(r.p, p, 1e-12);
  });

  it('enumerates the 176,851 outcomes of 100 red rolls well under a second', () => {
    const start = performance.now();
    exactMultinomialTest([40, 10, 25, 25], redOdds);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('carries log p when p underflows a double', () => {
    const r = exactMultinomialTest([3000, 0], [0.5, 0.5]);
    expect(r.p).toBe(0);
    expectRelative(r.logP, -2999 * Math.LN2, 1e-12);
  });

  it('treats a zero-probability face as absent, and a roll on it as impossible', () => {
    // Binomial(4, 1/2) with 3 of 4: outcomes no likelier than 4/16 are 0, 1, 3, 4 -> 10/16.
    expectRelative(exactMultinomialTest([3, 0, 1, 0], [0.5, 0, 0.5, 0]).p, 0.625, 1e-14);
    expect(exactMultinomialTest([3, 1, 1], [0.5, 0, 0.5]).p).toBe(0);
  });

  it('counts outcomes as C(n + k - 1, k - 1)', () => {
    expect(countCompositions(100, 4)).toBe(176_851);
    expect(countCompositions(30, 6)).toBe(324_632);
    expect(countCompositions(0, 8)).toBe(1);
  });
});

describe('Monte Carlo fallback', () => {
  it('refuses to go over the cap without a random source, naming the cap', () => {
    const call = (): unknown => exactMultinomialTest([300, 100, 200, 200], redOdds);
    expect(call).toThrow(LimitError);
    expect(call).toThrow(/cap of 2,000,000/);
  });

  it('agrees with the exact p within 4 standard errors on a case small enough to enumerate', () => {
    const exact = exactMultinomialTest([40, 10, 25, 25], redOdds).p;
    const mc = exactMultinomialTest([40, 10, 25, 25], redOdds, { maxOutcomes: 1000, random: seededRandom(7), samples: 40_000 });
    expect(mc.method).toBe('monte-carlo');
    expect(mc.samples).toBe(40_000);
    expect(Math.abs(mc.p - exact)).toBeLessThanOrEqual(4 * (mc.standardError as number));
  });

  it('agrees with the exact p for a small p-value too', () => {
    const counts = [14, 2, 10, 4, 0, 0];
    const probs = [0.2, 0.1, 0.2, 0.2, 0.2, 0.1];
    const exact = exactMultinomialTest(counts, probs).p;
    const mc = exactMultinomialTest(counts, probs, { maxOutcomes: 10, random: seededRandom(11), samples: 40_000 });
    expect(exact).toBeLessThan(0.01);
    expect(Math.abs(mc.p - exact)).toBeLessThanOrEqual(4 * (mc.standardError as number));
  });

  it('uses the (hits + 1) / (samples + 1) estimator, so p is never 0', () => {
    const mc = exactMultinomialTest([3000, 0, 0, 0], redOdds, { random: seededRandom(1), samples: 1000 });
    expect(mc.p).toBe(1 / 1001);
  });

  it('is reproducible from its seed', () => {
    const run = (): number => exactMultinomialTest([300, 100, 200, 200], redOdds, { random: seededRandom(3), samples: 2000 }).p;
    expect(run()).toBe(run());
  });
});
