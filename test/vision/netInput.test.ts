import { describe, expect, it } from 'vitest';
import { bilinearAt, type RgbImage } from '../../src/core/image.js';
import { netInput, normaliseNetInput, samplePlanes } from '../../src/vision/d6/netInput.js';
import { transformInput } from '../../src/vision/d6/augment.js';
import { seededRandom } from '../../src/stats/random.js';

/** samplePlanes as defined, sample by sample and channel by channel through bilinearAt (its form before 2026-12-02). */
function samplePlanesByDefinition(image: RgbImage, size: number, fraction: number, jitter = { dx: 0, dy: 0, scale: 1 }): Float32Array {
  const { width: w, height: h, data } = image;
  const side = Math.min(w, h) * fraction * jitter.scale;
  const x0 = w / 2 - side / 2 + jitter.dx * side;
  const y0 = h / 2 - side / 2 + jitter.dy * side;
  const step = side / size;
  const k = Math.max(1, Math.ceil(step));
  const out = new Float32Array(3 * size * size);
  const sample = (x: number, y: number, c: number): number => bilinearAt(data, w, h, Math.min(w - 1, Math.max(0, x - 0.5)), Math.min(h - 1, Math.max(0, y - 0.5)), 3, c);
  for (let oy = 0; oy < size; oy++) {
    for (let ox = 0; ox < size; ox++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let sy = 0; sy < k; sy++) for (let sx = 0; sx < k; sx++) s += sample(x0 + (ox + (sx + 0.5) / k) * step, y0 + (oy + (sy + 0.5) / k) * step, c);
        out[c * size * size + oy * size + ox] = s / (k * k);
      }
    }
  }
  return out;
}

function noiseImage(width: number, height: number, seed: number): RgbImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { width, height, data };
}

/** Index of the first element where the two differ bit for bit (NaN-safe), or -1. */
function firstDifference(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return i;
  return -1;
}

describe('the learned D6 reader samples its input as bilinear sampling defines it', () => {
  it('gives the same planes to the bit as sampling pixel by pixel, for tray-sized and large crops, one to several samples a side', () => {
    const cases: [number, number, number, number][] = [
      // width, height, size, fraction: k = 1 (a crop smaller than the input), 2 (tray dice, 43-78 px), 3, 5, and 16 planes
      [28, 30, 32, 0.85],
      [43, 43, 32, 0.85],
      [64, 61, 32, 0.85],
      [78, 78, 32, 0.85],
      [120, 97, 32, 0.85],
      [200, 200, 32, 0.85],
      [70, 90, 16, 1],
    ];
    cases.forEach(([w, h, size, fraction], i) => {
      const image = noiseImage(w, h, 11 + i);
      const got = samplePlanes(image, size, fraction);
      expect(firstDifference(got, samplePlanesByDefinition(image, size, fraction)), `${w}x${h} into ${size}`).toBe(-1);
    });
  });

  it('gives the same planes when a jitter shifts and scales the square past the crop, where sampling holds to the edge', () => {
    const image = noiseImage(64, 58, 5);
    for (const jitter of [
      { dx: 0.06, dy: -0.06, scale: 1.1 },
      { dx: -0.4, dy: 0.35, scale: 0.9 },
      { dx: 0.5, dy: 0.5, scale: 1.6 },
    ]) {
      const got = samplePlanes(image, 32, 0.85, jitter);
      expect(got.every((v) => v >= 0 && v <= 255)).toBe(true);
      expect(firstDifference(got, samplePlanesByDefinition(image, 32, 0.85, jitter)), JSON.stringify(jitter)).toBe(-1);
    }
  });

  it('reads a tray die exactly as the definition does, normalised', () => {
    const image = noiseImage(57, 63, 9);
    const got = netInput(image).data;
    expect(firstDifference(got, normaliseNetInput(samplePlanesByDefinition(image, 32, 0.85), 32))).toBe(-1);
  });

  it('takes each output pixel as the mean of its samples, in its own channel', () => {
    // A crop of one colour per channel: every plane is that colour, whatever the sampling.
    const image: RgbImage = { width: 50, height: 40, data: new Uint8Array(50 * 40 * 3).map((_, i) => [10, 200, 77][i % 3] as number) };
    const planes = samplePlanes(image, 8, 0.85);
    expect([planes[0], planes[64 + 5], planes[128 + 63]]).toEqual([10, 200, 77]);
    // A left half black and right half white: the output's left columns dark, its right columns light, by plane.
    const halves: RgbImage = { width: 40, height: 40, data: new Uint8Array(40 * 40 * 3).map((_, i) => (Math.floor(i / 3) % 40 < 20 ? 0 : 255)) };
    const p = samplePlanes(halves, 8, 1);
    expect(p[8 * 3]).toBe(0);
    expect(p[8 * 3 + 7]).toBe(255);
    expect(p[64 + 8 * 3 + 7]).toBe(255);
  });
});

/** normaliseNetInput as it was written first: each channel's body colour the middle of its central values sorted by a comparator. */
function normaliseByDefinition(planes: Float32Array, size: number): Float32Array {
  const out = planes.slice();
  const plane = size * size;
  const lo = Math.floor(size * 0.3);
  const hi = Math.ceil(size * 0.7);
  const centre: number[] = [];
  for (let c = 0; c < 3; c++) {
    const vals: number[] = [];
    for (let y = lo; y < hi; y++) for (let x = lo; x < hi; x++) vals.push(out[c * plane + y * size + x] as number);
    vals.sort((a, b) => a - b);
    centre.push(vals[vals.length >> 1] ?? 0);
  }
  let dev = 0;
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

describe('the learned D6 reader normalises its input and turns it as defined', () => {
  it('normalises to the bit as sorting by a comparator did, with ties, zeros of both signs in the middle and a NaN', () => {
    const random = seededRandom(31);
    const cases: Float32Array[] = [];
    for (const size of [32, 16, 7]) {
      const n = 3 * size * size;
      // Sampled planes (0..255), few levels (many ties), signed values with +0 and -0 about the middle, and a NaN.
      cases.push(new Float32Array(n).map(() => 255 * random()));
      cases.push(new Float32Array(n).map(() => Math.floor(4 * random())));
      cases.push(new Float32Array(n).map(() => [-0, 0, -1, 1][Math.floor(4 * random())] as number));
      cases.push(new Float32Array(n).map(() => (random() < 0.5 ? -0 : 0)));
      const withNaN = new Float32Array(n).map(() => 10 * random() - 5);
      withNaN[Math.floor(size * 0.5) * size + Math.floor(size * 0.5)] = Number.NaN;
      cases.push(withNaN);
      cases.forEach((planes) => {
        if (planes.length === n) expect(firstDifference(normaliseNetInput(planes.slice(), size), normaliseByDefinition(planes, size))).toBe(-1);
      });
    }
    // The middle zero's sign is the one a stable sort leaves there: here -0 (the zeros' order: -0 first, then +0).
    const size = 4;
    const signed = new Float32Array(3 * 16).fill(5);
    for (const [i, v] of [[5, -0], [6, 0], [9, 0], [10, -1]] as const) for (let c = 0; c < 3; c++) signed[c * 16 + i] = v;
    expect(firstDifference(normaliseNetInput(signed.slice(), size), normaliseByDefinition(signed, size))).toBe(-1);
  });

  it('turns and mirrors each plane pixel by pixel, with the channels permuted and the sign applied', () => {
    const random = seededRandom(5);
    for (const size of [32, 7, 1]) {
      const x = new Float32Array(3 * size * size).map(() => 6 * random() - 3);
      for (let turn = 0; turn < 8; turn++) {
        for (const [permutation, sign] of [[0, 1], [3, -1], [5, 1]] as const) {
          const got = transformInput(x, size, turn, permutation, sign);
          const perm = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][permutation] as number[];
          const want = new Float32Array(x.length);
          for (let c = 0; c < 3; c++) {
            for (let y = 0; y < size; y++) {
              for (let xx = 0; xx < size; xx++) {
                // Mirror x, then mirror y, then transpose, as the bits of `turn` say.
                let u = turn & 1 ? size - 1 - xx : xx;
                let v = turn & 2 ? size - 1 - y : y;
                if (turn & 4) [u, v] = [v, u];
                want[(c * size + y) * size + xx] = sign * (x[((perm[c] as number) * size + v) * size + u] as number);
              }
            }
          }
          expect(firstDifference(got, want), `size ${size}, turn ${turn}, permutation ${permutation}, sign ${sign}`).toBe(-1);
        }
      }
    }
  });
});
