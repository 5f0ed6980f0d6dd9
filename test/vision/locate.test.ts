import { describe, expect, it } from 'vitest';
import { rectChannel } from '../../src/vision/channels.js';
import type { RgbImage } from '../../src/core/image.js';
import { defaultLocateOptions, locateDice, saturatedDiceLocateOptions } from '../../src/vision/locate.js';
import type { LocateOptions } from '../../src/vision/locate.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';
import { filledFrame, paintRect } from '../support/paintedFrame.js';

// A 320x180 platform with three 96x160 channels; dice are 24 px squares.
const W = 320;
const H = 180;
const DIE = 24;
const PLATFORM: [number, number, number] = [150, 150, 146];
const channels = [0, 1, 2].map((i) => rectChannel(i, { x: 8 + i * 104, y: 10, width: 96, height: 160 }));
const options: LocateOptions = { ...defaultLocateOptions, expectedDieArea: DIE * DIE };

const platform = (): RgbImage => filledFrame(W, H, PLATFORM);

const paint = paintRect;

/** A die: a light square centred at (cx, cy). */
function die(img: RgbImage, cx: number, cy: number, size = DIE): RgbImage {
  return paint(img, Math.round(cx - size / 2), Math.round(cy - size / 2), size, size, [236, 236, 230]);
}

// Channel centres.
const C = [56, 160, 264];

describe('die location against the empty platform', () => {
  it('finds one die in each channel and reports nothing missing or extra', () => {
    const frame = platform();
    for (const x of C) die(frame, x, 90);
    const r = locateDice(frame, platform(), channels, options);
    expect(r.dice.map((d) => d.channel)).toEqual([0, 1, 2]);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
    for (const d of r.dice) {
      expect(d.estimatedCount).toBe(1);
      expect(d.area / (DIE * DIE)).toBeGreaterThan(0.8);
      expect(d.area / (DIE * DIE)).toBeLessThan(1.25);
    }
  });

  it('reports a channel without its die as missing', () => {
    const frame = platform();
    die(frame, C[0] as number, 90);
    die(frame, C[2] as number, 60);
    const r = locateDice(frame, platform(), channels, options);
    expect(r.missing.map((c) => c.channel)).toEqual([1]);
    expect(r.missing[0]).toMatchObject({ expected: 1, count: 0, dice: [] });
    expect(r.extra).toEqual([]);
  });

  it('reports every channel missing on an empty frame', () => {
    const r = locateDice(platform(), platform(), channels, options);
    expect(r.dice).toEqual([]);
    expect(r.missing.map((c) => c.channel)).toEqual([0, 1, 2]);
  });

  it('reports a die outside every channel as extra, without counting it in a channel', () => {
    const frame = platform();
    for (const x of C) die(frame, x, 90);
    // On the wall between channels 0 and 1 (x 104..112) and beyond the channels' bottom edge.
    die(frame, 108, 176 - DIE / 2, 16);
    const r = locateDice(frame, platform(), channels, { ...options, minAreaFraction: 0.2 });
    expect(r.extra).toHaveLength(1);
    expect(r.extra[0]?.channel).toBeUndefined();
    expect(r.channels.map((c) => c.count)).toEqual([1, 1, 1]);
    expect(r.missing).toEqual([]);
  });

  it('reports the smaller of two dice in a one-die channel as extra', () => {
    const frame = platform();
    die(frame, C[0] as number, 50);
    die(frame, C[0] as number, 130, 18);
    die(frame, C[1] as number, 90);
    die(frame, C[2] as number, 90);
    const r = locateDice(frame, platform(), channels, options);
    const ch0 = r.channels.find((c) => c.channel === 0);
    expect(ch0?.count).toBe(2);
    expect(r.extra).toHaveLength(1);
    expect(r.extra[0]?.channel).toBe(0);
    expect(r.extra[0]?.center.y).toBeGreaterThan(110);
    expect(r.missing).toEqual([]);
  });

  it('counts two touching dice as two by area, and the pipeline declines them as touching', () => {
    const frame = platform();
    die(frame, C[0] as number, 90);
    die(frame, C[0] as number, 90 + DIE);
    die(frame, C[1] as number, 90);
    const r = locateDice(frame, platform(), channels, options);
    const pair = r.dice.find((d) => d.channel === 0);
    expect(pair?.estimatedCount).toBe(2);
    expect(r.channels.find((c) => c.channel === 0)?.count).toBe(2);
    expect(r.extra.map((d) => d.channel)).toEqual([0]);
    expect(r.missing.map((c) => c.channel)).toEqual([2]);
    const reading = readFrame(frame, platform(), channels, new D6PipReader(), { locate: options, cocked: defaultCockedLimits, dieSizePx: DIE, cropScale: 1.5 });
    const read = reading.readings.find((x) => x.channel === 0)?.read;
    expect(read?.status).toBe('unreadable');
    expect(read?.reason).toMatch(/touch/);
  });

  it('does not take a shadow (the platform, uniformly darker) or a speck of dust for a die', () => {
    const frame = platform();
    paint(frame, C[0] as number, 40, 30, 30, [90, 90, 88]);
    paint(frame, C[1] as number, 90, 4, 4, [20, 20, 20]);
    const r = locateDice(frame, platform(), channels, options);
    expect(r.dice).toEqual([]);
    expect(r.missing).toHaveLength(3);
  });

  it('refuses a frame whose size differs from the reference', () => {
    expect(() => locateDice(platform(), { width: 10, height: 10, data: new Uint8Array(300) }, channels, options)).toThrow(/320x180.*10x10/);
  });
});

describe('the shadow rule for dice of a strong colour (X-Wing d8s)', () => {
  const saturated: LocateOptions = { ...saturatedDiceLocateOptions, expectedDieArea: DIE * DIE };
  /** A red die at (cx, 90) with a lamp's hard shadow, tinted by a second light, falling to its right and joining it. */
  function redDieWithHardShadow(): RgbImage {
    const frame = platform();
    // Ratios 0.25 / 0.32 / 0.45 of the platform: darker than the default rule's floor, and not of one colour.
    paint(frame, (C[1] as number) + DIE / 2, 90 - DIE / 2, 22, DIE, [38, 48, 66]);
    return paint(frame, (C[1] as number) - DIE / 2, 90 - DIE / 2, DIE, DIE, [205, 35, 32]);
  }

  it('keeps a hard, tinted shadow out of a red die, which the default rule joins to it as a second die', () => {
    const frame = redDieWithHardShadow();
    const byDefault = locateDice(frame, platform(), channels, options);
    expect(byDefault.dice).toHaveLength(1);
    expect(byDefault.dice[0]?.estimatedCount).toBe(2);
    const found = locateDice(frame, platform(), channels, saturated);
    expect(found.dice).toHaveLength(1);
    expect(found.dice[0]?.estimatedCount).toBe(1);
    expect((found.dice[0]?.area as number) / (DIE * DIE)).toBeGreaterThan(0.8);
    expect((found.dice[0]?.area as number) / (DIE * DIE)).toBeLessThan(1.25);
    expect(found.dice[0]?.center.x).toBeCloseTo(C[1] as number, 0);
  });

  it('finds red and green dice whole on a white platform, where every channel of a die is darker', () => {
    const white = (): RgbImage => paint(platform(), 0, 0, W, H, [236, 236, 229]);
    const frame = white();
    paint(frame, (C[0] as number) - DIE / 2, 78, DIE, DIE, [205, 35, 32]);
    paint(frame, (C[2] as number) - DIE / 2, 78, DIE, DIE, [40, 160, 70]);
    const found = locateDice(frame, white(), channels, saturated);
    expect(found.dice.map((d) => d.channel).sort()).toEqual([0, 2]);
    for (const d of found.dice) {
      expect(d.estimatedCount).toBe(1);
      expect(d.area / (DIE * DIE)).toBeGreaterThan(0.8);
    }
  });

  it("finds a dark green die on a pale, cool platform, whose ratios are as even as a shadow's but whose green stands out", () => {
    const pale = (): RgbImage => paint(platform(), 0, 0, W, H, [215, 232, 236]);
    // Ratios 0.19 / 0.46 / 0.27: within the spread a shadow may have, but green is far above red and blue.
    const frame = paint(pale(), (C[1] as number) - DIE / 2, 78, DIE, DIE, [41, 107, 64]);
    const found = locateDice(frame, pale(), channels, saturated);
    expect(found.dice).toHaveLength(1);
    expect((found.dice[0]?.area as number) / (DIE * DIE)).toBeGreaterThan(0.8);
    const { shadowTintMargin: _m, ...withoutTint } = saturated;
    expect(locateDice(frame, pale(), channels, withoutTint).dice).toHaveLength(0);
  });

  it('keeps out a shadow on a platform that reflects little red, where the red ratio is noise: that channel only has to be darker', () => {
    const felt = (): RgbImage => paint(platform(), 0, 0, W, H, [40, 62, 124]);
    const frame = felt();
    // A warm lamp's shadow, lit by the cool sky alone: red falls to 0.07 of the platform, green and blue to 0.4 and 0.58.
    paint(frame, (C[1] as number) + DIE / 2, 90 - DIE / 2, 22, DIE, [3, 25, 72]);
    paint(frame, (C[1] as number) - DIE / 2, 90 - DIE / 2, DIE, DIE, [205, 35, 32]);
    const found = locateDice(frame, felt(), channels, saturated);
    expect(found.dice).toHaveLength(1);
    expect(found.dice[0]?.estimatedCount).toBe(1);
    expect(found.dice[0]?.center.x).toBeCloseTo(C[1] as number, 0);
    const { shadowDimLevel: _d, ...everyChannel } = saturated;
    expect(locateDice(frame, felt(), channels, everyChannel).dice[0]?.estimatedCount).toBe(2);
  });

  it('would take a black die for shadow, which is why dice of any colour keep the default rule', () => {
    const frame = die(platform(), C[1] as number, 90);
    paint(frame, (C[1] as number) - DIE / 2, 90 - DIE / 2, DIE, DIE, [30, 30, 29]);
    expect(locateDice(frame, platform(), channels, options).dice).toHaveLength(1);
    expect(locateDice(frame, platform(), channels, saturated).dice).toHaveLength(0);
  });
});
