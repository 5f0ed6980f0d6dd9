/**
 * What the learned D6 reader sees: the crop's central square resampled to a
 * small fixed size, each channel taken relative to the die's body colour and
 * scaled by the crop's own contrast, so a dark die with light pips and a light
 * die with dark pips differ only in sign, and lighting drops out.
 */
import { bilinearTaps, type RgbImage } from '../../core/image.js';

/** Side of the network's input, pixels. */
export const NET_INPUT_SIZE = 32;
/** Fraction of the crop's side that is resampled (the crop holds the die with a margin around it). */
export const NET_INPUT_FRACTION = 0.85;

/** Channel-first planes (R, G, B), each `size`x`size`. */
export interface NetInput {
  readonly size: number;
  readonly data: Float32Array;
}

/**
 * Resamples the central `fraction` of `image` to `size`x`size` (area averaging
 * by supersampling, so large crops do not alias) and normalises it. `jitter`
 * shifts and scales the sampled square (data augmentation; 0 at reading time).
 */
export function netInput(image: RgbImage, size = NET_INPUT_SIZE, fraction = NET_INPUT_FRACTION, jitter: { dx: number; dy: number; scale: number } = { dx: 0, dy: 0, scale: 1 }): NetInput {
  return { size, data: normaliseNetInput(samplePlanes(image, size, fraction, jitter), size) };
}

/**
 * The central `fraction` of `image` (shifted and scaled by `jitter`) as `size`x`size` channel-first planes, not normalised:
 * each output pixel the mean of k x k bilinear samples (k the sampled side over `size`, rounded up). The samples' places
 * are worked out once a row and a column, not once a sample and channel (about half the time on a tray die, compiled);
 * every sum adds the same products in the same order as `bilinearAt` sample by sample, so the planes are the same to
 * the bit (test/vision/netInput.test.ts).
 */
export function samplePlanes(image: RgbImage, size: number, fraction: number, jitter: { dx: number; dy: number; scale: number } = { dx: 0, dy: 0, scale: 1 }): Float32Array {
  const { width: w, height: h, data } = image;
  const side = Math.min(w, h) * fraction * jitter.scale;
  const x0 = w / 2 - side / 2 + jitter.dx * side;
  const y0 = h / 2 - side / 2 + jitter.dy * side;
  const step = side / size;
  const k = Math.max(1, Math.ceil(step));
  const out = new Float32Array(3 * size * size);
  const plane = size * size;
  // Sample i % k of output i / k along an axis starting at `start`, as bilinearAt(x - 0.5) is asked for it (the same
  // arithmetic, in the same order).
  const along = (start: number) => (i: number) => start + (Math.floor(i / k) + ((i % k) + 0.5) / k) * step - 0.5;
  const xs = bilinearTaps(size * k, w, along(x0));
  const ys = bilinearTaps(size * k, h, along(y0));
  const kk = k * k;
  for (let oy = 0; oy < size; oy++) {
    for (let ox = 0; ox < size; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < k; sy++) {
        const iy = oy * k + sy;
        const rowLo = (ys.lo[iy] as number) * w;
        const rowHi = (ys.hi[iy] as number) * w;
        const fy1 = ys.wLo[iy] as number;
        const fy = ys.wHi[iy] as number;
        for (let sx = 0; sx < k; sx++) {
          const ix = ox * k + sx;
          // The four pixels round the sample (top left, top right, bottom left, bottom right), as byte offsets.
          const tl = (rowLo + (xs.lo[ix] as number)) * 3;
          const tr = (rowLo + (xs.hi[ix] as number)) * 3;
          const bl = (rowHi + (xs.lo[ix] as number)) * 3;
          const br = (rowHi + (xs.hi[ix] as number)) * 3;
          const fx1 = xs.wLo[ix] as number;
          const fx = xs.wHi[ix] as number;
          r += ((data[tl] as number) * fx1 + (data[tr] as number) * fx) * fy1 + ((data[bl] as number) * fx1 + (data[br] as number) * fx) * fy;
          g += ((data[tl + 1] as number) * fx1 + (data[tr + 1] as number) * fx) * fy1 + ((data[bl + 1] as number) * fx1 + (data[br + 1] as number) * fx) * fy;
          b += ((data[tl + 2] as number) * fx1 + (data[tr + 2] as number) * fx) * fy1 + ((data[bl + 2] as number) * fx1 + (data[br + 2] as number) * fx) * fy;
        }
      }
      const q = oy * size + ox;
      out[q] = r / kk;
      out[plane + q] = g / kk;
      out[2 * plane + q] = b / kk;
    }
  }
  return out;
}

/** Normalises sampled planes in place and returns them: each channel relative to the die's body colour, scaled by the contrast. */
export function normaliseNetInput(out: Float32Array, size: number): Float32Array {
  const plane = size * size;
  // Body colour: per-channel median of the central 40 %; contrast: mean absolute deviation from it.
  const lo = Math.floor(size * 0.3);
  const hi = Math.ceil(size * 0.7);
  let dev = 0;
  const centre: number[] = [];
  for (let c = 0; c < 3; c++) {
    const vals: number[] = [];
    for (let y = lo; y < hi; y++) for (let x = lo; x < hi; x++) vals.push(out[c * plane + y * size + x] as number);
    centre.push(middleValue(vals));
  }
  for (let c = 0; c < 3; c++) for (let i = 0; i < plane; i++) dev += Math.abs((out[c * plane + i] as number) - (centre[c] as number));
  const scale = Math.max(8, dev / (3 * plane));
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < plane; i++) {
      const v = ((out[c * plane + i] as number) - (centre[c] as number)) / scale;
      out[c * plane + i] = v > 4 ? 4 : v < -4 ? -4 : v;
    }
  }
  return out;
}

/**
 * The element at index length >> 1 of `vals` sorted by (a, b) => a - b (a stable sort: +0 and -0 keep their order),
 * 0 when empty. The numeric sort of a typed array needs no comparator calls (one was most of normalising an input);
 * it puts -0 before +0, so a middle zero takes the sign of the zero the stable sort would have put there. With a NaN
 * (no order) the comparator sort itself decides.
 */
function middleValue(vals: number[]): number {
  const m = vals.length >> 1;
  if (vals.length === 0) return 0;
  if (vals.some(Number.isNaN)) return vals.sort((a, b) => a - b)[m] as number;
  const sorted = Float64Array.from(vals).sort();
  const v = sorted[m] as number;
  if (v !== 0) return v;
  // The zeros in their original order: the middle is the one m - (values below zero) along.
  let below = 0;
  for (const x of vals) if (x < 0) below++;
  let nth = m - below;
  for (const x of vals) if (x === 0 && nth-- === 0) return x;
  return v;
}
