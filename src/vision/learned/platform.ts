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
import { blockSums } from '../image.js';
import type { RgbImage } from '../image.js';
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
  const platform = new Float64Array(gw * gh * 3);
  const vals: number[] = [];
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
  // Bilinear between cell centres, to full resolution.
  const out = new Uint8Array(frame.width * frame.height * 3);
  const cellPx = cellBlocks * f;
  for (let py = 0; py < frame.height; py++) {
    const gy = Math.min(gh - 1, Math.max(0, (py + 0.5) / cellPx - 0.5));
    const y0 = Math.floor(gy);
    const y1 = Math.min(gh - 1, y0 + 1);
    const ty = gy - y0;
    for (let px = 0; px < frame.width; px++) {
      const gx = Math.min(gw - 1, Math.max(0, (px + 0.5) / cellPx - 0.5));
      const x0 = Math.floor(gx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const tx = gx - x0;
      const o = (py * frame.width + px) * 3;
      for (let c = 0; c < 3; c++) {
        const a = (platform[(y0 * gw + x0) * 3 + c] as number) * (1 - tx) + (platform[(y0 * gw + x1) * 3 + c] as number) * tx;
        const b = (platform[(y1 * gw + x0) * 3 + c] as number) * (1 - tx) + (platform[(y1 * gw + x1) * 3 + c] as number) * tx;
        out[o + c] = Math.round(a * (1 - ty) + b * ty);
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

/** Finds the dice on a frame with no empty-platform reference. */
export function locateOnAnyPlatform(frame: RgbImage, channels: readonly ChannelRegion[], dieSizePx: number, expectedDieArea: number, options: Omit<LocateOptions, 'expectedDieArea'> = defaultLocateOptions): LocateResult & { readonly platform: RgbImage; readonly threshold: number } {
  const platform = estimatePlatform(frame, { dieSizePx, radius: 2 });
  const threshold = textureThreshold(frame, platform, options.threshold);
  return { ...locateDice(frame, platform, channels, { ...options, threshold, expectedDieArea }), platform, threshold };
}
