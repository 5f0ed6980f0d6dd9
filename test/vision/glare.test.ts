import { describe, expect, it } from 'vitest';
import { addGlare, defaultGlareOptions } from '../../src/vision/learned/glare.js';
import { seededRandom } from '../../src/stats/random.js';

const SIZE = 32;

/** A crop of body colour (-1) with a ring of ink (+1.5) around the centre, in all three channels. */
function inkRing(): Float32Array {
  const x = new Float32Array(3 * SIZE * SIZE).fill(-1);
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < SIZE; y++) {
      for (let xx = 0; xx < SIZE; xx++) {
        const r = Math.hypot(xx + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2);
        if (Math.abs(r - 8) < 1) x[c * SIZE * SIZE + y * SIZE + xx] = 1.5;
      }
    }
  }
  return x;
}

describe('a painted specular highlight (fine-tuning augmentation)', () => {
  const always = { ...defaultGlareOptions, probability: 1, offset: 0, sigma: [0.15, 0.15] as const, strength: [0.8, 0.8] as const };

  it('blends the body towards the brightest value at its centre, less further out, and never beyond it', () => {
    const x = inkRing();
    const g = addGlare(x, SIZE, seededRandom(1), always);
    const at = (c: number, y: number, xx: number) => g[c * SIZE * SIZE + y * SIZE + xx] as number;
    // The centre is body colour: blended 80 % of the way to the ink's 1.5.
    expect(at(0, 16, 16)).toBeCloseTo(-1 + 0.8 * 2.5, 1);
    // A corner is far outside the highlight (sigma 4.8 px): almost untouched.
    expect(Math.abs(at(0, 0, 0) - -1)).toBeLessThan(0.01);
    expect(at(0, 16, 12)).toBeGreaterThan(at(0, 16, 4));
    expect(Math.max(...g)).toBeLessThanOrEqual(1.5);
    // White light: every channel moves alike.
    expect(at(1, 16, 16)).toBe(at(0, 16, 16));
    expect(at(2, 10, 20)).toBe(at(0, 10, 20));
  });

  it('washes ink out: the contrast between ink and body near the centre shrinks', () => {
    const x = inkRing();
    const g = addGlare(x, SIZE, seededRandom(2), always);
    const inkMinusBody = (v: Float32Array) => (v[16 * SIZE + 24] as number) - (v[16 * SIZE + 20] as number);
    expect(inkMinusBody(x)).toBeCloseTo(2.5, 6);
    expect(inkMinusBody(g)).toBeLessThan(0.5 * inkMinusBody(x));
  });

  it('gives a highlight to about its probability of uses, and none at probability 0', () => {
    const x = inkRing();
    const random = seededRandom(3);
    let touched = 0;
    for (let i = 0; i < 2000; i++) if (addGlare(x, SIZE, random) !== x) touched++;
    expect(touched / 2000).toBeGreaterThan(0.45);
    expect(touched / 2000).toBeLessThan(0.55);
    const none = seededRandom(4);
    for (let i = 0; i < 50; i++) expect(addGlare(x, SIZE, none, { ...defaultGlareOptions, probability: 0 })).toBe(x);
  });

  it('draws the same highlight from the same seed', () => {
    const x = inkRing();
    expect(addGlare(x, SIZE, seededRandom(9), always)).toEqual(addGlare(x, SIZE, seededRandom(9), always));
    expect(addGlare(x, SIZE, seededRandom(9), { ...always, offset: 0.25 })).not.toEqual(addGlare(x, SIZE, seededRandom(10), { ...always, offset: 0.25 }));
  });
});
