/**
 * The shipped X-Wing network on 3D renders it was neither trained nor tuned on:
 * test-split scenes (seeds 2,000,400.. lie past the test-xwing folder's 300 and
 * far from the train and tune ranges) rendered in the real browser, cut as the
 * CLI cuts them and read with the model's own thresholds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserRenderer } from '../../src/camera/render3d/browserRenderer.js';
import { writeRenderedFolder } from '../../src/camera/render3d/writeRenderedFolder.js';
import { readLabelledCrops } from '../../src/vision-io/labelledCrops.js';
import { classOfRead, COCKED_LABEL } from '../../src/vision/labelledEval.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../../src/vision/learned/reader.js';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dicerig-learned-renders-'));
  const renderer = await BrowserRenderer.open();
  try {
    await writeRenderedFolder(renderer, { dir: join(dir, 'xwing'), dice: 'xwing', firstSeed: 2_000_400, count: 6 });
  } finally {
    await renderer.close();
  }
}, 240_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the shipped X-Wing reader on held-out 3D renders', () => {
  it('reads most flat dice, every one it reads correctly, across several faces of both colours', async () => {
    const model = shippedLearnedModels['xwing'] as LearnedModel;
    const reader = new LearnedReader(model, defaultLearnedReaderOptions);
    const folder = await readLabelledCrops(join(dir, 'xwing', 'images'), join(dir, 'xwing', 'labels'), () => true, 1.3, learnedCutter(model, 54));
    const flat = folder.crops.filter((c) => c.label !== COCKED_LABEL);
    expect(flat.length).toBeGreaterThanOrEqual(15);
    const reads = flat.map((c) => ({ truth: c.label, read: reader.read(c.crop) }));
    const read = reads.filter((r) => r.read.status === 'read');
    const wrong = read.filter((r) => classOfRead(r.read) !== r.truth).map((r) => `${r.truth} read as ${classOfRead(r.read)}`);
    expect(wrong).toEqual([]);
    // On these 16 flat dice learned-xwing/1 read 11 (it declined a third of test-xwing), learned-xwing/2 reads 14; the target is 95 %.
    expect(read.length / flat.length).toBeGreaterThanOrEqual(0.75);
    const faces = new Set(read.map((r) => r.truth));
    expect(faces.size).toBeGreaterThanOrEqual(4);
    expect([...faces].some((f) => f.startsWith('red-'))).toBe(true);
    expect([...faces].some((f) => f.startsWith('green-'))).toBe(true);
  }, 60_000);
});
