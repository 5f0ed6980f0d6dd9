/**
 * What the learned reader sees: a square around the top face's centre,
 * resampled to a small fixed size and normalised by its own brightness and
 * contrast (one mean and one spread for all three channels), so lighting level
 * drops out but colour stays: a red die and a green die still differ.
 */
import { resampleSquare } from '../d6/netInput.js';
import type { Point, RgbImage } from '../image.js';

/** Channel-first planes of `size`x`size`, normalised. `side` is the sampled square's side in image pixels. */
export function learnedInput(image: RgbImage, centre: Point, side: number, size: number): Float32Array {
  const out = resampleSquare(image, size, centre.x - side / 2, centre.y - side / 2, side);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] as number;
  const mean = sum / out.length;
  let dev = 0;
  for (let i = 0; i < out.length; i++) dev += Math.abs((out[i] as number) - mean);
  const scale = Math.max(8, dev / out.length);
  for (let i = 0; i < out.length; i++) {
    const v = ((out[i] as number) - mean) / scale;
    out[i] = v > 4 ? 4 : v < -4 ? -4 : v;
  }
  return out;
}
