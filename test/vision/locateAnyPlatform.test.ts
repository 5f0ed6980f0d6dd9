import { describe, expect, it } from 'vitest';
import { rectChannel } from '../../src/vision/channels.js';
import { createRgb } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { locateOnAnyPlatform } from '../../src/vision/learned/platform.js';
import { seededRandom } from '../../src/stats/random.js';

const W = 640;
const H = 360;
const DIE = 48;

/** A platform (colour, lit unevenly left to right, with grain), dice (squares with a darker mark) and their shadows. */
function scene(platform: readonly [number, number, number], grain: number, dice: readonly { x: number; y: number; colour: readonly [number, number, number] }[]): RgbImage {
  const img = createRgb(W, H);
  const random = seededRandom(9);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const light = 0.8 + (0.35 * x) / W;
      const g = (random() - 0.5) * grain;
      for (let c = 0; c < 3; c++) img.data[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round((platform[c] as number) * light + g)));
    }
  }
  const paint = (x0: number, y0: number, side: number, f: (c: number, v: number) => number): void => {
    for (let y = Math.max(0, y0); y < Math.min(H, y0 + side); y++) {
      for (let x = Math.max(0, x0); x < Math.min(W, x0 + side); x++) for (let c = 0; c < 3; c++) img.data[(y * W + x) * 3 + c] = f(c, img.data[(y * W + x) * 3 + c] as number);
    }
  };
  // A channel wall: a dark stripe the whole height of the frame, a die resting against it (see DICE).
  for (let y = 0; y < H; y++) for (let x = 330; x < 350; x++) img.data.set([60, 35, 25], (y * W + x) * 3);
  for (const d of dice) paint(d.x - DIE / 2 + 10, d.y - DIE / 2 + 10, DIE, (_c, v) => Math.round(v * 0.6));
  for (const d of dice) {
    paint(d.x - DIE / 2, d.y - DIE / 2, DIE, (c) => d.colour[c] as number);
    paint(d.x - 8, d.y - 8, 16, (c) => Math.round((d.colour[c] as number) * 0.3));
  }
  return img;
}

const DICE = [
  { x: 80, y: 90, colour: [200, 30, 30] as const },
  { x: 240, y: 100, colour: [30, 160, 60] as const },
  { x: 420, y: 120, colour: [235, 235, 225] as const },
  { x: 560, y: 260, colour: [25, 25, 30] as const },
  { x: 150, y: 260, colour: [200, 30, 30] as const },
  { x: 150 + DIE, y: 260, colour: [30, 160, 60] as const },
  { x: 350 + DIE / 2, y: 250, colour: [200, 30, 30] as const },
];

describe('locating dice with no empty-platform reference', () => {
  const platforms: [string, readonly [number, number, number], number][] = [
    ['light felt', [215, 210, 200], 10],
    ['white acrylic', [245, 245, 245], 2],
    ['dark grey neoprene', [55, 55, 60], 8],
    ['textured wood', [150, 110, 70], 40],
  ];
  for (const [name, colour, grain] of platforms) {
    it(`finds every die, dark and light, on ${name}, counting the touching pair as two and parting a die from the wall it rests against`, () => {
      // Known limit: a white die on white acrylic differs from it as a light shadow does (uniformly a little darker),
      // so there the white die is swapped for a blue one.
      const dice = name === 'white acrylic' ? DICE.map((d, i) => (i === 2 ? { ...d, colour: [40, 60, 200] as const } : d)) : DICE;
      const frame = scene(colour, grain, dice);
      const found = locateOnAnyPlatform(frame, [rectChannel(1, { x: 0, y: 0, width: W, height: H }, 7)], DIE, DIE * DIE);
      const count = found.dice.reduce((s, d) => s + d.estimatedCount, 0);
      expect(count).toBe(7);
      for (const d of [...DICE.slice(0, 4), DICE[6] as (typeof DICE)[number]]) {
        expect(found.dice.some((f) => Math.abs(f.center.x - d.x) < DIE / 3 && Math.abs(f.center.y - d.y) < DIE / 3)).toBe(true);
      }
    });
  }
});
