import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { d6Die } from '../../src/dice/catalogue.js';
import { judgeThrow } from '../../src/session/throwOutcome.js';
import type { SessionDie } from '../../src/session/sessionDie.js';
import { rectChannel } from '../../src/vision/channels.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits, readFrame, type FrameReading } from '../../src/vision/pipeline.js';
import { filledFrame, paintRect } from '../support/paintedFrame.js';

// One channel for one 24 px die on a grey platform.
const W = 160;
const H = 120;
const DIE = 24;
const platform = (): RgbImage => filledFrame(W, H, [150, 150, 146]);
const paint = paintRect;
const die: SessionDie = { channel: 0, record: { id: 1, label: 'd6-A', typeId: 'd6', set: null, notes: null }, type: d6Die, level: 'face' };
const options = { locate: { ...defaultLocateOptions, expectedDieArea: DIE * DIE }, cocked: defaultCockedLimits, dieSizePx: DIE, cropScale: 1.5 };

describe("a throw's outcome", () => {
  it("keeps a die joined by its hard shadow, its channel's only blob, as an unresolved roll with the blob's crop, and counts the throw", () => {
    const frame = platform();
    // A white die with a lamp's hard shadow beside it: darker than the default rule's floor, so part of the blob.
    paint(frame, 80, 48, 26, DIE, [40, 40, 39]);
    paint(frame, 56, 48, DIE, DIE, [236, 236, 230]);
    const channels = [rectChannel(0, { x: 8, y: 8, width: 144, height: 104 })];
    const reading = readFrame(frame, platform(), channels, new D6PipReader(), options);
    expect(reading.located.dice).toHaveLength(1);
    expect(reading.readings[0]?.read).toMatchObject({ status: 'unreadable', cause: 'shadow' });
    // The shadow painted is 26 x 24 px, 1.08 dice of 24 x 24 (the blob's box, in blocks of 4 px, may cut a column off).
    expect(reading.readings[0]?.read.reason).toMatch(/^One die joined by its hard shadow in a blob the size of about 2 dice \((1\.0|1\.1) dice of it shadow\); it cannot be read apart\.$/);
    const outcome = judgeThrow(reading, [die]);
    // Re-tumbling it away would be a selection by face wherever the blob's reach depends on the face.
    expect(outcome.status).toBe('ok');
    expect(outcome.problems).toMatchObject([{ kind: 'unreadable', cause: 'shadow', channel: 0, die, details: { blobDice: 2 } }]);
    expect(outcome.problems[0]?.reason).toBe('the die was found only joined by its hard shadow, in one blob the size of 2 dice in channel 0 (light the platform from above, not from the side)');
    expect(outcome.rolls).toMatchObject([{ die, unresolved: true, cocked: false, confidence: 0 }]);
    // The crop a person labels it by is the one cut round the blob, and the problem carries it too (the stored roll finds its evidence so).
    expect(outcome.rolls[0]?.crop).toBe(reading.readings[0]?.read.crop);
    expect(outcome.problems[0]?.crop).toBe(outcome.rolls[0]?.crop);
    // It holds the whole blob, die and shadow (one centred on the blob's middle, a die across, would cut the die off).
    const crop = outcome.rolls[0]?.crop as RgbImage;
    expect(crop.width).toBeGreaterThanOrEqual(50);
    const pixels = Array.from({ length: crop.width * crop.height }, (_, i) => crop.data[i * 3]);
    expect(pixels.filter((v) => v === 236).length).toBe(DIE * DIE);
    expect(pixels.filter((v) => v === 40).length).toBe(26 * DIE);
  });

  it('re-tumbles a throw whose one-die channel holds a blob of two dice, not a die and its shadow (a die from the next channel, or a cocked die showing two faces), and names it once', () => {
    const frame = platform();
    // Channel 1's die has slid against channel 0's die, across the line between the channels.
    paint(frame, 50, 48, DIE, DIE, [236, 236, 230]);
    paint(frame, 74, 48, DIE, DIE, [236, 236, 230]);
    const channels = [rectChannel(0, { x: 8, y: 8, width: 90, height: 104 }), rectChannel(1, { x: 98, y: 8, width: 54, height: 104 })];
    const dice = [die, { ...die, channel: 1, record: { ...die.record, id: 2, label: 'd6-B' } }];
    const reading = readFrame(frame, platform(), channels, new D6PipReader(), options);
    expect(reading.readings[0]?.read).toMatchObject({ status: 'unreadable', cause: 'touching', details: { blobDice: 2, shadowDice: 0 } });
    const outcome = judgeThrow(reading, dice);
    expect(outcome.status).toBe('rerolled');
    expect(outcome.problems.map((p) => [p.kind, p.channel])).toEqual([
      ['extra', 0],
      ['missing', 1],
    ]);
    expect(outcome.problems[0]?.reason).toBe("a blob the size of 2 dice in channel 0, not one die and its shadow: a second die touching it, a cocked die showing two faces, or a die against a wall's edge");
  });

  it('keeps a die not found in its channel as an unresolved roll, with the channel cut from the frame to label it by, and counts the throw', () => {
    const frame = platform();
    paint(frame, 100, 60, 4, 4, [20, 20, 20]); // a mark inside the channel, too small to be a die
    const channels = [rectChannel(0, { x: 8, y: 8, width: 144, height: 104 })];
    const reader = new D6PipReader();
    const outcome = judgeThrow(readFrame(frame, platform(), channels, reader, options), [die]);
    expect(outcome.status).toBe('ok');
    expect(outcome.problems).toMatchObject([{ kind: 'missing', reason: 'no die was found in channel 0' }]);
    expect(outcome.rolls).toMatchObject([{ die, unresolved: true, cocked: false, confidence: 0, classifierVersion: reader.classifierVersion }]);
    const crop = outcome.rolls[0]?.crop as RgbImage;
    // The problem carries the same crop, which is how the stored roll finds its evidence.
    expect(outcome.problems[0]?.crop).toBe(crop);
    expect([crop.width, crop.height]).toEqual([144, 104]);
    expect(Array.from(crop.data.subarray(((60 - 8) * 144 + (100 - 8)) * 3, ((60 - 8) * 144 + (100 - 8)) * 3 + 3))).toEqual([20, 20, 20]);
  });

  it('re-tumbles rather than count a throw without a roll of a die, when the frame has no crop of its channel to keep it by', () => {
    const finding = { channel: 0, expected: 1, dice: [], count: 0 };
    const reading: FrameReading = { located: { dice: [], channels: [finding], missing: [finding], extra: [] }, readings: [], emptyChannels: [], classifierVersion: 'v' };
    const outcome = judgeThrow(reading, [die]);
    expect(outcome.status).toBe('rerolled');
    expect(outcome.rolls).toEqual([]);
    expect(outcome.problems).toMatchObject([{ kind: 'missing', reason: 'no die was found in channel 0' }]);
  });
});
