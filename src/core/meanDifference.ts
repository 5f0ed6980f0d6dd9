import type { RgbImage } from './image.js';

/** Mean absolute difference of two images of one size, over every channel value (0..255); Infinity when their sizes differ. */
export function meanDifference(a: RgbImage, b: RgbImage): number {
  if (a.width !== b.width || a.height !== b.height) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] as number) - (b.data[i] as number));
  return sum / a.data.length;
}
