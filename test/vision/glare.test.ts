/**
 * Dice whose top face is lost in a highlight (src/vision/learned/glare.ts): measured on drawn crops whose clipped
 * share is known by symmetry, and on the committed house renders (test/support/renders/tune-xwing) with the centre
 * of the top face painted white as a ring light's reflection paints it.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRgb } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import type { DieCrop } from '../../src/vision/faceRead.js';
import { tunedModel } from '../../src/vision/learned/fineTune.js';
import { clippedShare, xwingGlare } from '../../src/vision/learned/glare.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../../src/vision/learned/reader.js';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { readLabelledCrops } from '../../src/vision-io/labelledCrops.js';

const model = shippedLearnedModels['xwing'] as LearnedModel;
const FIXTURE = join(import.meta.dirname, '..', 'support', 'renders', 'tune-xwing');
let crops: { crop: DieCrop; label: string }[] = [];

beforeAll(async () => {
  const folder = await readLabelledCrops(join(FIXTURE, 'images'), join(FIXTURE, 'labels'), (c) => c !== 'cocked', 1.5, learnedCutter(model, 54));
  crops = folder.crops.slice(0, 24).map((c) => ({ crop: c.crop, label: c.label }));
}, 60_000);

/** A copy of `image` with the pixels whose centres satisfy `where` set to `rgb`. */
function painted(image: RgbImage, where: (x: number, y: number) => boolean, rgb: readonly [number, number, number]): RgbImage {
  const out = { ...image, data: Uint8Array.from(image.data) };
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!where(x + 0.5, y + 0.5)) continue;
      out.data.set(rgb, (y * image.width + x) * 3);
    }
  }
  return out;
}

describe('a top face lost in a highlight', () => {
  it('measures the share of the central disk clipped white: none, all, and exactly half when the left half is', () => {
    const red = painted(createRgb(40, 40), () => true, [200, 30, 30]);
    const check = { radius: 0.2, level: 220 };
    expect(clippedShare({ image: red, sizePx: 50 }, check)).toBe(0);
    expect(clippedShare({ image: painted(red, () => true, [255, 255, 255]), sizePx: 50 }, check)).toBe(1);
    // The disk (radius 10 about (20, 20)) is symmetric about x = 20, so pixel centres left of it are half of its own.
    expect(clippedShare({ image: painted(red, (x) => x < 20, [255, 255, 255]), sizePx: 50 }, check)).toBe(0.5);
    // White outside the disk only (a highlight on the die's side faces) does not count.
    expect(clippedShare({ image: painted(red, (x, y) => (x - 20) ** 2 + (y - 20) ** 2 > 11 ** 2, [255, 255, 255]), sizePx: 50 }, check)).toBe(0);
    // A pixel is clipped only when every channel reaches the level: a pale yellow icon is not a highlight.
    expect(clippedShare({ image: painted(red, () => true, [255, 255, 219]), sizePx: 50 }, check)).toBe(0);
    expect(clippedShare({ image: painted(red, () => true, [220, 220, 220]), sizePx: 50 }, check)).toBe(1);
  });

  it('counts as clipped a highlight a soft camera leaves just under pure white (each channel 212), not a pale one (205)', () => {
    // A look that blurs and tints its whites (npm run regrade's filmic and harsh grades) leaves a highlight's pixels in
    // the 210s; they hide an icon as surely as 255 does.
    for (const { crop } of crops.slice(0, 6)) {
      const cx = crop.image.width / 2;
      const cy = crop.image.height / 2;
      const disk = (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= (0.2 * crop.sizePx) ** 2;
      expect(clippedShare({ ...crop, image: painted(crop.image, disk, [230, 221, 212]) }, xwingGlare)).toBe(1);
      expect(clippedShare({ ...crop, image: painted(crop.image, disk, [230, 221, 205]) }, xwingGlare)).toBe(0);
    }
  });

  it('declines a die whose top face centre is clipped white, as unreadable and saying why, and reads the others as before', () => {
    const { glare: _glare, ...without } = model;
    const plain = new LearnedReader(without);
    const reader = new LearnedReader(model);
    let declined = 0;
    for (const { crop } of crops) {
      const before = plain.read(crop);
      // The die as it is: no clipped top face in these tune renders, so the same read, under a version naming the check.
      expect(clippedShare(crop, xwingGlare)).toBeLessThan(xwingGlare.at);
      expect(reader.read(crop)).toEqual({ ...before, classifierVersion: `${before.classifierVersion}+glare/2` });
      const cx = crop.image.width / 2;
      const cy = crop.image.height / 2;
      const r = 0.2 * crop.sizePx;
      const lit = { ...crop, image: painted(crop.image, (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= (0.9 * r) ** 2, [252, 252, 250]) };
      expect(clippedShare(lit, xwingGlare)).toBeGreaterThanOrEqual(0.7);
      const read = reader.read(lit);
      if (read.status === 'cocked') continue; // the cocked checks speak first
      expect(read).toMatchObject({ status: 'unreadable', cause: 'glare' });
      expect(read.reason).toMatch(/^The top face is lost in a highlight \(\d+ % of its centre clipped white, declined from 60 %\): its icon cannot be seen\.$/);
      declined++;
    }
    expect(declined).toBeGreaterThan(crops.length / 2);
  });

  it('declines a die read as a blank under a highlight too small to decline an icon (a faded icon would look the same), and reads an icon under it', () => {
    const blankAt = xwingGlare.blankAt as number;
    expect(blankAt).toBeLessThan(xwingGlare.at);
    // Heads that always name one class (zero weights, a large bias), so the read is known whatever the crop shows.
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    const naming = (c: string, m: LearnedModel = model): LearnedReader =>
      new LearnedReader(m, { minProbability: 0.5 }, { version: `says-${c}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === c ? 20 : 0)), minProbability: 0.5 });
    const { blankAt: _blankAt, ...oneThreshold } = xwingGlare;
    let checked = 0;
    for (const { crop } of crops) {
      const cx = crop.image.width / 2;
      const cy = crop.image.height / 2;
      const r = 0.2 * crop.sizePx;
      // A highlight over a quarter of the disk, off its centre: from blankAt, under at.
      const lit = { ...crop, image: painted(crop.image, (x, y) => (x - cx + 0.5 * r) ** 2 + (y - cy) ** 2 <= (0.5 * r) ** 2, [252, 252, 250]) };
      const share = clippedShare(lit, xwingGlare);
      expect(share).toBeGreaterThanOrEqual(blankAt);
      expect(share).toBeLessThan(xwingGlare.at);
      const icon = naming('red-hit').read(lit);
      if (icon.status === 'cocked') continue; // the cocked checks speak first
      checked++;
      expect(icon).toMatchObject({ status: 'read', symbol: 'hit' });
      const blank = naming('green-blank').read(lit);
      expect(blank).toMatchObject({ status: 'unreadable', cause: 'glare' });
      expect(blank.reason).toMatch(/^The top face reads as a blank under a highlight \(\d+ % of its centre clipped white, a blank declined from 20 %\): a faded icon would look the same\.$/);
      // Without the blank rule, or without the highlight, the blank is read.
      expect(naming('green-blank', { ...model, glare: oneThreshold }).read(lit)).toMatchObject({ status: 'read', symbol: 'blank' });
      // (A render's own icon ink can reach blankAt: 0.23 on one of these.)
      if (clippedShare(crop, xwingGlare) < blankAt) expect(naming('green-blank').read(crop)).toMatchObject({ status: 'read', symbol: 'blank' });
    }
    expect(checked).toBeGreaterThan(crops.length / 2);
  });

  it('names its version after the face rules in every read, so a roll log shows which level declined its highlights', () => {
    // glare/2 is the level 210; the readers that checked at 220 named no glare version.
    expect(xwingGlare).toMatchObject({ version: 'glare/2', level: 210 });
    const { glare: _glare, ...without } = model;
    const plain = new LearnedReader(without);
    expect(plain.classifierVersion).toBe(model.version);
    const reader = new LearnedReader(model);
    expect(reader.classifierVersion).toBe(`${model.version}+glare/2`);
    expect(reader.faceVersion).toBe(model.version);
    // A confirming reader is asked for probabilities only, never runs its glare check, and is named without it.
    const confirmed = new LearnedReader(model, { ...defaultLearnedReaderOptions, confirmRule: 5 }, undefined, new LearnedReader(model));
    expect(confirmed.classifierVersion).toBe(`${model.version}+confirmed/5-by-${model.version}+glare/2`);
    const reads = crops.slice(0, 6).flatMap(({ crop }) => {
      const r = 0.2 * crop.sizePx;
      const disk = (x: number, y: number) => (x - crop.image.width / 2) ** 2 + (y - crop.image.height / 2) ** 2 <= (0.9 * r) ** 2;
      return [reader.read(crop), reader.read({ ...crop, image: painted(crop.image, disk, [252, 252, 250]) })];
    });
    expect(reads.some((r) => r.cause === 'glare')).toBe(true);
    expect(reads.some((r) => r.status === 'read')).toBe(true);
    expect(new Set(reads.map((r) => r.classifierVersion))).toEqual(new Set([`${model.version}+glare/2`]));
  });

  it('is shipped with the X-Wing reader only, and kept when the network is fine-tuned', () => {
    expect(model.glare).toEqual(xwingGlare);
    expect(shippedLearnedModels['d6']?.glare).toBeUndefined();
    const tuned = tunedModel(model, { version: 'tuned/x', weightsBase64: model.weightsBase64, thresholds: Object.fromEntries(model.classes.filter((c) => c !== 'cocked').map((c) => [c, 0.9])) });
    expect(tuned.glare).toEqual(xwingGlare);
  });
});
