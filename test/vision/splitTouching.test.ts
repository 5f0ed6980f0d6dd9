import { describe, expect, it } from 'vitest';
import { rectChannel } from '../../src/vision/channels.js';
import type { RgbImage } from '../../src/core/image.js';
import { defaultLocateOptions, locateDice, saturatedDiceLocateOptions } from '../../src/vision/locate.js';
import type { LocateOptions } from '../../src/vision/locate.js';
import { connectedComponents } from '../../src/vision/components.js';
import { splitBlob } from '../../src/vision/splitTouching.js';

// A 320x180 grey platform; d8s seen from above are hexagons 40 px across their corners.
const W = 320;
const H = 180;
const SIZE = 40;
const HEX_AREA = ((3 * Math.sqrt(3)) / 8) * SIZE * SIZE;
const PLATFORM: [number, number, number] = [150, 150, 146];
const RED: [number, number, number] = [205, 40, 38];
const options: LocateOptions = { ...saturatedDiceLocateOptions, expectedDieArea: HEX_AREA };
const frameChannel = (expected: number) => [rectChannel(0, { x: 0, y: 0, width: W, height: H }, expected)];

function platform(): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) data.set(PLATFORM, i * 3);
  return { width: W, height: H, data };
}

/** A hexagon `size` across its corners (corners on the x axis), centred at (cx, cy). */
function hexagon(img: RgbImage, cx: number, cy: number, rgb: readonly [number, number, number], size = SIZE): RgbImage {
  const r = size / 2;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const dx = Math.abs(x + 0.5 - cx);
      const dy = Math.abs(y + 0.5 - cy);
      if (dy <= (r * Math.sqrt(3)) / 2 && Math.sqrt(3) * dx + dy <= Math.sqrt(3) * r) img.data.set(rgb, (y * img.width + x) * 3);
    }
  }
  return img;
}

/** Two dice corner to corner (40 px apart along x: touching). */
const PAIR = [
  { x: 120, y: 90 },
  { x: 159, y: 90 },
];
function touchingPair(): RgbImage {
  const frame = platform();
  for (const t of PAIR) hexagon(frame, t.x, t.y, RED);
  return frame;
}

const near = (p: { x: number; y: number }, q: { x: number; y: number }): number => Math.hypot(p.x - q.x, p.y - q.y);

describe('touching dice found apart', () => {
  it('finds two touching dice as two, each centred on its own die, in a channel that expects two', () => {
    const r = locateDice(touchingPair(), platform(), frameChannel(2), options);
    expect(r.dice).toHaveLength(2);
    for (const t of PAIR) {
      const d = r.dice.find((x) => near(x.center, t) < 4);
      expect(d, `a die at (${t.x}, ${t.y})`).toBeDefined();
      expect(d?.splitFrom).toBe(2);
      expect(d?.estimatedCount).toBe(1);
    }
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
  });

  it('finds three dice side by side as three', () => {
    const frame = platform();
    const truth = [
      { x: 100, y: 90 },
      { x: 135, y: 70 },
      { x: 135, y: 110 },
    ];
    for (const t of truth) hexagon(frame, t.x, t.y, RED);
    const r = locateDice(frame, platform(), frameChannel(3), options);
    expect(r.dice).toHaveLength(3);
    for (const t of truth) expect(r.dice.some((d) => near(d.center, t) < 5 && d.splitFrom === 3)).toBe(true);
  });

  it('leaves two touching dice in a channel of one die as one blob counted two, the throw re-tumbled as before', () => {
    const r = locateDice(touchingPair(), platform(), frameChannel(1), options);
    expect(r.dice).toHaveLength(1);
    expect(r.dice[0]?.estimatedCount).toBe(2);
    expect(r.dice[0]?.splitFrom).toBeUndefined();
    expect(r.extra).toHaveLength(1);
  });

  it('does not split a die from a grey patch beside it: the patch is not of a die colour, so the blob stays one', () => {
    const frame = platform();
    hexagon(frame, 120, 90, RED);
    // A wall's pale edge or a shadow's remnant the mask kept: brighter than the platform, but grey.
    hexagon(frame, 159, 90, [190, 190, 186]);
    const r = locateDice(frame, platform(), frameChannel(2), options);
    expect(r.dice).toHaveLength(1);
    expect(r.dice[0]?.estimatedCount).toBe(2);
    expect(r.dice[0]?.splitFrom).toBeUndefined();
  });

  it('finds two dice larger than the die size as two, although their area counts three', () => {
    const frame = platform();
    // 1.15 times the size across: 1.32 die areas each, and the mask's blocks on their edges make it 2.9 together.
    const truth = [
      { x: 120, y: 90 },
      { x: 165, y: 90 },
    ];
    for (const t of truth) hexagon(frame, t.x, t.y, RED, 1.15 * SIZE);
    const whole = locateDice(frame, platform(), frameChannel(1), options);
    expect(whole.dice[0]?.estimatedCount).toBe(3);
    const r = locateDice(frame, platform(), frameChannel(3), options);
    expect(r.dice).toHaveLength(2);
    for (const t of truth) expect(r.dice.some((d) => near(d.center, t) < 5 && d.splitFrom === 2)).toBe(true);
  });

  it('splits nothing under the default location, which D6s keep: their pip counter cannot read a die beside another', () => {
    const r = locateDice(touchingPair(), platform(), frameChannel(2), { ...defaultLocateOptions, expectedDieArea: HEX_AREA });
    expect(r.dice).toHaveLength(1);
    expect(r.dice[0]?.estimatedCount).toBe(2);
  });

  it('refuses a split whose parts are not die-sized', () => {
    const frame = touchingPair();
    const mask = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++) mask[i] = frame.data[i * 3] === RED[0] ? 1 : 0;
    const { blobs, labels } = connectedComponents(mask, W, H, 8);
    const blob = blobs[0];
    if (!blob) throw new Error('no blob');
    expect(splitBlob(labels, W, blob, 2, HEX_AREA, { partArea: [0.7, 1.6] })).toHaveLength(2);
    // Taken for three dice, its parts are two thirds of a die each.
    expect(splitBlob(labels, W, blob, 3, HEX_AREA, { partArea: [0.7, 1.6] })).toBeUndefined();
    expect(splitBlob(labels, W, blob, 1, HEX_AREA, { partArea: [0.7, 1.6] })).toBeUndefined();
  });
});
