/**
 * The changes of light fine-tuning makes to each cut before normalising it (src/vision/learned/photometric.ts).
 * Expected values are worked out here from the definitions (a 5-tap Gaussian, per-channel gains), not read back
 * from the code under test.
 */
import { describe, expect, it } from 'vitest';
import { normalised } from '../../src/vision/learned/input.js';
import { photometricChange, pretrainingPhotometric } from '../../src/vision/learned/photometric.js';
import { drawNormal, seededRandom } from '../../src/stats/random.js';

/** A random source that returns `values` in turn, then `then`'s draws (0.5 for ever if none). */
function scripted(values: readonly number[], then: () => number = () => 0.5): () => number {
  let i = 0;
  return () => (i < values.length ? (values[i++] as number) : then());
}

function planes(size: number, f: (c: number, x: number, y: number) => number): Float32Array {
  const out = new Float32Array(3 * size * size);
  for (let c = 0; c < 3; c++) for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out[c * size * size + y * size + x] = f(c, x, y);
  return out;
}

describe('changes of light for fine-tuning', () => {
  it('leaves the normalised input as it was when it neither blurs, recolours nor adds noise', () => {
    const x = planes(8, (c, i, j) => 40 + 20 * c + 7 * i + 3 * j + ((i * j) % 5) * 9);
    const random = seededRandom(3);
    for (let k = 0; k < 5; k++) {
      const y = normalised(photometricChange(x, 8, { blur: 0, colour: 0, noise: 0 }, random));
      const want = normalised(Float32Array.from(x));
      for (let i = 0; i < x.length; i++) expect(y[i]).toBeCloseTo(want[i] as number, 4);
    }
  });

  it('blurs a bright point by a 5-tap Gaussian of the drawn sigma along each axis', () => {
    const size = 9;
    const x = planes(size, (_c, i, j) => (i === 4 && j === 4 ? 100 : 0));
    // Draws: blur (0.2 < 0.5), sigma = 0.4 + 0.5 * (1.4 - 0.4) = 0.9, level 0.6 + 0.8 * 0.5 = 1, gains exp(0 * normal),
    // offset 12 * normal, noise strength 0 (colour and noise off).
    const y = photometricChange(x, size, { blur: 1.4, colour: 0, noise: 0 }, scripted([0.2, 0.5, 0.5]));
    const w = [-2, -1, 0, 1, 2].map((d) => Math.exp(-0.5 * (d / 0.9) ** 2));
    const sum = w.reduce((a, b) => a + b, 0);
    const k = w.map((v) => v / sum);
    // The offset is the same in every cell: the far corner holds it alone.
    const offset = y[0] as number;
    for (let c = 0; c < 3; c++) {
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const v = (y[c * size * size + (4 + dy) * size + (4 + dx)] as number) - offset;
          expect(v).toBeCloseTo(100 * (k[dy + 2] as number) * (k[dx + 2] as number), 3);
        }
      }
    }
  });

  it('does not blur on the draws that fall at or above one half', () => {
    const size = 6;
    const x = planes(size, (_c, i, j) => (i === 2 && j === 3 ? 100 : 10));
    const y = photometricChange(x, size, { blur: 1.2, colour: 0, noise: 0 }, scripted([0.7, 0.5, 0.5]));
    const offset = (y[0] as number) - 10;
    expect((y[3 * size + 2] as number) - offset).toBeCloseTo(100, 3);
    expect((y[3 * size + 3] as number) - offset).toBeCloseTo(10, 3);
  });

  it('casts a colour: each channel gets its own gain, drawn with the spread asked for', () => {
    const size = 4;
    const x = planes(size, () => 100);
    const random = seededRandom(11);
    const logRatios: number[] = [];
    for (let k = 0; k < 2000; k++) {
      const y = photometricChange(x, size, { blur: 0, colour: 0.07, noise: 0 }, random);
      // A flat input: every cell of a channel is that channel's gain x 100 + the shared offset.
      const r = (y[0] as number) - (y[size * size] as number);
      logRatios.push(r);
    }
    // Channel 0 minus channel 1 = level x 100 x (e^{a} - e^{b}), a, b ~ N(0, 0.07): spread ~ 100 x 0.07 x sqrt(2) x E[level] ~ 9.9.
    const mean = logRatios.reduce((a, b) => a + b, 0) / logRatios.length;
    const sd = Math.sqrt(logRatios.reduce((a, b) => a + (b - mean) ** 2, 0) / logRatios.length);
    expect(Math.abs(mean)).toBeLessThan(1);
    expect(sd).toBeGreaterThan(8.5);
    expect(sd).toBeLessThan(11.5);
    const flat = photometricChange(x, size, { blur: 0, colour: 0, noise: 0 }, random);
    expect(flat[0]).toBeCloseTo(flat[size * size] as number, 4);
    expect(flat[0]).toBeCloseTo(flat[2 * size * size] as number, 4);
  });

  it('adds sensor noise up to the strength asked for, a strength drawn for each cut', () => {
    const size = 16;
    const x = planes(size, () => 100);
    // Draws with blur off: the level (1), three gains' normals (6), the offset's normal (2), then the strength.
    const y = photometricChange(x, size, { blur: 0, colour: 0, noise: 6 }, scripted([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1 - 1e-9], seededRandom(2)));
    const cells = [...y].map(Number);
    const mean = cells.reduce((a, b) => a + b, 0) / cells.length;
    // The drawn strength 6 x (1 - 1e-9): the spread of 768 cells lies near 6.
    const sd = Math.sqrt(cells.reduce((a, b) => a + (b - mean) ** 2, 0) / cells.length);
    expect(sd).toBeGreaterThan(5.3);
    expect(sd).toBeLessThan(6.7);
  });

  it('adds a highlight on the share of uses asked for: a Gaussian blob of the drawn place, size and peak, towards white and never past it', () => {
    const size = 16;
    const x = planes(size, (c) => 100 + 50 * c);
    // Draws with blur off: the level (0.5: 1), three gains' normals (two each), the offset's normal (u2 = 0.25: cos = 0,
    // no offset), the noise strength (0), then: highlight (0.1 < 0.5), centre x 0.5 + 0.5 x (0.9 - 0.5) = 0.7 sides,
    // centre y 0.5 + 0.5 x (0.1 - 0.5) = 0.3 sides, sigma 0.08 + 0.22 x 0.5 = 0.19 sides, peak 0.5 + 0.5 x 0.8 = 0.9.
    const draws = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.3, 0.1, 0.9, 0.1, 0.5, 0.8];
    const y = photometricChange(x, size, { blur: 0, colour: 0, noise: 0, highlight: 0.5 }, scripted(draws));
    const [cx, cy, sigma, peak] = [0.7 * size, 0.3 * size, 0.19 * size, 0.9];
    for (let c = 0; c < 3; c++) {
      const v = 100 + 50 * c;
      for (const [i, j] of [[11, 4], [0, 15], [8, 8], [15, 0]] as const) {
        const w = peak * Math.exp(-((i + 0.5 - cx) ** 2 + (j + 0.5 - cy) ** 2) / (2 * sigma * sigma));
        expect(y[c * size * size + j * size + i]).toBeCloseTo(v + w * (255 - v), 3);
      }
    }
    // The brightest cell (under the centre) is whiter than any other, and none is past white.
    expect(Math.max(...y)).toBeLessThanOrEqual(255);
    // A draw at or over the share: no highlight, and no more draws taken than without the option.
    const none = photometricChange(x, size, { blur: 0, colour: 0, noise: 0, highlight: 0.5 }, scripted([...draws.slice(0, 10), 0.5]));
    for (let i = 0; i < x.length; i++) expect(none[i]).toBeCloseTo(x[i] as number, 4);
    // Without the option (or at 0) no highlight is drawn: the same random stream gives what it gave before highlights.
    const before = photometricChange(x, size, pretrainingPhotometric, seededRandom(9));
    const zero = photometricChange(x, size, { ...pretrainingPhotometric, highlight: 0 }, seededRandom(9));
    expect(Array.from(zero)).toEqual(Array.from(before));
  });

  it("is pre-training's blur, colour and noise by default", () => {
    // training/learned/train.py: --aug-blur 1.2, --aug-colour 0.07, --aug-noise 6.0.
    expect(pretrainingPhotometric).toEqual({ blur: 1.2, colour: 0.07, noise: 6 });
  });

  it('refuses an input whose length is not three planes of the size given, naming both', () => {
    expect(() => photometricChange(new Float32Array(10), 4, pretrainingPhotometric, seededRandom(1))).toThrow(/a 4x4 input has 48 values, not 10/);
  });

  it('draws standard normals', () => {
    const random = seededRandom(7);
    const xs = Array.from({ length: 20000 }, () => drawNormal(random));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
    // P(|z| > 1.96) = 0.05 for a standard normal.
    const tail = xs.filter((z) => Math.abs(z) > 1.96).length / xs.length;
    expect(Math.abs(tail - 0.05)).toBeLessThan(0.006);
  });
});
