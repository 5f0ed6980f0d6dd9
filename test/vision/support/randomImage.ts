import type { RgbImage } from '../../../src/core/image.js';

/** Deterministic 32-bit LCG in [0, 1): test inputs reproducible from a seed. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An image of uniformly random bytes, from a seed. */
export function randomImage(width: number, height: number, seed: number): RgbImage {
  const random = lcg(seed);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { width, height, data };
}
