import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { cohensW, effectSizeW, rateDelta, relativeDeviations } from '../../../src/stats/effectSize.js';

const redOdds = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

/*
 * Python:
 *   import numpy as np, math; from scipy import stats
 *   c = np.array([420, 248, 334]); p = np.array([3/8, 2/8, 3/8]); n = c.sum()
 *   math.sqrt(stats.chisquare(c, n*p).statistic / n)         -> 0.09927339230710486
 *   c / (n*p) - 1   -> [0.11776447105788423, -0.009980039920159722, -0.11111111111111116]
 *   p0 = np.array([3/8, 1/8, 2/8, 2/8]); q = np.array([0.5, 0.1, 0.2, 0.2])
 *   math.sqrt(((q - p0)**2 / p0).sum())   -> 0.2581988897471611
 *   Wilson 95 % for 548 of 1002: z = stats.norm.isf(0.025); x, n = 548, 1002
 *     c = (x + z*z/2)/(n + z*z); h = z/(n + z*z)*math.sqrt(x*(n - x)/n + z*z/4); c - h, c + h
 *     -> 0.515963161379646, 0.5774909303916465
 */
describe('Cohen’s w', () => {
  it('is sqrt(X² / n) for observed counts, as computed from SciPy’s chisquare', () => {
    expect(cohensW([420, 248, 334], [3 / 8, 2 / 8, 3 / 8])).toBeCloseTo(0.09927339230710486, 14);
  });

  it('between two distributions is sqrt(Σ (q − p)² / p)', () => {
    expect(effectSizeW(redOdds, [0.5, 0.1, 0.2, 0.2])).toBeCloseTo(0.2581988897471611, 14);
    expect(effectSizeW(redOdds, redOdds)).toBe(0);
  });

  it('is infinite when mass lands on an impossible face', () => {
    expect(effectSizeW([0.5, 0.5, 0], [0.4, 0.5, 0.1])).toBe(Infinity);
    expect(cohensW([1, 1, 1], [0.5, 0.5, 0])).toBe(Infinity);
  });
});

describe('relative deviations', () => {
  it('gives observed / expected − 1 per face', () => {
    const d = relativeDeviations([420, 248, 334], [3 / 8, 2 / 8, 3 / 8]);
    [0.11776447105788423, -0.009980039920159722, -0.11111111111111116].forEach((x, i) => expect(d[i]).toBeCloseTo(x, 14));
  });

  it('gives 0 for an impossible face never seen and Infinity for one seen', () => {
    expect(relativeDeviations([2, 2, 0], [0.5, 0.5, 0])[2]).toBe(0);
    expect(relativeDeviations([2, 2, 1], [0.5, 0.5, 0])[2]).toBe(Infinity);
  });
});

describe('rate delta', () => {
  it('reports the rate, the difference from the expected rate and a Wilson interval', () => {
    const r = rateDelta(548, 1002, 0.5);
    expect(r.rate).toBeCloseTo(548 / 1002, 15);
    expect(r.expected).toBe(0.5);
    expect(r.delta).toBeCloseTo(548 / 1002 - 0.5, 15);
    expect(r.relative).toBeCloseTo((548 / 1002 - 0.5) / 0.5, 15);
    expect(r.interval.lower).toBeCloseTo(0.515963161379646, 13);
    expect(r.interval.upper).toBeCloseTo(0.5774909303916465, 13);
  });

  it('refuses an expected rate of 0', () => {
    expect(() => rateDelta(1, 10, 0)).toThrow(InputError);
  });
});
