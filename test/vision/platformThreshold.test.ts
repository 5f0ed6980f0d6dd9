import { describe, expect, it } from 'vitest';
import { blockSums } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { openMask, textureThreshold } from '../../src/vision/learned/platform.js';
import { lcg } from './support/randomImage.js';

/** A flat grey image with noise of `spread` levels either side. */
function noisy(width: number, height: number, level: number, spread: number, seed: number): RgbImage {
  const random = lcg(seed);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(level + (random() * 2 - 1) * spread)));
  return { width, height, data };
}

/** The threshold as its definition reads: 4x the median (sorted) block difference, in levels, never under `base`. */
function sortedThreshold(frame: RgbImage, platform: RgbImage, base: number): number {
  const a = blockSums(frame, 4).data;
  const b = blockSums(platform, 4).data;
  const diffs: number[] = [];
  for (let i = 0; i < a.length; i += 3) diffs.push(Math.max(0, ...[0, 1, 2].map((c) => Math.abs((a[i + c] as number) - (b[i + c] as number)) / 16)));
  diffs.sort((p, q) => p - q);
  return Math.max(base, 4 * (diffs[diffs.length >> 1] ?? 0));
}

/** Opening by a (2r + 1)-square, pixel by pixel: a pixel stays when some square holding it is all set (clipped at the edges). */
function plainOpening(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const at = (x: number, y: number): number => mask[y * width + x] as number;
  const all = (x: number, y: number): boolean => {
    for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++) if (at(xx, yy) === 0) return false;
    return true;
  };
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let kept = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r) && kept === 0; yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++) if (all(xx, yy)) kept = 1;
      out[y * width + x] = kept;
    }
  }
  return out;
}

describe('the platform estimate: texture threshold and opening', () => {
  it('sets the threshold at 4x the median block difference from the estimate (or the base), on odd and even block counts and on a platform with no texture', () => {
    for (const [w, h, spread, seed] of [[64, 36, 40, 1], [64, 32, 90, 2], [48, 20, 3, 3], [1280, 720, 25, 4], [16, 4, 200, 5]] as const) {
      const frame = noisy(w, h, 120, spread, seed);
      const platform = noisy(w, h, 130, 0, seed + 10);
      for (const base of [0, 14, 60]) expect(textureThreshold(frame, platform, base), `${w}x${h} spread ${spread}, base ${base}`).toBe(sortedThreshold(frame, platform, base));
    }
    const flat = noisy(32, 16, 90, 0, 6);
    expect(textureThreshold(flat, flat, 14)).toBe(14);
  });

  it('opens a mask exactly as a square filter pixel by pixel does: what no (2r + 1) square of set pixels covers goes', () => {
    const random = lcg(7);
    for (const [w, h, r, density] of [[40, 30, 1, 0.7], [33, 17, 2, 0.85], [20, 25, 3, 0.9], [9, 5, 4, 0.95]] as const) {
      const mask = Uint8Array.from({ length: w * h }, () => (random() < density ? 1 : 0));
      const expected = plainOpening(mask, w, h, r);
      openMask(mask, w, h, r);
      expect(Array.from(mask), `${w}x${h} r ${r}`).toEqual(Array.from(expected));
    }
  });
});
