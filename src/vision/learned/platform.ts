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
  const vals: number[] = [];
  const platform = new Float64Array(gw * gh * 3);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      for (let c = 0; c < 3; c++) {
        vals.length = 0;
        for (let yy = Math.max(0, y - r); yy <= Math.min(gh - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(gw - 1, x + r); xx++) vals.push(cells[(yy * gw + xx) * 3 + c] as number);
        vals.sort((p, q) => p - q);
        platform[(y * gw + x) * 3 + c] = vals[vals.length >> 1] as number;
      }
    }
  }
  // Walls and rails run straight and are thinner than a cell: medians along one block column (or row), over a line of
  // cells several dice long, are the wall's own colour there. A block matching such a line estimate better than the
  // square one is wall or platform, not a die.
  const line = 2 * r + 2;
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
    vals.length = 0;
    for (let k = Math.max(0, along - line); k <= Math.min(n - 1, along + line); k++) vals.push(src[((vertical ? k * stride + fixed : fixed * stride + k) * 3) + c] as number);
    vals.sort((p, q) => p - q);
    return vals[vals.length >> 1] as number;
  };
  const vert = new Float64Array(bw * gh * 3);
  for (let cy = 0; cy < gh; cy++) for (let bx = 0; bx < bw; bx++) for (let c = 0; c < 3; c++) vert[(cy * bw + bx) * 3 + c] = lineMedian(colCells, bw, bx, cy, gh, c, true);
  const hor = new Float64Array(gw * bh * 3);
  for (let by = 0; by < bh; by++) for (let cx = 0; cx < gw; cx++) for (let c = 0; c < 3; c++) hor[(by * gw + cx) * 3 + c] = lineMedian(rowCells, gw, by, cx, gw, c, false);
  // The square estimate, bilinear between cell centres, per block; then the nearest of the three, written to full resolution.
  const out = new Uint8Array(frame.width * frame.height * 3);
  const est = [0, 0, 0];
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
      for (let c = 0; c < 3; c++) {
        const a = (platform[(y0 * gw + x0) * 3 + c] as number) * (1 - tx) + (platform[(y0 * gw + x1) * 3 + c] as number) * tx;
        const b = (platform[(y1 * gw + x0) * 3 + c] as number) * (1 - tx) + (platform[(y1 * gw + x1) * 3 + c] as number) * tx;
        est[c] = a * (1 - ty) + b * ty;
      }
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 3; k++) {
        let d = 0;
        for (let c = 0; c < 3; c++) {
          const e = k === 0 ? (est[c] as number) : k === 1 ? (vert[(cy * bw + bx) * 3 + c] as number) : (hor[(by * gw + cx) * 3 + c] as number);
          d = Math.max(d, Math.abs(e - blockAt(bx, by, c)));
        }
        if (d < bestD) {
          bestD = d;
          best = k;
        }
      }
      for (let c = 0; c < 3; c++) {
        const e = best === 0 ? (est[c] as number) : best === 1 ? (vert[(cy * bw + bx) * 3 + c] as number) : (hor[(by * gw + cx) * 3 + c] as number);
        const v = Math.round(e);
        for (let py = by * f; py < (by === bh - 1 ? frame.height : by * f + f); py++) for (let px = bx * f; px < (bx === bw - 1 ? frame.width : bx * f + f); px++) out[(py * frame.width + px) * 3 + c] = v;
      }
    }
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
  const diffs: number[] = [];
  for (let i = 0; i < a.data.length; i += 3) {
    let m = 0;
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs((a.data[i + c] as number) - (b.data[i + c] as number)) / 16);
    diffs.push(m);
  }
  diffs.sort((p, q) => p - q);
  return Math.max(base, 4 * (diffs[diffs.length >> 1] ?? 0));
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
    const at = (line: number, i: number): number => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      // Count of set pixels in the window [i - r, i + r], clipped to the line.
      let count = 0;
      for (let i = 0; i <= Math.min(len - 1, r); i++) count += src[at(line, i)] as number;
      for (let i = 0; i < len; i++) {
        const lo = Math.max(0, i - r);
        const hi = Math.min(len - 1, i + r);
        const n = hi - lo + 1;
        dst[at(line, i)] = keepIfAll ? (count === n ? 1 : 0) : count > 0 ? 1 : 0;
        if (i - r >= 0) count -= src[at(line, i - r)] as number;
        if (i + r + 1 < len) count += src[at(line, i + r + 1)] as number;
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
