/**
 * How often a face-blind reader would miss the decline-spread target by chance alone. The target (no face declined
 * more than twice as often as another) is read off a few dozen declines spread over a handful of faces: on one test
 * set of ~1,100 X-Wing dice a reader that declines every face alike at 4.5 % still shows a spread over 2x in most
 * sets, so a spread over the target says little until enough dice are pooled. Exact, not simulated: the faces'
 * decline counts are independent binomials, and the spread is within `ratio` exactly when every face's rate lies
 * between the lowest rate m and ratio x m; summing over each value m the lowest rate can take counts every outcome
 * once. Pure.
 */
import { binomialCdf } from '../stats/special.js';

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * The probability that a reader declining each die with probability `rate`, whatever its face, shows a decline spread
 * (highest face's decline rate over the lowest, as `readerMetrics` computes it: 1 when none is declined, unbounded when
 * one face has none and another has some) of at most `ratio` on faces of `totals` dice. Faces with no dice are left out.
 */
export function chanceSpreadWithin(totals: readonly number[], rate: number, ratio = 2): number {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`decline rate must be within 0..1, got ${rate}`);
  if (!(ratio >= 1)) throw new RangeError(`spread ratio must be at least 1, got ${ratio}`);
  for (const n of totals) if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`face totals must be non-negative integers, got ${n}`);
  const faces = totals.filter((n) => n > 0);
  if (faces.length <= 1 || rate === 0 || rate === 1) return 1;
  // cdf[j][k] = P(K_j <= k); below 0 is 0.
  const cdf = faces.map((n) => Array.from({ length: n + 1 }, (_, k) => (k === n ? 1 : binomialCdf(k, n, rate).p)));
  const between = (j: number, lo: number, hi: number): number => {
    const n = faces[j] as number;
    const top = Math.min(hi, n);
    if (lo > top) return 0;
    const c = cdf[j] as number[];
    return (c[top] as number) - (lo > 0 ? (c[lo - 1] as number) : 0);
  };
  // None declined: spread 1.
  let within = faces.reduce((prod, _n, j) => prod * between(j, 0, 0), 1);
  // Each value a/b (in lowest terms) the lowest face rate can take, once.
  const seen = new Set<string>();
  for (const b0 of faces) {
    for (let a0 = 1; a0 <= b0; a0++) {
      const g = gcd(a0, b0);
      const [a, b] = [a0 / g, b0 / g];
      const key = `${a}/${b}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // P(every rate in [m, ratio m]) - P(every rate in (m, ratio m]): the lowest rate is exactly m = a/b.
      let closed = 1;
      let open = 1;
      for (let j = 0; j < faces.length; j++) {
        const n = faces[j] as number;
        // k/n >= a/b  <=>  k >= a n / b; k/n <= ratio a/b  <=>  k <= ratio a n / b (integers until ratio multiplies).
        const lo = Math.ceil((a * n) / b);
        const loOpen = Math.floor((a * n) / b) + 1;
        const hi = Math.floor((ratio * a * n) / b);
        closed *= between(j, lo, hi);
        open *= between(j, loOpen, hi);
        if (closed === 0) break;
      }
      within += closed - open;
    }
  }
  return Math.min(1, Math.max(0, within));
}
