import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { dirichletPosterior, goodmanIntervals, wilsonInterval } from '../../../src/stats/intervals.js';

function expectRelative(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

function expectInterval(actual: { lower: number; upper: number }, lower: number, upper: number, rel = 1e-12): void {
  if (lower === 0) expect(actual.lower).toBe(0);
  else expectRelative(actual.lower, lower, rel);
  if (upper === 1) expect(actual.upper).toBe(1);
  else expectRelative(actual.upper, upper, rel);
}

describe('Wilson interval', () => {
  /*
   * SciPy 1.17, Wilson score interval written out (statsmodels is not installed here):
   *   def wilson(x, n, alpha=0.05):
   *       z = stats.norm.isf(alpha/2); c = (x + z*z/2)/(n + z*z)
   *       h = z/(n + z*z)*math.sqrt(x*(n - x)/n + z*z/4); return max(0, c - h), min(1, c + h)
   *   wilson(50, 100)          -> 0.4038315303659956, 0.5961684696340044
   *   wilson(0, 20)            -> 0, 0.1611251580528194
   *   wilson(20, 20)           -> 0.8388748419471805, 1
   *   wilson(548, 1002, 0.01)  -> 0.5062225676913702, 0.5869727008014894
   */
  it('gives the Wilson score interval computed with SciPy’s normal quantile', () => {
    expectInterval(wilsonInterval(50, 100), 0.4038315303659956, 0.5961684696340044);
    expectInterval(wilsonInterval(0, 20), 0, 0.1611251580528194);
    expectInterval(wilsonInterval(20, 20), 0.8388748419471805, 1);
    expectInterval(wilsonInterval(548, 1002, 0.01), 0.5062225676913702, 0.5869727008014894);
  });

  it('refuses more successes than trials', () => {
    expect(() => wilsonInterval(5, 4)).toThrow(InputError);
    expect(() => wilsonInterval(1, 0)).toThrow(/positive integer/);
  });
});

describe('Goodman simultaneous intervals', () => {
  /*
   * Goodman (1965), A = chi2 upper alpha/k point with 1 df:
   *   def goodman(counts, alpha=0.05):
   *       counts = np.array(counts, float); n = counts.sum(); k = len(counts)
   *       A = stats.chi2.isf(alpha/k, 1)
   *       lo = (A + 2*counts - np.sqrt(A*(A + 4*counts*(n - counts)/n)))/(2*(n + A))
   *       hi = (A + 2*counts + np.sqrt(A*(A + 4*counts*(n - counts)/n)))/(2*(n + A))
   *   goodman([40, 10, 25, 25]) -> hit [0.287011990176073, 0.5247323976313734],
   *       crit [0.04709049622826236, 0.19988705500152287], focus and blank [0.15872823040741035, 0.37063273911120537]
   *   goodman([420, 248, 334]) -> [0.38240798786051006, 0.4568348481647482],
   *       [0.21636373447570872, 0.28151821014639417], [0.2987183745005295, 0.369844015823151]
   *   goodman([0, 12, 0, 3]) -> [0.0, 0.2937365185986464], [0.4778637761406544, 0.9458943127001578],
   *       [0.0, 0.2937365185986464], [0.05410568729984216, 0.5221362238593457]
   */
  it('gives the statistics.md intervals for the red die on all four faces', () => {
    const [hit, crit, focus, blank] = goodmanIntervals([40, 10, 25, 25]);
    expectInterval(hit!, 0.287011990176073, 0.5247323976313734);
    expectInterval(crit!, 0.04709049622826236, 0.19988705500152287);
    expectInterval(focus!, 0.15872823040741035, 0.37063273911120537);
    expectInterval(blank!, 0.15872823040741035, 0.37063273911120537);
    // statistics.md rounds to six places.
    expect(hit!.lower).toBeCloseTo(0.287012, 6);
    expect(crit!.upper).toBeCloseTo(0.199887, 6);
  });

  it('gives the Python intervals for the green dice and for faces never rolled', () => {
    const green = goodmanIntervals([420, 248, 334]);
    expectInterval(green[0]!, 0.38240798786051006, 0.4568348481647482);
    expectInterval(green[1]!, 0.21636373447570872, 0.28151821014639417);
    expectInterval(green[2]!, 0.2987183745005295, 0.369844015823151);
    const sparse = goodmanIntervals([0, 12, 0, 3]);
    expectInterval(sparse[0]!, 0, 0.2937365185986464);
    expectInterval(sparse[1]!, 0.4778637761406544, 0.9458943127001578);
    expectInterval(sparse[3]!, 0.05410568729984216, 0.5221362238593457);
  });

  it('is wider than the one-face Wilson interval (Bonferroni over faces)', () => {
    const [hit] = goodmanIntervals([40, 10, 25, 25]);
    const single = wilsonInterval(40, 100);
    expect(hit!.lower).toBeLessThan(single.lower);
    expect(hit!.upper).toBeGreaterThan(single.upper);
  });

  it('refuses a die with no rolls', () => {
    expect(() => goodmanIntervals([0, 0, 0])).toThrow(/at least one roll/);
  });
});

describe('Dirichlet posterior', () => {
  /*
   * Beta marginals of Dirichlet(counts + prior), equal-tailed 95 %:
   *   def post(c, a):
   *       c = np.array(c, float); a = np.broadcast_to(np.array(a, float), c.shape); al = c + a; A = al.sum()
   *       return [(x/A, stats.beta.ppf(0.025, x, A - x), stats.beta.ppf(0.975, x, A - x)) for x in al]
   *   post([40, 10, 25, 25], 1) -> (0.3942307692307692, 0.30289348518284137, 0.4894224719920425),
   *       (0.10576923076923077, 0.05453161738774678, 0.17130628035434806),
   *       (0.25, 0.1719901964613698, 0.3371127526296998) twice
   *   post([3, 0, 1], [0.5, 2, 0.5]) -> (0.5, 0.1668081973318454, 0.8331918026681545),
   *       (0.2857142857142857, 0.043271868292741676, 0.6412345789976748),
   *       (0.21428571428571427, 0.01862012711944217, 0.5580567736092483)
   *   post([0, 0, 0, 0], 1) -> (0.25, 0.008403758659612636, 0.7075982261787133) for each face
   */
  it('gives the posterior means and SciPy beta.ppf intervals under the uniform prior', () => {
    const post = dirichletPosterior([40, 10, 25, 25]);
    expectRelative(post[0]!.mean, 0.3942307692307692, 1e-15);
    expectInterval(post[0]!, 0.30289348518284137, 0.4894224719920425);
    expectInterval(post[1]!, 0.05453161738774678, 0.17130628035434806);
    expectInterval(post[2]!, 0.1719901964613698, 0.3371127526296998);
  });

  it('takes one concentration per face', () => {
    const post = dirichletPosterior([3, 0, 1], [0.5, 2, 0.5]);
    expectRelative(post[1]!.mean, 0.2857142857142857, 1e-15);
    expectInterval(post[0]!, 0.1668081973318454, 0.8331918026681545);
    expectInterval(post[1]!, 0.043271868292741676, 0.6412345789976748);
    expectInterval(post[2]!, 0.01862012711944217, 0.5580567736092483);
  });

  it('returns the prior before any roll', () => {
    for (const face of dirichletPosterior([0, 0, 0, 0])) expectInterval(face, 0.008403758659612636, 0.7075982261787133);
  });

  it('refuses a non-positive prior', () => {
    expect(() => dirichletPosterior([1, 2], 0)).toThrow(/face 0 .*positive/);
    expect(() => dirichletPosterior([1, 2], [1])).toThrow(/2 counts but 1 prior/);
  });
});
