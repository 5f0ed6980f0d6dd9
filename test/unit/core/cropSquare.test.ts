import { describe, expect, it } from 'vitest';
import { cropSquare } from '../../../src/core/image.js';
import type { RgbImage } from '../../../src/core/image.js';

/** An image whose every pixel says where it is (red: x, green: y). */
function coordinates(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 7], (y * width + x) * 3);
  return { width, height, data };
}
const at = (image: RgbImage, x: number, y: number): number[] => [...image.data.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3)];

describe('a square cut around a point', () => {
  it('leaves the point at the middle, unsaid, when the image holds the whole square', () => {
    const cut = cropSquare(coordinates(100, 80), { x: 50, y: 40 }, 20);
    expect(cut.center).toBeUndefined();
    expect([cut.image.width, cut.image.height]).toEqual([20, 20]);
    expect(at(cut.image, 10, 10)).toEqual([50, 40, 7]);
  });

  it("says where the point lies in the cut when the image's edge cut the square short", () => {
    const image = coordinates(100, 80);
    for (const [x, y] of [[4, 40], [50, 3], [97, 78], [2, 1]] as const) {
      const cut = cropSquare(image, { x, y }, 20);
      expect(cut.center).toBeDefined();
      const c = cut.center as { x: number; y: number };
      expect(at(cut.image, Math.floor(c.x), Math.floor(c.y))).toEqual([x, y, 7]);
    }
  });
});
