/**
 * Special functions with accurate tails. Upper tails come straight from the
 * regularized upper incomplete gamma / beta functions — never `1 - cdf`, which
 * loses all precision below ~1e-16 (the trap in @stdlib/stats-chi2gof) — and
 * every tail is also returned as a natural log, computed in log space when the
 * probability underflows a double, so "p < 1e-300" is still an exact figure.
 */
import gammainc from '@stdlib/math-base-special-gammainc';
import gammaln from '@stdlib/math-base-special-gammaln';
import erfc from '@stdlib/math-base-special-erfc';
import erfcinv from '@stdlib/math-base-special-erfcinv';
import gammaincinv from '@stdlib/math-base-special-gammaincinv';
import betainc from '@stdlib/math-base-special-betainc';
import binomcoefln from '@stdlib/math-base-special-binomcoefln';

/** A tail probability and its natural log (logP is finite even when p underflows to 0). */
export interface TailProbability {
  readonly p: number;
  readonly logP: number;
}

const TINY = 1e-300;

/** Upper tail of the chi-square distribution, P(X >= x) with `df` degrees of freedom. */
export function chiSquareSf(x: number, df: number): TailProbability {
  if (!(df > 0)) throw new RangeError(`chi-square degrees of freedom must be positive, got ${df}`);
  if (Number.isNaN(x)) throw new RangeError('chi-square statistic is NaN');
  if (x <= 0) return { p: 1, logP: 0 };
  if (x === Infinity) return { p: 0, logP: -Infinity };
  return regularizedUpperGamma(df / 2, x / 2);
}

/** Q(a, x) = Γ(a, x) / Γ(a), with its log carried through underflow. */
export function regularizedUpperGamma(a: number, x: number): TailProbability {
  const q = regularizedGamma(a, x, true);
  if (q > TINY) return { p: q, logP: Math.log(q) };
  // Deep tail (x far above a): Legendre's continued fraction evaluated by
  // modified Lentz, kept in log space: log Q = -x + a log x - lnΓ(a) + log CF.
  return { p: q, logP: -x + a * Math.log(x) - gammaln(a) + Math.log(upperGammaContinuedFraction(a, x)) };
}

function upperGammaContinuedFraction(a: number, x: number): number {
  const eps = 1e-16;
  const fpmin = 1e-300;
  let b = x + 1 - a;
  let c = 1 / fpmin;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < fpmin) d = fpmin;
    c = b + an / c;
    if (Math.abs(c) < fpmin) c = fpmin;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < eps) break;
  }
  return h;
}

/** Upper tail of the standard normal, P(Z >= z), with log. */
export function normalSf(z: number): TailProbability {
  const p = 0.5 * erfc(z / Math.SQRT2);
  if (p > TINY) return { p, logP: Math.log(p) };
  // Mills-ratio asymptotic series for the far tail.
  const z2 = z * z;
  const series = 1 - 1 / z2 + 3 / (z2 * z2) - 15 / (z2 * z2 * z2);
  return { p, logP: -z2 / 2 - Math.log(z) - 0.5 * Math.log(2 * Math.PI) + Math.log(series) };
}

/** Two-sided normal p-value for a z statistic. */
export function normalTwoSided(z: number): TailProbability {
  const one = normalSf(Math.abs(z));
  const p = Math.min(1, 2 * one.p);
  return { p, logP: Math.min(0, Math.LN2 + one.logP) };
}

// ---------------------------------------------------------------------------
// Additions: noncentral chi-square, quantiles, binomial tails, beta quantile.
// ---------------------------------------------------------------------------

/**
 * Regularized incomplete gamma P(a, x) (`upper = false`) or Q(a, x) (`upper = true`).
 * @stdlib/math-base-special-gammainc 0.3.1 is wrong by up to ~3 % when
 * x > 1000 and a < x + 50 (its large-x asymptotic series, ported from Boost,
 * starts the Pochhammer product at a instead of a − 1), which is exactly where
 * the noncentral series goes for large lambda. There we sum the classic
 * series (x < a) or continued fraction (x >= a) ourselves, with the prefactor
 * x^a e^-x / Γ(a) taken in a form that keeps its relative precision.
 */
function regularizedGamma(a: number, x: number, upper: boolean): number {
  if (!(x > 1000 && a < x + 50)) return gammainc(x, a, true, upper);
  const logPrefix = logGammaPrefix(a, x);
  if (x < a) {
    // P = x^a e^-x / Γ(a+1) · Σ_n x^n / ((a+1)…(a+n)); converges in O(√a) terms near x ≈ a.
    let term = 1;
    let sum = 1;
    for (let n = 1; n < 100_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    const pLower = Math.exp(logPrefix - Math.log(a) + Math.log(sum));
    return upper ? 1 - pLower : pLower;
  }
  const q = Math.exp(logPrefix + Math.log(upperGammaContinuedFraction(a, x)));
  return upper ? q : 1 - q;
}

/**
 * log(x^a e^-x / Γ(a)). For a >= 10 it is written as
 * a·(log1p(d) − d) + ½ log(a / 2π) − S(a), d = (x − a) / a, S the Stirling
 * series of lnΓ, so no term of size a·log x has to cancel.
 */
function logGammaPrefix(a: number, x: number): number {
  if (a < 10) return a * Math.log(x) - x - gammaln(a);
  const a2 = a * a;
  const stirling = (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * a2)) / a2) / a2) / a;
  return a * log1pMinusX((x - a) / a) + 0.5 * Math.log(a / (2 * Math.PI)) - stirling;
}

/** log(1 + d) − d without cancellation for small d (atanh series: log1p(d) = 2 atanh(d / (2 + d))). */
function log1pMinusX(d: number): number {
  if (Math.abs(d) > 0.5) return Math.log1p(d) - d;
  const u = d / (2 + d);
  const u2 = u * u;
  let power = u * u2;
  let series = 0;
  for (let k = 3; k < 200; k += 2) {
    const t = power / k;
    series += t;
    if (Math.abs(t) <= 1e-17 * Math.abs(series)) break;
    power *= u2;
  }
  // 2·atanh(u) − d = 2u − d + 2(u³/3 + u⁵/5 + …), and 2u − d = −d² / (2 + d).
  return (-d * d) / (2 + d) + 2 * series;
}

/**
 * Sums the Poisson(lambda/2)-weighted series Σ w_j · G(df/2 + j, x/2) outward
 * from the Poisson mode, where G is the regularized lower (`upper = false`) or
 * upper (`upper = true`) incomplete gamma function. Starting at the mode keeps
 * every weight representable for large lambda; each direction stops once the
 * bound on what is left (the Poisson tail mass beyond j, times the largest the
 * gamma factor can still be) is below 1e-17 of the sum so far.
 */
function poissonMixedGamma(x: number, df: number, lambda: number, upper: boolean): number {
  const mu = lambda / 2;
  const a = df / 2;
  const h = x / 2;
  const mode = Math.floor(mu);
  // Poisson(mu) at its mode, μ^m e^-μ / m!, via the cancellation-free gamma prefactor.
  const wMode = Math.exp(logGammaPrefix(mode + 1, mu) - Math.log(mu));
  const gMode = regularizedGamma(a + mode, h, upper);
  let sum = wMode * gMode;
  const eps = 1e-17;

  // Upward: P(a+j) falls and Q(a+j) rises with j, so the gamma factor is bounded
  // by its current value (lower) or by 1 (upper).
  let w = wMode;
  for (let j = mode + 1; j < mode + 100_000; j++) {
    w *= mu / j;
    const g = regularizedGamma(a + j, h, upper);
    sum += w * g;
    // Poisson tail beyond j is at most w · r / (1 - r) with r = mu / (j + 1) < 1.
    const r = mu / (j + 1);
    if (r < 1) {
      const tail = (w * r) / (1 - r);
      if (tail * (upper ? 1 : g) <= eps * sum || w === 0) break;
    }
  }
  // Downward: the gamma factor now grows (lower) or falls (upper) as j falls.
  w = wMode;
  for (let j = mode - 1; j >= 0; j--) {
    w *= (j + 1) / mu;
    const g = regularizedGamma(a + j, h, upper);
    sum += w * g;
    // Poisson mass below j is at most w · s / (1 - s) with s = j / mu < 1.
    const s = j / mu;
    const tail = s < 1 ? (w * s) / (1 - s) : w * j;
    if (tail * (upper ? g : 1) <= eps * sum || w === 0) break;
  }
  return Math.min(1, sum);
}

function checkNoncentralArgs(x: number, df: number, lambda: number): void {
  if (!(df > 0)) throw new RangeError(`noncentral chi-square degrees of freedom must be positive, got ${df}`);
  if (!(lambda >= 0) || !Number.isFinite(lambda)) {
    throw new RangeError(`noncentral chi-square noncentrality must be finite and non-negative, got ${lambda}`);
  }
  if (Number.isNaN(x)) throw new RangeError('noncentral chi-square argument is NaN');
}

/** P(X <= x) for X ~ noncentral chi-square(df, lambda), by the Poisson-weighted series. */
export function noncentralChiSquareCdf(x: number, df: number, lambda: number): number {
  checkNoncentralArgs(x, df, lambda);
  if (x <= 0) return 0;
  if (x === Infinity) return 1;
  if (lambda === 0) return regularizedGamma(df / 2, x / 2, false);
  return poissonMixedGamma(x, df, lambda, false);
}

/**
 * P(X > x) for X ~ noncentral chi-square(df, lambda), summed from upper gamma
 * tails (not 1 - cdf) so small tails keep their relative accuracy. This is the
 * power of a chi-square test whose critical value is x.
 */
export function noncentralChiSquareSf(x: number, df: number, lambda: number): number {
  checkNoncentralArgs(x, df, lambda);
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  if (lambda === 0) return regularizedGamma(df / 2, x / 2, true);
  return poissonMixedGamma(x, df, lambda, true);
}

function checkProbability(p: number, what: string): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${what} must be a probability in [0, 1], got ${p}`);
}

/** The x with P(X <= x) = prob for a chi-square with `df` degrees of freedom. */
export function chiSquareQuantile(prob: number, df: number): number {
  checkProbability(prob, 'chi-square quantile level');
  if (!(df > 0)) throw new RangeError(`chi-square degrees of freedom must be positive, got ${df}`);
  return 2 * gammaQuantile(prob, df / 2, false);
}

/**
 * The x with P(X > x) = tail (a critical value at level `tail`). Inverting the
 * upper tail directly keeps small levels such as alpha / k exact, where
 * `chiSquareQuantile(1 - tail)` would first round 1 - tail.
 */
export function chiSquareUpperQuantile(tail: number, df: number): number {
  checkProbability(tail, 'chi-square upper-tail level');
  if (!(df > 0)) throw new RangeError(`chi-square degrees of freedom must be positive, got ${df}`);
  return 2 * gammaQuantile(tail, df / 2, true);
}

/**
 * Inverse of the regularized incomplete gamma (lower or upper). stdlib's
 * gammaincinv inherits the gammainc error for x > 1000 (shape above ~1000),
 * so there its answer is polished by Newton steps on the corrected function.
 */
function gammaQuantile(level: number, a: number, upper: boolean): number {
  let x = gammaincinv(level, a, upper);
  if (!(x > 1000 && a < x + 50) || level === 0 || level === 1) return x;
  for (let i = 0; i < 20; i++) {
    const density = Math.exp(logGammaPrefix(a, x)) / x;
    const step = (regularizedGamma(a, x, upper) - level) / (upper ? -density : density);
    x -= step;
    if (Math.abs(step) <= 1e-15 * x) break;
  }
  return x;
}

/** The z with P(Z <= z) = p for a standard normal (−Infinity at 0, +Infinity at 1). */
export function normalQuantile(p: number): number {
  checkProbability(p, 'normal quantile level');
  const z = -Math.SQRT2 * erfcinv(2 * p);
  return z === 0 ? 0 : z; // no -0 at the median
}

function checkBinomialArgs(n: number, p: number): void {
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`binomial n must be a non-negative integer, got ${n}`);
  checkProbability(p, 'binomial success probability');
}

/** log P(X = k) for X ~ Binomial(n, p), 0 <= k <= n, 0 < p < 1. */
function binomialLogPmf(k: number, n: number, p: number): number {
  return binomcoefln(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
}

/**
 * log Σ_{j} pmf(j) for j running from k away from the mean (step +1 or -1),
 * relative to pmf(k): used only when the tail underflows a double, where the
 * terms fall geometrically and a few hundred suffice.
 */
function binomialLogTailSeries(k: number, n: number, p: number, step: 1 | -1): number {
  const odds = p / (1 - p);
  let term = 1;
  let sum = 1;
  for (let j = k; step === 1 ? j < n : j > 0; j += step) {
    term *= step === 1 ? ((n - j) / (j + 1)) * odds : (j / (n - j + 1)) / odds;
    sum += term;
    if (term <= 1e-17 * sum) break;
  }
  return binomialLogPmf(k, n, p) + Math.log(sum);
}

/**
 * P(X >= k) for X ~ Binomial(n, p), from the regularized incomplete beta
 * I_p(k, n - k + 1) — never 1 - cdf — with its log kept through underflow.
 */
export function binomialSf(k: number, n: number, p: number): TailProbability {
  checkBinomialArgs(n, p);
  if (Number.isNaN(k)) throw new RangeError('binomial tail argument is NaN');
  const kk = Math.ceil(k);
  if (kk <= 0) return { p: 1, logP: 0 };
  if (kk > n || p === 0) return { p: 0, logP: -Infinity };
  if (p === 1) return { p: 1, logP: 0 };
  const q = betainc(p, kk, n - kk + 1, true, false);
  if (q > TINY) return { p: q, logP: Math.log(q) };
  return { p: q, logP: binomialLogTailSeries(kk, n, p, 1) };
}

/** P(X <= k) for X ~ Binomial(n, p), from the upper regularized incomplete beta, with log. */
export function binomialCdf(k: number, n: number, p: number): TailProbability {
  checkBinomialArgs(n, p);
  if (Number.isNaN(k)) throw new RangeError('binomial tail argument is NaN');
  const kk = Math.floor(k);
  if (kk < 0) return { p: 0, logP: -Infinity };
  if (kk >= n || p === 0) return { p: 1, logP: 0 };
  if (p === 1) return { p: 0, logP: -Infinity };
  // P(X <= k) = I_{1-p}(n - k, k + 1) = 1 - I_p(k + 1, n - k), taken as the upper beta tail.
  const c = betainc(p, kk + 1, n - kk, true, true);
  if (c > TINY) return { p: c, logP: Math.log(c) };
  return { p: c, logP: binomialLogTailSeries(kk, n, p, -1) };
}

/**
 * The x in [0, 1] with I_x(a, b) = q (the Beta(a, b) quantile): safeguarded
 * Newton on the regularized incomplete beta inside a shrinking bisection
 * bracket. Above the median the upper tail is matched instead, so levels close
 * to 1 (e.g. 0.975 of a tight posterior) keep their precision.
 */
export function betaQuantile(q: number, a: number, b: number): number {
  checkProbability(q, 'beta quantile level');
  if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b))) {
    throw new RangeError(`beta shape parameters must be positive and finite, got a = ${a}, b = ${b}`);
  }
  if (q === 0) return 0;
  if (q === 1) return 1;
  const upper = q > 0.5;
  const target = upper ? 1 - q : q;
  // f(x) = tail(x) - target is increasing in x for the lower tail, decreasing for the upper.
  const f = (x: number): number => betainc(x, a, b, true, upper) - target;
  const logBeta = gammaln(a) + gammaln(b) - gammaln(a + b);
  const sign = upper ? -1 : 1;
  let lo = 0;
  let hi = 1;
  let x = a / (a + b);
  for (let i = 0; i < 200; i++) {
    const fx = sign * f(x);
    if (fx === 0) return x;
    if (fx < 0) lo = x;
    else hi = x;
    const density = Math.exp((a - 1) * Math.log(x) + (b - 1) * Math.log1p(-x) - logBeta);
    let next = x - fx / density;
    if (!(next > lo && next < hi) || !Number.isFinite(next)) next = 0.5 * (lo + hi);
    if (Math.abs(next - x) <= 1e-15 * next || hi - lo <= 1e-15 * hi) return next;
    x = next;
  }
  return x;
}
