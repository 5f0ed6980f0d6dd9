/**
 * Cocked-die check from what lies beside the die, run by the pipeline for every
 * die whose outline looks flat. When a cocked die's side face is shaded to the
 * platform's own colour, its outline is just the foreshortened top face and
 * looks flat; but the side face's pips and edge still differ from the empty
 * platform right beside the top face. A flat die seen from above has nothing
 * beside it but platform, its own blurred edge and its soft shadow. Such a die
 * is reported cocked and never read as a face.
 *
 * The steps, each a method below: sum the window's 2x2 px cells, find the die's
 * silhouette, find its top face, skip the face, its edge and the other dice,
 * and count the marks left.
 */
import { connectedComponents, principalAxes } from '../components.js';
import type { Blob } from '../components.js';
import type { Rect, RgbImage } from '../../core/image.js';
import type { LocatedDie } from '../locate.js';
import { cellSums, changeOf, medianCells, medianRing, shadeContrast } from './cells.js';
import { componentNear, componentsNear, dilate, filledConvex } from './cellMasks.js';
import { CLIPPED, ColourFit, outOfColourReach } from './colourFit.js';
import type { SurroundingsOptions, SurroundingsVerdict } from './surroundingsLimits.js';

/** The window of 2x2 px cells around one die, on even pixel edges inside the frame. */
interface CellWindow {
  readonly x0: number;
  readonly y0: number;
  /** Size in cells. */
  readonly w: number;
  readonly h: number;
  /** Per cell: summed R, G, B of the frame, then of the empty platform. */
  readonly sums: Int32Array;
  /** Per cell: the change (frame minus platform) of R, G and B. */
  readonly diffs: Int32Array;
  /** The die's centre, in cells. */
  readonly ccx: number;
  readonly ccy: number;
  /** Squared offset of each column's centre from the die's centre. */
  readonly colD2: Float64Array;
}

/** How far from the die's centre the top face is looked for, in die sizes (past a flat cube's corners, 0.71, and its blurred edge). */
const FACE_REACH = 0.84;
/** A top face found from the centre's colour of less than this share of a cube's face is the ink at its middle, not the face. */
const SMALL_FACE = 0.3;
/** The ring the body's colour is taken from, in die sizes from the centre: outside a logo's or a large 1's middle, inside a flat cube's face. */
const RING: readonly [number, number] = [0.25, 0.42];

/** The die at its centre (medians: pips are a minority): its colour `c`, and its change `m` from the platform. */
interface DieCentre {
  readonly c0: number;
  readonly c1: number;
  readonly c2: number;
  readonly m0: number;
  readonly m1: number;
  readonly m2: number;
}

/** The die's colour and change from six medians (frame R, G, B, then platform R, G, B). */
function dieCentre(medians: readonly number[]): DieCentre {
  const [c0, c1, c2, p0, p1, p2] = medians as [number, number, number, number, number, number];
  return { c0, c1, c2, m0: c0 - p0, m1: c1 - p1, m2: c2 - p2 };
}

/**
 * Judges dice one after another, reusing its scratch (cell sums and their
 * changes, grown for a larger window) and its colour fit from die to die: make
 * one per frame or per reader, never share one between concurrent callers.
 */
export class SurroundingsJudge {
  private sums = new Int32Array(0);
  private diffs = new Int32Array(0);
  private readonly fit = new ColourFit();

  /**
   * Looks beside a located die, at twice the locator's resolution, for marks the
   * empty platform does not have and that are neither the die's top face, its
   * blurred or shaded edge, nor its shadow: the pips and edge of a side face. Also
   * measures the die's silhouette there (4x4 px blocks), finer than the locator's.
   * `others` are the boxes of the other dice found (their pixels are not marks).
   */
  judge(frame: RgbImage, reference: RgbImage, die: LocatedDie, others: readonly Rect[], options: SurroundingsOptions): SurroundingsVerdict {
    const win = this.window(frame, reference, die, options);
    if (!win) return { cocked: false, markedCells: 0 };
    const dieBlob = silhouetteBlob(win, options);
    if (!dieBlob) return { cocked: false, markedCells: 0 };
    let centre = dieCentre(medianCells(win.sums, win.w, win.h, win.ccx, win.ccy, (options.dieSizePx * 0.3) / 2));
    let face = this.faceOf(win, centre, options);
    // A face whose middle is ink (a logo, a large 1) has the ink's colour at its centre, and the top face found from
    // it is the ink alone, or the ink is the platform's colour and no die at all: the rest of the face would be
    // counted as marks beside it. The body's colour lies in a ring round the middle, inside the face.
    const smallFace = SMALL_FACE * (options.dieSizePx / 2) ** 2;
    const unchanged = Math.max(Math.abs(centre.m0), Math.abs(centre.m1), Math.abs(centre.m2)) <= options.markThreshold;
    if (face.area < smallFace || unchanged) {
      const ringCentre = dieCentre(medianRing(win.sums, win.w, win.h, win.ccx, win.ccy, (options.dieSizePx * RING[0]) / 2, (options.dieSizePx * RING[1]) / 2));
      const ringFace = this.faceOf(win, ringCentre, options, true);
      if (ringFace.area >= smallFace) {
        centre = ringCentre;
        face = ringFace;
      }
    }
    const skip = skippedCells(win, face.mask, others, options);
    const markedCells = this.countMarks(win, centre, skip, options);
    return verdictOf(dieBlob, markedCells, options);
  }

  /** Sums the window's cells into this judge's scratch; undefined when the window is too small to judge. */
  private window(frame: RgbImage, reference: RgbImage, die: LocatedDie, options: SurroundingsOptions): CellWindow | undefined {
    const reach = options.dieSizePx * options.reach;
    const x0 = Math.max(0, Math.floor((die.center.x - reach) / 2) * 2);
    const y0 = Math.max(0, Math.floor((die.center.y - reach) / 2) * 2);
    const x1 = Math.min(frame.width - 1, Math.ceil(die.center.x + reach));
    const y1 = Math.min(frame.height - 1, Math.ceil(die.center.y + reach));
    const w = Math.max(0, (x1 - x0) >> 1);
    const h = Math.max(0, (y1 - y0) >> 1);
    if (w < 3 || h < 3) return undefined;
    const n = w * h;
    if (this.sums.length < n * 6) this.sums = new Int32Array(n * 6);
    if (this.diffs.length < n * 3) this.diffs = new Int32Array(n * 3);
    const sums = this.sums;
    const diffs = this.diffs;
    cellSums(frame, reference, x0, y0, w, h, sums);
    for (let i = 0, o = 0, q = 0; i < n; i++, o += 6, q += 3) {
      diffs[q] = (sums[o] as number) - (sums[o + 3] as number);
      diffs[q + 1] = (sums[o + 1] as number) - (sums[o + 4] as number);
      diffs[q + 2] = (sums[o + 2] as number) - (sums[o + 5] as number);
    }
    const ccx = (die.center.x - x0) / 2;
    const ccy = (die.center.y - y0) / 2;
    const colD2 = new Float64Array(w);
    for (let cx = 0; cx < w; cx++) colD2[cx] = (cx + 0.5 - ccx) ** 2;
    return { x0, y0, w, h, sums, diffs, ccx, ccy, colD2 };
  }

  /**
   * The top face near the centre, filled and convex, and its area in cells (0 and no mask when none is found): its
   * largest component there, or with `whole` every component there (a face that ink such as a logo's ring cuts in pieces).
   */
  private faceOf(win: CellWindow, centre: DieCentre, options: SurroundingsOptions, whole = false): { readonly mask: Uint8Array | undefined; readonly area: number } {
    const { w, h, ccx, ccy } = win;
    const faceCc = connectedComponents(this.topFace(win, centre, options), w, h, 8);
    const near = componentsNear(faceCc.blobs, ccx, ccy, options.dieSizePx / 4);
    if (near.length === 0) return { mask: undefined, area: 0 };
    const pieces = whole ? near : [near.reduce((a, b) => (b.area > a.area ? b : a))];
    return { mask: filledConvex(faceCc.labels, pieces.map((b) => b.label), w, h), area: pieces.reduce((sum, b) => sum + b.area, 0) };
  }

  /**
   * The top face: cells changed from the platform like the centre, up to a gain (the platform's
   * glare cancels in the change), or coloured like the centre up to a gain plus glare (where
   * over-exposure clips the change away). A side face is shaded darker than either allows.
   */
  private topFace(win: CellWindow, centre: DieCentre, options: SurroundingsOptions): Uint8Array {
    const { w, h, sums, ccy, colD2 } = win;
    const { c0, c1, c2, m0, m1, m2 } = centre;
    const fit = this.fit;
    const changeTol = Math.max(options.faceTolerance, options.faceRelativeTolerance * Math.max(Math.abs(m0), Math.abs(m1), Math.abs(m2)));
    const colourTol = Math.max(options.faceTolerance, options.faceRelativeTolerance * Math.max(c0, c1, c2));
    const [gainLo, gainHi] = options.faceGain;
    // The colour fit's tolerance plus a margin far above rounding error (values are at most a few hundred).
    const colourReach = colourTol + 1e-6;
    const mm = m0 * m0 + m1 * m1 + m2 * m2;
    const faceMask = new Uint8Array(w * h);
    // The top face lies within its half-diagonal of the centre; farther cells need no test.
    const faceR2 = ((options.dieSizePx * FACE_REACH) / 2) ** 2;
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
    return faceMask;
  }

  /**
   * Marks: changed cells that are no blend of the die's change and the platform's shadow (its
   * blurred edge, a shaded bevel, its shadow). Ink far darker than both is never a blend, and a
   * shadow is soft: a shaded cell much darker than the cells two steps away (the die's own cells
   * left out) is a spot, such as a side face's faded pip.
   */
  private countMarks(win: CellWindow, centre: DieCentre, skip: Uint8Array, options: SurroundingsOptions): number {
    const { w, h, sums, diffs, ccy, colD2 } = win;
    const { m0, m1, m2 } = centre;
    const fit = this.fit;
    const r2 = ((options.dieSizePx * options.reach) / 2) ** 2;
    // The limits as locals: read once, not in the loop's rarely taken branches (where the engine
    // dropped its optimised code on meeting another options object).
    const { markThreshold, blendTolerance, deepShade, spotContrast, minBlend } = options;
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
        fit.loadBlend(sums, o, m0, m1, m2);
        const residual = fit.fitTwo(0, 1.3, 0, 1 - minBlend);
        if (residual <= blendTolerance && (fit.b <= deepShade || shadeContrast(sums, skip, w, h, cx, cy) <= spotContrast)) continue;
        markedCells++;
      }
    }
    return markedCells;
  }
}

/** The die's silhouette on 4x4 px blocks (noise averages down, so a side face as grey as the platform stays out of it): the component at the die's centre. */
function silhouetteBlob(win: CellWindow, options: SurroundingsOptions): Blob | undefined {
  const { w, h, sums, diffs, ccx, ccy } = win;
  const silhouette = new Uint8Array(w * h);
  const block = new Int32Array(6);
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
      if (changeOf(block, 0, 16, options.minBlend) > options.silhouetteThreshold) silhouette[i] = 1;
    }
  }
  const cc = connectedComponents(silhouette, w, h, 8);
  // Block centres sit half a cell right of and below their cell.
  return componentNear(cc.blobs, ccx - 0.5, ccy - 0.5, options.dieSizePx / 4);
}

/** Cells not searched for marks: the top face (its pips too, even near the edge where blur mixes them with the platform), its edge, and other dice. */
function skippedCells(win: CellWindow, face: Uint8Array | undefined, others: readonly Rect[], options: SurroundingsOptions): Uint8Array {
  const { x0, y0, w, h } = win;
  const skip = face ? dilate(face, w, h, options.edgeCells) : new Uint8Array(w * h);
  const margin = options.edgeCells * 2;
  for (const r of others) {
    const rx0 = Math.max(0, Math.floor((r.x - margin - x0) / 2));
    const ry0 = Math.max(0, Math.floor((r.y - margin - y0) / 2));
    const rx1 = Math.min(w, Math.ceil((r.x + r.width + margin - x0) / 2));
    const ry1 = Math.min(h, Math.ceil((r.y + r.height + margin - y0) / 2));
    for (let y = ry0; y < ry1; y++) if (rx1 > rx0) skip.fill(1, y * w + rx0, y * w + rx1);
  }
  return skip;
}

/** Cocked when marks show beside the die, or when its silhouette is longer than a flat die's. */
function verdictOf(dieBlob: Blob, markedCells: number, options: SurroundingsOptions): SurroundingsVerdict {
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
