import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { canonicalJson, parseProfile, profileHash, profileProblems, sealProfile, shortHash } from '../../src/vision/calibration/profile.js';
import type { CalibrationProfile, RingProfile } from '../../src/vision/calibration/profile.js';
import { buildD8Profile, chooseRejectionThreshold, describeSamples, splitByGroup } from '../../src/vision/calibration/trainProfile.js';
import type { DescribedSample } from '../../src/vision/calibration/trainProfile.js';
import { D8Reader } from '../../src/vision/d8/d8Reader.js';
import { simD8Crops } from './d8Fixtures.js';

const options = { name: 'test', createdAt: '2025-03-01T10:00:00.000Z', source: 'simulated camera, seeds 300..303' };
let samples: DescribedSample[];
let profile: RingProfile;

beforeAll(() => {
  // 16 frames of red and green dice under the four tuning presets (4 sessions, new die looks each).
  const { crops } = simD8Crops({ seed: 300, frames: 16, framesPerSession: 4, lighting: ['studio', 'desk-lamp', 'dim', 'window'], dice: 'xwing' });
  samples = describeSamples(crops.map((c) => ({ crop: c.crop.image, label: c.label, group: c.group })));
  profile = buildD8Profile(samples, options).profile;
});

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('building a calibration profile', () => {
  it('validates on every 4th image, held back from training', () => {
    const groups = [...new Set(samples.map((s) => s.group))].sort();
    const held = new Set(groups.filter((_, i) => i % 4 === 3));
    expect(held.size).toBe(4);
    expect(profile.validation.samples).toBe(samples.filter((s) => held.has(s.group)).length);
    expect(profile.validation.heldBack).toMatch(/every 4th image in name order \(4 of 16 images/);
    expect(profile.dice).toEqual(['green', 'red']);
    expect(profile.classes).toEqual(['green-evade', 'green-focus', 'green-blank', 'red-hit', 'red-crit', 'red-focus', 'red-blank', 'cocked']);
  });

  it('reads its own held-back images without a confident error', () => {
    const v = profile.validation;
    expect(v.confidentErrors).toBe(0);
    expect(v.cockedReadAsFace).toBe(0);
    expect(v.read + v.declined).toBe(v.samples);
    // The confusion matrix accounts for every held-back die once.
    expect(v.confusion.counts.flat().reduce((a, b) => a + b, 0)).toBe(v.samples);
    expect(v.confusion.columns.filter((c) => c === 'cocked')).toHaveLength(1);
    expect(profile.rejectionThreshold).toBeGreaterThanOrEqual(0.99);
  });

  it('falls back to every 4th die when there are too few images', () => {
    const s = splitByGroup(['a', 'a', 'b', 'b', 'b', 'a', 'b', 'a'].map((group) => ({ group })), 4);
    expect(s.heldBack).toHaveLength(2);
    expect(s.description).toMatch(/every 4th die \(only 2 images/);
  });

  it('gives the same profile whatever the order of the samples', () => {
    expect(buildD8Profile([...samples].reverse(), options).profile.hash).toBe(profile.hash);
  });

  it('refuses labels that cannot make a profile, saying which', () => {
    expect(() => buildD8Profile(samples.filter((s) => s.label !== 'red-crit'), options)).toThrow(/only 0 training samples of red-crit/);
    expect(() => buildD8Profile([...samples, { ...(samples[0] as DescribedSample), label: 'red-evade' }], options)).toThrow(/a red die has no "evade" face/);
    expect(() => buildD8Profile([...samples, { ...(samples[0] as DescribedSample), label: 'hit' }], options)).toThrow(InputError);
    expect(() => buildD8Profile(samples, { ...options, dice: ['red'] })).toThrow(/for die "green", but this profile reads red dice/);
  });

  it('leaves out training dice whose label contradicts what they clearly show, and names them', () => {
    // One red hit in ten labelled blank: out of fold they read as hits with near certainty.
    let n = 0;
    const noisy = samples.map((s) => (s.label === 'red-hit' && n++ % 10 === 0 ? { ...s, label: 'red-blank' } : s));
    const groups = [...new Set(samples.map((s) => s.group))].sort();
    const held = new Set(groups.filter((_, i) => i % 4 === 3));
    const trainingSlips = noisy.filter((s, i) => s.label !== (samples[i] as DescribedSample).label && !held.has(s.group)).length;
    const result = buildD8Profile(noisy, options);
    expect(trainingSlips).toBeGreaterThan(0);
    expect(result.warnings.join(' ')).toContain(`${trainingSlips} training dice look exactly like another face than their label says and were left out`);
    expect(result.warnings.join(' ')).toMatch(/labelled red-blank, looks like red-hit/);
    // Without the slips the model stays as sure of itself as the clean one.
    expect(result.profile.classifier.models.map((m) => m.temperature)).toEqual(profile.classifier.models.map((m) => m.temperature));
  });

  it('puts the rejection threshold above the most confident out-of-fold misread, within bounds', () => {
    expect(chooseRejectionThreshold(0, 0.99)).toBe(0.99);
    expect(chooseRejectionThreshold(0.95, 0.99)).toBe(0.99);
    expect(chooseRejectionThreshold(0.998, 0.99)).toBe(0.999);
    expect(chooseRejectionThreshold(1, 0.99)).toBe(0.999999);
    expect(buildD8Profile(samples, { ...options, minThreshold: 0.995 }).profile.rejectionThreshold).toBe(0.995);
  });
});

describe('the profile document', () => {
  it('without any cocked die among its samples sets a finite cocked threshold just above the flat dice, and survives a JSON round trip', () => {
    const flat = samples.filter((s) => s.label !== 'cocked');
    expect(flat.length).toBeLessThan(samples.length);
    const built = buildD8Profile(flat, options).profile;
    // Its training dice are a part of these, so their longest outline is at most this one.
    const flatMax = Math.max(...flat.map((s) => (typeof s.description === 'string' ? 0 : s.description.outline.elongation)));
    expect(Number.isFinite(built.classifier.cockedElongation)).toBe(true);
    expect(built.classifier.cockedElongation).toBeGreaterThanOrEqual(1.06);
    expect(built.classifier.cockedElongation).toBeLessThanOrEqual(Math.max(1.06, flatMax * 1.03) + 1e-6);
    expect(parseProfile(JSON.parse(JSON.stringify(built)) as unknown, 'no-cocked.json').hash).toBe(built.hash);
  });

  it('survives a JSON round trip and checks clean', () => {
    const back = parseProfile(clone(profile));
    expect(back).toEqual(profile);
    expect(profileProblems(back)).toEqual([]);
  });

  it('hashes the content, not the name, the time or the folder it came from', () => {
    const renamed = { ...profile, name: 'other', createdAt: '2030-01-01T00:00:00.000Z', training: { ...profile.training, source: '/elsewhere' } };
    expect(profileHash(renamed)).toBe(profile.hash);
    const changed = { ...profile, rejectionThreshold: 0.995 };
    expect(profileHash(changed)).not.toBe(profile.hash);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it('puts the hash in the classifier version of every read', () => {
    const reader = new D8Reader(profile);
    expect(reader.classifierVersion).toBe(`d8-rings/1+${shortHash(profile)}`);
    expect(shortHash(profile)).toMatch(/^[0-9a-f]{12}$/);
  });

  it('detects a profile edited after it was made', () => {
    const edited = clone(profile);
    (edited.classifier.models[0]?.centroids[0] as number[])[0] = 42;
    expect(() => parseProfile(edited, 'edited.json')).toThrow(/edited\.json: calibration profile is inconsistent: hash: the content does not match its hash/);
  });

  it('names the first schema problem and its path', () => {
    const broken = clone(profile) as Partial<CalibrationProfile>;
    delete broken.rejectionThreshold;
    expect(() => parseProfile(broken)).toThrow(/not a valid calibration profile: rejectionThreshold:/);
    expect(() => parseProfile({ ...clone(profile), version: 2 })).toThrow(/version 2 is not supported/);
    const short = clone(profile);
    short.classifier.models[0]?.center.pop();
    expect(() => parseProfile(sealProfile(short))).toThrow(/center has 62 values; the geometry gives 63 features/);
  });
});
