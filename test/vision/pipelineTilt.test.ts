/**
 * A reader that judges tilt itself (a learned profile's outline check) is given every located die that is not
 * touching another: the pipeline's blob-shape check (made for the flat simulated camera) and its look-beside check
 * (made for cubes) are left out for it, and still run for any other reader.
 */
import { describe, expect, it } from 'vitest';
import { createRgb } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { rectChannel } from '../../src/vision/channels.js';
import type { DieCrop, FaceRead, FaceReader } from '../../src/vision/faceRead.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';

const SIZE = 40;
const W = 640;
const H = 360;

/** A grey platform, and with `dice` the rectangles (x, y, w, h) painted red. */
function frame(dice: readonly (readonly [number, number, number, number])[] = []): RgbImage {
  const img = createRgb(W, H);
  for (let i = 0; i < W * H; i++) img.data.set([120, 120, 120], i * 3);
  for (const [x0, y0, w, h] of dice) {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) img.data.set([200, 30, 40], (y * W + x) * 3);
  }
  return img;
}

/** Reads every crop as a 3, keeping how many it was given; `judgesTilt` as told. */
class CountingReader implements FaceReader {
  readonly classifierVersion = 'counting/1';
  given = 0;
  constructor(readonly judgesTilt: boolean | undefined) {}
  read(crop: DieCrop): FaceRead {
    this.given++;
    return { status: 'read', symbol: '3', confidence: 0.99, classifierVersion: this.classifierVersion, crop: crop.image };
  }
}

describe('the pipeline and a reader that judges tilt itself', () => {
  // A square die; a die whose blob holds its shadow too (twice as long as wide, a die's area); two dice touching (one
  // blob of two dice's area).
  const dice = [[60, 60, SIZE, SIZE], [260, 60, 56, 28], [60, 220, 2 * SIZE, SIZE]] as const;
  const reference = frame();
  const image = frame(dice);
  const options = { locate: { ...defaultLocateOptions, expectedDieArea: SIZE * SIZE * 0.97 }, cocked: defaultCockedLimits, dieSizePx: SIZE, cropScale: 1.5 };
  const channels = [rectChannel(1, { x: 0, y: 0, width: W, height: H }, 4)];
  const causeAt = (readings: ReturnType<typeof readFrame>['readings'], x: number, y: number): string | undefined => {
    const r = readings.find(({ die }) => Math.abs(die.center.x - x) < SIZE && Math.abs(die.center.y - y) < SIZE);
    if (!r) throw new Error(`no die located near (${x}, ${y})`);
    return r.read.status === 'read' ? 'read' : r.read.cause;
  };

  it('reads a die whose blob is longer than a flat die, which the blob-shape check calls cocked for any other reader', () => {
    for (const judges of [undefined, false]) {
      const other = new CountingReader(judges);
      const { readings } = readFrame(image, reference, channels, other, options);
      expect(causeAt(readings, 80, 80)).toBe('read');
      expect(causeAt(readings, 288, 74)).toBe('outline');
      expect(readings.find((r) => r.read.cause === 'outline')?.read.reason).toMatch(/longer than wide: it is not lying flat/);
    }
    const learned = new CountingReader(true);
    const { readings } = readFrame(image, reference, channels, learned, options);
    expect(causeAt(readings, 80, 80)).toBe('read');
    expect(causeAt(readings, 288, 74)).toBe('read');
    expect(learned.given).toBe(2);
  });

  it('still declines touching dice for it: one blob of two dice cannot be read apart', () => {
    const learned = new CountingReader(true);
    const { readings } = readFrame(image, reference, channels, learned, options);
    expect(causeAt(readings, 100, 240)).toBe('touching');
  });
});
