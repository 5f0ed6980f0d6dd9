import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { rectChannel } from '../../src/vision/channels.js';
import { SurroundingsJudge } from '../../src/vision/cocked/surroundings.js';
import { defaultSurroundingsLimits } from '../../src/vision/cocked/surroundingsLimits.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { defaultLocateOptions, locateDice } from '../../src/vision/locate.js';
import { readFrame } from '../../src/vision/pipeline.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { filledFrame, paintRect } from '../support/paintedFrame.js';

// One 60 px die in a one-die channel, with a round logo in the middle of its face.
const DIE = 60;
const W = 200;
const H = 160;
const PLATFORM: [number, number, number] = [150, 150, 146];
const BODY: [number, number, number] = [200, 40, 40];
const channels = [rectChannel(0, { x: 10, y: 10, width: 180, height: 140 })];

function paintDisc(img: RgbImage, cx: number, cy: number, r: number, rgb: readonly [number, number, number]): void {
  for (let y = Math.floor(cy - r); y <= cy + r; y++) for (let x = Math.floor(cx - r); x <= cx + r; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) img.data.set(rgb, (y * img.width + x) * 3);
}

/** The die at the frame's centre, its logo a disc `diameter` die sizes across in `ink`. */
function logoDie(ink: readonly [number, number, number], diameter: number): RgbImage {
  const frame = filledFrame(W, H, PLATFORM);
  paintRect(frame, W / 2 - DIE / 2, H / 2 - DIE / 2, DIE, DIE, BODY);
  paintDisc(frame, W / 2, H / 2, (diameter * DIE) / 2, ink);
  return frame;
}

describe('a D6 whose face carries a logo', () => {
  it("is located whole, not as a die short of its area, when the logo's ink is the platform's colour", () => {
    const frame = logoDie(PLATFORM, 0.75);
    const platform = filledFrame(W, H, PLATFORM);
    const options = sessionPipeline('pips', DIE);
    const [die] = locateDice(frame, platform, channels, options.locate).dice;
    expect(die?.area).toBeGreaterThan(0.95 * DIE * DIE);
    expect(readFrame(frame, platform, channels, new D6PipReader(), options).readings[0]?.read.status).not.toBe('cocked');
    // Without the holes filled, the die falls under the outline's area floor and is called cocked: a 6 re-tumbled away.
    const unfilled = { ...options, locate: { ...defaultLocateOptions, expectedDieArea: options.locate.expectedDieArea } };
    const read = readFrame(frame, platform, channels, new D6PipReader(), unfilled).readings[0]?.read;
    expect(read?.status).toBe('cocked');
    expect(read?.reason).toMatch(/area/);
  });

  it("finds the top face from the body's colour when the logo fills the face's middle, so the body is not taken for a side face", () => {
    const frame = logoDie([245, 230, 120], 0.6);
    const platform = filledFrame(W, H, PLATFORM);
    const [die] = locateDice(frame, platform, channels, sessionPipeline('pips', DIE).locate).dice;
    expect(die).toBeDefined();
    const verdict = new SurroundingsJudge().judge(frame, platform, die as NonNullable<typeof die>, [], { ...defaultSurroundingsLimits, dieSizePx: DIE });
    expect(verdict.markedCells).toBeLessThanOrEqual(defaultSurroundingsLimits.maxMarkedCells);
    expect(verdict.cocked).toBe(false);
  });

  it('is still called cocked when a side face with pips shows beside its top face', () => {
    const frame = logoDie([245, 230, 120], 0.6);
    // A side face below the top face, shaded to the platform's colour but for its pips.
    paintRect(frame, W / 2 - DIE / 2, H / 2 + DIE / 2, DIE, 16, [140, 140, 136]);
    for (const x of [-15, 0, 15]) paintDisc(frame, W / 2 + x, H / 2 + DIE / 2 + 8, 4, [30, 30, 30]);
    const platform = filledFrame(W, H, PLATFORM);
    const read = readFrame(frame, platform, channels, new D6PipReader(), sessionPipeline('pips', DIE)).readings[0]?.read;
    expect(read?.status).toBe('cocked');
  });
});
