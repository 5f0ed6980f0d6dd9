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
 * outside the image, the nearest edge pixel. Each image pixel is read once per
 * cell it falls in, however often the square repeats it past the image's edge.
 */
export function areaResample(image: RgbImage, centre: Point, side: number, size: number): Float32Array {
  const { width: w, height: h, data } = image;
  const plane = size * size;
  const x0 = centre.x - side / 2;
  const y0 = centre.y - side / 2;
  const scale = size / side;
  // Each cell's source columns and rows, as runs of one pixel: outside the image the edge pixel repeats (a radial
  // input's context reaches well past its crop), so it is summed once and weighted by how often it repeats.
  const cols = cellRuns(Math.floor(x0), Math.ceil(x0 + side), x0, scale, size, w);
  const rows = cellRuns(Math.floor(y0), Math.ceil(y0 + side), y0, scale, size, h);
  // Weighted sums of bytes in doubles are exact: neither the order nor the weighting can change the mean.
  const sums = new Float64Array(3 * plane);
  for (let oy = 0; oy < size; oy++) {
    for (let j = rows.start[oy] as number; j < (rows.start[oy + 1] as number); j++) {
      const row = (rows.pixel[j] as number) * w;
      const rowTimes = rows.times[j] as number;
      for (let ox = 0, i = cols.start[0] as number; ox < size; ox++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (const end = cols.start[ox + 1] as number; i < end; i++) {
          const si = (row + (cols.pixel[i] as number)) * 3;
          const k = cols.times[i] as number;
          r += k * (data[si] as number);
          g += k * (data[si + 1] as number);
          b += k * (data[si + 2] as number);
        }
        const o = oy * size + ox;
        sums[o] = (sums[o] as number) + rowTimes * r;
        sums[plane + o] = (sums[plane + o] as number) + rowTimes * g;
        sums[2 * plane + o] = (sums[2 * plane + o] as number) + rowTimes * b;
      }
    }
  }
  const out = new Float32Array(3 * plane);
  for (let oy = 0; oy < size; oy++) {
    for (let ox = 0; ox < size; ox++) {
      const o = oy * size + ox;
      const n = (rows.count[oy] as number) * (cols.count[ox] as number);
      if (n > 0) {
        for (let c = 0; c < 3; c++) out[c * plane + o] = (sums[c * plane + o] as number) / n;
      } else {
        // A cell smaller than a pixel: the nearest pixel.
        const px = Math.min(w - 1, Math.max(0, Math.floor(x0 + (ox + 0.5) / scale)));
        const py = Math.min(h - 1, Math.max(0, Math.floor(y0 + (oy + 0.5) / scale)));
        for (let c = 0; c < 3; c++) out[c * plane + o] = data[(py * w + px) * 3 + c] as number;
      }
    }
  }
  return out;
}

/** One axis of `areaResample`: each cell's image pixels (clamped to 0..limit-1), each once with how often it repeats. */
interface CellRuns {
  /** Cell c's runs are `start[c]` to `start[c + 1]` - 1. */
  readonly start: Int32Array;
  readonly pixel: Int32Array;
  readonly times: Int32Array;
  /** Pixel centres in each cell, repeats included. */
  readonly count: Int32Array;
}

/** The cells of pixels `from`..`to`-1 whose centres fall in cells 0..size-1 (cell = floor((v + 0.5 - origin) * scale)). */
function cellRuns(from: number, to: number, origin: number, scale: number, size: number, limit: number): CellRuns {
  const start = new Int32Array(size + 1);
  const pixel = new Int32Array(Math.max(0, to - from));
  const times = new Int32Array(pixel.length);
  const count = new Int32Array(size);
  let runs = 0;
  let cell = 0;
  for (let v = from; v < to; v++) {
    const c = Math.floor((v + 0.5 - origin) * scale);
    if (c < 0 || c >= size) continue;
    const p = v < 0 ? 0 : v >= limit ? limit - 1 : v;
    // Pixels come in cell order: the cells passed over are closed (empty ones included).
    while (cell < c) start[++cell] = runs;
    if (runs > (start[c] as number) && pixel[runs - 1] === p) times[runs - 1] = (times[runs - 1] as number) + 1;
    else {
      pixel[runs] = p;
      times[runs] = 1;
      runs++;
    }
    count[c] = (count[c] as number) + 1;
  }
  while (cell < size) start[++cell] = runs;
  return { start, pixel, times, count };
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
