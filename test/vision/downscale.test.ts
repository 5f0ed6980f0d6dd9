import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAY_KERNEL, kernelModuleSource } from '../../scripts/wasm-kernel.js';
import { gray4Kernel, sums4ChangedKernel, sums4Kernel } from '../../src/core/grayKernel.js';
import { blockSums, downscaleToGray } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { randomImage } from './support/randomImage.js';

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
  it('averages every pixel of each block into (R + 2G + B) / 4, rounded, whether the frame is read by the vector kernel, by words or by bytes', () => {
    // Widths a multiple of 16 go to the kernel (aligned or not, whole block rows or not); 68x36 is read four bytes at a
    // time; its unaligned copy, a width of 66 and factor 3 byte by byte.
    for (const [image, f] of [
      [randomImage(64, 36, 1), 4],
      [unaligned(randomImage(64, 36, 1)), 4],
      [randomImage(1280, 722, 10), 4],
      [randomImage(16, 4, 11), 4],
      [randomImage(68, 36, 12), 4],
      [unaligned(randomImage(68, 36, 12)), 4],
      [randomImage(66, 37, 2), 4],
      [randomImage(66, 37, 3), 3],
      [randomImage(9, 5, 4), 1],
    ] as const) {
      const gray = downscaleToGray(image, f);
      expect(Array.from(gray.data)).toEqual(plainGray(image, f));
      expect([gray.width, gray.height]).toEqual([Math.floor(image.width / f), Math.floor(image.height / f)]);
    }
  });

  it('gives bright and dark extremes exactly (no lane of the kernel or the word reads overflows)', () => {
    for (const value of [0, 255]) {
      for (const width of [16, 20]) {
        const image: RgbImage = { width, height: 8, data: new Uint8Array(width * 8 * 3).fill(value) };
        expect(Array.from(downscaleToGray(image, 4).data)).toEqual(new Array(width / 2).fill(value));
        expect(Array.from(blockSums(image, 4).data)).toEqual(new Array((width / 4) * 2 * 3).fill(value * 16));
      }
    }
  });

  it('rounds a block exactly half way between two greys up, on the kernel as on the word path', () => {
    // One block of 16 pixels summing to 64 x 100 + 32 (R + 2G + B): grey 100.5, rounded to 101; one less rounds to 100.
    for (const width of [16, 20]) {
      for (const [extra, grey] of [[32, 101], [31, 100]] as const) {
        const image: RgbImage = { width, height: 4, data: new Uint8Array(width * 4 * 3).fill(100) };
        image.data[0] = 100 + extra;
        expect(downscaleToGray(image, 4).data[0], `width ${width}, +${extra}`).toBe(grey);
      }
    }
  });

  it('shrinks frames of any size one after another on the kernel, a larger one after a smaller and back', () => {
    for (const [w, h, seed] of [[64, 36, 13], [1920, 1080, 14], [48, 8, 15], [1280, 720, 16]] as const) {
      const image = randomImage(w, h, seed);
      expect(Array.from(downscaleToGray(image, 4).data), `${w}x${h}`).toEqual(plainGray(image, 4));
    }
  });

  it('refuses, naming the problem, a width the kernel does not take, a frame too short for its size, or an output of the wrong size', () => {
    expect(() => gray4Kernel(new Uint8Array(20 * 4 * 3), 20, 4, new Uint8Array(5))).toThrow('multiple of 16, not 20');
    expect(() => gray4Kernel(new Uint8Array(16 * 4 * 3 - 1), 16, 4, new Uint8Array(4))).toThrow('a 16x4 RGB frame is 192 bytes, not 191');
    expect(() => gray4Kernel(new Uint8Array(16 * 8 * 3), 16, 8, new Uint8Array(4))).toThrow('the grey of a 16x8 frame is 8 bytes, not 4');
  });

  it('ships the kernel its .wat compiles to', async () => {
    expect(await kernelModuleSource(GRAY_KERNEL)).toBe(readFileSync(GRAY_KERNEL.ts, 'utf8'));
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

  it('sums R, G and B per 4x4 block on the vector kernel as pixel by pixel, frames of any size one after another, and refuses sizes it does not take', () => {
    // Random bytes, all-white and all-black frames (the 16-bit lanes' extremes), a larger frame after a smaller and back.
    const frames: RgbImage[] = [
      randomImage(16, 4, 20),
      randomImage(48, 9, 21),
      // Several strips of 48 rows, the last one short; then a wider frame (a larger kernel memory) and narrower ones.
      randomImage(640, 150, 22),
      unaligned(randomImage(64, 36, 23)),
      { width: 32, height: 8, data: new Uint8Array(32 * 8 * 3).fill(255) },
      { width: 32, height: 8, data: new Uint8Array(32 * 8 * 3) },
      randomImage(1280, 54, 24),
    ];
    for (const image of frames) {
      const out = new Uint32Array((image.width / 4) * Math.floor(image.height / 4) * 3);
      sums4Kernel(image.data, image.width, image.height, out);
      expect(Array.from(out), `${image.width}x${image.height}`).toEqual(plainSums(image, 4));
    }
    expect(() => sums4Kernel(new Uint8Array(20 * 4 * 3), 20, 4, new Uint32Array(15))).toThrow('multiple of 16, not 20');
    expect(() => sums4Kernel(new Uint8Array(16 * 4 * 3 - 1), 16, 4, new Uint32Array(12))).toThrow('a 16x4 RGB frame is 192 bytes, not 191');
    expect(() => sums4Kernel(new Uint8Array(16 * 8 * 3), 16, 8, new Uint32Array(12))).toThrow('the block sums of a 16x8 frame are 24 values, not 12');
  });

  it('flags exactly the blocks whose sums differ from the reference\'s by more than the threshold in some channel, and sums as the plain kernel does', () => {
    // A reference, and frames each moving some blocks' channels by the threshold, by one more, and at random.
    for (const [width, height, seed] of [[16, 4, 30], [48, 9, 31], [640, 150, 32], [1280, 54, 33]] as const) {
      const referenceImage = randomImage(width, height, seed);
      const blocks = (width / 4) * Math.floor(height / 4);
      const reference = new Uint32Array(blocks * 3);
      sums4Kernel(referenceImage.data, width, height, reference);
      const image = randomImage(width, height, seed + 100);
      const sums = Uint32Array.from(plainSums(image, 4));
      for (const threshold of [0, 1, Math.abs((sums[0] as number) - (reference[0] as number)), 300, 4080]) {
        const out = new Uint32Array(blocks * 3);
        const changed = new Uint8Array(blocks).fill(7);
        sums4ChangedKernel(image.data, width, height, out, reference, threshold, changed);
        expect(Array.from(out)).toEqual(Array.from(sums));
        const expected = Array.from({ length: blocks }, (_, k) => ([0, 1, 2].some((c) => Math.abs((sums[3 * k + c] as number) - (reference[3 * k + c] as number)) > threshold) ? 1 : 0));
        expect(Array.from(changed), `${width}x${height}, threshold ${threshold}`).toEqual(expected);
      }
      // Every difference at the threshold passes; one more in a single channel of a single block flags that block alone.
      const same = new Uint8Array(blocks);
      const shifted = Uint32Array.from(sums, (v, i) => (i === 3 * (blocks - 1) + 2 ? v + 1 : v));
      sums4ChangedKernel(image.data, width, height, new Uint32Array(blocks * 3), shifted, 0, same);
      expect(Array.from(same)).toEqual(Array.from({ length: blocks }, (_, k) => (k === blocks - 1 ? 1 : 0)));
    }
    expect(() => sums4ChangedKernel(new Uint8Array(16 * 4 * 3), 16, 4, new Uint32Array(12), new Uint32Array(12), 1.5, new Uint8Array(4))).toThrow('a whole number from 0, not 1.5');
    expect(() => sums4ChangedKernel(new Uint8Array(16 * 4 * 3), 16, 4, new Uint32Array(12), new Uint32Array(12), 1, new Uint8Array(3))).toThrow('a 16x4 frame has 4 blocks, not 3');
  });
});
