import { describe, expect, it } from 'vitest';
import { balanceCrop, findDieOutline } from '../../src/vision/d8/dieOutline.js';
import type { DieOutline } from '../../src/vision/d8/dieOutline.js';
import { describeD8 } from '../../src/vision/d8/describe.js';
import { chromaticity, defaultIconGeometry, iconFeatureLength } from '../../src/vision/d8/iconFeatures.js';
import type { RgbImage } from '../../src/core/image.js';
import { drawD8, GREEN_STYLE } from './d8Fixtures.js';

function outlineOf(image: RgbImage): DieOutline {
  const o = findDieOutline(balanceCrop(image));
  if (typeof o === 'string') throw new Error(o);
  return o;
}

function featuresOf(image: RgbImage): Float64Array {
  const d = describeD8(image);
  if (typeof d === 'string') throw new Error(d);
  return d.features;
}

const dist = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(s);
};

/** Adds a grey value to every pixel (glare adds light of no colour), clamped. */
function addGrey(image: RgbImage, amount: (x: number, y: number) => number): RgbImage {
  const data = new Uint8Array(image.data.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      for (let c = 0; c < 3; c++) {
        const i = (y * image.width + x) * 3 + c;
        data[i] = Math.max(0, Math.min(255, (image.data[i] as number) + amount(x, y)));
      }
    }
  }
  return { ...image, data };
}

describe('finding a d8 in its crop', () => {
  it('recovers the centre and the across-corners size of a flat die', () => {
    const o = outlineOf(drawD8('hit', 0.3));
    expect(Math.hypot(o.center.x - 52, o.center.y - 52)).toBeLessThan(1);
    // 72 px across corners; the equal-area hexagon of the drawn (antialiased) outline.
    expect(o.radius * 2).toBeGreaterThan(69);
    expect(o.radius * 2).toBeLessThan(75);
    expect(o.cutOff).toBe(false);
  });

  it('measures a flat die as round-ish and a cocked one as elongated', () => {
    for (const angle of [0, 0.4, 1.1, 2.5]) expect(outlineOf(drawD8('focus', angle)).elongation).toBeLessThan(1.03);
    // The simulated cocked d8 is squashed to cos(tilt)·0.85 along one axis: 15 degrees gives 1/0.82 = 1.22.
    for (const tilt of [0.27, 0.5, 0.75]) expect(outlineOf(drawD8('focus', 0.4, { tilt })).elongation).toBeGreaterThan(1.18);
  });

  it('says why when there is no coloured die in the crop', () => {
    const grey: RgbImage = { width: 60, height: 60, data: new Uint8Array(60 * 60 * 3).fill(140) };
    expect(findDieOutline(balanceCrop(grey))).toMatch(/No coloured die/);
    expect(describeD8({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 3) })).toMatch(/too small/);
  });

  it('declines a die cut off by the crop edge', () => {
    const whole = drawD8('hit', 0.2, { side: 120 });
    // Keep the right 70 columns only: part of the die is outside.
    const w = 70;
    const data = new Uint8Array(w * 120 * 3);
    for (let y = 0; y < 120; y++) data.set(whole.data.subarray((y * 120 + 50) * 3, (y * 120 + 120) * 3), y * w * 3);
    expect(describeD8({ width: w, height: 120, data })).toMatch(/touches the edge/);
  });

  it('tells red from green by the face colour, whatever the platform tint', () => {
    const red = chromaticity(outlineOf(drawD8('hit', 0.1, { platform: [170, 140, 110] })).faceColor);
    const green = chromaticity(outlineOf(drawD8('evade', 0.1, { style: GREEN_STYLE, platform: [170, 140, 110] })).faceColor);
    expect(red[0]).toBeGreaterThan(0.6);
    expect(green[1]).toBeGreaterThan(0.5);
  });
});

describe('icon features', () => {
  it('has one value per ring and harmonic', () => {
    expect(featuresOf(drawD8('hit', 0)).length).toBe(iconFeatureLength(defaultIconGeometry));
  });

  it('does not depend on how the die is turned: every icon stays nearer its own kind than any other', () => {
    const faces = ['hit', 'crit', 'focus', 'blank'];
    const angles = Array.from({ length: 8 }, (_, i) => 0.17 + (i * 2 * Math.PI) / 8);
    const feats = faces.map((f) => angles.map((a) => featuresOf(drawD8(f, a))));
    let within = 0;
    let between = Number.POSITIVE_INFINITY;
    feats.forEach((group, i) =>
      group.forEach((x) => {
        for (const y of group) within = Math.max(within, dist(x, y));
        feats.forEach((other, j) => {
          if (j !== i) for (const y of other) between = Math.min(between, dist(x, y));
        });
      }),
    );
    // Measured when written: farthest same-icon pair 0.088, nearest different-icon pair 0.65.
    expect(within).toBeLessThan(between / 3);
  });

  it('does not see glare or exposure as ink', () => {
    const blank = drawD8('blank', 0.5);
    const base = featuresOf(blank);
    // A glare spot brightening one side of the face by up to 60 grey levels.
    const glared = featuresOf(addGrey(blank, (x, y) => 60 * Math.exp(-((x - 70) ** 2 + (y - 40) ** 2) / 600)));
    const hit = featuresOf(drawD8('hit', 0.5));
    expect(dist(glared, base)).toBeLessThan(dist(hit, base) / 5);
  });
});
