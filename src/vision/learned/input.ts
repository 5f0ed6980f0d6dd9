/**
 * What the learned reader sees: a square around the top face's centre,
 * resampled to a small fixed size and normalised by its own brightness and
 * contrast (one mean and one spread for all three channels), so lighting level
 * drops out but colour stays: a red die and a green die still differ.
 */
import { bilinearAt } from '../../core/image.js';
import type { Point, RgbImage } from '../../core/image.js';
import { RADIAL_DOWN } from './topFace.js';

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
  return normalised(areaResample(image, centre, side, size));
}

/**
 * The central `size`x`size` cells of a `context`x`context` channel-first square, turned by `angle` radians about its
 * centre (output cell (i, j) samples the square at the centre plus R(angle) times the cell's offset): bilinear, the
 * border repeated outside. Exactly torch's affine_grid + grid_sample (align_corners false, border padding) as
 * train.py's sample_raw calls them, so the reader sees what the network was trained on.
 */
export function turnedCentre(raw: Float32Array, context: number, size: number, angle: number): Float32Array {
  const plane = size * size;
  const cplane = context * context;
  const out = new Float32Array(3 * plane);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const k = size / context;
  const clamp = (v: number): number => (v < 0 ? 0 : v > context - 1 ? context - 1 : v);
  for (let i = 0; i < size; i++) {
    const yn = (2 * i + 1) / size - 1;
    for (let j = 0; j < size; j++) {
      const xn = (2 * j + 1) / size - 1;
      // Normalised output -> normalised input -> input pixel coordinates (align_corners false), clamped (border).
      const ix = clamp((((cos * xn - sin * yn) * k + 1) * context - 1) / 2);
      const iy = clamp((((sin * xn + cos * yn) * k + 1) * context - 1) / 2);
      for (let c = 0; c < 3; c++) out[c * plane + i * size + j] = bilinearAt(raw, context, context, ix, iy, 1, c * cplane);
    }
  }
  return out;
}

/**
 * A radial network's input (`LearnedModel.radial`): the square of `side` pixels around `centre`, turned so the die's
 * radial direction `radial` points down (+y), then normalised. Sampled as training cut it: first a square twice as
 * wide at twice the density (train.py's raw context, exportInputs --context), then turned.
 */
export function radialInput(image: RgbImage, centre: Point, side: number, size: number, radial: number): Float32Array {
  return normalised(radialRaw(image, centre, side, size, radial));
}

/** `radialInput` before normalising. */
export function radialRaw(image: RgbImage, centre: Point, side: number, size: number, radial: number): Float32Array {
  const context = 2 * size;
  return turnedCentre(areaResample(image, centre, 2 * side, context), context, size, radial - RADIAL_DOWN);
}

/** One mean and one mean absolute deviation (at least 8) over all planes, values clamped to +-4 (train.py's normalise). In place. */
export function normalised(out: Float32Array): Float32Array {
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
