import { describe, expect, it } from 'vitest';
import { allocateLeastFavourable, dirichletLogBayesFactor, leastFavourableEvidence, mostFavourableLogE } from '../../../src/stats/leastFavourable.js';
import { seededRandom } from '../../../src/stats/random.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const D6 = [1, 1, 1, 1, 1, 1].map(() => 1 / 6);

/** Every way to put `units` rolls on k faces. */
function* compositions(units: number, k: number): Generator<number[]> {
  if (k === 1) {
    yield [units];
    return;
  }
  for (let first = 0; first <= units; first++) for (const rest of compositions(units - first, k - 1)) yield [first, ...rest];
}

function bruteForce(counts: number[], unresolved: number, expected: number[], A: number): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const u of compositions(unresolved, expected.length)) {
    const x = counts.map((c, i) => c + (u[i] as number));
    const l = dirichletLogBayesFactor(x, { expected, priorConcentration: A });
    min = Math.min(min, l);
    max = Math.max(max, l);
  }
  return { min, max };
}

/** log BF_q(x) minimised over q with q_i ≥ (1 − r_i) p0_i: the maximum-likelihood q under those floors (water filling), found by bisection. */
function exactMisreadMin(x: number[], expected: number[], rates: number[], A: number): number {
  const floor = expected.map((p, i) => (1 - (rates[i] as number)) * p);
  const qAt = (lambda: number): number[] => x.map((c, i) => Math.max(floor[i] as number, c / lambda));
  let lo = 1e-9;
  let hi = 1e9;
  for (let i = 0; i < 300; i++) {
    const mid = Math.sqrt(lo * hi);
    if (qAt(mid).reduce((a, b) => a + b, 0) > 1) lo = mid;
    else hi = mid;
  }
  const q = qAt(hi);
  let logLikelihoodRatio = 0;
  x.forEach((c, i) => (logLikelihoodRatio += c > 0 ? c * Math.log((q[i] as number) / (expected[i] as number)) : 0));
  return dirichletLogBayesFactor(x, { expected, priorConcentration: A }) - logLikelihoodRatio;
}

describe('the Dirichlet-mixture e-value at given counts', () => {
  it('gives the log Bayes factor SciPy gives for the statistics.md red die [60,15,15,10], A = 100', () => {
    // Same SciPy code as test/unit/stats/sequential.test.ts: logbf([60,15,15,10], red, 100) = 5.85674387571585
    expect(dirichletLogBayesFactor([60, 15, 15, 10], { expected: RED, priorConcentration: 100 })).toBeCloseTo(5.85674387571585, 10);
  });
});

describe('least favourable assignment of unresolved rolls', () => {
  it('equals the brute-force minimum over every assignment, and the corner rule the maximum (300 random cases)', () => {
    const random = seededRandom(404);
    for (let t = 0; t < 300; t++) {
      const expected = t % 2 === 0 ? RED : [0.5, 0.3, 0.2];
      const counts = expected.map(() => Math.floor(random() * 40));
      const unresolved = Math.floor(random() * 9);
      const A = [1, 10, 100][t % 3] as number;
      const mixture = { expected, priorConcentration: A };
      const brute = bruteForce(counts, unresolved, expected, A);
      expect(leastFavourableEvidence({ counts, unresolved }, mixture).logE).toBeCloseTo(brute.min, 9);
      expect(mostFavourableLogE({ counts, unresolved }, mixture)).toBeCloseTo(brute.max, 9);
    }
  });

  it('tops up the faces that came up less than expected: a d6 short of 6s gets its unresolved rolls as 6s', () => {
    const added = allocateLeastFavourable(
      D6.map((p, i) => 100 * p + [30, 30, 30, 30, 30, 10][i]!),
      D6,
      20,
    );
    expect(Array.from(added)).toEqual([0, 0, 0, 0, 0, 20]);
  });

  it('places every unresolved roll, and a fractional remainder too', () => {
    const added = allocateLeastFavourable([5, 1, 2.5], [0.5, 0.2, 0.3], 7.25);
    expect(added.reduce((a, b) => a + b, 0)).toBeCloseTo(7.25, 12);
    expect(Array.from(allocateLeastFavourable([5, 1], [0.5, 0.5], 0))).toEqual([0, 0]);
  });

  it('needs no unresolved rolls to be the plain e-value', () => {
    const mixture = { expected: RED, priorConcentration: 100 };
    expect(leastFavourableEvidence({ counts: [60, 15, 15, 10], unresolved: 0 }, mixture).logE).toBe(dirichletLogBayesFactor([60, 15, 15, 10], mixture));
  });
});

describe('least favourable e-value under misreads', () => {
  it('stays below the exact minimum over misread patterns, and within 1e-6 nats of it at rates up to 6 % (200 random cases)', () => {
    const random = seededRandom(77);
    let gap = 0;
    for (let t = 0; t < 200; t++) {
      const counts = RED.map(() => Math.floor(random() * 300));
      const unresolved = Math.floor(random() * 6);
      const rates = RED.map(() => 0.06 * random());
      const bound = leastFavourableEvidence({ counts, unresolved }, { expected: RED, priorConcentration: 100 }, rates).logE;
      let exact = Infinity;
      for (const u of compositions(unresolved, 4)) exact = Math.min(exact, exactMisreadMin(counts.map((c, i) => c + (u[i] as number)), RED, rates, 100));
      expect(bound).toBeLessThanOrEqual(exact + 1e-9);
      gap = Math.max(gap, exact - bound);
    }
    // A lower bound by construction; the second tangent makes it tight (measured gap ~6e-13).
    expect(gap).toBeLessThan(1e-6);
  });

  it('lowers the e-value more the larger the misread rates', () => {
    const mixture = { expected: RED, priorConcentration: 100 };
    const partial = { counts: [420, 110, 240, 230], unresolved: 0 };
    const none = leastFavourableEvidence(partial, mixture).logE;
    const small = leastFavourableEvidence(partial, mixture, [0.01, 0.01, 0.01, 0.01]).logE;
    const large = leastFavourableEvidence(partial, mixture, [0.05, 0.05, 0.05, 0.05]).logE;
    expect(small).toBeLessThan(none);
    expect(large).toBeLessThan(small);
  });
});
