import { join } from 'node:path';
import { datasetsDir } from '../support/datasets.js';
import { describe, expect, it } from 'vitest';
import { decodeImageFile } from '../../src/camera/decode.js';
import { readLabelledFolder } from '../../src/camera/labelledFolder.js';
import { D6PipReader } from '../../src/vision/d6Pips.js';
import { evaluateReads, formatConfusion } from '../../src/vision/evaluate.js';
import type { EvalItem } from '../../src/vision/evaluate.js';
import { cropForBox } from '../../src/vision/photoCrops.js';

const DATASET = join(datasetsDir(), 'd6-tray-photos', 'images');

describe('D6 reader on real tray photos (held-out half)', () => {
  it('reads the held-out photos with the accuracy and decline rate measured when written', async () => {
    const folder = await readLabelledFolder(DATASET);
    // Thresholds were tuned on the first 100 photos by sorted name only; this is the other 100.
    const heldOut = folder.photos.slice(100);
    const reader = new D6PipReader();
    const items: EvalItem[] = [];
    for (const photo of heldOut) {
      const image = await decodeImageFile(photo.imagePath);
      for (const b of photo.boxes) items.push({ group: photo.name, truth: b.className, read: reader.read(cropForBox(image, b.box)) });
    }
    const report = evaluateReads(items, folder.classes);
    console.log(`held-out photos: ${report.total} dice, ${report.read} read, accuracy among read ${report.accuracyAmongRead.toFixed(4)}, declined ${report.declineRate.toFixed(3)}\n${formatConfusion(report)}`);
    // Measured once when written: 582 dice, 159 read, 158 correct (0.9937; one 6 read as 5), 72.7 % declined.
    // Far from the 5 % decline aim: these small perspective views show side faces the pip counter declines.
    expect(report.total).toBe(582);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.97);
    expect(report.read).toBeGreaterThanOrEqual(140);
  });
});
