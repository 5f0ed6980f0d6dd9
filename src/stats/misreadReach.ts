/**
 * How close to its odds a die can ever be certified under a calibration's misread bounds, however long it rolls.
 *
 * `robustInsideMargin` certifies FAIR_WITHIN(delta) when every face's read probability q_i lies below
 * (p0_i + delta)(1 − r_i) and above p0_i − delta + in_i, in_i = Σ_{j≠i} r_j · min(1, p0_j + delta), each end checked
 * only where it lies inside (0, 1). As the rolls grow, the read intervals shrink to the point q_i. For a die exactly
 * fair and read as it falls (q = p0: the die a session hopes to certify), the check passes in the limit exactly when,
 * for every face i,
 *   p0_i + delta ≥ 1 or p0_i · r_i < delta · (1 − r_i), and
 *   p0_i ≤ delta or in_i < delta.
 * Each condition, once met, stays met as delta grows (the upper one plainly; the lower one because delta − in_i is
 * convex in delta and not positive at 0), so there is a smallest such delta: the margin those bounds let a fair die
 * reach. A session asking for a narrower one cannot certify a fair die, however long it rolls; it can still find a
 * die unfair where the deviation is larger than misreads explain.
 * Pure: no I/O.
 */

/**
 * Each face's half-width left for the read interval by the check above: at most `delta`, less by what the misread
 * bounds take on the upper side ((p0_i + delta)(1 − r_i) − p0_i) and the lower one (delta − in_i), each where it
 * applies. Without misreads every face keeps `delta`; a face left nothing (0 or less) cannot be certified.
 */
export function marginsLeft(expected: readonly number[], rates: readonly number[], delta: number): number[] {
  if (rates.length !== expected.length) throw new RangeError(`${rates.length} misread bounds for ${expected.length} faces`);
  return expected.map((p, i) => {
    const r = rates[i] as number;
    const upper = p + delta < 1 ? (p + delta) * (1 - r) - p : delta;
    let inflow = 0;
    rates.forEach((rj, j) => (inflow += j === i ? 0 : rj * Math.min(1, (expected[j] as number) + delta)));
    const lower = p > delta ? delta - inflow : delta;
    return Math.min(delta, upper, lower);
  });
}

/** The limit check above, for one margin: every face keeps some half-width. */
function certifiableInTheLimit(expected: readonly number[], rates: readonly number[], delta: number): boolean {
  return marginsLeft(expected, rates, delta).every((m) => m > 0);
}

/**
 * The smallest margin FAIR_WITHIN could certify a fair die to with these per-face misread bounds, however long it rolls
 * (to 1e-9 above it; 0 without misreads). Every margin reaching 1 − p0_i for each face passes, so there always is one.
 */
export function certifiableMarginLimit(expected: readonly number[], rates: readonly number[]): number {
  if (rates.length !== expected.length) throw new RangeError(`${rates.length} misread bounds for ${expected.length} faces`);
  if (rates.every((r) => r === 0)) return 0;
  let lo = 0;
  let hi = 1 - 1e-12;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    if (certifiableInTheLimit(expected, rates, mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Validation reads of a face, none of them wrong, that bound its misread rate at `rate` or under: the one-sided
 * Clopper–Pearson bound of 0 misreads in n reads is 1 − (1 − confidence)^(1/n) (`misreadRateBounds`).
 */
export function readsToBoundMisreads(rate: number, confidence = 0.95): number {
  if (!(rate > 0 && rate < 1)) throw new RangeError(`a misread rate bound must be in (0, 1), got ${rate}`);
  return Math.ceil(Math.log(1 - confidence) / Math.log(1 - rate) - 1e-9);
}

/**
 * How many validation reads of every face, none wrong, would let a die be certified within `delta`: enough to bound
 * every face's misreads at the common rate whose best certifiable margin is half of `delta` (the other half is left to
 * the rolls: at exactly `delta` a session would need endless rolls).
 */
export function validationReadsFor(expected: readonly number[], delta: number, confidence = 0.95): { readonly rate: number; readonly reads: number } {
  if (!(delta > 0 && delta < 1)) throw new RangeError(`a margin must be in (0, 1), got ${delta}`);
  const marginAt = (r: number): number => certifiableMarginLimit(expected, expected.map(() => r));
  let lo = 0;
  let hi = 0.5;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    if (marginAt(mid) <= delta / 2) lo = mid;
    else hi = mid;
  }
  return { rate: lo, reads: readsToBoundMisreads(lo, confidence) };
}
