/** Frames painted by hand for vision tests: a plain platform, and rectangles of one colour on it. */
import type { RgbImage } from '../../src/core/image.js';

/** A `width` x `height` frame of one colour. */
export function filledFrame(width: number, height: number, rgb: readonly [number, number, number]): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * 3);
  return { width, height, data };
}

/** Paints a `w` x `h` rectangle at (x, y) in place; returns the frame. */
export function paintRect(img: RgbImage, x: number, y: number, w: number, h: number, rgb: readonly [number, number, number]): RgbImage {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) img.data.set(rgb, (yy * img.width + xx) * 3);
  return img;
}
