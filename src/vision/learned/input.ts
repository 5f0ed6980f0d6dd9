/**
 * What the learned reader sees: a square around the top face's centre,
 * resampled to a small fixed size and normalised by its own brightness and
 * contrast (one mean and one spread for all three channels), so lighting level
 * drops out but colour stays: a red die and a green die still differ.
 */
import type { Point, RgbImage } from '../../core/image.js';

/**
 * The square of `side` pixels centred at `centre`, box-averaged down to
 * `size`x`size` channel-first planes: each output cell averages the image
 * pixels whose centres fall in it (the nearest pixel when a cell holds none);
 * outside the image, the nearest edge pixel. One pass over the square's pixels.
 */
export function areaResample(image: RgbImage, centre: Point, side: number, size: number): Float32Array {
  const { width: w, height: h, data } = image;
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  const counts = new Float32Array(plane);
  const x0 = centre.x - side / 2;
  const y0 = centre.y - side / 2;
  const scale = size / side;
  const xa = Math.floor(x0);
  const ya = Math.floor(y0);
  const xb = Math.ceil(x0 + side);
  const yb = Math.ceil(y0 + side);
  for (let y = ya; y < yb; y++) {
    const oy = Math.floor((y + 0.5 - y0) * scale);
    if (oy < 0 || oy >= size) continue;
    const sy = y < 0 ? 0 : y >= h ? h - 1 : y;
    for (let x = xa; x < xb; x++) {
      const ox = Math.floor((x + 0.5 - x0) * scale);
      if (ox < 0 || ox >= size) continue;
      const sx = x < 0 ? 0 : x >= w ? w - 1 : x;
      const si = (sy * w + sx) * 3;
      const o = oy * size + ox;
      out[o] = (out[o] as number) + (data[si] as number);
      out[plane + o] = (out[plane + o] as number) + (data[si + 1] as number);
      out[2 * plane + o] = (out[2 * plane + o] as number) + (data[si + 2] as number);
      counts[o] = (counts[o] as number) + 1;
    }
  }
  for (let o = 0; o < plane; o++) {
    const n = counts[o] as number;
    if (n > 0) {
      for (let c = 0; c < 3; c++) out[c * plane + o] = (out[c * plane + o] as number) / n;
    } else {
      // A cell smaller than a pixel: the nearest pixel.
      const px = Math.min(w - 1, Math.max(0, Math.floor(x0 + ((o % size) + 0.5) / scale)));
      const py = Math.min(h - 1, Math.max(0, Math.floor(y0 + (Math.floor(o / size) + 0.5) / scale)));
      for (let c = 0; c < 3; c++) out[c * plane + o] = data[(py * w + px) * 3 + c] as number;
    }
  }
  return out;
}

/** Channel-first planes of `size`x`size`, normalised. `side` is the sampled square's side in image pixels. */
export function learnedInput(image: RgbImage, centre: Point, side: number, size: number): Float32Array {
  const out = areaResample(image, centre, side, size);
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
