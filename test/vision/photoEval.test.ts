import { join } from 'node:path';
import { datasetsDir } from '../support/datasets.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImageFile } from '../../src/camera/decode.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { CombinedD6Reader } from '../../src/vision/d6/combinedReader.js';
import { D6NetReader, heldOutOf } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { evaluateReads, formatConfusion } from '../../src/vision/evaluate.js';
import type { EvalItem, EvalReport } from '../../src/vision/evaluate.js';
import type { DieCrop, FaceReader } from '../../src/vision/faceRead.js';
import { cropForBox } from '../../src/vision/photoCrops.js';

const DATASET = join(datasetsDir(), 'd6-tray-photos', 'images');

// The pip counter's thresholds were set on the first 100 photos by sorted name only; the networks record the photos
// that neither trained them nor checked their rules (`heldOutPhotos`, 151..200 for d6-net/6). Those are read here.
const { first, last } = shippedD6Net.heldOutPhotos;
let classes: readonly string[] = [];
const heldOut: { group: string; truth: string; crop: DieCrop }[] = [];

beforeAll(async () => {
  const folder = await readLabelledFolder(DATASET);
  classes = folder.classes;
  for (const photo of heldOutOf(shippedD6Net, folder.photos)) {
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

describe(`D6 reading on real tray photos the networks never saw (photos ${first}..${last})`, () => {
  // One network for both tests: a crop's probabilities are computed once.
  const net = new D6NetReader(shippedD6Net);

  it('measures the networks only on photos that neither the pip counter nor the networks were set on', () => {
    // The pip counter's thresholds were set on photos 1..100; the dataset holds 200.
    expect(first).toBeGreaterThan(100);
    expect(last).toBe(200);
    expect(heldOut.length).toBeGreaterThan(0);
  });

  it('reads with the pip counter alone at the accuracy and decline rate measured when written', () => {
    const report = score('pip counter', new D6PipReader());
    // Measured on photos 151..200 (d6-net/6's held-out photos): 242 dice, 70 read, 69 correct (0.9857), 71.1 %
    // declined; on 101..200 when written: 582 dice, 159 read, 158 correct (0.9937), 72.7 % declined.
    // Far from the 5 % decline aim: these small perspective views show side faces the pip counter declines.
    expect(report.total).toBe(242);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.97);
    expect(report.read).toBeGreaterThanOrEqual(60);
  });

  it('reads with the learned classifier alone at the figures measured when written', () => {
    const report = score('learned classifier', net);
    // Measured once when shipped (d6-net/6: d6-net/5's recipe on photos 1..80 and 101..150), on photos 151..200:
    // 241 of 242 read, 239 correct (0.9917), 0.4 % declined. Before it, on 101..200 (582 dice): d6-net/5 read 544
    // with 538 correct (0.9890), 6.5 % declined; d6-net/4 544 with 537 (0.9871); d6-net/2 550 with 544 (0.9891),
    // 5.5 % declined; d6-net/1 501 with 489 (0.9760), 13.9 % declined.
    expect(report.total).toBe(242);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.985);
    expect(report.declineRate).toBeLessThanOrEqual(0.03);
  }, 120_000);

  it('reads with the pip counter and the learned second opinion within the D6 photo targets (>= 99 % correct among read, <= 5 % declined)', () => {
    const report = score('pip counter + learned second opinion', new CombinedD6Reader(new D6PipReader(), net, shippedD6Net.combined));
    // Measured once when shipped (d6-net/6), on photos 151..200: 238 of 242 read, 236 correct (0.9916; one of the two
    // wrong reads is a die whose label, looked at, is wrong), 1.7 % declined. d6-net/5 on the same photos: 236 read,
    // 232 correct (0.9831), 2.5 % declined; on 101..200: 545 of 582 read, 538 correct (0.9872), 6.4 % declined.
    expect(report.total).toBe(242);
    expect(report.accuracyAmongRead).toBeGreaterThanOrEqual(0.99);
    expect(report.declineRate).toBeLessThanOrEqual(0.05);
  });
});
