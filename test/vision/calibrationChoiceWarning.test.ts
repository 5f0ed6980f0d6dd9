/**
 * calibrate chooses among the shipped network and the readers it fits by their cost on the held-back quarter of the
 * labelled images; on a few dozen dice that choice is chance, and the summary says so.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildLearnedProfile, MIN_CHOOSING_DICE } from '../../src/vision/calibration/learnedProfile.js';
import type { AdaptSample } from '../../src/vision/learned/adapt.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { learnedCutter, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { readLabelledCrops } from '../../src/vision-io/labelledCrops.js';

const FIXTURE = join(import.meta.dirname, '..', 'support', 'renders', 'tune-xwing-f1');
const model = shippedLearnedModels['xwing'] as LearnedModel;
const options = { name: 'choice', createdAt: '2026-01-01T00:00:00.000Z', source: 'test fixture', hfovDeg: 54, fineTune: false } as const;
let crops: AdaptSample[] = [];

beforeAll(async () => {
  const folder = await readLabelledCrops(join(FIXTURE, 'images'), join(FIXTURE, 'labels'), () => true, 1.5, learnedCutter(model, 54));
  crops = folder.crops.map((c) => ({ crop: c.crop, label: c.label, group: c.group }));
}, 60_000);

const choiceWarning = /^the reader was chosen on only (\d+) held-back dice \(every 4th image in name order .*\): too few to tell the candidates apart; label more rolls/;

describe("calibrate's choice among the readers it scored", () => {
  it('is called weak when the held-back quarter holds fewer dice than the choice needs', () => {
    const { warnings, candidates } = buildLearnedProfile(crops, model, options);
    expect(candidates.length).toBeGreaterThan(1);
    const warning = warnings.find((w) => choiceWarning.test(w));
    expect(warning).toBeDefined();
    const held = Number(choiceWarning.exec(warning as string)?.[1]);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(MIN_CHOOSING_DICE);
  });

  it('is not called weak on enough held-back dice (the fixture given five times over, each copy its own images)', () => {
    const five = [1, 2, 3, 4, 5].flatMap((copy) => crops.map((c) => ({ ...c, group: `${c.group}-${copy}` })));
    const { warnings } = buildLearnedProfile(five, model, options);
    expect(warnings.filter((w) => choiceWarning.test(w))).toEqual([]);
  });
});
