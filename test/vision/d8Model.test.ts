import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/stats/random.js';
import type { RandomSource } from '../../src/stats/random.js';
import { kMeans } from '../../src/vision/calibration/cluster.js';
import { learnDieColours, matchDieColour } from '../../src/vision/d8/colourModel.js';
import { fitTemperature, posteriorOf, scoreIcon, trainIconModel } from '../../src/vision/d8/iconModel.js';
import type { IconSample, ScoredSample } from '../../src/vision/d8/iconModel.js';

function gauss(random: RandomSource): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
}

/** `n` samples per class around the given means, spread `sd` in every feature. */
function blobs(means: Record<string, number[]>, n: number, sd: number, random: RandomSource): IconSample[] {
  return Object.entries(means).flatMap(([label, m]) => Array.from({ length: n }, () => ({ label, features: m.map((v) => v + sd * gauss(random)) })));
}

describe('the icon model (Gaussian nearest class mean)', () => {
  const means = { a: [0, 0, 0, 0], b: [1, 0, 0, 0], c: [0, 1, 0, 0] };

  it('classifies well-separated classes and gives posteriors that sum to one', () => {
    const random = seededRandom(11);
    const model = trainIconModel(blobs(means, 60, 0.1, random));
    expect(model.classes).toEqual(['a', 'b', 'c']);
    const test = blobs(means, 40, 0.1, random);
    const wrong = test.filter((s) => scoreIcon(model, s.features).label !== s.label).length;
    expect(wrong).toBe(0);
    const s = scoreIcon(model, [0.95, 0.02, 0, 0]);
    expect(s.label).toBe('b');
    expect(s.posterior.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    expect(s.posterior[1]).toBeGreaterThan(0.99);
  });

  it('is unsure halfway between two classes', () => {
    const model = trainIconModel(blobs(means, 60, 0.1, seededRandom(12)));
    const s = scoreIcon(model, [0.5, 0, 0, 0]);
    expect(Math.max(...s.posterior)).toBeLessThan(0.8);
  });

  it('flags a sample far from every class as novel', () => {
    const model = trainIconModel(blobs(means, 60, 0.1, seededRandom(13)));
    expect(scoreIcon(model, [0, 0, 0, 0.02]).novel).toBe(false);
    expect(scoreIcon(model, [0, 0, 3, 3]).novel).toBe(true);
  });

  it('does not depend on the order of the samples', () => {
    const samples = blobs(means, 30, 0.1, seededRandom(14));
    expect(trainIconModel([...samples].reverse())).toEqual(trainIconModel(samples));
  });

  it('keeps the temperature at 1 for separable held-out samples and raises it when classes overlap', () => {
    const random = seededRandom(15);
    const separable = trainIconModel(blobs(means, 60, 0.1, random));
    const scored = (model: ReturnType<typeof trainIconModel>, samples: IconSample[]): ScoredSample[] =>
      samples.map((s) => {
        const d2 = model.classes.map((_, k) => (model.centroids[k] as number[]).reduce((acc, c, j) => acc + (((s.features[j] as number) - (model.center[j] as number)) / (model.scale[j] as number) - c) ** 2, 0));
        return { d2, truth: model.classes.indexOf(s.label) };
      });
    expect(fitTemperature(scored(separable, blobs(means, 40, 0.1, random)))).toBe(1);
    // Held-out samples far noisier than the training ones: the model is overconfident and must be cooled.
    const t = fitTemperature(scored(separable, blobs(means, 80, 0.4, random)));
    expect(t).toBeGreaterThan(2);
  });

  it('turns distances into a softmax posterior at the given temperature', () => {
    const p = posteriorOf([0, 2 * Math.log(3)], 1);
    expect(p[0]).toBeCloseTo(0.75, 12);
    expect(posteriorOf([0, 2 * Math.log(3)], 2)[0]).toBeCloseTo(Math.sqrt(3) / (1 + Math.sqrt(3)), 12);
  });
});

describe('die colours', () => {
  it('matches red and green faces to their die and refuses a colour far from both', () => {
    const colours = learnDieColours([
      { die: 'red', faceColor: [196, 30, 36] },
      { die: 'red', faceColor: [170, 35, 40] },
      { die: 'green', faceColor: [30, 150, 70] },
      { die: 'green', faceColor: [36, 140, 66] },
    ]);
    expect(matchDieColour(colours, [180, 28, 30])?.die).toBe('red');
    expect(matchDieColour(colours, [40, 160, 80])?.die).toBe('green');
    // A blue die: nearest is one of them, but many spreads away.
    expect(matchDieColour(colours, [30, 40, 200])?.distance).toBeGreaterThan(10);
  });
});

describe('k-means for grouping crops', () => {
  it('finds separated groups, the same way for the same seed', () => {
    const random = seededRandom(21);
    const pts = blobs({ a: [0, 0], b: [5, 5], c: [0, 5] }, 30, 0.3, random);
    const run = () => kMeans(pts.map((p) => p.features), 3, seededRandom(5));
    const r = run();
    expect(run()).toEqual(r);
    for (const label of ['a', 'b', 'c']) {
      const assigned = new Set(pts.flatMap((p, i) => (p.label === label ? [r.assignments[i]] : [])));
      expect(assigned.size).toBe(1);
    }
  });
});
