import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { d6Die } from '../../../src/dice/catalogue.js';
import type { DieRolls } from '../../../src/rolllog/types.js';
import { declinedEarly as declinedEarlyOf } from './helpers.js';

/*
 * A D6 whose reader declined 40 rolls early on, while no 6 was read: the first 200 read rolls are 40 each of 1–5 with
 * the 40 unresolved rolls among them (one after every fifth read roll), then 60 each of 1–6. Read rolls alone: no 6 in
 * 200, far past 1/alpha; whatever the unresolved rolls were, they could be the missing 6s.
 *
 * SciPy 1.17 (Dirichlet-mixture log Bayes factor, prior 100 * p0, its minimum over every assignment of the 40
 * unresolved rolls to faces, by brute force over all 1,221,759 of them):
 *   import numpy as np, itertools
 *   from scipy.special import gammaln
 *   def logbf(x, p0, A=100.0):
 *       a = A * p0; n = x.sum(-1)
 *       return gammaln(A) - gammaln(A + n) + (gammaln(a + x) - gammaln(a)).sum(-1) - (x * np.log(p0)).sum(-1)
 *   p0 = np.full(6, 1/6); c = np.array([100]*5 + [60]); u = 40
 *   comps = np.array([(a, b-a-1, cc-b-1, d-cc-1, e-d-1, u+5-e-1) for a, b, cc, d, e in itertools.combinations(range(u+5), 5)])
 *   logbf(c + comps, p0).min()  -> -4.889771789595898   (e = 0.007523139137728408)
 *   logbf(c, p0)                -> 1.93703552340844     (the read rolls alone: e = 6.938152463259973)
 */
const declinedEarly = (): DieRolls => declinedEarlyOf(d6Die);

describe("analyze's anytime-valid e-value of a die with unresolved rolls", () => {
  it('is the least favourable e-value over every face the unresolved rolls could have been, not that of the read rolls alone', () => {
    const d = analyzeDice([declinedEarly()], { alpha: 0.05, delta: 0.05 }).dice[0];
    expect(d?.anytime.logE).toBeCloseTo(-4.889771789595898, 9);
    expect(d?.anytime.unresolved).toBe(40);
  });

  it('does not decide UNFAIR where the read rolls alone would, since the unresolved rolls could be the missing 6s', () => {
    const rolls = declinedEarly();
    const robust = analyzeDice([rolls], { alpha: 0.05, delta: 0.05 }).dice[0];
    expect(robust?.anytime.decision).not.toBe('UNFAIR');
    // The same read rolls without their unresolved ones: UNFAIR early on, and their final e-value is the read-only one.
    const { unresolvedAt: _, ...readOnly } = rolls;
    const naive = analyzeDice([readOnly], { alpha: 0.05, delta: 0.05 }).dice[0];
    expect(naive?.anytime.decision).toBe('UNFAIR');
    expect(naive?.anytime.logE).toBeCloseTo(1.93703552340844, 9);
    expect(naive?.anytime.unresolved).toBeUndefined();
  });
});
