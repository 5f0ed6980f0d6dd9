import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { machineHours, parseDetectSpec, planCertification, planDetection } from '../../../src/analysis/plan.js';
import { d3Die, d6Die, greenDefenseDie, redAttackDie } from '../../../src/dice/catalogue.js';
import type { DieType } from '../../../src/dice/types.js';
import { sessionStoppingRolls, stoppingQuantile } from '../../../src/stats/planSimulation.js';
import { seededRandom } from '../../../src/stats/random.js';
import { simulatedRolls } from './helpers.js';

const rig = { channels: 4, secondsPerThrow: 2.5, dice: 4 };
/** Fewer simulated dice than the CLI's: these tests compare figures, test/verdict/planAgainstProcedure.test.ts checks them. */
const quick = { runs: 60, fixedRuns: 200, random: () => seededRandom(5) };

describe('parseDetectSpec', () => {
  it('reads absolute, grouped and relative targets against the die’s expected odds', () => {
    expect(parseDetectSpec('hit=0.5', redAttackDie, 'symbol')).toMatchObject({ names: ['hit'], groupIndices: [0], expected: 0.375, target: 0.5 });
    expect(parseDetectSpec('hit + crit = 0.55', redAttackDie, 'symbol')).toMatchObject({ groupIndices: [0, 1], expected: 0.5, target: 0.55 });
    expect(parseDetectSpec('hit=x1.05', redAttackDie, 'symbol').target).toBeCloseTo(0.39375, 15);
    expect(parseDetectSpec('hit=+5%', redAttackDie, 'symbol').target).toBeCloseTo(0.39375, 15);
    expect(parseDetectSpec('EVADE=-10%', greenDefenseDie, 'symbol').target).toBeCloseTo(0.3375, 15);
    expect(parseDetectSpec('hit-2=x1.05', redAttackDie, 'face')).toMatchObject({ groupIndices: [1], expected: 0.125 });
  });

  it('refuses malformed specs, unknown names, impossible targets and the expected value itself', () => {
    expect(() => parseDetectSpec('hit', redAttackDie, 'symbol')).toThrow(/expected NAME=PROBABILITY/);
    expect(() => parseDetectSpec('hit-1=0.2', redAttackDie, 'symbol')).toThrow(/"hit-1" is not a symbol of red/);
    expect(() => parseDetectSpec('hit=1.2', redAttackDie, 'symbol')).toThrow(/strictly between 0 and 1/);
    expect(() => parseDetectSpec('hit=x3', redAttackDie, 'symbol')).toThrow('--detect "hit=x3": hit at 3 times its odds (0.375) would come up 1.125 of the time, not a probability below 1');
    expect(() => parseDetectSpec('hit=x0', redAttackDie, 'symbol')).toThrow('--detect "hit=x0": a factor of 0 would make hit impossible; give a factor above 0 (e.g. x0.9 or -10%)');
    expect(() => parseDetectSpec('hit+crit=-100%', redAttackDie, 'symbol')).toThrow(/a factor of 0 would make hit\+crit impossible/);
    expect(() => parseDetectSpec('hit=0.375', redAttackDie, 'symbol')).toThrow(/that is the expected probability/);
  });
});

describe('planning rolls and machine time', () => {
  // The golden figures (rolls per die: omnibus, targeted 1-df), from SciPy 1.17:
  // from scipy.stats import ncx2, chi2
  // def n_for(p0, p1, a, power=0.8):
  //     df = len(p0) - 1; c = chi2.ppf(1 - a, df); w2 = sum((q - p)**2 / p for p, q in zip(p0, p1)); n = 1
  //     while ncx2.sf(c, df, n * w2) < power: n += 1
  //     return n
  // def alt(p0, idx, t):  # the named group at t, the rest scaled to fill 1 - t
  //     g = sum(p0[i] for i in idx); return [p * t / g if i in idx else p * (1 - t) / (1 - g) for i, p in enumerate(p0)]
  // def both(p0, idx, t, a):
  //     g = sum(p0[i] for i in idx); return n_for(p0, alt(p0, idx, t), a), n_for([g, 1 - g], [t, 1 - t], a)
  // red = [3/8, 1/8, 2/8, 2/8]; green = [3/8, 2/8, 3/8]; d3 = [1/3] * 3; d8 = [1/8] * 8
  // both(red, [0, 1], .55, .05 / 2) -> (1291, 951); both(red, [0, 1], .55, .05) -> (1091, 785)
  // both(red, [0], .5, .05 / 2) -> (194, 143); both(red, [0], .5, .05) -> (164, 118)
  // both(green, [0], .425, .05 / 2) -> (1078, 892); both(green, [0], .425, .05) -> (904, 736)
  // both(d3, [2], .4, .05 / 6) -> (718, 606); both(d3, [2], .4, .05 / 3) -> (628, 524)
  // both(d8, [0], .2, .05 / 8) -> (414, 249)
  it('plans analyze on one red die at alpha/2, as analyze tests it by symbol and by face: 1,291 rolls for hit+crit at 0.55, 1,091 for a log of symbols alone', () => {
    const one = { ...rig, dice: 1 };
    const plan = planDetection(redAttackDie, parseDetectSpec('hit+crit=0.55', redAttackDie, 'symbol'), 0.05, 0.8, 0.03, one, quick);
    expect(plan).toMatchObject({ tests: 2, levels: ['symbol', 'face'], omnibusRolls: 1291, targetedRolls: 951 });
    expect(plan.omnibusHours).toBeCloseTo(machineHours(1291, one), 12);
    // statistics.md's table (single test at alpha 0.05) holds for a log of symbols alone, where analyze runs one test.
    expect(plan.symbolsOnly).toMatchObject({ tests: 1, levels: ['symbol'], omnibusRolls: 1091, targetedRolls: 785 });
    // Four dice: analyze adjusts over eight tests (Holm), so a lone biased die must reach alpha/8.
    const four = planDetection(redAttackDie, parseDetectSpec('hit+crit=0.55', redAttackDie, 'symbol'), 0.05, 0.8, 0.03, rig, quick);
    expect(four.tests).toBe(8);
    expect(four.omnibusRolls as number).toBeGreaterThan(1291);
  });

  it('counts both levels of every die whose faces share a symbol: red, green and D3 at the figures SciPy gives', () => {
    const one = { ...rig, dice: 1 };
    const figures = (die: DieType, detect: string, r: typeof rig) => {
      const p = planDetection(die, parseDetectSpec(detect, die, 'symbol'), 0.05, 0.8, 0.03, r, quick);
      return [p.tests, p.omnibusRolls, p.targetedRolls, p.symbolsOnly?.tests, p.symbolsOnly?.omnibusRolls, p.symbolsOnly?.targetedRolls];
    };
    expect(figures(redAttackDie, 'hit=0.5', one)).toEqual([2, 194, 143, 1, 164, 118]);
    expect(figures(greenDefenseDie, 'evade=0.425', one)).toEqual([2, 1078, 892, 1, 904, 736]);
    expect(figures(d3Die, '3=0.4', { ...rig, dice: 3 })).toEqual([6, 718, 606, 3, 628, 524]);
    // A D6's faces are its symbols: analyze tests it once, and there is no other family to plan for.
    expect(figures(d6Die, '6=0.2', one)).toEqual([1, expect.any(Number), expect.any(Number), undefined, undefined, undefined]);
    // By face: four red dice, eight tests; the face figure needs a log of faces, so no symbols-only figure.
    const byFace = planDetection(redAttackDie, parseDetectSpec('hit-1=0.2', redAttackDie, 'face'), 0.05, 0.8, 0.03, rig, quick);
    expect(byFace).toMatchObject({ tests: 8, omnibusRolls: 414, targetedRolls: 249 });
    expect(byFace.symbolsOnly).toBeUndefined();
  });

  it("plans for the family analyze makes of the same dice: a log of faces, and one of symbols alone", () => {
    const dice = [redAttackDie, d3Die, d6Die];
    for (const die of dice) {
      const plan = planDetection(die, parseDetectSpec(`${die.symbols[0]}=x1.2`, die, 'symbol'), 0.05, 0.8, 0.03, { ...rig, dice: 3 }, quick);
      const logs = [0, 1, 2].map((i) => simulatedRolls(`${die.id}-${i}`, die, die.faceProbabilities, 60, 40 + i));
      expect(analyzeDice(logs).family).toBe(plan.tests);
      const symbolsAlone = logs.map(({ faces: _faces, ...r }) => ({ ...r, level: 'symbol' as const }));
      expect(analyzeDice(symbolsAlone).family).toBe(plan.symbolsOnly?.tests ?? plan.tests);
    }
  });

  it('gives the floor: analyze certifies a file whose faces come up exactly at their odds at the count SciPy finds', () => {
    // from scipy.stats import chi2; import math
    // def wilson(x, n, z2): c = (x + z2/2)/(n + z2); h = math.sqrt(z2)*math.sqrt(x*(n - x)/n + z2/4)/(n + z2); return c - h, c + h
    // def cert(p, n, a, d): z2 = chi2.isf(a/len(p), 1); return max(max(q - wilson(q*n, n, z2)[0], wilson(q*n, n, z2)[1] - q) for q in p) <= d
    // first n with cert: d6 (0.05, 0.03) -> 1222; red by symbol (0.05, 0.03) -> 1671; d6 (0.001, 0.05) -> 963;
    // d6 (0.05 / 4, 0.03) -> 1664 (analyze certifies each of four dice at alpha over them)
    const one = { ...rig, dice: 1 };
    expect(planCertification(d6Die, 'symbol', 0.03, 0.05, one, undefined, quick).exactShares).toBe(1222);
    expect(planCertification(redAttackDie, 'symbol', 0.03, 0.05, one, undefined, quick).exactShares).toBe(1671);
    expect(planCertification(d6Die, 'symbol', 0.05, 0.001, one, undefined, quick).exactShares).toBe(963);
    expect(planCertification(d6Die, 'symbol', 0.03, 0.05, { ...rig, dice: 4 }, undefined, quick).exactShares).toBe(1664);
  });

  it('plans a D3 session as the session counts it, face by face: a bias on its 3 is the same bias on faces 5 and 6 of a D6, and it certifies every face', () => {
    const runs = { ...quick, runs: 200 };
    const d3 = planDetection(d3Die, parseDetectSpec('3=0.4', d3Die, 'symbol'), 0.05, 0.8, 0.03, rig, runs);
    const faces = planDetection(d6Die, parseDetectSpec('5+6=0.4', d6Die, 'face'), 0.05, 0.8, 0.03, rig, runs);
    expect(d3.session.level).toBe('face');
    // The same odds (to the last bits of a float, which make the two simulations' draws part ways): the same figure within its noise.
    expect(Math.abs((d3.session.median as number) / (faces.session.median as number) - 1)).toBeLessThan(0.15);
    expect(Math.abs((d3.session.likely as number) / (faces.session.likely as number) - 1)).toBeLessThan(0.15);
    // Counted by its three results, as plan did, a session would look a third faster than it is.
    const byResult = sessionStoppingRolls({ expected: [1 / 3, 1 / 3, 1 / 3], truth: [0.3, 0.3, 0.4], alpha: 0.05, dice: 4, delta: 0.03, target: 'UNFAIR', runs: 200, cap: 1e8, random: seededRandom(5) }).rolls;
    expect(d3.session.median as number).toBeGreaterThan(1.2 * (stoppingQuantile(byResult, 0.5) as number));
    // An X-Wing die's session counts symbols (its icon reader cannot tell its faces apart).
    expect(planDetection(redAttackDie, parseDetectSpec('hit=0.5', redAttackDie, 'symbol'), 0.05, 0.8, 0.03, rig, quick).session.level).toBe('symbol');
    const certify = planCertification(d3Die, 'symbol', 0.03, 0.05, rig, undefined, quick);
    expect(certify.sessionLevel).toBe('face');
    const d6Faces = planCertification(d6Die, 'face', 0.03, 0.05, rig, undefined, quick).session;
    expect(Math.abs((certify.session.median as number) / (d6Faces.median as number) - 1)).toBeLessThan(0.15);
    // analyze's figures stay by symbol.
    expect(certify.exactShares).not.toBe(planCertification(d6Die, 'face', 0.03, 0.05, rig, undefined, quick).exactShares);
  });

  it('plans more rolls for a session the more dice it tests, since each die is decided at alpha over them', () => {
    const one = planCertification(d6Die, 'symbol', 0.05, 0.001, { ...rig, dice: 1 }, undefined, quick).session;
    const thirty = planCertification(d6Die, 'symbol', 0.05, 0.001, { ...rig, dice: 30 }, undefined, quick).session;
    expect(thirty.median as number).toBeGreaterThan((one.median as number) * 1.1);
    expect(thirty.likely as number).toBeGreaterThan(one.likely as number);
  });

  it('plans certification allowing for misread bounds: they add rolls, and bounds wider than the margin put it out of reach', () => {
    const plain = planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, undefined, quick);
    const with1 = planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.01, 0.01, 0.01, 0.01], quick);
    expect(with1.session.median as number).toBeGreaterThan(plain.session.median as number);
    expect(with1.misreadLimit).toBeCloseTo((0.01 * 0.875) / 0.97, 6);
    expect(with1.fixedSample).toBeUndefined();
    // A profile's 7 validated red crits bound that face's misreads at 34.8 % (test/unit/stats/misreadReach.test.ts).
    const plan = planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.105019, 0.348164, 0.139108, 0.153318], quick);
    expect(plan).toMatchObject({ outOfReach: true, session: { median: null, likely: null } });
    expect(plan.misreadLimit).toBeCloseTo(0.3245, 4);
    expect(() => planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.1, 0.1])).toThrow(/2 misread bounds for 4 symbols/);
  });

  it('does not simulate a certification whose floor is past ten million rolls, and says how far it is', () => {
    const plan = planCertification(d6Die, 'symbol', 0.0002, 0.05, rig, undefined, quick);
    expect(plan).toMatchObject({ notSimulated: true, session: { median: null } });
    expect(plan.exactShares as number).toBeGreaterThan(1e7);
  });

  it('counts machine time in batches of one die per channel', () => {
    expect(machineHours(1000, { channels: 4, secondsPerThrow: 2.5, dice: 8 })).toBeCloseTo((2 * 1000 * 2.5) / 3600, 12);
    expect(machineHours(1000, { channels: 4, secondsPerThrow: 2.5, dice: 5 })).toBeCloseTo((2 * 1000 * 2.5) / 3600, 12);
    expect(machineHours(600, { channels: 6, secondsPerThrow: 3, dice: 6 })).toBeCloseTo(0.5, 12);
  });

  it('reports an undetectably small bias as out of reach instead of failing', () => {
    const plan = planDetection(d6Die, parseDetectSpec('6=x1.000001', d6Die, 'symbol'), 0.05, 0.8, 0.03, rig, quick);
    expect(plan.omnibusRolls).toBeNull();
    expect(plan.omnibusHours).toBeNull();
    // The session certifies such a die FAIR_WITHIN: it never calls it UNFAIR.
    expect(plan.session.likely).toBeNull();
    expect(plan.session.certifiedFirst).toBeGreaterThan(0.9);
  });
});
