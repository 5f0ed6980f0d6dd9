import { describe, expect, it } from 'vitest';
import { rectChannel } from '../../src/vision/channels.js';
import type { RgbImage } from '../../src/core/image.js';
import { defaultLocateOptions, locateDice } from '../../src/vision/locate.js';
import type { LocateOptions } from '../../src/vision/locate.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';

// A 320x180 platform with three 96x160 channels; dice are 24 px squares.
const W = 320;
const H = 180;
const DIE = 24;
const PLATFORM: [number, number, number] = [150, 150, 146];
const channels = [0, 1, 2].map((i) => rectChannel(i, { x: 8 + i * 104, y: 10, width: 96, height: 160 }));
const options: LocateOptions = { ...defaultLocateOptions, expectedDieArea: DIE * DIE };

function platform(): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) data.set(PLATFORM, i * 3);
  return { width: W, height: H, data };
}

function paint(img: RgbImage, x: number, y: number, w: number, h: number, rgb: readonly [number, number, number]): RgbImage {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) img.data.set(rgb, (yy * img.width + xx) * 3);
  return img;
}

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
