import { describe, expect, it } from 'vitest';
import { cropSquare } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { rawCropInput } from '../../src/vision/learned/reader.js';
import { topFaceCrop } from '../../src/vision/learned/crop.js';
import { cameraFromFov, topFaceCentre } from '../../src/vision/learned/topFace.js';

/** A seeded pattern no two places of which look alike. */
function pattern(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s >>> 24;
  }
  return { width, height, data };
}
/** `inner` placed at (dx, dy) on a larger grey canvas. */
function framed(inner: RgbImage, width: number, height: number, dx: number, dy: number): RgbImage {
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = 0; y < inner.height; y++) data.set(inner.data.subarray(y * inner.width * 3, (y + 1) * inner.width * 3), ((y + dy) * width + dx) * 3);
  return { width, height, data };
}

const MODEL = { spec: { channels: 3, size: 16, convs: [], classes: 2 }, inputScale: 0.6 };

describe("a learned reader's input for a die at the frame's edge", () => {
  it('is centred on the die as for the same die with room around it, though the crop was cut short', () => {
    const frame = pattern(160, 120, 11);
    const roomy = framed(frame, 400, 360, 120, 120);
    // The input (24 pixels) lies in the frame; the crop (60) does not.
    for (const [x, y] of [[14, 60], [80, 14], [146, 106], [13, 13]] as const) {
      const side = 60;
      const atEdge = cropSquare(frame, { x, y }, side);
      const withRoom = cropSquare(roomy, { x: x + 120, y: y + 120 }, side);
      expect(withRoom.center).toBeUndefined();
      const input = (cut: ReturnType<typeof cropSquare>): number[] => [...rawCropInput({ image: cut.image, sizePx: 40, ...(cut.center ? { center: cut.center } : {}) }, MODEL)];
      expect(input(atEdge)).toEqual(input(withRoom));
    }
  });

  it("records where the top face lies in a labelled box's crop the frame's edge cut short", () => {
    const frame = pattern(320, 200, 5);
    const camera = cameraFromFov(320, 200, 54);
    const box = { x: 280, y: 2, width: 36, height: 40 };
    const crop = topFaceCrop(frame, box, { heightRatio: 0.77, camera, gain: 1, margin: 1.5 });
    const top = topFaceCentre({ x: 298, y: 22 }, 36, 0.77, camera);
    const c = crop.center as { x: number; y: number };
    // The crop starts where the square (side 60) around the top face starts, or at the frame's edge.
    expect(c.x).toBeCloseTo(top.x - Math.max(0, Math.floor(top.x - 30)), 9);
    expect(c.y).toBeCloseTo(top.y - Math.max(0, Math.floor(top.y - 30)), 9);
  });
});
