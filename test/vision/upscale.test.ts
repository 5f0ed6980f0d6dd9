import { describe, expect, it } from 'vitest';
import { upscaleBilinear, type RgbImage } from '../../src/core/image.js';
import { seededRandom } from '../../src/stats/random.js';

/** The upscale as the D6 pip counter defined it before 2026-12-02: pixel by pixel and channel by channel. */
function upscaleByDefinition(img: RgbImage, k: number): RgbImage {
  const w = img.width * k;
  const h = img.height * k;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, (y + 0.5) / k - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(img.height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, (x + 0.5) / k - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(img.width - 1, x0 + 1);
      const fx = sx - x0;
      for (let c = 0; c < 3; c++) {
        const a = img.data[(y0 * img.width + x0) * 3 + c] as number;
        const b = img.data[(y0 * img.width + x1) * 3 + c] as number;
        const d = img.data[(y1 * img.width + x0) * 3 + c] as number;
        const e = img.data[(y1 * img.width + x1) * 3 + c] as number;
        out[(y * w + x) * 3 + c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
      }
    }
  }
  return { width: w, height: h, data: out };
}

function noiseImage(width: number, height: number, seed: number): RgbImage {
  const random = seededRandom(seed);
  return { width, height, data: new Uint8Array(width * height * 3).map(() => Math.floor(random() * 256)) };
}

describe('the pip counter upscales small dice bilinearly', () => {
  it('gives the same bytes as upscaling pixel by pixel, at every factor the counter uses and at odd sizes', () => {
    for (const [w, h, k] of [
      [43, 43, 2],
      [64, 61, 3],
      [17, 30, 4],
      [1, 5, 3],
      [78, 52, 5],
    ] as const) {
      const image = noiseImage(w, h, w * 7 + k);
      const got = upscaleBilinear(image, k);
      const want = upscaleByDefinition(image, k);
      expect([got.width, got.height]).toEqual([w * k, h * k]);
      const first = got.data.findIndex((v, i) => v !== want.data[i]);
      expect(first, `${w}x${h} by ${k}`).toBe(-1);
    }
  });

  it('keeps a flat colour flat and an edge between its two sides', () => {
    const flat: RgbImage = { width: 5, height: 4, data: new Uint8Array(60).map((_, i) => [9, 140, 255][i % 3] as number) };
    expect(new Set(upscaleBilinear(flat, 3).data.filter((_, i) => i % 3 === 1))).toEqual(new Set([140]));
    // Left pixel 0, right pixel 200: every output row rises from 0 to 200 at the middle, evenly (the bytes truncated).
    const edge: RgbImage = { width: 2, height: 1, data: new Uint8Array([0, 0, 0, 200, 200, 200]) };
    const up = upscaleBilinear(edge, 4);
    const rows = [0, 1, 2, 3].map((y) => [...up.data.subarray(y * 24, y * 24 + 24)].filter((_, i) => i % 3 === 0));
    for (const row of rows) expect(row).toEqual([0, 0, 25, 75, 125, 175, 200, 200]);
  });
});
