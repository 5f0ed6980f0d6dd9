import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { cellSums } from '../../src/vision/cocked/cells.js';
import { randomImage } from './support/randomImage.js';

/** The six sums of each 2x2 px cell of the window, pixel by pixel: frame R, G, B, then reference R, G, B. */
function plainCellSums(frame: RgbImage, reference: RgbImage, x0: number, y0: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let cy = 0; cy < h; cy++) {
    for (let cx = 0; cx < w; cx++) {
      for (const image of [frame, reference]) {
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) s += image.data[((y0 + 2 * cy + dy) * image.width + x0 + 2 * cx + dx) * 3 + c] as number;
          out.push(s);
        }
      }
    }
  }
  return out;
}

describe('the cells beside a die', () => {
  it('sums each 2x2 px cell of the frame and of the empty platform, on even and odd window edges, frame after frame against one platform', () => {
    const reference = randomImage(37, 29, 1);
    for (const [seed, x0, y0, w, h] of [[2, 0, 0, 18, 14], [3, 4, 6, 10, 7], [4, 3, 5, 9, 8], [5, 2, 1, 12, 10], [6, 16, 12, 10, 8]] as const) {
      const frame = randomImage(37, 29, seed);
      const sums = new Int32Array(w * h * 6).fill(-1);
      cellSums(frame, reference, x0, y0, w, h, sums);
      expect(Array.from(sums), `window at ${x0}, ${y0}`).toEqual(plainCellSums(frame, reference, x0, y0, w, h));
    }
  });
});
