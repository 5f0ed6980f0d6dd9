import { join } from 'node:path';
import { datasetsDir } from '../support/datasets.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImageFile } from '../../src/camera/decode.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { CombinedD6Reader } from '../../src/vision/d6/combinedReader.js';
import { D6NetReader } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { evaluateReads, formatConfusion } from '../../src/vision/evaluate.js';
import type { EvalItem, EvalReport } from '../../src/vision/evaluate.js';
import type { DieCrop, FaceReader } from '../../src/vision/faceRead.js';
import { cropForBox } from '../../src/vision/photoCrops.js';

const DATASET = join(datasetsDir(), 'd6-tray-photos', 'images');

// Everything was set on the first 100 photos by sorted name only: the pip counter's thresholds, the
// network (trained on photos 1..80) and the combined reader's thresholds (photos 81..100). This is the other 100.
let classes: readonly string[] = [];
const heldOut: { group: string; truth: string; crop: DieCrop }[] = [];

beforeAll(async () => {
  const folder = await readLabelledFolder(DATASET);
  classes = folder.classes;
  for (const photo of folder.photos.slice(100)) {
    const image = await decodeImageFile(photo.imagePath);
    for (const b of photo.boxes) heldOut.push({ group: photo.name, truth: b.className, crop: cropForBox(image, b.box) });
  }
}, 60_000);

function score(name: string, reader: FaceReader): EvalReport {
  const items: EvalItem[] = heldOut.map((d) => ({ group: d.group, truth: d.truth, read: reader.read(d.crop) }));
  const report = evaluateReads(items, classes);
  console.log(`${name}: ${report.total} dice, ${report.read} read, accuracy among read ${report.accuracyAmongRead.toFixed(4)}, declined ${report.declineRate.toFixed(3)}\n${formatConfusion(report)}`);
  return report;
}

describe('D6 reading on real tray photos (held-out half)', () => {
  // One network for both tests: a crop's probabilities are computed once.
  const net = new D6NetReader(shippedD6Net);

  it('reads with the pip counter alone at the accuracy and decline rate measured when written', () => {
    const report = score('pip counter', new D6PipReader());
    // Measured when written: 582 dice, 159 read, 158 correct (0.9937; one 6 read as 5), 72.7 % declined.
    // Far from the 5 % decline aim: these small perspective views show side faces the pip counter declines.
    expect(report.total).toBe(582);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.97);
    expect(report.read).toBeGreaterThanOrEqual(140);
  });

  it('reads with the learned classifier alone at the figures measured when written', () => {
    const report = score('learned classifier', net);
    // Measured once when written: 501 of 582 read, 489 correct (0.9760), 13.9 % declined. Short of the aim of
    // >= 98 % among read: on photos 81..100 it had read 93 of 107 without a miss, too few to pin a threshold down.
    expect(report.total).toBe(582);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.97);
    expect(report.declineRate).toBeLessThanOrEqual(0.16);
  }, 120_000);

  it('reads with the pip counter and the learned second opinion at the figures measured when written', () => {
    const report = score('pip counter + learned second opinion', new CombinedD6Reader(new D6PipReader(), net));
    // Measured once when written: 509 of 582 read, 497 correct (0.9764), 12.5 % declined (the pip counter
    // alone: 72.7 % declined).
    expect(report.total).toBe(582);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.97);
    expect(report.declineRate).toBeLessThanOrEqual(0.14);
  });
});
