import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import type { DieCrop, FaceRead, FaceReader } from '../../src/vision/faceRead.js';
import { readLabelledFrame } from '../../src/vision/labelledFrame.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits } from '../../src/vision/pipeline.js';
import { filledFrame, paintRect } from '../support/paintedFrame.js';

const W = 320;
const H = 160;
const DIE = 48;
const platform = (): RgbImage => filledFrame(W, H, [150, 150, 146]);
const paint = paintRect;
/** A reader that says where the crop it was handed was cut: its size tells dice apart. */
const reader: FaceReader = {
  classifierVersion: 'probe/1',
  read: (crop: DieCrop): FaceRead => ({ status: 'read', symbol: String(crop.image.width), confidence: 1, classifierVersion: 'probe/1', crop: crop.image }),
};
const options = { locate: { ...defaultLocateOptions, expectedDieArea: DIE * DIE }, cocked: defaultCockedLimits, dieSizePx: DIE, cropScale: 1.5, surroundings: null };

describe('a labelled frame read as a session reads a throw', () => {
  it('gives each box the read of the die located inside it, and declines a box with no located die of its own', () => {
    const frame = platform();
    paint(frame, 20, 40, DIE, DIE, [236, 236, 230]);
    paint(frame, 200, 40, DIE, DIE, [236, 236, 230]);
    const boxes = [
      { label: '1', box: { x: 196, y: 36, width: 56, height: 56 } },
      { label: '2', box: { x: 100, y: 90, width: 56, height: 56 } },
      { label: '3', box: { x: 16, y: 36, width: 56, height: 56 } },
    ];
    const reads = readLabelledFrame(frame, platform(), boxes, reader, options);
    expect(reads.map((r) => r.status)).toEqual(['read', 'unreadable', 'read']);
    expect(reads[1]?.reason).toBe('No die was located on its own here (in no blob, or in a blob centred off it).');
    expect(reads[1]?.cause).toBe('not-located');
    expect(reads[1]?.classifierVersion).toBe('probe/1');
    // The crop a located die is read from is the session's (1.5 die sizes round the located centre), not the box.
    expect(reads[0]?.symbol).toBe(String(Math.round(DIE * 1.5)));
  });

  it('calls a flat-sized box holding a blob too long for a flat die cocked, as the session would, before any reader sees it', () => {
    const frame = platform();
    paint(frame, 40, 40, 60, DIE, [236, 236, 230]); // 1.25 die sides long: a cocked die's outline, not two dice
    const reads = readLabelledFrame(frame, platform(), [{ label: '4', box: { x: 36, y: 36, width: 68, height: 56 } }], reader, options);
    expect(reads[0]?.status).toBe('cocked');
  });
});
