import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { alternativeWithGroupAt, collapseToGroup, powerOfPearson, rollsToDetect } from '../../../src/stats/power.js';

function expectRelative(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

const red = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const green = [3 / 8, 2 / 8, 3 / 8];
const d8 = new Array<number>(8).fill(1 / 8);
const d6 = new Array<number>(6).fill(1 / 6);

/*
 * SciPy 1.17 (noncentral chi-square power of Pearson's test, alpha 0.05):
 *   def power(n, p0, p1, alpha=0.05):
 *       p0 = np.array(p0); p1 = np.array(p1); w2 = np.sum((p1 - p0)**2 / p0); df = len(p0) - 1
 *       return stats.ncx2.sf(stats.chi2.isf(alpha, df), df, n * w2)
 *   def group_at(p0, g, t):
 *       p0 = np.array(p0); ing = p0[g].sum(); out = 1 - ing
 *       return [t*p/ing if i in g else (1 - t)*p/out for i, p in enumerate(p0)]
 *   power(n) and power(n - 1) at the smallest n reaching 0.8:
 *   red hit 0.5, crit kept, focus/blank share the loss [0.5, .125, .1875, .1875]: 150  0.8013975436301902  0.7984716739009041
 *   red hit 0.5, others proportional (group_at(red, [0], 0.5)):                   164  0.801231285910032   0.7985557527286182
 *   red hit+crit 0.55 (group_at(red, [0, 1], 0.55)):                               1091 0.8002981515172074  0.799897149226545
 *   red hit+crit 0.55 targeted ([.5, .5] vs [.55, .45]):                           785  0.8000569268798245  0.7995568714356515
 *   d8 face 5 % heavier (group_at(d8, [0], 1/8*1.05)):                             40182 0.8000061989383407 0.799994402648169
 *   d6 face 5 % heavier (group_at(d6, [0], 1/6*1.05)):                             25656 0.8000140856108888 0.7999961843325405
 *   green evade 0.425 (group_at(green, [0], 0.425)):                               904  0.8003478540519553  0.7998826449599842
 *   power(100, red, group_at(red, [0], 0.5))              = 0.5664987942438635
 *   power(500, green, group_at(green, [0], 0.425), 0.01)  = 0.297198636418754
 *
 * statistics.md's "~150" for "red hitting 0.5" is the first alternative (crit unchanged, focus and blank
 * each give up 0.0625); with the loss shared by all other faces in proportion it is 164.
 * The table is one test at alpha 0.05; analyze tests a die at alpha over its family (plan.test.ts has those).
 */
describe('power of Pearson’s test', () => {
  it('gives SciPy’s noncentral chi-square power', () => {
    expectRelative(powerOfPearson(100, red, alternativeWithGroupAt(red, [0], 0.5)), 0.5664987942438635, 1e-11);
    expectRelative(powerOfPearson(500, green, alternativeWithGroupAt(green, [0], 0.425), 0.01), 0.297198636418754, 1e-11);
    // n w² = 1090 · 0.01 = 10.9: the statistics.md golden 0.7998971492.
    expectRelative(powerOfPearson(1090, red, alternativeWithGroupAt(red, [0, 1], 0.55)), 0.799897149226545, 1e-11);
  });

  it('is alpha when the alternative is the expected odds', () => {
    expectRelative(powerOfPearson(1000, red, red, 0.05), 0.05, 1e-12);
  });

  it('is 1 when the alternative rolls a face that cannot come up', () => {
    expect(powerOfPearson(10, [0.5, 0.5, 0], [0.45, 0.45, 0.1])).toBe(1);
  });
});

describe('rolls to detect (the statistics.md table)', () => {
  it.each([
    ['red hitting 0.5, crit unchanged, by symbol', red, [0.5, 0.125, 0.1875, 0.1875], 150],
    ['red hitting 0.5, others proportional, by symbol', red, alternativeWithGroupAt(red, [0], 0.5), 164],
    ['red hit+crit 0.55 instead of 0.5, by symbol (3 df)', red, alternativeWithGroupAt(red, [0, 1], 0.55), 1091],
    ['one d8 face 5 % heavier, by face', d8, alternativeWithGroupAt(d8, [0], (1 / 8) * 1.05), 40_182],
    ['one d6 face 5 % heavier', d6, alternativeWithGroupAt(d6, [0], (1 / 6) * 1.05), 25_656],
    ['green evade 0.425 instead of 0.375', green, alternativeWithGroupAt(green, [0], 0.425), 904],
  ])('%s needs the n SciPy finds', (_name, expected, alternative, n) => {
    expect(rollsToDetect({ expected, alternative })).toBe(n);
  });

  it('needs 785 rolls for the targeted 1-df test on hit+crit', () => {
    const collapsed = collapseToGroup(red, alternativeWithGroupAt(red, [0, 1], 0.55), [0, 1]);
    expect(collapsed.expected[0]).toBeCloseTo(0.5, 15);
    expect(collapsed.alternative[0]).toBeCloseTo(0.55, 15);
    expect(rollsToDetect(collapsed)).toBe(785);
  });

  it('needs more rolls for more power and fewer for a looser alpha', () => {
    const alternative = alternativeWithGroupAt(green, [0], 0.425);
    expect(rollsToDetect({ expected: green, alternative, power: 0.9 })).toBeGreaterThan(904);
    expect(rollsToDetect({ expected: green, alternative, alpha: 0.1 })).toBeLessThan(904);
  });

  it('refuses an alternative equal to the expected odds', () => {
    expect(() => rollsToDetect({ expected: red, alternative: red })).toThrow(/no number of rolls/);
  });

  it('refuses a target power at or below alpha', () => {
    expect(() => rollsToDetect({ expected: red, alternative: [0.5, 0.1, 0.2, 0.2], power: 0.05 })).toThrow(InputError);
  });
});

describe('building alternatives', () => {
  it('shares the group’s target in proportion inside the group and the rest outside it', () => {
    const alt = alternativeWithGroupAt(red, [0, 1], 0.55);
    [0.4125, 0.1375, 0.225, 0.225].forEach((x, i) => expect(alt[i]).toBeCloseTo(x, 15));
  });

  it('refuses a group naming a face twice, a face out of range, or every face', () => {
    expect(() => alternativeWithGroupAt(red, [0, 0], 0.5)).toThrow(/more than once/);
    expect(() => alternativeWithGroupAt(red, [4], 0.5)).toThrow(/faces 0 to 3/);
    expect(() => collapseToGroup(red, red, [0, 1, 2, 3])).toThrow(/every face/);
  });
});
