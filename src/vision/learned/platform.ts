/**
 * Location without an empty-platform reference (labelled photos, renders,
 * calibration sets): the platform is estimated from the frame itself. Each
 * die-sized cell gets its mean colour; the platform under a cell is the
 * per-channel median of the cells around it (a window several dice wide, where
 * most cells are bare platform), so light or dark, plain or unevenly lit
 * platforms all work. Textured platforms raise the threshold: it is set from
 * the frame's own spread about the estimate. The usual locator (shadow test,
 * components, touching dice by area) then runs against this estimate.
 */
import type { ChannelRegion } from '../channels.js';
import { blockSums } from '../../core/image.js';
import type { RgbImage } from '../../core/image.js';
import { defaultLocateOptions, locateDice } from '../locate.js';
import type { LocateOptions, LocateResult } from '../locate.js';

export interface PlatformEstimateOptions {
  /** Die size in pixels (a cell is one die). */
  readonly dieSizePx: number;
  /** Window radius in cells for the median (2: 5x5 dice). */
  readonly radius: number;
}

/**
 * The median (the upper of the two middle values when `n` is even) of `buf[0..n-1]`, which it sorts in place: insertion
 * sort, for the few values (25 or 13) of a median filter's window, where `Array.prototype.sort` with a comparator
 * costs a call per comparison. The same value as sorting a copy: the values are finite numbers.
 */
function medianInPlace(buf: Float64Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = buf[i] as number;
    let j = i - 1;
    while (j >= 0 && (buf[j] as number) > v) {
      buf[j + 1] = buf[j] as number;
      j--;
    }
    buf[j + 1] = v;
  }
  return buf[n >> 1] as number;
}

/** Bilinear blend of one channel of four cells (offsets `p00`.. into `grid`): along x on both rows, then along y. */
function bilinear(grid: Float64Array, p00: number, p01: number, p10: number, p11: number, tx: number, ty: number): number {
  const a = (grid[p00] as number) * (1 - tx) + (grid[p01] as number) * tx;
  const b = (grid[p10] as number) * (1 - tx) + (grid[p11] as number) * tx;
  return a * (1 - ty) + b * ty;
}

/** The largest of the three channels' distances |e - b| (as `Math.max` over 0 and each in turn). */
function farthest(e0: number, e1: number, e2: number, b0: number, b1: number, b2: number): number {
  return Math.max(Math.max(Math.max(0, Math.abs(e0 - b0)), Math.abs(e1 - b1)), Math.abs(e2 - b2));
}

/** The platform as it would look with no dice on it (full resolution, smooth). */
export function estimatePlatform(frame: RgbImage, options: PlatformEstimateOptions): RgbImage {
  const f = 4;
  const bs = blockSums(frame, f);
  const cellBlocks = Math.max(2, Math.round(options.dieSizePx / f / 1.5));
  const gw = Math.max(1, Math.ceil(bs.width / cellBlocks));
  const gh = Math.max(1, Math.ceil(bs.height / cellBlocks));
  const cells = new Float64Array(gw * gh * 3);
  const counts = new Float64Array(gw * gh);
  for (let by = 0; by < bs.height; by++) {
    const cy = Math.min(gh - 1, Math.floor(by / cellBlocks));
    for (let bx = 0; bx < bs.width; bx++) {
      const ci = cy * gw + Math.min(gw - 1, Math.floor(bx / cellBlocks));
      const o = (by * bs.width + bx) * 3;
      for (let c = 0; c < 3; c++) cells[ci * 3 + c] = (cells[ci * 3 + c] as number) + (bs.data[o + c] as number) / (f * f);
      counts[ci] = (counts[ci] as number) + 1;
    }
  }
  for (let i = 0; i < gw * gh; i++) for (let c = 0; c < 3; c++) cells[i * 3 + c] = (cells[i * 3 + c] as number) / Math.max(1, counts[i] as number);
  const r = Math.max(1, Math.floor(options.radius));
  const line = 2 * r + 2;
  // One scratch window for every median: the square's (2r + 1)^2 cells or a line's 2 line + 1.
  const vals = new Float64Array(Math.max((2 * r + 1) * (2 * r + 1), 2 * line + 1));
  const platform = new Float64Array(gw * gh * 3);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      for (let c = 0; c < 3; c++) {
        let n = 0;
        for (let yy = Math.max(0, y - r); yy <= Math.min(gh - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(gw - 1, x + r); xx++) vals[n++] = cells[(yy * gw + xx) * 3 + c] as number;
        platform[(y * gw + x) * 3 + c] = medianInPlace(vals, n);
      }
    }
  }
  // Walls and rails run straight and are thinner than a cell: medians along one block column (or row), over a line of
  // cells several dice long, are the wall's own colour there. A block matching such a line estimate better than the
  // square one is wall or platform, not a die.
  const bw = bs.width;
  const bh = bs.height;
  const blockAt = (bx: number, by: number, c: number): number => (bs.data[(by * bw + bx) * 3 + c] as number) / (f * f);
  const colCells = new Float64Array(bw * gh * 3);
  const rowCells = new Float64Array(gw * bh * 3);
  for (let by = 0; by < bh; by++) {
    const cy = Math.min(gh - 1, Math.floor(by / cellBlocks));
    for (let bx = 0; bx < bw; bx++) {
      const cx = Math.min(gw - 1, Math.floor(bx / cellBlocks));
      for (let c = 0; c < 3; c++) {
        const v = blockAt(bx, by, c) / cellBlocks;
        colCells[(cy * bw + bx) * 3 + c] = (colCells[(cy * bw + bx) * 3 + c] as number) + v;
        rowCells[(by * gw + cx) * 3 + c] = (rowCells[(by * gw + cx) * 3 + c] as number) + v;
      }
    }
  }
  const lineMedian = (src: Float64Array, stride: number, fixed: number, along: number, n: number, c: number, vertical: boolean): number => {
    let m = 0;
    for (let k = Math.max(0, along - line); k <= Math.min(n - 1, along + line); k++) vals[m++] = src[((vertical ? k * stride + fixed : fixed * stride + k) * 3) + c] as number;
    return medianInPlace(vals, m);
  };
  const vert = new Float64Array(bw * gh * 3);
  for (let cy = 0; cy < gh; cy++) for (let bx = 0; bx < bw; bx++) for (let c = 0; c < 3; c++) vert[(cy * bw + bx) * 3 + c] = lineMedian(colCells, bw, bx, cy, gh, c, true);
  const hor = new Float64Array(gw * bh * 3);
  for (let by = 0; by < bh; by++) for (let cx = 0; cx < gw; cx++) for (let c = 0; c < 3; c++) hor[(by * gw + cx) * 3 + c] = lineMedian(rowCells, gw, by, cx, gw, c, false);
  // The square estimate, bilinear between cell centres, per block; then the nearest of the three, written to full resolution.
  // (Each estimate and each distance is the same expression, in the same order, as when they were worked out through
  // small arrays and closures per channel: written out per channel here, the loop takes a third of the time.)
  const out = new Uint8Array(frame.width * frame.height * 3);
  const data = bs.data;
  const n = f * f;
  // A block row's pixel row (each block's value over its 4 pixels, the last block's to the frame's edge), made once and
  // copied into its 4 rows (the last block row's to the frame's bottom): one write a byte, in order.
  const stride = frame.width * 3;
  const pixelRow = new Uint8Array(stride);
  for (let by = 0; by < bh; by++) {
    const gy = Math.min(gh - 1, Math.max(0, (by + 0.5) / cellBlocks - 0.5));
    const y0 = Math.floor(gy);
    const y1 = Math.min(gh - 1, y0 + 1);
    const ty = gy - y0;
    const cy = Math.min(gh - 1, Math.floor(by / cellBlocks));
    for (let bx = 0; bx < bw; bx++) {
      const gx = Math.min(gw - 1, Math.max(0, (bx + 0.5) / cellBlocks - 0.5));
      const x0 = Math.floor(gx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const tx = gx - x0;
      const cx = Math.min(gw - 1, Math.floor(bx / cellBlocks));
      const p00 = (y0 * gw + x0) * 3;
      const p01 = (y0 * gw + x1) * 3;
      const p10 = (y1 * gw + x0) * 3;
      const p11 = (y1 * gw + x1) * 3;
      const s0 = bilinear(platform, p00, p01, p10, p11, tx, ty);
      const s1 = bilinear(platform, p00 + 1, p01 + 1, p10 + 1, p11 + 1, tx, ty);
      const s2 = bilinear(platform, p00 + 2, p01 + 2, p10 + 2, p11 + 2, tx, ty);
      const o = (by * bw + bx) * 3;
      const b0 = (data[o] as number) / n;
      const b1 = (data[o + 1] as number) / n;
      const b2 = (data[o + 2] as number) / n;
      const vo = (cy * bw + bx) * 3;
      const ho = (by * gw + cx) * 3;
      // The nearest estimate (the first of equals): the square, the column's line, the row's line.
      let e0 = s0;
      let e1 = s1;
      let e2 = s2;
      let bestD = farthest(s0, s1, s2, b0, b1, b2);
      const dv = farthest(vert[vo] as number, vert[vo + 1] as number, vert[vo + 2] as number, b0, b1, b2);
      if (dv < bestD) {
        bestD = dv;
        e0 = vert[vo] as number;
        e1 = vert[vo + 1] as number;
        e2 = vert[vo + 2] as number;
      }
      if (farthest(hor[ho] as number, hor[ho + 1] as number, hor[ho + 2] as number, b0, b1, b2) < bestD) {
        e0 = hor[ho] as number;
        e1 = hor[ho + 1] as number;
        e2 = hor[ho + 2] as number;
      }
      const v0 = Math.round(e0);
      const v1 = Math.round(e1);
      const v2 = Math.round(e2);
      for (let q = bx * f * 3, qEnd = (bx === bw - 1 ? frame.width : bx * f + f) * 3; q < qEnd; q += 3) {
        pixelRow[q] = v0;
        pixelRow[q + 1] = v1;
        pixelRow[q + 2] = v2;
      }
    }
    for (let py = by * f; py < (by === bh - 1 ? frame.height : by * f + f); py++) out.set(pixelRow, py * stride);
  }
  return { width: frame.width, height: frame.height, data: out };
}

/**
 * The colour-difference threshold for this frame: the locator's default, or
 * more on a textured platform (4x the median block difference from the estimate).
 */
export function textureThreshold(frame: RgbImage, platform: RgbImage, base: number): number {
  const a = blockSums(frame, 4);
  const b = blockSums(platform, 4);
  // Each block's difference is a whole number of sixteenths (its largest channel difference of two sums of 16 bytes,
  // 0..4080): the median is read off a histogram of those, the same value as sorting them.
  const counts = new Uint32Array(16 * 255 + 1);
  const n = a.data.length / 3;
  for (let i = 0; i < a.data.length; i += 3) {
    let m = 0;
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs((a.data[i + c] as number) - (b.data[i + c] as number)));
    counts[m] = (counts[m] as number) + 1;
  }
  if (n === 0) return Math.max(base, 0);
  let seen = 0;
  let median = 0;
  while ((seen += counts[median] as number) <= n >> 1) median++;
  return Math.max(base, 4 * (median / 16));
}

/**
 * Morphological opening of a 0/1 mask with a square of side 2r+1 (separable
 * running minimum, then maximum): removes whatever is thinner than the square
 * (walls, rails, thin shadow edges) and keeps dice, which are wider.
 */
export function openMask(mask: Uint8Array, width: number, height: number, r: number): void {
  if (r < 1) return;
  const tmp = new Uint8Array(mask.length);
  const pass = (src: Uint8Array, dst: Uint8Array, horizontal: boolean, keepIfAll: boolean): void => {
    const lines = horizontal ? height : width;
    const len = horizontal ? width : height;
    // Pixel i of a line is at `first + i * step` (offsets, not a function per pixel: the passes run on every frame).
    const step = horizontal ? 1 : width;
    for (let line = 0; line < lines; line++) {
      const first = horizontal ? line * width : line;
      // Count of set pixels in the window [i - r, i + r], clipped to the line.
      let count = 0;
      for (let i = 0; i <= Math.min(len - 1, r); i++) count += src[first + i * step] as number;
      for (let i = 0; i < len; i++) {
        const lo = Math.max(0, i - r);
        const hi = Math.min(len - 1, i + r);
        const n = hi - lo + 1;
        dst[first + i * step] = keepIfAll ? (count === n ? 1 : 0) : count > 0 ? 1 : 0;
        if (i - r >= 0) count -= src[first + (i - r) * step] as number;
        if (i + r + 1 < len) count += src[first + (i + r + 1) * step] as number;
      }
    }
  };
  pass(mask, tmp, true, true);
  pass(tmp, mask, false, true);
  pass(mask, tmp, true, false);
  pass(tmp, mask, false, false);
}

/** A blob longer than this many die sizes is a wall, a rail or the platform's edge, not dice (a row of three touching dice is ~3.3). */
export const MAX_DICE_LENGTH = 4.5;

/**
 * Finds the dice on a frame with no empty-platform reference. Blobs too long
 * to be dice (walls, rails; see `MAX_DICE_LENGTH`) are also listed as
 * `structures`: dice touching a wall merge with it, so they are not dropped.
 */
export function locateOnAnyPlatform(
  frame: RgbImage,
  channels: readonly ChannelRegion[],
  dieSizePx: number,
  expectedDieArea: number,
  options: Omit<LocateOptions, 'expectedDieArea'> = defaultLocateOptions,
): LocateResult & { readonly platform: RgbImage; readonly threshold: number; readonly structures: LocateResult['dice'] } {
  const platform = estimatePlatform(frame, { dieSizePx, radius: 2 });
  const threshold = textureThreshold(frame, platform, options.threshold);
  // Opening with a square a sixth of a die wide: thin rails and shadow edges go (walls as wide as a die stay: see `structures`).
  const r = Math.floor(dieSizePx / options.downscale / 12);
  const found = locateDice(frame, platform, channels, { ...options, threshold, expectedDieArea, maskFilter: (m, w, h) => openMask(m, w, h, r) });
  const isStructure = (d: LocateResult['dice'][number]): boolean => d.length > MAX_DICE_LENGTH * dieSizePx;
  return { ...found, platform, threshold, structures: found.dice.filter(isStructure) };
}
