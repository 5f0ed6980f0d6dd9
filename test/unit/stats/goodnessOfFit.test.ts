import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { cressieReadTest, gTest, pearsonTest } from '../../../src/stats/goodnessOfFit.js';

function expectRelative(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

const redOdds = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const greenOdds = [3 / 8, 2 / 8, 3 / 8];
const d8Odds = new Array<number>(8).fill(1 / 8);

/*
 * SciPy 1.17:
 *   import numpy as np; from scipy import stats
 *   def run(c, p):
 *       c = np.array(c, float); e = c.sum() * np.array(p)
 *       for lam in ["pearson", "log-likelihood", "cressie-read", -0.5, "mod-log-likelihood"]:
 *           r = stats.power_divergence(c, e, lambda_=lam); print(lam, r.statistic, r.pvalue)
 *   run([40, 10, 25, 25], [3/8, 1/8, 2/8, 2/8])
 *     pearson 0.6666666666666666 0.8810148425137847 | log-likelihood 0.7002106647214994 0.8731543974699121
 *     cressie-read 0.6773884786717379 0.8785090755019432 | -0.5 0.7186132034150461 0.8688174478748528
 *     mod-log-likelihood 0.7381996975374063 0.8641843026640448
 *   run([420, 248, 334], [3/8, 2/8, 3/8])
 *     pearson 9.874916833000666 0.007172805509162725 | log-likelihood 9.863739120244176 0.007213005520388809
 *     cressie-read 9.868805103544531 0.007194758157598101
 *   run([160, 90, 100, 100, 100, 100, 80, 70], [1/8]*8)
 *     pearson 50.0 1.4444852779215397e-08 | log-likelihood 45.79880817853055 9.566417397267438e-08
 *     cressie-read 48.42045910463111 2.946405956251777e-08
 *   run([5000, 1000, 2000, 2000], [3/8, 1/8, 2/8, 2/8])
 *     pearson 666.6666666666667 3.5458234932908745e-144 | log-likelihood 645.3852113757117 1.4584882373221093e-139
 *     cressie-read 658.6884411076195 1.9035324584320046e-142
 *   stats.chi2.logsf(666.6666666666667, 3) = -330.30648296101515
 *   stats.chisquare([3, 1]) -> 1.0, 0.31731050786291115
 * mpmath (dps 50), where SciPy's logsf is -inf:
 *   mp.log(mp.gammainc(mp.mpf(3)/2, mp.mpf(22000)/2, mp.inf, regularized=True)) = -10995.2263470350278131099617711...
 */
describe('Pearson test', () => {
  it('gives the Pearson statistic and p-value SciPy gives for a fair-looking red die', () => {
    const r = pearsonTest([40, 10, 25, 25], redOdds);
    expect(r.test).toBe('pearson');
    expect(r.df).toBe(3);
    expectRelative(r.statistic, 0.6666666666666666, 1e-15);
    expectRelative(r.p, 0.8810148425137847, 1e-14);
  });

  it('gives SciPy’s p-value for the 1,002-roll green dice test', () => {
    const r = pearsonTest([420, 248, 334], greenOdds);
    expect(r.df).toBe(2);
    expectRelative(r.statistic, 9.874916833000666, 1e-14);
    expectRelative(r.p, 0.007172805509162725, 1e-13);
  });

  it('gives SciPy’s p-value for a heavy d8 by face', () => {
    const r = pearsonTest([160, 90, 100, 100, 100, 100, 80, 70], d8Odds);
    expect(r.df).toBe(7);
    expect(r.statistic).toBe(50);
    expectRelative(r.p, 1.4444852779215397e-8, 1e-13);
  });

  it('keeps p-values below 1e-100 exact, with their log', () => {
    const r = pearsonTest([5000, 1000, 2000, 2000], redOdds);
    expectRelative(r.statistic, 666.6666666666667, 1e-14);
    expectRelative(r.p, 3.5458234932908745e-144, 1e-12);
    expectRelative(r.logP, -330.30648296101515, 1e-14);
  });

  it('gives log p when p itself underflows a double (mpmath reference)', () => {
    const r = pearsonTest([60000, 10000, 15000, 15000], redOdds);
    expect(r.statistic).toBe(22000);
    expect(r.p).toBe(0);
    expectRelative(r.logP, -10995.226347035028, 1e-13);
  });
});

describe('G test', () => {
  it('gives the G statistic and p-value SciPy gives', () => {
    const red = gTest([40, 10, 25, 25], redOdds);
    expect(red.test).toBe('g');
    expectRelative(red.statistic, 0.7002106647214994, 1e-13);
    expectRelative(red.p, 0.8731543974699121, 1e-13);
    expectRelative(gTest([420, 248, 334], greenOdds).p, 0.007213005520388809, 1e-12);
    expectRelative(gTest([160, 90, 100, 100, 100, 100, 80, 70], d8Odds).p, 9.566417397267438e-8, 1e-12);
    expectRelative(gTest([5000, 1000, 2000, 2000], redOdds).p, 1.4584882373221093e-139, 1e-11);
  });
});

describe('Cressie–Read test', () => {
  it('gives SciPy’s power_divergence "cressie-read" (lambda 2/3) values by default', () => {
    const red = cressieReadTest([40, 10, 25, 25], redOdds);
    expect(red.test).toBe('cressie-read');
    expect(red.lambda).toBeCloseTo(2 / 3, 15);
    expectRelative(red.statistic, 0.6773884786717379, 1e-13);
    expectRelative(red.p, 0.8785090755019432, 1e-13);
    expectRelative(cressieReadTest([420, 248, 334], greenOdds).p, 0.007194758157598101, 1e-12);
    expectRelative(cressieReadTest([160, 90, 100, 100, 100, 100, 80, 70], d8Odds).p, 2.946405956251777e-8, 1e-12);
    expectRelative(cressieReadTest([5000, 1000, 2000, 2000], redOdds).p, 1.9035324584320046e-142, 1e-11);
  });

  it('gives SciPy’s values for a negative lambda and for the modified G limit (lambda -1)', () => {
    expectRelative(cressieReadTest([40, 10, 25, 25], redOdds, -0.5).statistic, 0.7186132034150461, 1e-12);
    const kullback = cressieReadTest([40, 10, 25, 25], redOdds, -1);
    expectRelative(kullback.statistic, 0.7381996975374063, 1e-12);
    expectRelative(kullback.p, 0.8641843026640448, 1e-13);
  });

  it('reduces to Pearson at lambda 1 and to G at lambda 0', () => {
    const counts = [160, 90, 100, 100, 100, 100, 80, 70];
    expectRelative(cressieReadTest(counts, d8Odds, 1).statistic, pearsonTest(counts, d8Odds).statistic, 1e-13);
    expectRelative(cressieReadTest(counts, d8Odds, 0).statistic, gTest(counts, d8Odds).statistic, 1e-15);
  });

  it('is infinite for a negative lambda when a possible face never came up', () => {
    expect(cressieReadTest([10, 0, 5, 5], redOdds, -0.5).statistic).toBe(Infinity);
    expect(cressieReadTest([10, 0, 5, 5], redOdds, -2).statistic).toBe(Infinity);
    expect(cressieReadTest([10, 0, 5, 5], redOdds, -0.5).p).toBe(0);
  });
});

describe('faces with zero expected probability', () => {
  it('leaves them out of the statistic and the degrees of freedom', () => {
    const r = pearsonTest([3, 0, 1], [0.5, 0, 0.5]);
    expect(r.df).toBe(1);
    expect(r.statistic).toBe(1);
    expectRelative(r.p, 0.31731050786291115, 1e-14);
  });

  it('rejects outright when such a face was rolled', () => {
    for (const r of [pearsonTest([3, 1, 1], [0.5, 0, 0.5]), gTest([3, 1, 1], [0.5, 0, 0.5]), cressieReadTest([3, 1, 1], [0.5, 0, 0.5])]) {
      expect(r.statistic).toBe(Infinity);
      expect(r.p).toBe(0);
      expect(r.logP).toBe(-Infinity);
    }
  });
});

it('refuses probabilities that do not sum to 1', () => {
  expect(() => pearsonTest([40, 10, 25, 25], [3, 1, 2, 2])).toThrow(InputError);
});
