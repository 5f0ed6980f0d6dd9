import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { benjaminiHochbergAdjust, holmAdjust } from '../../../src/stats/multiplicity.js';

function expectAllClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => expect(Math.abs(a - (expected[i] as number))).toBeLessThanOrEqual(1e-15));
}

const tenDice = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216];

/*
 * Benjamini–Hochberg from SciPy 1.17:
 *   stats.false_discovery_control([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216], method='bh')
 *     -> [0.01, 0.04, 0.084, 0.084, 0.084, 0.1, 0.1057142857142857, 0.216, 0.216, 0.216]
 *   stats.false_discovery_control([0.5, 0.01, 0.04, 0.03, 0.02, 0.9, 0.0001], method='bh')
 *     -> [0.5833333333333334, 0.035, 0.055999999999999994, 0.0525, 0.04666666666666667, 0.9, 0.0007]
 * Holm (SciPy has none; statsmodels is not installed), the step-down rule written out in Python:
 *   o = np.argsort(q, kind='stable'); m = len(q); adj = np.empty(m); run = 0
 *   for j, i in enumerate(o): run = max(run, min(1, (m - j)*q[i])); adj[i] = run
 *   q = [0.5, 0.01, 0.04, 0.03, 0.02, 0.9, 0.0001] -> [1.0, 0.06, 0.12, 0.12, 0.1, 1.0, 0.0007]
 */
describe('Holm adjustment', () => {
  it('gives the statistics.md values for ten dice', () => {
    expectAllClose(holmAdjust(tenDice), [0.01, 0.072, 0.312, 0.312, 0.312, 0.312, 0.312, 0.615, 0.615, 0.615]);
  });

  it('returns adjusted p-values in the input order, capped at 1', () => {
    expectAllClose(holmAdjust([0.5, 0.01, 0.04, 0.03, 0.02, 0.9, 0.0001]), [1, 0.06, 0.12, 0.12, 0.1, 1, 0.0007]);
  });
});

describe('Benjamini–Hochberg adjustment', () => {
  it('gives SciPy’s false_discovery_control values', () => {
    expectAllClose(benjaminiHochbergAdjust(tenDice), [0.01, 0.04, 0.084, 0.084, 0.084, 0.1, 0.1057142857142857, 0.216, 0.216, 0.216]);
    expectAllClose(
      benjaminiHochbergAdjust([0.5, 0.01, 0.04, 0.03, 0.02, 0.9, 0.0001]),
      [0.5833333333333334, 0.035, 0.055999999999999994, 0.0525, 0.04666666666666667, 0.9, 0.0007],
    );
  });
});

describe('both adjustments', () => {
  it('accept an empty list and refuse a value outside [0, 1]', () => {
    expect(holmAdjust([])).toEqual([]);
    expect(benjaminiHochbergAdjust([])).toEqual([]);
    expect(() => holmAdjust([0.1, 1.2])).toThrow(InputError);
    expect(() => benjaminiHochbergAdjust([Number.NaN])).toThrow(/p-value 0/);
  });

  const pLists = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 });

  it.each([
    ['Holm', holmAdjust],
    ['Benjamini–Hochberg', benjaminiHochbergAdjust],
  ])('%s: adjusted >= raw, <= 1, monotone in the raw order, and order-invariant', (_name, adjust) => {
    fc.assert(
      fc.property(pLists, fc.integer(), (p, shift) => {
        const adjusted = adjust(p);
        for (let i = 0; i < p.length; i++) {
          expect(adjusted[i]).toBeGreaterThanOrEqual(p[i] as number);
          expect(adjusted[i]).toBeLessThanOrEqual(1);
          for (let j = 0; j < p.length; j++) {
            if ((p[i] as number) < (p[j] as number)) expect(adjusted[i]).toBeLessThanOrEqual(adjusted[j] as number);
          }
        }
        // A rotation of the input gives the same adjusted value to each p.
        const r = ((shift % p.length) + p.length) % p.length;
        const rotated = [...p.slice(r), ...p.slice(0, r)];
        const adjustedRotated = adjust(rotated);
        rotated.forEach((_, i) => expect(adjustedRotated[i]).toBe(adjusted[(i + r) % p.length]));
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
