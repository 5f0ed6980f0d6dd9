import { describe, expect, it } from 'vitest';
import { TinyNet } from '../../src/vision/d6/tinyNet.js';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import { createRgb } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { adaptReader, defaultAdaptOptions, fitSoftmax, splitGroups } from '../../src/vision/learned/adapt.js';
import { areaResample, learnedInput, radialInput } from '../../src/vision/learned/input.js';
import { networksOf, splitClass, withCockedCheck, withPartner } from '../../src/vision/learned/model.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { blankProbability, blankWitnessLevels, witnessDoubt, witnessView } from '../../src/vision/learned/blankWitness.js';
import type { BlankWitnessLevels } from '../../src/vision/learned/blankWitness.js';
import { hideTopMiddle } from '../../src/vision/learned/hideTop.js';
import { cropInput, LearnedReader, OWN_COCKED_NEEDS_OUTLINE, SURE_OVER_DISPUTE } from '../../src/vision/learned/reader.js';
import { transformInput } from '../../src/vision/d6/augment.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { seededRandom } from '../../src/stats/random.js';

const MARKS = ['bar', 'ring', 'disc'] as const;
type Mark = (typeof MARKS)[number];

/** A die-like crop: a body colour, a mark of another colour in the middle (a bar, a ring or a disc), some noise. */
function dieCrop(body: readonly number[], mark: Mark, random: () => number, side = 60): RgbImage {
  const img = createRgb(side, side);
  const c = side / 2;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const r = Math.hypot(x - c, y - c);
      const inMark = mark === 'bar' ? Math.abs(x - c) < 4 && Math.abs(y - c) < 14 : mark === 'ring' ? r > 8 && r < 13 : r < 9;
      const light = 0.8 + 0.4 * random();
      for (let k = 0; k < 3; k++) img.data[(y * side + x) * 3 + k] = Math.min(255, Math.round((inMark ? 240 : (body[k] as number)) * light));
    }
  }
  return img;
}

/**
 * The shipped X-Wing model without its glare check: the synthetic crops carry a white mark in the middle, which that
 * check would take for a highlight and decline before the networks speak. These tests are about the networks;
 * glare.test.ts covers the check.
 */
function shippedXwing(): LearnedModel {
  const { glare: _glare, ...rest } = shippedLearnedModels['xwing'] as LearnedModel;
  return rest;
}

/** A synthetic crop the network takes for a face (not cocked): the first of a few die-like crops. */
function faceCrop(model: LearnedModel): { image: RgbImage; sizePx: number } {
  const reader = new LearnedReader({ ...model, thresholds: {}, cockedAt: 1.01 }, { minProbability: 0, views: 1 });
  for (let seed = 20; seed < 60; seed++) {
    // Bars, rings and discs: which of them a network takes for a face differs between versions.
    const mark = MARKS[seed % MARKS.length] as Mark;
    const crop = { image: dieCrop(seed % 2 === 0 ? [190, 30, 30] : [30, 150, 50], mark, seededRandom(seed)), sizePx: 40 };
    const p = reader.probabilities(crop);
    if (model.classes[p.indexOf(Math.max(...p))] !== 'cocked') return crop;
  }
  throw new Error(`${model.version} takes every synthetic crop for a cocked die`);
}

/** The shipped X-Wing face network alone (no partner), read as if it were not radial (every turn and mirror a view), whatever it is. */
function unturnedXwing(): LearnedModel {
  const { radial: _radial, partner: _partner, ...rest } = shippedXwing();
  return rest;
}

describe('the learned reader', () => {
  it('runs every shipped network exactly as the training framework did (its probe input gives the same probabilities)', () => {
    const models = Object.values(shippedLearnedModels).flatMap(networksOf);
    expect(models.length).toBeGreaterThan(Object.keys(shippedLearnedModels).length);
    for (const m of models) {
      expect(m.probe, `${m.version} carries its probe`).toBeDefined();
      const net = new TinyNet(m.spec, undefined, decodeWeights(m.weightsBase64));
      const x = new Float32Array(3 * m.spec.size * m.spec.size).map((_, i) => 2 * Math.sin(0.37 * i));
      const p = net.predict(x);
      m.probe?.forEach((v, j) => expect(p[j]).toBeCloseTo(v, 4));
      expect(m.dataHash).toMatch(/^[0-9a-f]{64}$/);
      expect(m.command).toContain('training/learned/train.py');
    }
  });

  it('box-averages the sampled square and keeps colour after normalising', () => {
    const img = createRgb(4, 4);
    for (let i = 0; i < 16; i++) img.data.set(i % 4 < 2 ? [200, 0, 0] : [0, 0, 200], i * 3);
    const out = areaResample(img, { x: 2, y: 2 }, 4, 2);
    expect(Array.from(out)).toEqual([200, 0, 200, 0, 0, 0, 0, 0, 0, 200, 0, 200]);
    const n = learnedInput(img, { x: 2, y: 2 }, 4, 2);
    expect(n[0]).toBeGreaterThan(0);
    expect(n[8]).toBeLessThan(0);
  });

  it('box-averages exactly as adding each pixel to its cell one at a time, inside and past the image, down to cells smaller than a pixel', () => {
    // The plain definition (the reader's first implementation): every pixel of the square, clamped to the image, added to its cell.
    const byPixel = (image: RgbImage, centre: { x: number; y: number }, side: number, size: number): Float32Array => {
      const plane = size * size;
      const sums = new Float64Array(3 * plane);
      const counts = new Float64Array(plane);
      const x0 = centre.x - side / 2;
      const y0 = centre.y - side / 2;
      const scale = size / side;
      for (let y = Math.floor(y0); y < Math.ceil(y0 + side); y++) {
        const oy = Math.floor((y + 0.5 - y0) * scale);
        if (oy < 0 || oy >= size) continue;
        const sy = Math.min(image.height - 1, Math.max(0, y));
        for (let x = Math.floor(x0); x < Math.ceil(x0 + side); x++) {
          const ox = Math.floor((x + 0.5 - x0) * scale);
          if (ox < 0 || ox >= size) continue;
          const sx = Math.min(image.width - 1, Math.max(0, x));
          for (let c = 0; c < 3; c++) sums[c * plane + oy * size + ox] = (sums[c * plane + oy * size + ox] as number) + (image.data[(sy * image.width + sx) * 3 + c] as number);
          counts[oy * size + ox] = (counts[oy * size + ox] as number) + 1;
        }
      }
      const out = new Float32Array(3 * plane);
      for (let o = 0; o < plane; o++) {
        const px = Math.min(image.width - 1, Math.max(0, Math.floor(x0 + ((o % size) + 0.5) / scale)));
        const py = Math.min(image.height - 1, Math.max(0, Math.floor(y0 + (Math.floor(o / size) + 0.5) / scale)));
        for (let c = 0; c < 3; c++) out[c * plane + o] = counts[o] ? (sums[c * plane + o] as number) / (counts[o] as number) : (image.data[(py * image.width + px) * 3 + c] as number);
      }
      return out;
    };
    const random = seededRandom(11);
    const img = createRgb(97, 61);
    for (let i = 0; i < img.data.length; i++) img.data[i] = Math.floor(256 * random());
    for (let t = 0; t < 40; t++) {
      // Squares inside the image, reaching past its edges, wider than it, and smaller than the output (sub-pixel cells).
      const side = t < 8 ? 4 + 20 * random() : 10 + 240 * random();
      const size = [8, 24, 32, 48, 64][t % 5] as number;
      const centre = { x: -20 + 137 * random(), y: -20 + 101 * random() };
      expect(Array.from(areaResample(img, centre, side, size))).toEqual(Array.from(byPixel(img, centre, side, size)));
    }
  });

  it('names the die and symbol of a class', () => {
    expect(splitClass('green-evade')).toEqual({ die: 'green', symbol: 'evade' });
    expect(splitClass('4')).toEqual({ symbol: '4' });
  });

  it('splits calibration images, not dice, between fitting and holding back', () => {
    const { fit, held } = splitGroups(['a', 'a', 'b', 'c', 'd'], 0.25, seededRandom(1));
    expect(fit.size + held.size).toBe(4);
    expect(held.size).toBe(1);
    for (const g of held) expect(fit.has(g)).toBe(false);
  });

  it('fits a softmax layer that separates separable embeddings', () => {
    const random = seededRandom(4);
    const xs: Float32Array[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 60; i++) {
      const y = i % 3;
      xs.push(Float32Array.from([y === 0 ? 1 : 0, y === 1 ? 1 : 0, y === 2 ? 1 : 0].map((v) => v + 0.2 * random())));
      ys.push(y);
    }
    const { weights, bias } = fitSoftmax(xs, ys, 3, { iterations: 200, learningRate: 0.1, l2: 1e-4 });
    const predict = (x: Float32Array): number => {
      const s = [0, 1, 2].map((j) => (bias[j] as number) + [0, 1, 2].reduce((t, c) => t + (weights[j * 3 + c] as number) * (x[c] as number), 0));
      return s.indexOf(Math.max(...s));
    };
    expect(xs.every((x, i) => predict(x) === ys[i])).toBe(true);
  });

  it('fits a rare class as much as a common one when balanced: on a feature that tells nothing, the prior or an even split', () => {
    // 90 dice of class 0, 10 of class 1, one feature equal for all. Cross-entropy is least at softmax(bias) = (0.9, 0.1)
    // (the classes' shares); weighing each class's dice to the same total (balanced) makes it (0.5, 0.5).
    const xs = Array.from({ length: 100 }, () => Float32Array.from([1]));
    const ys = Array.from({ length: 100 }, (_, i) => (i < 90 ? 0 : 1));
    const share = (fit: { weights: number[]; bias: number[] }): number => {
      const [s0, s1] = [0, 1].map((j) => (fit.bias[j] as number) + (fit.weights[j] as number));
      return Math.exp(s1 as number) / (Math.exp(s0 as number) + Math.exp(s1 as number));
    };
    const options = { iterations: 2000, learningRate: 0.05, l2: 0 };
    expect(share(fitSoftmax(xs, ys, 2, options))).toBeCloseTo(0.1, 2);
    expect(share(fitSoftmax(xs, ys, 2, { ...options, balance: true }))).toBeCloseTo(0.5, 2);
    expect(defaultAdaptOptions.balance).toBe(true);
  });

  it("adapts to a user's own dice with a new last layer, its threshold set on held-back images", () => {
    const model = shippedLearnedModels['d6'] as LearnedModel;
    const reader = new LearnedReader(model, { minProbability: 0.5, views: 1 });
    const random = seededRandom(12);
    const kinds = [
      { label: 'red-hit', body: [190, 30, 30], mark: 'bar' as const },
      { label: 'red-blank', body: [190, 30, 30], mark: 'ring' as const },
      { label: 'green-hit', body: [30, 150, 50], mark: 'bar' as const },
    ];
    const samples = Array.from({ length: 48 }, (_, i) => {
      const k = kinds[i % 3] as (typeof kinds)[number];
      return { crop: { image: dieCrop(k.body, k.mark, random), sizePx: 40 }, label: k.label, group: `img${Math.floor(i / 3)}` };
    });
    const result = adaptReader(reader, samples, { ...defaultAdaptOptions, turns: 2, iterations: 150 });
    expect(result.head.classes).toEqual(['green-hit', 'red-blank', 'red-hit']);
    expect(result.heldBack.total).toBe(12);
    expect(result.head.minProbability).toBeGreaterThanOrEqual(defaultAdaptOptions.floor);
    expect(result.head.minProbability).toBeGreaterThan(result.heldBack.worstWrong);
    const adapted = new LearnedReader(model, { minProbability: 0.5, views: 1 }, result.head);
    const fresh = dieCrop([30, 150, 50], 'bar', seededRandom(99));
    const read = adapted.read({ image: fresh, sizePx: 40 });
    expect(read.status === 'unreadable' || (read.die === 'green' && read.symbol === 'hit')).toBe(true);
    expect(adapted.classifierVersion).toBe(`${model.version}+${defaultAdaptOptions.version}`);
  });


  it('sets its threshold above held-back flat dice read as a wrong face, not above a flat die it calls cocked (declined whatever the threshold) nor a cocked die it reads as a face (the cocked checks catch those)', () => {
    const model = shippedLearnedModels['d6'] as LearnedModel;
    const reader = new LearnedReader(model, { minProbability: 0.5, views: 1 });
    const kinds = [
      { label: 'red-hit', mark: 'bar' as const },
      { label: 'red-blank', mark: 'ring' as const },
      { label: 'cocked', mark: 'disc' as const },
    ];
    const random = seededRandom(12);
    const samples = Array.from({ length: 48 }, (_, i) => {
      const k = kinds[i % 3] as (typeof kinds)[number];
      return { crop: { image: dieCrop([190, 30, 30], k.mark, random), sizePx: 40 }, label: k.label, group: `img${String(Math.floor(i / 3)).padStart(2, '0')}` };
    });
    const options = { ...defaultAdaptOptions, turns: 2, iterations: 150 };
    // The images adaptReader holds back (the same seeded split), and in them a disc (what the head learns as cocked) and a ring.
    const { held } = splitGroups(
      samples.map((s) => s.group),
      options.holdBack,
      seededRandom(options.seed),
    );
    const disc = samples.findIndex((s) => held.has(s.group) && s.label === 'cocked');
    const ring = samples.findIndex((s) => held.has(s.group) && s.label === 'red-blank');
    const bar = samples.findIndex((s) => held.has(s.group) && s.label === 'red-hit');
    const labelled = (i: number, label = 'red-hit') => samples.map((s, j) => (j === i ? { ...s, label } : s));
    const clean = adaptReader(reader, samples, options);
    // A flat red hit (so labelled) that the head calls cocked: declined, not a misread.
    const calledCocked = adaptReader(reader, labelled(disc), options);
    // A flat red hit that the head reads as a red blank: a misread, which the threshold must rise above.
    const wrongFace = adaptReader(reader, labelled(ring), options);
    // A cocked die (so labelled) that the head reads as a red hit.
    const cockedReadAsFace = adaptReader(reader, labelled(bar, 'cocked'), options);
    expect(clean.heldBack.worstWrong).toBe(0);
    expect(cockedReadAsFace.heldBack.worstWrong).toBe(0);
    expect(cockedReadAsFace.head.minProbability).toBe(clean.head.minProbability);
    expect(calledCocked.heldBack.worstWrong).toBe(0);
    expect(calledCocked.head.minProbability).toBe(clean.head.minProbability);
    // Every held-back flat die read, and the one called cocked not among them.
    const heldFlat = samples.filter((s) => held.has(s.group) && s.label !== 'cocked').length;
    expect(clean.heldBack.read).toBe(heldFlat);
    expect(calledCocked.heldBack.read).toBe(heldFlat);
    expect(wrongFace.heldBack.worstWrong).toBeGreaterThan(0.5);
    expect(wrongFace.head.minProbability).toBeCloseTo(Math.min(options.ceiling, wrongFace.heldBack.worstWrong + options.margin), 9);
    expect(wrongFace.head.minProbability).toBeGreaterThan(clean.head.minProbability);
  });
  it("declines a read under its own class's threshold and reads it when that class's threshold is lower", () => {
    const model = shippedXwing();
    const crop = faceCrop(model);
    const plain = new LearnedReader({ ...model, thresholds: {}, cockedAt: 1.01 }, { minProbability: 0, views: 1 });
    const p = plain.probabilities(crop);
    const best = p.indexOf(Math.max(...p));
    const name = model.classes[best] as string;
    expect(name).not.toBe('cocked');
    const confidence = p[best] as number;
    const above = new LearnedReader({ ...model, thresholds: { [name]: confidence + 1e-3 }, cockedAt: 1.01 }, { minProbability: 0, views: 1 });
    expect(above.read(crop)).toMatchObject({ status: 'unreadable', cause: 'unsure' });
    expect(above.thresholdOf(name)).toBeCloseTo(confidence + 1e-3, 9);
    const below = new LearnedReader({ ...model, thresholds: { [name]: confidence - 1e-3 }, cockedAt: 1.01 }, { minProbability: 1, views: 1 });
    expect(below.read(crop)).toMatchObject({ status: 'read', ...splitClass(name) });
  });

  it('declines as cocked a die whose network probability of cocked reaches cockedAt, even when a face is more probable', () => {
    const model = shippedXwing();
    const crop = faceCrop(model);
    const plain = new LearnedReader({ ...model, thresholds: {}, cockedAt: 1.01 }, { minProbability: 0, views: 1 });
    const p = plain.probabilities(crop);
    const cocked = p[model.classes.indexOf('cocked')] as number;
    expect(Math.max(...p)).toBeGreaterThan(cocked);
    expect(plain.read(crop).status).toBe('read');
    const strict = new LearnedReader({ ...model, thresholds: {}, cockedAt: cocked * 0.99 }, { minProbability: 0, views: 1 });
    expect(strict.read(crop)).toMatchObject({ status: 'cocked', cause: 'tilted' });
    const lax = new LearnedReader({ ...model, thresholds: {}, cockedAt: cocked * 1.01 }, { minProbability: 0, views: 1 });
    expect(lax.read(crop).status).toBe('read');
  });
  it('judges tilt itself when its model has an outline check (the pipeline then leaves its blob checks out), and not without one', () => {
    const xwing = shippedLearnedModels['xwing'] as LearnedModel;
    expect(xwing.cockedCheck).toBeDefined();
    expect(new LearnedReader(xwing).judgesTilt).toBe(true);
    const d6 = shippedLearnedModels['d6'] as LearnedModel;
    expect(d6.cockedCheck).toBeUndefined();
    expect(new LearnedReader(d6).judgesTilt).toBe(false);
  });

  it("declines as cocked a die whose cocked check's probability reaches its threshold, and reads it under that", () => {
    // The shipped network stands in for a check network here: it has a cocked class, and its probability is known.
    const model = unturnedXwing();
    const crop = faceCrop(model);
    const base = { ...model, thresholds: {}, cockedAt: 1.01 };
    const check = { ...base, version: 'check/test' };
    const cocked = new LearnedReader(base, { minProbability: 0, views: 1 }).probabilities(crop)[model.classes.indexOf('cocked')] as number;
    const strict = new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: 'check/test', at: cocked * 0.99 } }, check), { minProbability: 0, views: 1 });
    expect(strict.read(crop)).toMatchObject({ status: 'cocked', cause: 'outline', reason: expect.stringContaining('cocked check') });
    const lax = new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: 'check/test', at: cocked * 1.01 } }, check), { minProbability: 0, views: 1 });
    expect(lax.read(crop).status).toBe('read');
  });

  it('reads a radial cocked check on the crop turned radial-down, in its own two views, whatever the face network reads in', () => {
    // The shipped network stands in for the check again, now marked radial with two views.
    const model = unturnedXwing();
    const base = { ...model, thresholds: {}, cockedAt: 1.01, views: 4 };
    const check: LearnedModel = { ...base, version: 'check/radial', radial: true, views: 2 };
    const crop = { ...faceCrop(model), radial: 0.7 };
    const net = new TinyNet(check.spec, undefined, decodeWeights(check.weightsBase64));
    const ci = check.classes.indexOf('cocked');
    const checkProbability = (c: typeof crop): number => {
      const x = cropInput(c, check);
      return ((net.predict(x)[ci] as number) + (net.predict(transformInput(x, check.spec.size, 1, 0, 1))[ci] as number)) / 2;
    };
    const expected = checkProbability(crop);
    const at = (f: number) => new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: 'check/radial', at: expected * f } }, check), { minProbability: 0 });
    expect(at(0.999).read(crop).status).toBe('cocked');
    expect(at(1.001).read(crop).status).toBe('read');
    // Where the die lies in the frame changes what the check sees.
    expect(Math.abs(checkProbability({ ...crop, radial: 0.7 + Math.PI }) - expected)).toBeGreaterThan(1e-4);
  });

  it("scores an outline check that has a partner by the mean of both networks' probabilities of cocked, each in its own views, and refuses it with the partner detached", () => {
    // Two stand-in checks that differ: the shipped face network read radial in two views, and the same read unturned in one.
    const model = unturnedXwing();
    const base = { ...model, thresholds: {}, cockedAt: 1.01, views: 4 };
    const first: LearnedModel = { ...base, version: 'check/first', radial: true, views: 2 };
    const second: LearnedModel = { ...base, version: 'check/second', views: 1 };
    const crop = { ...faceCrop(model), radial: 0.7 };
    const alone = (check: LearnedModel): number => new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: check.version, at: 0.5 } }, check), { minProbability: 0, views: 1 }).outlineScore(crop) as number;
    const a = alone(first);
    const b = alone(second);
    expect(Math.abs(a - b)).toBeGreaterThan(1e-4);
    const pair = withPartner({ ...first, partner: { version: 'check/second' } }, second);
    const reader = (at: number) => new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: 'check/first', at } }, pair), { minProbability: 0, views: 1 });
    expect(reader(0.5).outlineScore(crop)).toBeCloseTo((a + b) / 2, 6);
    // The mean, not either network, meets the level.
    expect(reader(((a + b) / 2) * 0.999).read(crop)).toMatchObject({ status: 'cocked', cause: 'outline' });
    expect(reader(((a + b) / 2) * 1.001).read(crop).status).toBe('read');
    const detached = withCockedCheck({ ...base, cockedCheck: { version: 'check/first', at: 0.5 } }, { ...first, partner: { version: 'check/second' } });
    expect(() => new LearnedReader(detached, { minProbability: 0 })).toThrow(/the cocked check check\/first needs its partner network check\/second, which is not attached/);
  });

  it("reads an outline check that hides the top face's middle on the crop so hidden, as it was trained, and the face network on the crop as is", () => {
    const model = unturnedXwing();
    const base = { ...model, thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const score = (check: LearnedModel, c: typeof crop): number =>
      new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: check.version, at: 0.5 } }, check), { minProbability: 0, views: 1 }).outlineScore(c) as number;
    const plain: LearnedModel = { ...base, version: 'check/plain' };
    const hiding: LearnedModel = { ...base, version: 'check/hiding', hideTop: 0.22 };
    const hidden = hideTopMiddle(crop, 0.22);
    expect(score(hiding, crop)).toBeCloseTo(score(plain, hidden), 9);
    expect(Math.abs(score(hiding, crop) - score(plain, crop))).toBeGreaterThan(1e-4);
    // The face network still sees the icon: its read is the same whichever check is attached.
    const probabilities = (check: LearnedModel): Float32Array =>
      new LearnedReader(withCockedCheck({ ...base, cockedCheck: { version: check.version, at: 1.01 } }, check), { minProbability: 0, views: 1 }).probabilities(crop);
    expect(probabilities(hiding)).toEqual(probabilities(plain));
  });

  it('reads a radial face network on the crop turned radial-down, averaging only as is and mirrored across that direction', () => {
    const shipped = shippedXwing();
    const { cockedCheck: _check, partner: _partner, ...plain } = shipped;
    const model: LearnedModel = { ...plain, thresholds: {}, cockedAt: 1.01, radial: true, views: 2 };
    const crop = { ...faceCrop(model), radial: 2.1 };
    // Told to average 8 views, it still averages the two it can: a turn of a radial-down input is not one it was trained on.
    const reader = new LearnedReader(model, { minProbability: 0, views: 8 });
    expect(reader.viewCount).toBe(2);
    expect(reader.maxViews).toBe(2);
    const x = radialInput(crop.image, { x: crop.image.width / 2, y: crop.image.height / 2 }, crop.sizePx * model.inputScale, model.spec.size, 2.1);
    expect([...reader.input(crop)]).toEqual([...x]);
    const net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
    const a = net.predict(x);
    const b = net.predict(transformInput(x, model.spec.size, 1, 0, 1));
    const got = reader.probabilities(crop);
    a.forEach((p, j) => expect(got[j]).toBeCloseTo((p + (b[j] as number)) / 2, 6));
    // Where the die lies in the frame turns what the network sees; a die with no place in a frame is read unturned.
    expect(Math.max(...got.map((p, j) => Math.abs(p - (reader.probabilities({ ...crop, radial: 2.1 + Math.PI / 3 })[j] as number))))).toBeGreaterThan(1e-4);
    const { radial: _r, ...placeless } = crop;
    expect([...reader.input(placeless)]).toEqual([...radialInput(crop.image, { x: crop.image.width / 2, y: crop.image.height / 2 }, crop.sizePx * model.inputScale, model.spec.size, Math.PI / 2)]);
  });

  it("lets a read stand only when the confirming reader's most probable class is the same, and declines as cocked when it sees a cocked die", () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const alone = new LearnedReader(model, { minProbability: 0, views: 1 }).read(crop);
    expect(alone.status).toBe('read');
    const name = `${alone.die}-${alone.symbol}`;
    // Heads that always name one class: zero weights, a large bias for it.
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    const naming = (c: string): LearnedReader =>
      new LearnedReader(model, { minProbability: 0, views: 1 }, { version: `says-${c}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === c ? 20 : 0)), minProbability: 0.99 });
    const other = model.classes.find((c) => c !== name && c !== 'cocked') as string;
    const agreeing = new LearnedReader(model, { minProbability: 0, views: 1 }, undefined, naming(name)).read(crop);
    expect(agreeing).toEqual({ ...alone, classifierVersion: `${model.version}+confirmed-by-${model.version}+says-${name}` });
    const disagreeing = new LearnedReader(model, { minProbability: 0, views: 1 }, undefined, naming(other)).read(crop);
    expect(disagreeing).toMatchObject({ status: 'unreadable', cause: 'disputed', confidence: alone.confidence, reason: expect.stringContaining(`confirming reader sees ${other}`) });
    const cocked = new LearnedReader(model, { minProbability: 0, views: 1 }, undefined, naming('cocked')).read(crop);
    expect(cocked).toMatchObject({ status: 'cocked', cause: 'disputed', reason: expect.stringContaining('a die not lying flat') });
  });

  it('reads a die its network is unsure of when the confirming reader is sure of the same face (rule 2), and declines it otherwise', () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const alone = new LearnedReader(model, { minProbability: 0, views: 1 }).read(crop);
    const name = `${alone.die}-${alone.symbol}`;
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // A head naming class c with probability e^b / (e^b + 7): b = 20 gives ~1, b = 2 gives 7.39 / 14.39 = 0.51.
    const naming = (c: string, b: number, needs: number): LearnedReader =>
      new LearnedReader(model, { minProbability: 0, views: 1 }, { version: `says-${c}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === c ? b : 0)), minProbability: needs });
    // The network alone is under its threshold.
    const strict = { ...model, thresholds: { [name]: alone.confidence + 1e-3 } };
    const unsure = new LearnedReader(strict, { minProbability: 0, views: 1 });
    expect(unsure.read(crop)).toMatchObject({ status: 'unreadable', cause: 'unsure' });
    const rule2 = { minProbability: 0, views: 1, confirmRule: 2 as const };
    const sure = new LearnedReader(strict, rule2, undefined, naming(name, 20, 0.9)).read(crop);
    expect(sure).toMatchObject({ status: 'read', ...splitClass(name), confidence: alone.confidence });
    expect(sure.classifierVersion).toBe(`${model.version}+confirmed/2-by-${model.version}+says-${name}`);
    // Rule 1 (profiles made before rule 2, as their validation was measured): declined, under the same version as ever.
    const before = new LearnedReader(strict, { minProbability: 0, views: 1 }, undefined, naming(name, 20, 0.9)).read(crop);
    expect(before).toMatchObject({ status: 'unreadable', cause: 'unsure', reason: `The learned reader is not sure enough (best ${name} at ${alone.confidence.toFixed(2)}, needs ${(alone.confidence + 1e-3).toFixed(2)}).` });
    expect(before.classifierVersion).toBe(`${model.version}+confirmed-by-${model.version}+says-${name}`);
    // The confirming reader is of the same mind but not sure enough (0.51 under 0.9), or reads another face.
    const lukewarm = new LearnedReader(strict, rule2, undefined, naming(name, 2, 0.9)).read(crop);
    expect(lukewarm).toMatchObject({ status: 'unreadable', cause: 'unsure', reason: expect.stringMatching(/nor is its confirming reader \(.+ at 0\.51, needs 0\.90\)/) });
    const other = model.classes.find((c) => c !== name && c !== 'cocked') as string;
    expect(new LearnedReader(strict, rule2, undefined, naming(other, 20, 0.9)).read(crop)).toMatchObject({ status: 'unreadable', cause: 'unsure' });
  });

  it("asks the confirming reader which face only under rule 3: its cocked call disputes nothing, its most probable face decides", () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const alone = new LearnedReader(model, { minProbability: 0, views: 1 }).read(crop);
    const name = `${alone.die}-${alone.symbol}`;
    const other = model.classes.find((c) => c !== name && c !== 'cocked') as string;
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // A head most sure of cocked (bias 20), and of face `second` next (bias 18: e^18 / (e^20 + e^18 + 6) = 0.12).
    const cockedThen = (second: string, needs: number): LearnedReader =>
      new LearnedReader(model, { minProbability: 0, views: 1 }, { version: `cocked-then-${second}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === 'cocked' ? 20 : k === second ? 18 : 0)), minProbability: needs });
    const rule = (n: 2 | 3) => ({ minProbability: 0, views: 1, confirmRule: n });
    expect(new LearnedReader(model, rule(2), undefined, cockedThen(name, 0.9)).read(crop)).toMatchObject({ status: 'cocked', cause: 'disputed' });
    const three = new LearnedReader(model, rule(3), undefined, cockedThen(name, 0.9)).read(crop);
    expect(three).toMatchObject({ status: 'read', ...splitClass(name), confidence: alone.confidence });
    expect(three.classifierVersion).toBe(`${model.version}+confirmed/3-by-${model.version}+cocked-then-${name}`);
    // The head's most probable face is another: disputed, naming that face.
    expect(new LearnedReader(model, rule(3), undefined, cockedThen(other, 0.9)).read(crop)).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining(`confirming reader sees ${other} (0.12)`) });
    // Unsure, the network's read is vouched for only when the head is sure of that face (0.12 under 0.9; over 0.1).
    const strict = { ...model, thresholds: { [name]: alone.confidence + 1e-3 } };
    expect(new LearnedReader(strict, rule(3), undefined, cockedThen(name, 0.9)).read(crop)).toMatchObject({ status: 'unreadable', cause: 'unsure', reason: expect.stringContaining(`nor is its confirming reader (${name} at 0.12, needs 0.90)`) });
    expect(new LearnedReader(strict, rule(3), undefined, cockedThen(name, 0.1)).read(crop)).toMatchObject({ status: 'read', ...splitClass(name) });
  });

  it('lets a read of a face other than a blank stand over the confirming reader\'s other face under rule 4 only when the network is all but certain of it', () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // Heads naming class c with probability e^b / (e^b + 7): b = 20 gives ~1 (over SURE_OVER_DISPUTE), b = 6 gives 403.4 / 410.4 = 0.983 (under it).
    const naming = (c: string, b = 20) => ({ version: `says-${c}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === c ? b : 0)), minProbability: 0 });
    const confirmer = (c: string) => new LearnedReader(model, { minProbability: 0, views: 1 }, naming(c));
    const reading = (c: string, b: number, rule: 3 | 4, other: string) => new LearnedReader(model, { minProbability: 0, views: 1, confirmRule: rule }, naming(c, b), confirmer(other)).read(crop);
    const sure = reading('red-hit', 20, 4, 'red-crit');
    expect(sure.confidence).toBeGreaterThanOrEqual(SURE_OVER_DISPUTE);
    expect(sure).toMatchObject({ status: 'read', die: 'red', symbol: 'hit' });
    expect(sure.classifierVersion).toBe(`${model.version}+says-red-hit+confirmed/4-by-${model.version}+says-red-crit`);
    // Rule 3 (profiles made before rule 4) declines the same die.
    expect(reading('red-hit', 20, 3, 'red-crit')).toMatchObject({ status: 'unreadable', cause: 'disputed' });
    // Less than all but certain, or a blank (a faded icon looks blank): still disputed.
    const lessSure = reading('red-hit', 6, 4, 'red-crit');
    expect(lessSure.confidence).toBeCloseTo(Math.exp(6) / (Math.exp(6) + 7), 5);
    expect(lessSure).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining('confirming reader sees red-crit') });
    expect(reading('green-blank', 20, 4, 'green-evade')).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining('confirming reader sees green-evade') });
    // The same face named by both readers reads as under rule 3.
    expect(reading('green-evade', 6, 4, 'green-evade')).toMatchObject({ status: 'read', die: 'green', symbol: 'evade' });
  });

  it("asks the network's own cocked class under rule 5 only where the outline check scores the die at least half its threshold, and reads the faces as if flat elsewhere", () => {
    // The shipped network stands in for the outline check: its cocked probability on the crop is known.
    const model = unturnedXwing();
    const crop = faceCrop(model);
    const base = { ...model, thresholds: {}, cockedAt: 1.01 };
    const outline = new LearnedReader(base, { minProbability: 0, views: 1 }).probabilities(crop)[model.classes.indexOf('cocked')] as number;
    const checked = (at: number, cockedAt = 1.01): LearnedModel => withCockedCheck({ ...base, cockedAt, cockedCheck: { version: 'check/test', at } }, { ...base, version: 'check/test' });
    // The outline check scores the die just under, and just over, half the threshold it declines from.
    const calm = outline / (OWN_COCKED_NEEDS_OUTLINE * 0.99);
    const leaning = outline / (OWN_COCKED_NEEDS_OUTLINE * 1.01);
    expect(OWN_COCKED_NEEDS_OUTLINE).toBe(0.5);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // A last layer most sure of cocked (e^20), then of red hit (e^18), the other six faces at e^0.
    const cockedThenHit = { version: 'cocked-then-red-hit', classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === 'cocked' ? 20 : k === 'red-hit' ? 18 : 0)), minProbability: 0 };
    const reading = (m: LearnedModel, rule: 4 | 5) => new LearnedReader(m, { minProbability: 0, views: 1, confirmRule: rule }, cockedThenHit).read(crop);
    expect(reading(checked(calm), 4)).toMatchObject({ status: 'cocked', cause: 'tilted' });
    // Rule 5: the outline check is calm, so the die is read as flat: red hit, its probability among the faces alone.
    const flat = reading(checked(calm), 5);
    expect(flat).toMatchObject({ status: 'read', die: 'red', symbol: 'hit' });
    expect(flat.confidence).toBeCloseTo(Math.exp(18) / (Math.exp(18) + 6), 6);
    // The outline check leans towards tilted: the network's cocked call stands as under rule 4.
    expect(reading(checked(leaning), 5)).toMatchObject({ status: 'cocked', cause: 'tilted' });
    // The same for the network's own cocked probability past its `cockedAt` (here the outline network's: the same one).
    const own = (at: number, rule: 4 | 5) => new LearnedReader(checked(at, outline * 0.99), { minProbability: 0, views: 1, confirmRule: rule }).read(crop);
    expect(own(calm, 4)).toMatchObject({ status: 'cocked', cause: 'tilted', reason: expect.stringContaining('declined from') });
    expect(own(calm, 5).status).toBe('read');
    expect(own(leaning, 5)).toMatchObject({ status: 'cocked', cause: 'tilted' });
    // Without an outline check there is nothing to corroborate: rule 5 asks the network's cocked class as rule 4 does.
    const { cockedCheck: _shippedCheck, ...unchecked } = base;
    expect(new LearnedReader({ ...unchecked, cockedAt: outline * 0.99 }, { minProbability: 0, views: 1, confirmRule: 5 }).read(crop)).toMatchObject({ status: 'cocked', cause: 'tilted' });
  });

  it('lets a blank read stand only when its witness finds a blank of any die likely enough, and never questions an icon', () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // Heads naming class c with probability e^b / (e^b + 7): b = 20 gives ~1; with b = 2 a blank is (e^2 + 1) / (e^2 + 7) = 0.58 likely (the other die's blank at e^0).
    const naming = (c: string, b = 20) => ({ version: `says-${c}`, classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => (k === c ? b : 0)), minProbability: 0 });
    const witness = (c: string, b: number) => ({ reader: new LearnedReader(model, { minProbability: 0, views: 1 }, naming(c, b)), at: 0.7 });
    const reading = (c: string, w?: ReturnType<typeof witness>) => new LearnedReader(model, { minProbability: 0, views: 1, ...(w ? { blankWitness: w } : {}) }, naming(c));
    const blank = reading('red-blank', witness('red-blank', 20)).read(crop);
    expect(blank).toMatchObject({ status: 'read', die: 'red', symbol: 'blank' });
    expect(blank.classifierVersion).toBe(`${model.version}+says-red-blank+blank-witness`);
    // A blank of the other die counts: the witness is asked whether the face is blank, not which die it is.
    expect(reading('red-blank', witness('green-blank', 20)).read(crop)).toMatchObject({ status: 'read', symbol: 'blank' });
    const doubted = reading('red-blank', witness('red-blank', 2)).read(crop);
    expect(doubted).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining('the shipped network finds a blank only 0.58 likely (needs 0.70)') });
    expect(reading('red-blank', witness('red-hit', 20)).read(crop)).toMatchObject({ status: 'unreadable', cause: 'disputed' });
    // An icon is read whatever the witness thinks; without a witness a blank stands, under the version it always had.
    expect(reading('red-hit', witness('red-blank', 20)).read(crop)).toMatchObject({ status: 'read', symbol: 'hit' });
    const unwitnessed = reading('red-blank').read(crop);
    expect(unwitnessed).toMatchObject({ status: 'read', symbol: 'blank' });
    expect(unwitnessed.classifierVersion).toBe(`${model.version}+says-red-blank`);
  });

  it('doubts a blank read where its witness names an icon over its level (or, for a profile that has one, a tilt over its), whatever its blank probability, and never questions an icon', () => {
    const model: LearnedModel = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    // Heads giving each class a chosen logit: probabilities e^b_c / sum.
    const giving = (logits: Record<string, number>) => ({ version: 'w', classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0), bias: model.classes.map((k) => logits[k] ?? -20), minProbability: 0 });
    const levels: BlankWitnessLevels = { iconAt: 0.08 };
    const witness = (logits: Record<string, number>, at = levels) => ({ reader: new LearnedReader(model, { minProbability: 0, views: 1 }, giving(logits)), levels: at });
    const says = (c: string) => giving({ [c]: 20 });
    const reading = (c: string, w: ReturnType<typeof witness>) => new LearnedReader(model, { minProbability: 0, views: 1, blankWitness: w }, says(c));
    const plain = reading('red-blank', witness({ 'red-blank': 5 })).read(crop);
    expect(plain).toMatchObject({ status: 'read', die: 'red', symbol: 'blank' });
    expect(plain.classifierVersion).toBe(`${model.version}+w+blank-witness/3`);
    // Blanks of both dice at 0.5 each and nothing else: no doubt, though no one blank is likely.
    expect(reading('green-blank', witness({ 'red-blank': 0, 'green-blank': 0 })).read(crop)).toMatchObject({ status: 'read', symbol: 'blank' });
    // An icon at e^0 / (e^0 + e^2) = 0.12 > 0.08: doubted, in the witness's words.
    expect(reading('red-blank', witness({ 'red-blank': 2, 'red-hit': 0 })).read(crop)).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining('but the shipped network sees red-hit at 0.12 (a blank is doubted over 0.08)') });
    // Tilt at e^0 / (e^0 + e^0.5) = 0.38, with the blank at 0.62: no doubt with no tilt level; doubted over a profile's 0.3.
    expect(reading('red-blank', witness({ 'red-blank': 0.5, cocked: 0 })).read(crop)).toMatchObject({ status: 'read', symbol: 'blank' });
    const tilted = reading('red-blank', witness({ 'red-blank': 0.5, cocked: 0 }, { iconAt: 0.08, tiltAt: 0.3 }));
    expect(tilted.read(crop)).toMatchObject({ status: 'unreadable', cause: 'disputed', reason: expect.stringContaining('sees a die not lying flat at 0.38') });
    expect(tilted.classifierVersion).toBe(`${model.version}+w+blank-witness/2`);
    // An icon is read whatever the witness names.
    expect(reading('red-hit', witness({ 'red-focus': 5 })).read(crop)).toMatchObject({ status: 'read', symbol: 'hit' });
  });

  it("gives a witness the confirming head's network's own reads, so only its partner runs again, and reads exactly as if it ran alone", () => {
    const model = shippedXwing();
    const crop = faceCrop(model);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    const head = { version: 'h', classes: model.classes, weights: new Array<number>(model.classes.length * dim).fill(0.01), bias: model.classes.map(() => 0), minProbability: 0.5 };
    const confirmer = new LearnedReader(model, { minProbability: 0 }, head);
    const witness = new LearnedReader(model, { minProbability: 0 });
    expect(witness.sharesNetworkWith(confirmer)).toBe(true);
    const { own } = confirmer.probabilitiesAndOwn(crop);
    expect(Array.from(witness.probabilitiesFromOwn(crop, own))).toEqual(Array.from(witness.probabilities(crop)));
    // A witness with a head of its own, another network or other views cannot take them.
    expect(new LearnedReader(model, { minProbability: 0 }, head).sharesNetworkWith(confirmer)).toBe(false);
    expect(new LearnedReader(unturnedXwing(), { minProbability: 0 }).sharesNetworkWith(confirmer)).toBe(false);
    expect(witness.viewCount).toBeGreaterThan(1);
    expect(new LearnedReader(model, { minProbability: 0, views: 1 }).sharesNetworkWith(confirmer)).toBe(false);
  });

  it('lets a confirming reader take the inputs a reader cut from the same crop when their cuts and views are the same, and reads them exactly as its own', () => {
    const model = shippedXwing();
    const crop = faceCrop(model);
    const dim = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
    const head = { version: 'h', classes: model.classes, weights: Array.from({ length: model.classes.length * dim }, (_, i) => ((i * 37) % 11) / 100 - 0.05), bias: model.classes.map(() => 0), minProbability: 0.5 };
    const confirmer = new LearnedReader(model, { minProbability: 0 }, head);
    const tuned = new LearnedReader({ ...model, version: 'tuned' }, { minProbability: 0 });
    expect(confirmer.sharesInputsWith(tuned)).toBe(true);
    const given = confirmer.probabilitiesAndOwn(crop, tuned.inputs(crop, tuned.viewCount));
    const own = confirmer.probabilitiesAndOwn(crop);
    expect(Array.from(given.probabilities)).toEqual(Array.from(own.probabilities));
    expect(Array.from(given.own)).toEqual(Array.from(own.own));
    // Another cut (the radial partner, a wider square) or other views make other inputs.
    expect(confirmer.sharesInputsWith(new LearnedReader(model.partner?.net as LearnedModel, { minProbability: 0 }))).toBe(false);
    expect(confirmer.sharesInputsWith(new LearnedReader({ ...model, inputScale: 0.7 }, { minProbability: 0 }))).toBe(false);
    expect(confirmer.sharesInputsWith(new LearnedReader(model, { minProbability: 0, views: 1 }))).toBe(false);
  });

  it("sums every die's blank for an older profile's witness, and sets the level of an icon named so a given share of the user's blanks lie over it", () => {
    expect(blankProbability([0.1, 0.2, 0.3, 0.4], ['red-hit', 'red-blank', 'green-blank', 'cocked'])).toBeCloseTo(0.5, 12);
    expect(blankProbability([0.6, 0.4], ['red-hit', 'cocked'])).toBe(0);
    const classes = ['red-hit', 'red-crit', 'red-blank', 'green-evade', 'green-blank', 'cocked'];
    // The most likely icon of any die, and tilt, apart; blanks of either die are neither.
    expect(witnessView([0.05, 0.1, 0.5, 0.2, 0.1, 0.05], classes)).toEqual({ icon: 'green-evade', iconP: 0.2, tilt: 0.05 });
    expect(witnessView([0, 0, 0.6, 0, 0.4, 0], classes)).toEqual({ icon: undefined, iconP: 0, tilt: 0 });
    // 100 blanks: the i-th gives red-crit i/1000 and tilt i/200. 1 % over the icon level: 1 of them (the 100th); tilt,
    // however high, sets no level.
    const blanks = Array.from({ length: 100 }, (_, i) => {
      const icon = (i + 1) / 1000;
      const tilt = (i + 1) / 100 / 2;
      return [0, icon, 1 - icon - tilt, 0, 0, tilt];
    });
    const levels = blankWitnessLevels(blanks, classes) as BlankWitnessLevels;
    expect(levels).toEqual({ iconAt: expect.closeTo(0.099, 12) });
    expect(blanks.filter((p) => witnessView(p, classes).iconP > levels.iconAt)).toHaveLength(1);
    expect(blankWitnessLevels(blanks, classes, 0.1)).toEqual({ iconAt: expect.closeTo(0.09, 12) });
    expect(blankWitnessLevels([], classes)).toBeUndefined();
    // Its doubt, in words: an icon named first, then tilt; none at or under the levels.
    expect(witnessDoubt([0.3, 0, 0.6, 0, 0, 0.1], classes, { levels: { iconAt: 0.08, tiltAt: 0.3 } })).toBe('the shipped network sees red-hit at 0.30 (a blank is doubted over 0.08): a faded icon can look blank');
    expect(witnessDoubt([0.01, 0, 0.59, 0, 0, 0.4], classes, { levels: { iconAt: 0.08, tiltAt: 0.3 } })).toBe('the shipped network sees a die not lying flat at 0.40 (a blank is doubted over 0.30): a leaning die can show a plain face');
    expect(witnessDoubt([0.08, 0, 0.62, 0, 0, 0.3], classes, { levels: { iconAt: 0.08, tiltAt: 0.3 } })).toBeUndefined();
    expect(witnessDoubt([0.01, 0, 0.59, 0, 0, 0.4], classes, { levels: { iconAt: 0.08 } })).toBeUndefined();
    // An older profile's witness, by its blank probability (0.6 + 0 here).
    expect(witnessDoubt([0.3, 0, 0.6, 0, 0, 0.1], classes, { at: 0.7 })).toBe('the shipped network finds a blank only 0.60 likely (needs 0.70): a faded icon or a leaning die can look blank');
    expect(witnessDoubt([0.3, 0, 0.6, 0, 0, 0.1], classes, { at: 0.6 })).toBeUndefined();
  });

  it('refuses to read with a model tuned with a cocked check that is not attached, or attached in another version', () => {
    const model = { ...(shippedXwing()), cockedCheck: { version: 'check/2', at: 0.5 } };
    expect(() => new LearnedReader(model, { minProbability: 0, views: 1 })).toThrow(/needs its cocked check check\/2/);
    expect(() => withCockedCheck(model, { ...model, version: 'check/1' })).toThrow(/tuned with the cocked check check\/2, not check\/1/);
    expect(() => withCockedCheck(model, { ...model, version: 'check/2', classes: ['flat', 'tilted'] })).toThrow(/no "cocked" class/);
  });

  it("reads a model with a partner network by the mean of both networks' probabilities, each over its own views", () => {
    const shipped = shippedXwing();
    const partner = shipped.partner?.net as LearnedModel;
    expect(partner.radial).toBe(true);
    const { partner: _p, ...alone } = shipped;
    const crop = { ...faceCrop(shipped), radial: 1.3 };
    const pair = new LearnedReader(shipped, { minProbability: 0 });
    const a = new LearnedReader(alone, { minProbability: 0 }).probabilities(crop);
    const b = new LearnedReader(partner, { minProbability: 0 }).probabilities(crop);
    expect(pair.viewCount).toBe(4);
    const got = pair.probabilities(crop);
    a.forEach((p, j) => expect(got[j]).toBeCloseTo((p + (b[j] as number)) / 2, 6));
    // The two networks do not read the crop alike: the mean is neither one.
    expect(Math.max(...a.map((p, j) => Math.abs(p - (got[j] as number))))).toBeGreaterThan(1e-4);
    // Its cockedAt (set on the mean) is judged on the mean of the two networks' probability of cocked.
    const ci = shipped.classes.indexOf('cocked');
    const cocked = ((a[ci] as number) + (b[ci] as number)) / 2;
    // (Far enough apart that a reader judging either network alone would fall on the other side of the 0.1 % margins.)
    expect(Math.abs((a[ci] as number) - (b[ci] as number))).toBeGreaterThan(0.01 * cocked);
    const { cockedCheck: _c, ...unchecked } = shipped;
    const at = (f: number) => new LearnedReader({ ...unchecked, thresholds: {}, cockedAt: cocked * f }, { minProbability: 0 }).read(crop).status;
    expect(at(0.999)).toBe('cocked');
    expect(at(1.001)).not.toBe('cocked');
  });

  it("reads a head's probabilities alone on a model with a partner (the head replaces one network's last layer), the partner still counting towards cocked", () => {
    const shipped = shippedXwing();
    const { partner: _p, ...alone } = shipped;
    const dim = shipped.spec.convs[shipped.spec.convs.length - 1]?.out ?? 0;
    const random = seededRandom(3);
    const head = { version: 'head/test', classes: shipped.classes, weights: Array.from({ length: shipped.classes.length * dim }, () => random() - 0.5), bias: shipped.classes.map(() => 0), minProbability: 0 };
    const crop = { ...faceCrop(shipped), radial: 0.4 };
    const withPartner = new LearnedReader(shipped, { minProbability: 0 }, head).probabilities(crop);
    const withoutPartner = new LearnedReader(alone, { minProbability: 0 }, head).probabilities(crop);
    withPartner.forEach((p, j) => expect(p).toBeCloseTo(withoutPartner[j] as number, 7));
    // cockedAt is judged on the two networks' mean probability of cocked, whatever the head reads.
    const ci = shipped.classes.indexOf('cocked');
    const a = new LearnedReader(alone, { minProbability: 0 }).probabilities(crop)[ci] as number;
    const b = new LearnedReader(shipped.partner?.net as LearnedModel, { minProbability: 0 }).probabilities(crop)[ci] as number;
    const { cockedCheck: _c, ...unchecked } = shipped;
    expect(Math.abs(a - b)).toBeGreaterThan(0.01 * (a + b));
    const sure = { ...head, bias: shipped.classes.map((c) => (c === 'red-hit' ? 50 : 0)) };
    const at = (f: number) => new LearnedReader({ ...unchecked, cockedAt: ((a + b) / 2) * f }, { minProbability: 0 }, sure).read(crop).status;
    expect(at(0.999)).toBe('cocked');
    expect(at(1.001)).toBe('read');
  });

  it('refuses to read with a model tuned with a partner network that is not attached, attached in another version, or reading other classes', () => {
    const shipped = shippedXwing();
    const partner = shipped.partner?.net as LearnedModel;
    const detached = { ...shipped, partner: { version: partner.version } };
    expect(() => new LearnedReader(detached, { minProbability: 0 })).toThrow(new RegExp(`needs its partner network ${partner.version}`));
    expect(() => withPartner(detached, { ...partner, version: 'other/1' })).toThrow(new RegExp(`tuned with the partner network ${partner.version}, not other/1`));
    expect(() => withPartner(detached, { ...partner, classes: ['1', '2'] })).toThrow(/reads 1, 2, not/);
    const { partner: _p, ...alone } = shipped;
    expect(() => withPartner(alone, partner)).toThrow(/names no partner network/);
  });

  it('reads with as many turned and mirrored views as its thresholds were set with, unless told otherwise', () => {
    const model = { ...unturnedXwing(), thresholds: {}, cockedAt: 1.01 };
    const crop = faceCrop(model);
    expect(new LearnedReader({ ...model, views: undefined }, { minProbability: 0 }).viewCount).toBe(1);
    const byModel = new LearnedReader({ ...model, views: 4 }, { minProbability: 0 });
    expect(byModel.viewCount).toBe(4);
    expect(new LearnedReader({ ...model, views: 4 }, { minProbability: 0, views: 2 }).viewCount).toBe(2);
    // Four views average four different inputs: the mean of the single-view probabilities of turns 0..3.
    const net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
    const mean = new Float32Array(model.classes.length);
    for (let t = 0; t < 4; t++) net.predict(byModel.input(crop, t)).forEach((p, j) => (mean[j] = (mean[j] as number) + p / 4));
    const got = byModel.probabilities(crop);
    mean.forEach((p, j) => expect(got[j]).toBeCloseTo(p, 6));
    expect(Math.max(...mean.map((p, j) => Math.abs(p - (new LearnedReader(model, { minProbability: 0, views: 1 }).probabilities(crop)[j] as number))))).toBeGreaterThan(1e-4);
  });
});
