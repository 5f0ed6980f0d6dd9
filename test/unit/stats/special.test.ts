import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  binomialCdf,
  binomialSf,
  chiSquareQuantile,
  chiSquareSf,
  chiSquareUpperQuantile,
  noncentralChiSquareCdf,
  noncentralChiSquareSf,
  normalQuantile,
  normalSf,
} from '../../../src/stats/special.js';

/** |actual − expected| <= rel · |expected|: goldens are checked to a stated relative precision. */
function expectRelative(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

describe('chi-square upper tail (the lead engineer’s chiSquareSf)', () => {
  /*
   * SciPy 1.17 / mpmath 1.3 (mp.dps = 40):
   *   from scipy import stats; import mpmath as mp
   *   for x, df in [(0.6666666666666666, 3), (50, 7), (1000, 4), (990, 5), (3000, 7)]:
   *       stats.chi2.sf(x, df), stats.chi2.logsf(x, df),
   *       mp.log(mp.gammainc(mp.mpf(df)/2, mp.mpf(x)/2, mp.inf, regularized=True))
   *   (0.6666666666666666, 3) -> 0.8810148425137847, logsf -0.12668080583964927
   *   (50, 7)   -> 1.4444852779215397e-08, logsf -18.052927694896322
   *   (1000, 4) -> 3.5694127797773694e-215, logsf -493.78339389891516
   *   (990, 5)  -> 8.786551005503166e-212
   *   (3000, 7) -> 0.0, logsf -inf in SciPy; mpmath log Q = -1482.91625569085568732818...
   */
  it('gives the p-value SciPy gives for the fair-looking red die (p ≈ 0.88)', () => {
    const t = chiSquareSf(0.6666666666666666, 3);
    expectRelative(t.p, 0.8810148425137847, 1e-14);
    expectRelative(t.logP, -0.12668080583964927, 1e-13);
  });

  it('gives the p-value SciPy gives for the heavy d8 (p ≈ 1.4e-8)', () => {
    expectRelative(chiSquareSf(50, 7).p, 1.4444852779215397e-8, 1e-13);
  });

  it('keeps relative precision for p-values below 1e-200', () => {
    const t = chiSquareSf(1000, 4);
    expectRelative(t.p, 3.5694127797773694e-215, 1e-12);
    expectRelative(t.logP, -493.78339389891516, 1e-14);
    expectRelative(chiSquareSf(990, 5).p, 8.786551005503166e-212, 1e-12);
  });

  it('carries log p through underflow where SciPy’s logsf returns -inf (mpmath reference)', () => {
    const t = chiSquareSf(3000, 7);
    expect(t.p).toBe(0);
    expectRelative(t.logP, -1482.9162556908557, 1e-13);
  });
});

describe('large shapes, where @stdlib/math-base-special-gammainc 0.3.1 is off by percent', () => {
  /*
   * stdlib's x > 1000 asymptotic series starts at a instead of a − 1 (Boost: a_poch(a - 1)):
   * its Q(3000.5, 2997.5) is 0.52722 instead of 0.51942. special.ts routes that region around it.
   *   stats.chi2.sf(3100, 3000)     = 0.09930779797969452
   *   stats.chi2.sf(20000, 20007)   = 0.5126304377633025
   *   stats.chi2.isf(0.05, 3000)    = 3128.5366700128084
   *   stats.chi2.ppf(0.3, 2500)     = 2462.4415171656033
   *   stats.ncx2.sf(5000, 3000, 1500)  = 4.872570723516686e-06
   *   stats.ncx2.cdf(4200, 3000, 1500) = 0.002633216597626578
   * mpmath (dps 30), for the large-lambda case SciPy gives 0.00018586415016281344:
   *   x, l = mp.mpf(20000), mp.mpf(19000); mu = l / 2
   *   w = lambda j: mp.exp(-mu + j*mp.log(mu) - mp.loggamma(j+1))
   *   mp.fsum(w(j) * mp.gammainc(mp.mpf(7)/2 + j, x/2, mp.inf, regularized=True) for j in range(8500, 10600))
   *   -> 0.000185864150162812929218698960087
   */
  it('gives the chi-square tails and quantiles SciPy gives for thousands of degrees of freedom', () => {
    expectRelative(chiSquareSf(3100, 3000).p, 0.09930779797969452, 1e-12);
    expectRelative(chiSquareSf(20000, 20007).p, 0.5126304377633025, 1e-12);
    expectRelative(chiSquareUpperQuantile(0.05, 3000), 3128.5366700128084, 1e-13);
    expectRelative(chiSquareQuantile(0.3, 2500), 2462.4415171656033, 1e-13);
  });

  it('gives the noncentral tails SciPy and mpmath give for large lambda', () => {
    expectRelative(noncentralChiSquareSf(5000, 3000, 1500), 4.872570723516686e-6, 1e-11);
    expectRelative(noncentralChiSquareCdf(4200, 3000, 1500), 0.002633216597626578, 1e-11);
    expectRelative(noncentralChiSquareSf(20000, 7, 19000), 0.0001858641501628129, 1e-12);
  });
});

describe('normal upper tail (the lead engineer’s normalSf)', () => {
  /*
   * stats.norm.sf(5) = 2.866515718791933e-07; stats.norm.sf(30) = 4.906713927147908e-198
   * stats.norm.logsf(40) = -804.6084420137539; mpmath: mp.log(mp.ncdf(-40)) = -804.60844201375378816660...
   */
  it('matches SciPy in the tail and carries the log where p underflows', () => {
    expectRelative(normalSf(5).p, 2.866515718791933e-7, 1e-13);
    expectRelative(normalSf(30).p, 4.906713927147908e-198, 1e-12);
    const far = normalSf(40);
    expect(far.p).toBe(0);
    expectRelative(far.logP, -804.6084420137538, 1e-13);
  });
});

describe('noncentral chi-square', () => {
  /*
   * from scipy import stats
   * c = stats.chi2.isf(0.05, 3)                  # 7.814727903251178
   * stats.ncx2.sf(c, 3, 10.9)                     # 0.7998971492265442
   * for x, df, l in [(5, 3, 10.9), (300, 4, 50), (1500, 5, 1000), (30, 1, 0.5), (12, 6, 0.001), (20000, 7, 19000), (2500, 5, 2000)]:
   *     stats.ncx2.cdf(x, df, l), stats.ncx2.sf(x, df, l)
   *  (5, 3, 10.9)        cdf 0.07483599938930359   sf 0.9251640006106965
   *  (300, 4, 50)        cdf 1.0                   sf 2.2935741250153395e-24
   *  (1500, 5, 1000)     cdf 0.999999999999107     sf 8.945964239393501e-13
   *  (30, 1, 0.5)        cdf 0.9999990791016394    sf 9.208983607089863e-07
   *  (12, 6, 0.001)      cdf 0.9379865724673404    sf 0.062013427532659524
   *  (20000, 7, 19000)   cdf 0.9998141358498395    sf 0.00018586415016281344
   *  (2500, 5, 2000)     cdf 0.9999999181148387    sf 8.188516171582934e-08
   */
  it('gives the power SciPy gives for df 3, lambda 10.9 at alpha 0.05', () => {
    expectRelative(noncentralChiSquareSf(chiSquareUpperQuantile(0.05, 3), 3, 10.9), 0.7998971492265442, 1e-12);
  });

  it.each([
    [5, 3, 10.9, 0.07483599938930359, 0.9251640006106965],
    [300, 4, 50, 1.0, 2.2935741250153395e-24],
    [1500, 5, 1000, 0.999999999999107, 8.945964239393501e-13],
    [30, 1, 0.5, 0.9999990791016394, 9.208983607089863e-7],
    [12, 6, 0.001, 0.9379865724673404, 0.062013427532659524],
    [20000, 7, 19000, 0.9998141358498395, 0.00018586415016281344],
    [2500, 5, 2000, 0.9999999181148387, 8.188516171582934e-8],
  ])('matches SciPy at x %s, df %s, lambda %s', (x, df, lambda, cdf, sf) => {
    expectRelative(noncentralChiSquareCdf(x, df, lambda), cdf, 1e-11);
    // Upper tails are summed directly, so even 1e-24 keeps its relative precision.
    expectRelative(noncentralChiSquareSf(x, df, lambda), sf, 1e-10);
  });

  it('keeps relative precision in a lower tail SciPy underflows to 0 (mpmath reference)', () => {
    /*
     * stats.ncx2.cdf(0.5, 10, 1000) -> 0.0 in SciPy. mpmath (dps 40), the Poisson-weighted series summed explicitly:
     *   x, l = mp.mpf(0.5), mp.mpf(1000)
     *   mp.fsum(mp.exp(-l/2)*(l/2)**j/mp.factorial(j)*mp.gammainc(5+j, 0, x/2, regularized=True) for j in range(400))
     *   -> 7.792393348237755808931880679635707632338e-218
     */
    expectRelative(noncentralChiSquareCdf(0.5, 10, 1000), 7.792393348237756e-218, 1e-11);
  });

  it('reduces to the central chi-square when lambda is 0', () => {
    expect(noncentralChiSquareSf(50, 7, 0)).toBe(chiSquareSf(50, 7).p);
  });

  it('refuses a negative noncentrality', () => {
    expect(() => noncentralChiSquareSf(1, 2, -1)).toThrow(/non-negative/);
  });
});

describe('quantiles', () => {
  /*
   * stats.chi2.ppf(0.95, 3) = 7.814727903251179; stats.chi2.ppf(0.5, 1) = 0.454936423119572
   * stats.chi2.isf(0.0125, 1) = 6.238532636909537; stats.chi2.isf(1e-12, 4) = 62.1997463915383
   * stats.chi2.ppf(1e-10, 2) = 2.0000000000999938e-10
   * stats.norm.ppf(0.975) = 1.959963984540054; stats.norm.ppf(1e-20) = -9.262340089798409
   * stats.norm.ppf(0.999) = 3.090232306167813; stats.norm.ppf(1e-300) = -37.0470962993612
   */
  it('gives the chi-square quantiles SciPy gives', () => {
    expectRelative(chiSquareQuantile(0.95, 3), 7.814727903251179, 1e-13);
    expectRelative(chiSquareQuantile(0.5, 1), 0.454936423119572, 1e-13);
    expectRelative(chiSquareQuantile(1e-10, 2), 2.0000000000999938e-10, 1e-13);
  });

  it('gives the chi-square critical values SciPy gives, also at tiny levels', () => {
    expectRelative(chiSquareUpperQuantile(0.0125, 1), 6.238532636909537, 1e-13);
    expectRelative(chiSquareUpperQuantile(1e-12, 4), 62.1997463915383, 1e-13);
  });

  it('gives the normal quantiles SciPy gives', () => {
    expectRelative(normalQuantile(0.975), 1.959963984540054, 1e-14);
    expectRelative(normalQuantile(1e-20), -9.262340089798409, 1e-14);
    expectRelative(normalQuantile(0.999), 3.090232306167813, 1e-13);
    expectRelative(normalQuantile(1e-300), -37.0470962993612, 1e-13);
    expect(normalQuantile(0.5)).toBe(0);
  });

  it('refuses a level outside [0, 1]', () => {
    expect(() => normalQuantile(1.5)).toThrow(RangeError);
    expect(() => chiSquareQuantile(-0.1, 2)).toThrow(RangeError);
  });
});

describe('binomial tails', () => {
  /*
   * b = stats.binom   (sf(k - 1) is P(X >= k))
   * b.sf(59, 100, .375)  = 4.223431945030202e-06, logsf -12.374862503314578
   * b.sf(39, 100, .375)  = 0.3372461671043413
   * b.sf(4, 5, .5)       = 0.03125
   * b.sf(899, 1000, .375) = 1.1251524825097133e-264, logsf -607.7645459839478
   * b.cdf(20, 100, .375) = 0.00012565141615799273
   * b.cdf(40, 100, .375) = 0.7339137587545084
   * b.cdf(10, 1000, .375) = 1.2288947752540843e-183
   * b.cdf(3, 1000, .5)   = 1.5554471507014885e-293, logcdf -674.2156691862394
   * mpmath (dps 40), exact sums where the double underflows:
   *   mp.log(sum(mp.binomial(1000, j) * mp.mpf(0.5)**1000 for j in range(0, 4)))  = -674.21566918623948323806...
   *   mp.log(mp.fsum(mp.binomial(1500, j) * mp.mpf(0.375)**j * (1 - mp.mpf(0.375))**(1500 - j) for j in range(1400, 1501)))
   *     = -1055.910392184988464701358666732898068222   (SciPy's binom.logsf(1399, 1500, .375) is -inf)
   */
  it('gives P(X >= k) as SciPy gives it', () => {
    expectRelative(binomialSf(60, 100, 0.375).p, 4.223431945030202e-6, 1e-12);
    expectRelative(binomialSf(60, 100, 0.375).logP, -12.374862503314578, 1e-13);
    expectRelative(binomialSf(40, 100, 0.375).p, 0.3372461671043413, 1e-13);
    expectRelative(binomialSf(5, 5, 0.5).p, 0.03125, 1e-14);
    expectRelative(binomialSf(900, 1000, 0.375).p, 1.1251524825097133e-264, 1e-11);
  });

  it('gives P(X <= k) as SciPy gives it, without going through 1 - sf', () => {
    expectRelative(binomialCdf(20, 100, 0.375).p, 0.00012565141615799273, 1e-12);
    expectRelative(binomialCdf(40, 100, 0.375).p, 0.7339137587545084, 1e-13);
    expectRelative(binomialCdf(10, 1000, 0.375).p, 1.2288947752540843e-183, 1e-11);
    expectRelative(binomialCdf(3, 1000, 0.5).logP, -674.2156691862394, 1e-13);
  });

  it('carries log p when the tail underflows a double', () => {
    const t = binomialSf(1400, 1500, 0.375);
    expect(t.p).toBe(0);
    expectRelative(t.logP, -1055.9103921849885, 1e-12);
  });

  it('handles the edges of the support', () => {
    expect(binomialSf(0, 10, 0.3)).toEqual({ p: 1, logP: 0 });
    expect(binomialSf(11, 10, 0.3)).toEqual({ p: 0, logP: -Infinity });
    expect(binomialCdf(10, 10, 0.3)).toEqual({ p: 1, logP: 0 });
    expect(binomialCdf(-1, 10, 0.3)).toEqual({ p: 0, logP: -Infinity });
  });
});

describe('beta quantile', () => {
  /*
   * stats.beta.ppf(0.025, 41, 61) = 0.3093085156900544
   * stats.beta.ppf(0.975, 41, 61) = 0.49825592150743475
   * stats.beta.ppf(1e-10, .5, .5) = 2.4674011002723397e-20
   * stats.beta.ppf(0.999999, 2, 300) = 0.05402204599543971
   * stats.beta.ppf(0.3, 3, 0.2) = 0.9547956709178562
   */
  it.each([
    [0.025, 41, 61, 0.3093085156900544],
    [0.975, 41, 61, 0.49825592150743475],
    [1e-10, 0.5, 0.5, 2.4674011002723397e-20],
    [0.999999, 2, 300, 0.05402204599543971],
    [0.3, 3, 0.2, 0.9547956709178562],
    [0.5, 1, 1, 0.5],
  ])('gives the quantile SciPy gives at q %s, a %s, b %s', (q, a, b, x) => {
    expectRelative(betaQuantile(q, a, b), x, 1e-12);
  });
});
