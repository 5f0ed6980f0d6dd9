/**
 * A specular highlight painted onto a network input, for fine-tuning at
 * calibration. A user calibrates under one light; a ring light or a lamp
 * straight above later puts a bright patch on the top face that washes thin
 * ink out, and a network tuned without ever seeing one reads the washed-out
 * face as a blank with full confidence. The patch blends the pixels towards
 * the crop's brightest value (where a highlight saturates) with a Gaussian
 * falloff, equally in every channel, as a white highlight does.
 */
import type { RandomSource } from '../../stats/random.js';

export interface GlareOptions {
  /** Share of uses that get a highlight. */
  readonly probability: number;
  /** Largest offset of its centre from the crop's centre, as a fraction of the side, each way. */
  readonly offset: number;
  /** Its radius (Gaussian sigma) as a fraction of the side: at least, at most. */
  readonly sigma: readonly [number, number];
  /** How far its centre is blended towards the brightest value: at least, at most (1 = saturated). */
  readonly strength: readonly [number, number];
}

export const defaultGlareOptions: GlareOptions = { probability: 0.5, offset: 0.25, sigma: [0.1, 0.3], strength: [0.3, 0.9] };

/** `x` (channel-first planes of size x size) with a highlight, or unchanged for the uses that get none. */
export function addGlare(x: Float32Array, size: number, random: RandomSource, options: GlareOptions = defaultGlareOptions): Float32Array {
  if (random() >= options.probability) return x;
  const between = ([lo, hi]: readonly [number, number]) => lo + random() * (hi - lo);
  const cx = (0.5 + (random() * 2 - 1) * options.offset) * size;
  const cy = (0.5 + (random() * 2 - 1) * options.offset) * size;
  const sigma = between(options.sigma) * size;
  const strength = between(options.strength);
  let white = -Infinity;
  for (const v of x) white = Math.max(white, v);
  const plane = size * size;
  const out = new Float32Array(x.length);
  for (let y = 0; y < size; y++) {
    for (let xx = 0; xx < size; xx++) {
      const d2 = (xx + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2;
      const w = strength * Math.exp(-d2 / (2 * sigma * sigma));
      for (let c = 0; c < 3; c++) {
        const i = c * plane + y * size + xx;
        const v = x[i] as number;
        out[i] = v + (white - v) * w;
      }
    }
  }
  return out;
}
