/**
 * Cocked-die check for cubes from what lies beside the die. When a cocked
 * die's side face is shaded to the platform's own colour, its outline is just
 * the foreshortened top face and looks flat; but the side face's pips and edge
 * still differ from the empty platform right beside the top face. A flat die
 * seen from above has nothing beside it but platform, its own blurred edge and
 * its soft shadow. Such a die is reported cocked and never read as a face.
 */
import { connectedComponents, principalAxes } from '../components.js';
import type { Blob } from '../components.js';
import type { Rect, RgbImage } from '../../core/image.js';
import type { LocatedDie } from '../locate.js';

export interface SurroundingsOptions {
  /** Die side (D6) or across-corners size (d8), pixels. */
  readonly dieSizePx: number;
  /** Radius around the die's centre that is searched, as a multiple of the die size. */
  readonly reach: number;
  /** Mean colour difference over a 4x4 px block (max over R, G, B) that belongs to the die's silhouette. */
  readonly silhouetteThreshold: number;
  /** Mean colour difference over a 2x2 px cell that is clearly not sensor noise. */
  readonly markThreshold: number;
  /** How far (grey levels) a cell may lie from a blend of die body and (shadowed) platform and still be explained as the die's edge or shadow. */
  readonly blendTolerance: number;
  /** Darkest blend (fraction of the platform or body brightness) still explained as shadow or a shaded edge. */
  readonly minBlend: number;
  /**
   * Largest colour difference (max over R, G, B) of a top-face cell from the body colour under some gain
   * and glare: a floor above sensor noise, plus a fraction of the body's brightest channel.
   */
  readonly faceTolerance: number;
  readonly faceRelativeTolerance: number;
  /** Gain range (relative to the die's centre) over which the top face still counts as one face. */
  readonly faceGain: readonly [number, number];
  /** Most glare (grey levels added) a part of the top face may have beyond its centre. */
  readonly glare: number;
  /** Darkening (fraction of the platform's brightness) a die's soft shadow may reach anywhere; darker cells must not be spots. */
  readonly deepShade: number;
  /** How much darker than its surroundings (fraction of the platform's brightness) a shaded cell must be to be a spot, not a soft shadow. */
  readonly spotContrast: number;
  /** Cells (2x2 px) around the top face that are skipped: its bevel and blurred edge. */
  readonly edgeCells: number;
  /** More marked cells than this beside the die mean a side face shows. */
  readonly maxMarkedCells: number;
  /** Largest length/breadth ratio of a flat die's silhouette at this resolution. */
  readonly maxElongation: number;
}

export const defaultSurroundingsLimits: Omit<SurroundingsOptions, 'dieSizePx'> = {
  reach: 1.0,
  silhouetteThreshold: 14,
  markThreshold: 24,
  blendTolerance: 18,
  minBlend: 0.45,
  faceTolerance: 14,
  faceRelativeTolerance: 0.08,
  faceGain: [0.85, 1.25],
  glare: 80,
  deepShade: 0.35,
  spotContrast: 0.12,
  edgeCells: 2,
  maxMarkedCells: 3,
  maxElongation: 1.08,
};

export interface SurroundingsVerdict {
  readonly cocked: boolean;
  /** Cells (2x2 px) beside the die that differ from the empty platform and are neither shadow nor the die's edge. */
  readonly markedCells: number;
  /** Area (full-resolution pixels) and length/breadth ratio of the die's silhouette at this resolution. */
  readonly silhouetteArea?: number;
  readonly silhouetteElongation?: number;
  readonly reason?: string;
}

/** A channel of the frame at or above this may be clipped (over-exposed): a model above it is no miss. */
const CLIPPED = 250;

/**
 * A two-coefficient colour fit, run per cell, so it allocates nothing: the
 * caller writes the inputs into the fields, `fitTwo` leaves the coefficients of
 * the best fit in `a` and `b` (plain number fields, not arrays: this runs for
 * thousands of cells per die). Fields start as NaN so the engine holds them as
 * fractional numbers from the first (starting at 0 it would recompile on the first fraction).
 */
class ColourFit {
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

const fit = new ColourFit();

/**
 * Whether frame channel value `f` lies more than `reach` from every `a·c + b` with
 * a in [aLo, aHi] and b in [0, bHi] (c >= 0), counting only a model too dark when
 * the channel may be clipped, as `ColourFit` does: then no colour fit in those
 * ranges comes within `reach`.
 */
function outOfColourReach(f: number, c: number, aLo: number, aHi: number, bHi: number, reach: number): boolean {
  if (f - aHi * c - bHi > reach) return true;
  return f < CLIPPED && f - aLo * c < -reach;
}

/**
 * Scratch for one die's window (cell sums, their changes), reused from die to die and grown for a
 * larger window: judgeSurroundings reads them only before it returns, and they never leave this module.
 */
let scratchSums = new Int32Array(0);
let scratchDiffs = new Int32Array(0);

/**
 * Per 2x2 px cell of a window: summed R, G, B of the frame, then of the empty
 * platform. Comparing a die with the empty platform under the same light
 * cancels what the light adds (glare) and leaves what it multiplies (a gain).
 */
function cellSums(frame: RgbImage, reference: RgbImage, x0: number, y0: number, w: number, h: number): Int32Array {
  const a = frame.data;
  const b = reference.data;
  const stride = frame.width * 3;
  // Every value is written below: the scratch needs no clearing.
  if (scratchSums.length < w * h * 6) scratchSums = new Int32Array(w * h * 6);
  const sums = scratchSums;
  for (let cy = 0; cy < h; cy++) {
    let j = (y0 + 2 * cy) * stride + x0 * 3;
    let o = cy * w * 6;
    for (let cx = 0; cx < w; cx++, j += 6, o += 6) {
      const k = j + stride;
      sums[o] = (a[j] as number) + (a[j + 3] as number) + (a[k] as number) + (a[k + 3] as number);
      sums[o + 1] = (a[j + 1] as number) + (a[j + 4] as number) + (a[k + 1] as number) + (a[k + 4] as number);
      sums[o + 2] = (a[j + 2] as number) + (a[j + 5] as number) + (a[k + 2] as number) + (a[k + 5] as number);
      sums[o + 3] = (b[j] as number) + (b[j + 3] as number) + (b[k] as number) + (b[k + 3] as number);
      sums[o + 4] = (b[j + 1] as number) + (b[j + 4] as number) + (b[k + 1] as number) + (b[k + 4] as number);
      sums[o + 5] = (b[j + 2] as number) + (b[j + 5] as number) + (b[k + 2] as number) + (b[k + 5] as number);
    }
  }
  return sums;
}

/**
 * Colour change per pixel (max over R, G, B) of `count` summed pixels at
 * `s[o..o+5]` (frame, then reference), or 0 when the change is the platform's
 * shadow: its own colour, uniformly darker (down to `minBlend` of it).
 */
function changeOf(s: Int32Array, o: number, count: number, minBlend: number): number {
  const fr = s[o] as number;
  const fg = s[o + 1] as number;
  const fb = s[o + 2] as number;
  const rr = s[o + 3] as number;
  const rg = s[o + 4] as number;
  const rb = s[o + 5] as number;
  const d = Math.max(Math.abs(fr - rr), Math.abs(fg - rg), Math.abs(fb - rb));
  const kr = fr / (rr + count);
  const kg = fg / (rg + count);
  const kb = fb / (rb + count);
  const kmin = Math.min(kr, kg, kb);
  const kmax = Math.max(kr, kg, kb);
  return kmin >= minBlend && kmax <= 1 && kmax - kmin <= 0.1 ? 0 : d / count;
}

/** The largest component whose centre lies within `radius` cells of (cx, cy). */
function componentNear(blobs: readonly Blob[], cx: number, cy: number, radius: number): Blob | undefined {
  let best: Blob | undefined;
  for (const blob of blobs) {
    if (Math.hypot(blob.centroid.x + 0.5 - cx, blob.centroid.y + 0.5 - cy) > radius) continue;
    if (!best || blob.area > best.area) best = blob;
  }
  return best;
}

/** Cells between the component's extremes along their row and along their column (a convex shape with its holes and dents filled). */
function filledConvex(labels: Int32Array, label: number, w: number, h: number): Uint8Array {
  const rowMin = new Int32Array(h).fill(w);
  const rowMax = new Int32Array(h).fill(-1);
  const colMin = new Int32Array(w).fill(h);
  const colMax = new Int32Array(w).fill(-1);
  for (let cy = 0; cy < h; cy++) {
    for (let cx = 0; cx < w; cx++) {
      if (labels[cy * w + cx] !== label) continue;
      if (cx < (rowMin[cy] as number)) rowMin[cy] = cx;
      if (cx > (rowMax[cy] as number)) rowMax[cy] = cx;
      if (cy < (colMin[cx] as number)) colMin[cx] = cy;
      if (cy > (colMax[cx] as number)) colMax[cx] = cy;
    }
  }
  const out = new Uint8Array(w * h);
  for (let cy = 0; cy < h; cy++) {
    for (let cx = rowMin[cy] as number; cx <= (rowMax[cy] as number); cx++) {
      if (cy >= (colMin[cx] as number) && cy <= (colMax[cx] as number)) out[cy * w + cx] = 1;
    }
  }
  return out;
}

/**
 * Grows a mask by `cells` in every direction (square neighbourhood), row pass then column pass.
 * Each pass sweeps once, carrying the last set cell seen `cells` ahead: a cell is set when that
 * one lies within `cells` behind it.
 */
function dilate(mask: Uint8Array, w: number, h: number, cells: number): Uint8Array {
  if (cells <= 0) return mask;
  const rows = new Uint8Array(w * h);
  for (let cy = 0; cy < h; cy++) {
    const o = cy * w;
    let last = -cells - 1;
    for (let x = 0; x < cells && x < w; x++) if (mask[o + x]) last = x;
    for (let cx = 0; cx < w; cx++) {
      const ahead = cx + cells;
      if (ahead < w && mask[o + ahead]) last = ahead;
      if (last >= cx - cells) rows[o + cx] = 1;
    }
  }
  const out = new Uint8Array(w * h);
  const lastInColumn = new Int32Array(w).fill(-cells - 1);
  for (let y = 0; y < cells && y < h; y++) for (let cx = 0; cx < w; cx++) if (rows[y * w + cx]) lastInColumn[cx] = y;
  for (let cy = 0; cy < h; cy++) {
    const ahead = cy + cells;
    if (ahead < h) for (let cx = 0, o = ahead * w; cx < w; cx++, o++) if (rows[o]) lastInColumn[cx] = ahead;
    for (let cx = 0, o = cy * w; cx < w; cx++, o++) if ((lastInColumn[cx] as number) >= cy - cells) out[o] = 1;
  }
  return out;
}

/** Median of each of the six channels (per pixel, in quarter grey levels) over cells within `half` cells of (cx, cy). */
function medianCells(sums: Int32Array, w: number, h: number, cx: number, cy: number, half: number): number[] {
  const xa = Math.max(0, Math.floor(cx - half));
  const xb = Math.min(w, Math.ceil(cx + half));
  const ya = Math.max(0, Math.floor(cy - half));
  const yb = Math.min(h, Math.ceil(cy + half));
  const count = Math.max(0, xb - xa) * Math.max(0, yb - ya);
  const out: number[] = [];
  // A cell's sum of 4 pixels is an integer 0..1020: a histogram finds the median without sorting.
  const hist = new Int32Array(1021);
  for (let c = 0; c < 6; c++) {
    hist.fill(0);
    for (let y = ya; y < yb; y++) {
      for (let x = xa; x < xb; x++) {
        const v = sums[(y * w + x) * 6 + c] as number;
        hist[v] = (hist[v] as number) + 1;
      }
    }
    let seen = 0;
    let v = 0;
    while (v < 1020 && seen + (hist[v] as number) <= count >> 1) seen += hist[v++] as number;
    out.push(count > 0 ? v / 4 : 0);
  }
  return out;
}

/**
 * Looks beside a located die, at twice the locator's resolution, for marks the
 * empty platform does not have and that are neither the die's top face, its
 * blurred or shaded edge, nor its shadow: the pips and edge of a side face. Also
 * measures the die's silhouette there (4x4 px blocks), finer than the locator's.
 * `others` are the boxes of the other dice found (their pixels are not marks).
 */
export function judgeSurroundings(frame: RgbImage, reference: RgbImage, die: LocatedDie, others: readonly Rect[], options: SurroundingsOptions): SurroundingsVerdict {
  const reach = options.dieSizePx * options.reach;
  // Window on even pixel edges, inside the frame.
  const x0 = Math.max(0, Math.floor((die.center.x - reach) / 2) * 2);
  const y0 = Math.max(0, Math.floor((die.center.y - reach) / 2) * 2);
  const x1 = Math.min(frame.width - 1, Math.ceil(die.center.x + reach));
  const y1 = Math.min(frame.height - 1, Math.ceil(die.center.y + reach));
  const w = Math.max(0, (x1 - x0) >> 1);
  const h = Math.max(0, (y1 - y0) >> 1);
  if (w < 3 || h < 3) return { cocked: false, markedCells: 0 };
  const n = w * h;
  const sums = cellSums(frame, reference, x0, y0, w, h);
  const minBlend = options.minBlend;

  // The silhouette on 4x4 px blocks: noise averages down, so a side face as grey as the platform stays out of it.
  const silhouette = new Uint8Array(n);
  const block = new Int32Array(6);
  if (scratchDiffs.length < n * 3) scratchDiffs = new Int32Array(n * 3);
  const diffs = scratchDiffs;
  for (let i = 0, o = 0, q = 0; i < n; i++, o += 6, q += 3) {
    diffs[q] = (sums[o] as number) - (sums[o + 3] as number);
    diffs[q + 1] = (sums[o + 1] as number) - (sums[o + 4] as number);
    diffs[q + 2] = (sums[o + 2] as number) - (sums[o + 5] as number);
  }
  const silLimit = options.silhouetteThreshold * 16;
  for (let cy = 0; cy + 1 < h; cy++) {
    for (let cx = 0; cx + 1 < w; cx++) {
      const i = cy * w + cx;
      // Most blocks are plain platform: their summed change alone rules them out.
      const q = i * 3;
      const r = q + w * 3;
      const d0 = (diffs[q] as number) + (diffs[q + 3] as number) + (diffs[r] as number) + (diffs[r + 3] as number);
      const d1 = (diffs[q + 1] as number) + (diffs[q + 4] as number) + (diffs[r + 1] as number) + (diffs[r + 4] as number);
      const d2 = (diffs[q + 2] as number) + (diffs[q + 5] as number) + (diffs[r + 2] as number) + (diffs[r + 5] as number);
      if (Math.abs(d0) <= silLimit && Math.abs(d1) <= silLimit && Math.abs(d2) <= silLimit) continue;
      const o = i * 6;
      for (let c = 0; c < 6; c++) block[c] = (sums[o + c] as number) + (sums[o + 6 + c] as number) + (sums[o + w * 6 + c] as number) + (sums[o + w * 6 + 6 + c] as number);
      if (changeOf(block, 0, 16, minBlend) > options.silhouetteThreshold) silhouette[i] = 1;
    }
  }
  const ccx = (die.center.x - x0) / 2;
  const ccy = (die.center.y - y0) / 2;
  const cc = connectedComponents(silhouette, w, h, 8);
  // Block centres sit half a cell right of and below their cell.
  const dieBlob = componentNear(cc.blobs, ccx - 0.5, ccy - 0.5, options.dieSizePx / 4);
  if (!dieBlob) return { cocked: false, markedCells: 0 };

  // The die at its centre (medians: pips are a minority): its colour, and its change from the platform.
  const [c0, c1, c2, p0, p1, p2] = medianCells(sums, w, h, ccx, ccy, (options.dieSizePx * 0.3) / 2) as [number, number, number, number, number, number];
  const m0 = c0 - p0;
  const m1 = c1 - p1;
  const m2 = c2 - p2;
  // The top face: cells changed from the platform like the centre, up to a gain (the platform's
  // glare cancels in the change), or coloured like the centre up to a gain plus glare (where
  // over-exposure clips the change away). A side face is shaded darker than either allows.
  const changeTol = Math.max(options.faceTolerance, options.faceRelativeTolerance * Math.max(Math.abs(m0), Math.abs(m1), Math.abs(m2)));
  const colourTol = Math.max(options.faceTolerance, options.faceRelativeTolerance * Math.max(c0, c1, c2));
  const [gainLo, gainHi] = options.faceGain;
  // The colour fit's tolerance plus a margin far above rounding error (values are at most a few hundred).
  const colourReach = colourTol + 1e-6;
  const mm = m0 * m0 + m1 * m1 + m2 * m2;
  const faceMask = new Uint8Array(n);
  // The top face lies within its half-diagonal of the centre; farther cells need no test.
  const faceR2 = (options.dieSizePx * 0.42) ** 2;
  // Squared offsets from the centre per column and per row: rows beyond the radius are skipped whole.
  const colD2 = new Float64Array(w);
  for (let cx = 0; cx < w; cx++) colD2[cx] = (cx + 0.5 - ccx) ** 2;
  for (let cy = 0; cy < h; cy++) {
    const rowD2 = (cy + 0.5 - ccy) ** 2;
    if (rowD2 > faceR2) continue;
    for (let cx = 0; cx < w; cx++) {
      if ((colD2[cx] as number) + rowD2 > faceR2) continue;
      const o = (cy * w + cx) * 6;
      const f0 = (sums[o] as number) / 4;
      const f1 = (sums[o + 1] as number) / 4;
      const f2 = (sums[o + 2] as number) / 4;
      const d0 = f0 - (sums[o + 3] as number) / 4;
      const d1 = f1 - (sums[o + 4] as number) / 4;
      const d2 = f2 - (sums[o + 5] as number) / 4;
      // Changed like the centre up to a gain: one coefficient, in closed form (most cells end here).
      const k0 = mm > 0 ? (d0 * m0 + d1 * m1 + d2 * m2) / mm : 1;
      const k = k0 < gainLo ? gainLo : k0 > gainHi ? gainHi : k0;
      const miss0 = f0 >= CLIPPED ? d0 - k * m0 : Math.abs(d0 - k * m0);
      const miss1 = f1 >= CLIPPED ? d1 - k * m1 : Math.abs(d1 - k * m1);
      const miss2 = f2 >= CLIPPED ? d2 - k * m2 : Math.abs(d2 - k * m2);
      if (Math.max(miss0, miss1, miss2) <= changeTol) {
        faceMask[cy * w + cx] = 1;
        continue;
      }
      // Coloured like the centre up to a gain plus glare? Most cells here are platform: a channel
      // that no gain and glare in range bring within the tolerance already settles it, and the fit
      // (which only ever tries gains and glares in range) could only miss by more.
      if (outOfColourReach(f0, c0, gainLo, gainHi, options.glare, colourReach) || outOfColourReach(f1, c1, gainLo, gainHi, options.glare, colourReach) || outOfColourReach(f2, c2, gainLo, gainHi, options.glare, colourReach)) {
        continue;
      }
      fit.f0 = fit.d0 = f0;
      fit.f1 = fit.d1 = f1;
      fit.f2 = fit.d2 = f2;
      fit.u0 = c0;
      fit.u1 = c1;
      fit.u2 = c2;
      fit.v0 = fit.v1 = fit.v2 = 1;
      if (fit.fitTwo(gainLo, gainHi, 0, options.glare) <= colourTol) faceMask[cy * w + cx] = 1;
    }
  }
  const faceCc = connectedComponents(faceMask, w, h, 8);
  const face = componentNear(faceCc.blobs, ccx, ccy, options.dieSizePx / 4);
  // Skip the top face (its pips too, even near the edge where blur mixes them with the platform), its edge, and other dice.
  const skip = face ? dilate(filledConvex(faceCc.labels, face.label, w, h), w, h, options.edgeCells) : new Uint8Array(n);
  const margin = options.edgeCells * 2;
  for (const r of others) {
    const rx0 = Math.max(0, Math.floor((r.x - margin - x0) / 2));
    const ry0 = Math.max(0, Math.floor((r.y - margin - y0) / 2));
    const rx1 = Math.min(w, Math.ceil((r.x + r.width + margin - x0) / 2));
    const ry1 = Math.min(h, Math.ceil((r.y + r.height + margin - y0) / 2));
    for (let y = ry0; y < ry1; y++) if (rx1 > rx0) skip.fill(1, y * w + rx0, y * w + rx1);
  }

  // Marks: changed cells that are no blend of the die's change and the platform's shadow (its
  // blurred edge, a shaded bevel, its shadow). Ink far darker than both is never a blend, and a
  // shadow is soft: a shaded cell much darker than the cells two steps away (the die's own cells
  // left out) is a spot, such as a side face's faded pip.
  const r2 = (reach / 2) ** 2;
  // The limits as locals: read once, not in the loop's rarely taken branches (where the engine
  // dropped its optimised code on meeting another options object).
  const { markThreshold, blendTolerance, deepShade, spotContrast } = options;
  const markLimit = markThreshold * 4;
  let markedCells = 0;
  for (let cy = 0; cy < h; cy++) {
    const rowD2 = (cy + 0.5 - ccy) ** 2;
    for (let cx = 0; cx < w; cx++) {
      const i = cy * w + cx;
      if (skip[i] || (colD2[cx] as number) + rowD2 > r2) continue;
      if (Math.abs(diffs[i * 3] as number) <= markLimit && Math.abs(diffs[i * 3 + 1] as number) <= markLimit && Math.abs(diffs[i * 3 + 2] as number) <= markLimit) continue;
      const o = i * 6;
      if (changeOf(sums, o, 4, minBlend) <= markThreshold) continue;
      const s0 = sums[o] as number;
      const s1 = sums[o + 1] as number;
      const s2 = sums[o + 2] as number;
      const t0 = sums[o + 3] as number;
      const t1 = sums[o + 4] as number;
      const t2 = sums[o + 5] as number;
      fit.f0 = s0 / 4;
      fit.f1 = s1 / 4;
      fit.f2 = s2 / 4;
      fit.d0 = (s0 - t0) / 4;
      fit.d1 = (s1 - t1) / 4;
      fit.d2 = (s2 - t2) / 4;
      fit.v0 = -t0 / 4;
      fit.v1 = -t1 / 4;
      fit.v2 = -t2 / 4;
      fit.u0 = m0;
      fit.u1 = m1;
      fit.u2 = m2;
      const residual = fit.fitTwo(0, 1.3, 0, 1 - minBlend);
      if (residual <= blendTolerance && (fit.b <= deepShade || shadeContrast(sums, skip, w, h, cx, cy) <= spotContrast)) continue;
      markedCells++;
    }
  }
  const axes = principalAxes(dieBlob);
  const silhouetteElongation = axes.major / Math.max(0.5, axes.minor);
  const measured = { markedCells, silhouetteArea: dieBlob.area * 4, silhouetteElongation };
  if (markedCells > options.maxMarkedCells) {
    return { cocked: true, ...measured, reason: `Marks the empty platform does not have show beside the die (${markedCells} cells): a side face is visible, so it is not lying flat.` };
  }
  if (silhouetteElongation > options.maxElongation) {
    return { cocked: true, ...measured, reason: `The die's silhouette is ${silhouetteElongation.toFixed(2)} times longer than wide: it is not lying flat.` };
  }
  return { cocked: false, ...measured };
}

/** Darkening of a cell (fraction of the platform's brightness). */
function shadeAt(sums: Int32Array, i: number): number {
  const o = i * 6;
  const lr = (sums[o + 3] as number) + (sums[o + 4] as number) + (sums[o + 5] as number);
  return 1 - ((sums[o] as number) + (sums[o + 1] as number) + (sums[o + 2] as number)) / Math.max(1, lr);
}

/** How much darker a cell is than the mean of the cells two steps away that are not skipped (0 when none is). */
function shadeContrast(sums: Int32Array, skip: Uint8Array, w: number, h: number, cx: number, cy: number): number {
  let sum = 0;
  let count = 0;
  for (let y = cy - 2; y <= cy + 2; y++) {
    for (let x = cx - 2; x <= cx + 2; x++) {
      if ((Math.abs(x - cx) !== 2 && Math.abs(y - cy) !== 2) || x < 0 || y < 0 || x >= w || y >= h || skip[y * w + x]) continue;
      sum += shadeAt(sums, y * w + x);
      count++;
    }
  }
  return count > 0 ? shadeAt(sums, cy * w + cx) - sum / count : 0;
}
