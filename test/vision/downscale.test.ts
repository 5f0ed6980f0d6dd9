import { describe, expect, it } from 'vitest';
import { blockSums, downscaleToGray } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';

/** Deterministic 32-bit LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomImage(width: number, height: number, seed: number): RgbImage {
  const random = lcg(seed);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { width, height, data };
}

/** The same pixels in a buffer that starts one byte in (not word-aligned). */
function unaligned(image: RgbImage): RgbImage {
  const buffer = new Uint8Array(image.data.length + 1);
  buffer.set(image.data, 1);
  return { width: image.width, height: image.height, data: buffer.subarray(1) };
}

/** Plain sums over each f x f block, pixel by pixel (the reference). */
function plainSums(image: RgbImage, f: number): number[] {
  const w = Math.floor(image.width / f);
  const h = Math.floor(image.height / f);
  const out: number[] = [];
  for (let by = 0; by < h; by++) {
    for (let bx = 0; bx < w; bx++) {
      const s = [0, 0, 0];
      for (let y = by * f; y < by * f + f; y++) {
        for (let x = bx * f; x < bx * f + f; x++) for (let c = 0; c < 3; c++) s[c] = (s[c] as number) + (image.data[(y * image.width + x) * 3 + c] as number);
      }
      out.push(...s);
    }
  }
  return out;
}

/** Plain grey per block: (R + 2G + B) / 4 averaged over the block, rounded half up. */
function plainGray(image: RgbImage, f: number): number[] {
  const s = plainSums(image, f);
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 3) out.push(Math.floor(((s[i] as number) + 2 * (s[i + 1] as number) + (s[i + 2] as number)) / (4 * f * f) + 0.5));
  return out;
}

describe('block sums and the downscaled grey image', () => {
  it('averages every pixel of each block into (R + 2G + B) / 4, rounded, whether the frame is read by words or by bytes', () => {
    // 64x36 is read four bytes at a time; the unaligned copy, a width of 66 and factor 3 byte by byte.
    for (const [image, f] of [
      [randomImage(64, 36, 1), 4],
      [unaligned(randomImage(64, 36, 1)), 4],
      [randomImage(66, 37, 2), 4],
      [randomImage(66, 37, 3), 3],
      [randomImage(9, 5, 4), 1],
    ] as const) {
      const gray = downscaleToGray(image, f);
      expect(Array.from(gray.data)).toEqual(plainGray(image, f));
      expect([gray.width, gray.height]).toEqual([Math.floor(image.width / f), Math.floor(image.height / f)]);
    }
  });

  it('gives bright and dark extremes exactly (no lane of the word reads overflows)', () => {
    for (const value of [0, 255]) {
      const image: RgbImage = { width: 16, height: 8, data: new Uint8Array(16 * 8 * 3).fill(value) };
      expect(Array.from(downscaleToGray(image, 4).data)).toEqual(new Array(8).fill(value));
      expect(Array.from(blockSums(image, 4).data)).toEqual(new Array(24).fill(value * 16));
    }
  });

  it('writes the grey into a buffer it is given, and into a new one when the buffer does not fit', () => {
    const image = randomImage(32, 16, 5);
    const buffer = new Uint8Array(8 * 4);
    const into = downscaleToGray(image, 4, buffer);
    expect(into.data).toBe(buffer);
    expect(Array.from(into.data)).toEqual(plainGray(image, 4));
    const small = new Uint8Array(3);
    const fresh = downscaleToGray(image, 4, small);
    expect(fresh.data).not.toBe(small);
    expect(Array.from(fresh.data)).toEqual(plainGray(image, 4));
  });

  it('sums R, G and B per block, by words or by bytes, and remembers them per image unless given a buffer', () => {
    const image = randomImage(64, 36, 6);
    const sums = blockSums(image, 4);
    expect(Array.from(sums.data)).toEqual(plainSums(image, 4));
    expect(blockSums(image, 4)).toBe(sums);
    expect(Array.from(blockSums(unaligned(image), 4).data)).toEqual(plainSums(image, 4));

    // A reused buffer holds the latest image's sums and is not remembered for either image.
    const buffer = new Uint32Array(16 * 9 * 3);
    const a = randomImage(64, 36, 7);
    const b = randomImage(64, 36, 8);
    expect(Array.from(blockSums(a, 4, buffer).data)).toEqual(plainSums(a, 4));
    expect(Array.from(blockSums(b, 4, buffer).data)).toEqual(plainSums(b, 4));
    const c = randomImage(66, 37, 9);
    const odd = new Uint32Array(16 * 9 * 3).fill(7);
    expect(Array.from(blockSums(c, 4, odd).data)).toEqual(plainSums(c, 4));
    // Asked again without a buffer, each image gets sums of its own (the buffer now holds c's).
    const remembered = blockSums(a, 4);
    expect(remembered.data).not.toBe(buffer);
    expect(Array.from(remembered.data)).toEqual(plainSums(a, 4));
  });
});
