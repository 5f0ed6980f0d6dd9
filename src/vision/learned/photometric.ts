/**
 * Changes of light and camera that keep a die's face: the blur, colour cast,
 * brightness and sensor noise that pre-training adds to every cut
 * (training/learned/train.py cut_raw), for fine-tuning at calibration, so the
 * network fitted on the user's few hundred dice keeps the tolerance it was
 * pre-trained with instead of learning the calibration photos' light alone.
 * Applied to a raw (not yet normalised) network input; pure and seeded.
 */
import type { RandomSource } from '../../stats/random.js';
import { drawNormal } from '../../stats/random.js';

export interface PhotometricChange {
  /** Largest blur (Gaussian sigma, in input cells); half the cuts are not blurred. 0: none. */
  readonly blur: number;
  /** Spread (log) of each channel's own gain: a colour cast. 0: none. */
  readonly colour: number;
  /** Largest sensor noise (sigma, 0..255). 0: none. */
  readonly noise: number;
  /**
   * The share of uses that get a highlight: a soft white blob near the top face, as a glossy face mirrors a lamp
   * (`highlightBlob`). Absent or 0: none, and the draws are those made before highlights existed.
   */
  readonly highlight?: number;
}

/** The pre-training's changes (train.py --aug-blur, --aug-colour, --aug-noise defaults). */
export const pretrainingPhotometric: PhotometricChange = { blur: 1.2, colour: 0.07, noise: 6 };

/** A 5-tap Gaussian of `sigma`, summing to one. */
function kernel(sigma: number): Float64Array {
  const k = new Float64Array(5);
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    k[i] = Math.exp(-0.5 * ((i - 2) / sigma) ** 2);
    sum += k[i] as number;
  }
  for (let i = 0; i < 5; i++) k[i] = (k[i] as number) / sum;
  return k;
}

/** Each plane of `x` (channel-first, `size`x`size`) blurred along x, then y, the border repeated. */
function blurred(x: Float32Array, size: number, k: Float64Array): Float32Array {
  const plane = size * size;
  const tmp = new Float32Array(x.length);
  const out = new Float32Array(x.length);
  const at = (v: number): number => (v < 0 ? 0 : v >= size ? size - 1 : v);
  for (let c = 0; c < 3; c++) {
    const o = c * plane;
    for (let y = 0; y < size; y++) {
      for (let xx = 0; xx < size; xx++) {
        let s = 0;
        for (let t = 0; t < 5; t++) s += (k[t] as number) * (x[o + y * size + at(xx + t - 2)] as number);
        tmp[o + y * size + xx] = s;
      }
    }
    for (let y = 0; y < size; y++) {
      for (let xx = 0; xx < size; xx++) {
        let s = 0;
        for (let t = 0; t < 5; t++) s += (k[t] as number) * (tmp[o + at(y + t - 2) * size + xx] as number);
        out[o + y * size + xx] = s;
      }
    }
  }
  return out;
}

/**
 * A copy of the raw input `x` (channel-first planes of `size`x`size`, 0..255 scale) seen under other light: blurred
 * on half the draws (sigma uniform in 0.4..blur), each channel's gain drawn apart around an overall brightness of
 * 0.6..1.4, an offset, then noise of a drawn strength. As train.py, the values are not clipped.
 */
export function photometricChange(x: Float32Array, size: number, change: PhotometricChange, random: RandomSource): Float32Array {
  const plane = size * size;
  if (x.length !== 3 * plane) throw new RangeError(`a ${size}x${size} input has ${3 * plane} values, not ${x.length}`);
  let y: Float32Array = x;
  if (change.blur > 0 && random() < 0.5) y = blurred(x, size, kernel(0.4 + random() * Math.max(0, change.blur - 0.4)));
  const level = 0.6 + 0.8 * random();
  const gains = [0, 1, 2].map(() => Math.exp(change.colour * drawNormal(random)) * level);
  const offset = 12 * drawNormal(random);
  const noise = change.noise * random();
  const glare = (change.highlight ?? 0) > 0 && random() < (change.highlight as number) ? highlightBlob(size, random) : undefined;
  const out = new Float32Array(x.length);
  for (let c = 0; c < 3; c++) {
    const g = gains[c] as number;
    for (let i = c * plane; i < (c + 1) * plane; i++) {
      const v = (y[i] as number) * g + offset;
      // Towards white, never past it: a highlight clips, it does not brighten without end.
      const lit = glare === undefined ? v : v + (glare[i - c * plane] as number) * (255 - v);
      out[i] = lit + (noise > 0 ? noise * drawNormal(random) : 0);
    }
  }
  return out;
}

/**
 * A highlight's weight at each cell (0..1): a Gaussian blob centred within 0.25 input sides of the input's centre
 * (where the top face is), sigma 0.08..0.3 sides, at its peak 0.5..1. Chosen once, not tuned: foreign-2's misreads
 * were icons paled by a ring light's highlight (training/README.md).
 */
function highlightBlob(size: number, random: RandomSource): Float32Array {
  const cx = size * (0.5 + 0.5 * (random() - 0.5));
  const cy = size * (0.5 + 0.5 * (random() - 0.5));
  const sigma = size * (0.08 + 0.22 * random());
  const peak = 0.5 + 0.5 * random();
  const w = new Float32Array(size * size);
  for (let yy = 0; yy < size; yy++) {
    for (let xx = 0; xx < size; xx++) w[yy * size + xx] = peak * Math.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * sigma * sigma));
  }
  return w;
}
