/** Colour models fitted per 2x2 px cell by the look beside a die: allocation-free, since they run for thousands of cells per die. */

/** A channel of the frame at or above this may be clipped (over-exposed): a model above it is no miss. */
export const CLIPPED = 250;

/**
 * A two-coefficient colour fit, run per cell, so it allocates nothing: the
 * caller writes the inputs into the fields, `fitTwo` leaves the coefficients of
 * the best fit in `a` and `b` (plain number fields, not arrays: this runs for
 * thousands of cells per die). Fields start as NaN so the engine holds them as
 * fractional numbers from the first (starting at 0 it would recompile on the first fraction).
 */
export class ColourFit {
  /** The change to explain (frame minus reference), or the frame colour itself. */
  d0 = Number.NaN;
  d1 = Number.NaN;
  d2 = Number.NaN;
  /** The frame colour (for clipping). */
  f0 = Number.NaN;
  f1 = Number.NaN;
  f2 = Number.NaN;
  u0 = Number.NaN;
  u1 = Number.NaN;
  u2 = Number.NaN;
  v0 = Number.NaN;
  v1 = Number.NaN;
  v2 = Number.NaN;
  a = Number.NaN;
  b = Number.NaN;
  best = Number.NaN;

  /**
   * Loads the cell at `sums[o..o+5]` (frame, then platform, summed over its 4 pixels) for the
   * question "is it a blend of the die's change `m` and the platform's shadow?": the frame colour,
   * the change to explain, the die's change (`u`) and minus the platform colour (`v`).
   */
  loadBlend(sums: Int32Array, o: number, m0: number, m1: number, m2: number): void {
    // Sums of 4 pixels are integers below 1021: their quarters, and differences of quarters, are exact.
    this.f0 = (sums[o] as number) / 4;
    this.f1 = (sums[o + 1] as number) / 4;
    this.f2 = (sums[o + 2] as number) / 4;
    this.v0 = -(sums[o + 3] as number) / 4;
    this.v1 = -(sums[o + 4] as number) / 4;
    this.v2 = -(sums[o + 5] as number) / 4;
    this.d0 = this.f0 + this.v0;
    this.d1 = this.f1 + this.v1;
    this.d2 = this.f2 + this.v2;
    this.u0 = m0;
    this.u1 = m1;
    this.u2 = m2;
  }

  private consider(a0: number, b0: number, aLo: number, aHi: number, bLo: number, bHi: number): void {
    const a = a0 < aLo ? aLo : a0 > aHi ? aHi : a0;
    const b = b0 < bLo ? bLo : b0 > bHi ? bHi : b0;
    let worst = 0;
    const model0 = a * this.u0 + b * this.v0;
    const miss0 = this.f0 >= CLIPPED ? this.d0 - model0 : Math.abs(this.d0 - model0);
    if (miss0 > worst) worst = miss0;
    const model1 = a * this.u1 + b * this.v1;
    const miss1 = this.f1 >= CLIPPED ? this.d1 - model1 : Math.abs(this.d1 - model1);
    if (miss1 > worst) worst = miss1;
    const model2 = a * this.u2 + b * this.v2;
    const miss2 = this.f2 >= CLIPPED ? this.d2 - model2 : Math.abs(this.d2 - model2);
    if (miss2 > worst) worst = miss2;
    if (worst < this.best) {
      this.best = worst;
      this.a = a;
      this.b = b;
    }
  }

  /**
   * How far (max over R, G, B) `d` lies from the nearest `a·u + b·v` with a and
   * b in their ranges: the least-squares point, then the ranges' edges (one
   * coefficient at a bound, the other fitted).
   */
  fitTwo(aLo: number, aHi: number, bLo: number, bHi: number): number {
    const { d0, d1, d2, u0, u1, u2, v0, v1, v2 } = this;
    const uu = u0 * u0 + u1 * u1 + u2 * u2;
    const vv = v0 * v0 + v1 * v1 + v2 * v2;
    const uv = u0 * v0 + u1 * v1 + u2 * v2;
    const ud = u0 * d0 + u1 * d1 + u2 * d2;
    const vd = v0 * d0 + v1 * d1 + v2 * d2;
    this.best = Number.POSITIVE_INFINITY;
    const det = uu * vv - uv * uv;
    if (det > 1e-6 * uu * vv) this.consider((ud * vv - vd * uv) / det, (vd * uu - ud * uv) / det, aLo, aHi, bLo, bHi);
    if (vv > 0) {
      this.consider(aLo, (vd - aLo * uv) / vv, aLo, aHi, bLo, bHi);
      this.consider(aHi, (vd - aHi * uv) / vv, aLo, aHi, bLo, bHi);
    }
    if (uu > 0) {
      this.consider((ud - bLo * uv) / uu, bLo, aLo, aHi, bLo, bHi);
      this.consider((ud - bHi * uv) / uu, bHi, aLo, aHi, bLo, bHi);
    }
    if (this.best === Number.POSITIVE_INFINITY) this.consider(0, 0, aLo, aHi, bLo, bHi);
    return this.best;
  }
}

/**
 * Whether frame channel value `f` lies more than `reach` from every `a·c + b` with
 * a in [aLo, aHi] and b in [0, bHi] (c >= 0), counting only a model too dark when
 * the channel may be clipped, as `ColourFit` does: then no colour fit in those
 * ranges comes within `reach`.
 */
export function outOfColourReach(f: number, c: number, aLo: number, aHi: number, bHi: number, reach: number): boolean {
  if (f - aHi * c - bHi > reach) return true;
  return f < CLIPPED && f - aLo * c < -reach;
}
