import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { contingencyTest } from '../../../src/stats/homogeneity.js';

/*
 * Golden values (SciPy 1.17; mpmath 40 digits where SciPy's p underflows):
 *
 *   import numpy as np
 *   from scipy.stats import chi2_contingency, chi2
 *   from scipy.stats.contingency import association, expected_freq
 *   def report(t):
 *       t = np.array(t)
 *       r = chi2_contingency(t, correction=False)
 *       g = chi2_contingency(t, correction=False, lambda_="log-likelihood")
 *       v = association(t, method="cramer")
 *       e = expected_freq(t); n = t.sum(); R = t.sum(1, keepdims=True); C = t.sum(0, keepdims=True)
 *       adj = (t - e) / np.sqrt(e * (1 - R/n) * (1 - C/n))     # adjusted standardized residuals
 *       print(r.statistic, r.dof, r.pvalue, chi2.logsf(r.statistic, r.dof))
 *       print(g.statistic, g.pvalue, chi2.logsf(g.statistic, g.dof))
 *       print(v); print(adj.tolist())
 *   report([[40,10,25,25],[52,8,20,20],[35,15,30,20]])   # three red dice
 *   report([[12,5],[3,9]])
 *   report([[30,12,8],[25,5,20]])   # the table below without its zero row and zero column
 *   report([[900,100],[100,900]])
 *   # G's p underflows in SciPy; its log from mpmath:
 *   #   mpmath.mp.dps = 40
 *   #   mpmath.log(mpmath.gammainc(0.5, mpmath.mpf('1472.2568286739884')/2, mpmath.inf, regularized=True))
 *   #   -> -740.0021596494562970457
 */
interface Golden {
  table: number[][];
  pearson: [number, number, number, number];
  g: [number, number, number];
  v: number;
  residuals: number[][];
}

const GOLDEN: Record<string, Golden> = {
  'three red dice (3 x 4)': {
    table: [
      [40, 10, 25, 25],
      [52, 8, 20, 20],
      [35, 15, 30, 20],
    ],
    pearson: [8.739166345465557, 6, 0.18878725816805525, -1.6671345160648456],
    g: [8.606430205411751, 0.19695173074003264, -1.6247966018910507],
    v: 0.12068669041133988,
    residuals: [
      [-0.5783873122195877, -0.391430158454744, 0.0, 0.9909574797525759],
      [2.39617600776686, -1.174290475364232, -1.414213562373095, -0.4954787398762885],
      [-1.8177886955472744, 1.565720633818976, 1.414213562373095, -0.4954787398762885],
    ],
  },
  'a 2 x 2 table (no Yates correction)': {
    table: [
      [12, 5],
      [3, 9],
    ],
    pearson: [5.85483193277311, 1, 0.015534341414683461, -4.164702130683431],
    g: [6.074888427412215, 0.0137116961203241, -4.289506078958917],
    v: 0.4493225526306476,
    residuals: [
      [2.4196759974784046, -2.4196759974784046],
      [-2.419675997478404, 2.419675997478404],
    ],
  },
  'a strongly dependent 2 x 2 table (p far below 1e-300)': {
    table: [
      [900, 100],
      [100, 900],
    ],
    pearson: [1280.0, 1, 2.509158096763556e-280, -643.8038787610709],
    g: [1472.2568286739884, 0, -740.0021596494563],
    v: 0.8,
    residuals: [
      [35.77708763999664, -35.77708763999664],
      [-35.77708763999664, 35.77708763999664],
    ],
  },
};

describe('contingencyTest', () => {
  it.each(Object.entries(GOLDEN))('gives the Pearson and G statistics, p-values, V and residuals SciPy gives for %s', (_name, golden) => {
    const r = contingencyTest(golden.table);
    expect(r.pearson.statistic).toBeCloseTo(golden.pearson[0], 9);
    expect(r.pearson.df).toBe(golden.pearson[1]);
    expect(r.pearson.p / golden.pearson[2]).toBeCloseTo(1, 9);
    expect(r.pearson.logP).toBeCloseTo(golden.pearson[3], 9);
    expect(r.g.statistic).toBeCloseTo(golden.g[0], 9);
    expect(r.g.df).toBe(golden.pearson[1]);
    if (golden.g[1] > 0) expect(r.g.p / golden.g[1]).toBeCloseTo(1, 9);
    expect(r.g.logP).toBeCloseTo(golden.g[2], 8);
    expect(r.cramersV).toBeCloseTo(golden.v, 12);
    r.residuals.forEach((row, i) => row.forEach((z, j) => expect(z).toBeCloseTo(golden.residuals[i]![j]!, 10)));
  });

  it('drops all-zero rows and columns, reduces df and reports which were kept', () => {
    // SciPy on the reduced table [[30,12,8],[25,5,20]]:
    //   X2 8.479755538579068, df 2, p 0.014409353000931026; G 8.738207940123877, p 0.012662581538473617;
    //   V 0.2912001981211391; residuals [[1.005037815259212, 1.8635220382275075, -2.6726124191242437], [-..., ..., ...]]
    const r = contingencyTest([
      [0, 0, 0, 0],
      [30, 0, 12, 8],
      [25, 0, 5, 20],
    ]);
    expect(r.rowsUsed).toEqual([1, 2]);
    expect(r.columnsUsed).toEqual([0, 2, 3]);
    expect(r.pearson.df).toBe(2);
    expect(r.pearson.statistic).toBeCloseTo(8.479755538579068, 10);
    expect(r.pearson.p).toBeCloseTo(0.014409353000931026, 12);
    expect(r.g.statistic).toBeCloseTo(8.738207940123877, 10);
    expect(r.g.p).toBeCloseTo(0.012662581538473617, 12);
    expect(r.cramersV).toBeCloseTo(0.2912001981211391, 12);
    expect(r.residuals[0]).toEqual([
      expect.closeTo(1.005037815259212, 10),
      expect.closeTo(1.8635220382275075, 10),
      expect.closeTo(-2.6726124191242437, 10),
    ]);
    expect(r.expected[0]).toEqual([27.5, 8.5, 14]);
    expect(r.n).toBe(100);
  });

  it('has nothing to test when one row or one column is left: statistic 0, df 0, p 1', () => {
    const r = contingencyTest([
      [5, 0, 7],
      [0, 0, 0],
    ]);
    expect(r.pearson).toEqual({ statistic: 0, df: 0, p: 1, logP: 0 });
    expect(r.g).toEqual({ statistic: 0, df: 0, p: 1, logP: 0 });
    expect(r.cramersV).toBe(0);
    expect(contingencyTest([[0, 0]]).pearson.p).toBe(1);
  });

  it('finds identical dice alike: proportional rows give X2 = 0, p = 1, V = 0', () => {
    const r = contingencyTest([
      [30, 10, 20, 20],
      [60, 20, 40, 40],
    ]);
    expect(r.pearson.statistic).toBeCloseTo(0, 12);
    expect(r.pearson.p).toBeCloseTo(1, 12);
    expect(r.cramersV).toBeCloseTo(0, 6);
  });

  it('refuses ragged tables, empty tables and counts that are not non-negative integers', () => {
    expect(() => contingencyTest([])).toThrow(InputError);
    expect(() => contingencyTest([[]])).toThrow(InputError);
    expect(() => contingencyTest([[1, 2], [3]])).toThrow(/rectangular/);
    expect(() => contingencyTest([[1, -2], [3, 4]])).toThrow(InputError);
    expect(() => contingencyTest([[1, 2.5], [3, 4]])).toThrow(/Cell \[0\]\[1\]/);
    expect(() => contingencyTest([[1, NaN], [3, 4]])).toThrow(InputError);
  });
});
