import { describe, expect, it } from 'vitest';
import { machineHours, parseDetectSpec, planCertification, planDetection } from '../../../src/analysis/plan.js';
import { d6Die, greenDefenseDie, redAttackDie } from '../../../src/dice/catalogue.js';

const rig = { channels: 4, secondsPerThrow: 2.5, dice: 4 };

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
    expect(() => parseDetectSpec('hit=x3', redAttackDie, 'symbol')).toThrow(/strictly between 0 and 1/);
    expect(() => parseDetectSpec('hit=0.375', redAttackDie, 'symbol')).toThrow(/that is the expected probability/);
  });
});

describe('planning rolls and machine time', () => {
  it('gives the statistics.md rolls for red hit+crit at 0.55: 1,091 over all symbols, 785 targeted', () => {
    // SciPy (see test/unit/stats/power.test.ts for the noncentral chi-square code): 1091 and 785.
    const plan = planDetection(redAttackDie, parseDetectSpec('hit+crit=0.55', redAttackDie, 'symbol'), 0.05, 0.8, rig);
    expect(plan.omnibusRolls).toBe(1091);
    expect(plan.targetedRolls).toBe(785);
    expect(plan.omnibusHours).toBeCloseTo((1091 * 2.5) / 3600, 12);
  });

  it('plans certification from the Goodman half-width at the expected odds', () => {
    // from scipy.stats import chi2; import math
    // math.ceil(chi2.isf(0.05/4, 1) * 0.375*0.625 / 0.03**2)  -> 1625  (red, by symbol)
    // math.ceil(chi2.isf(0.05/8, 1) * (1/8)*(7/8) / 0.03**2)   -> 909   (red, by face)
    expect(planCertification(redAttackDie, 'symbol', 0.03, 0.05, rig).rolls).toBe(1625);
    expect(planCertification(redAttackDie, 'face', 0.03, 0.05, rig).rolls).toBe(909);
  });

  it('plans certification allowing for misread bounds: the half-width each face keeps between them and the margin', () => {
    // from scipy.stats import chi2; import math
    // p = [3/8, 1/8, 2/8, 2/8]; r = 0.01; d = 0.05
    // upper_i = (p_i + d)(1 - r) - p_i; lower_i = d - r * sum(p_j + d for j != i); m_i = min(d, upper_i, lower_i)
    //   -> 0.04225, 0.03975, 0.041, 0.041
    // math.ceil(max(chi2.isf(0.05/4, 1) * p_i * (1 - p_i) / m_i**2))   -> 820 (without misreads: 585)
    expect(planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig).rolls).toBe(585);
    const with1 = planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.01, 0.01, 0.01, 0.01]);
    expect(with1.rolls).toBe(820);
    expect(with1.hours).toBeCloseTo(machineHours(820, rig), 12);
    expect(with1.misreadLimit).toBeCloseTo((0.01 * 0.875) / 0.97, 6);
    expect(planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0, 0, 0, 0])).toMatchObject({ rolls: 585, misreadLimit: 0 });
  });

  it('says certification is out of reach when the misread bounds alone exceed the margin', () => {
    // A profile's 7 validated red crits bound that face's misreads at 34.8 % (test/unit/stats/misreadReach.test.ts).
    const plan = planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.105019, 0.348164, 0.139108, 0.153318]);
    expect(plan).toMatchObject({ rolls: null, hours: null });
    expect(plan.misreadLimit).toBeCloseTo(0.3245, 4);
    expect(() => planCertification(redAttackDie, 'symbol', 0.05, 0.05, rig, [0.1, 0.1])).toThrow(/2 misread bounds for 4 symbols/);
  });

  it('counts machine time in batches of one die per channel', () => {
    expect(machineHours(1000, { channels: 4, secondsPerThrow: 2.5, dice: 8 })).toBeCloseTo((2 * 1000 * 2.5) / 3600, 12);
    expect(machineHours(1000, { channels: 4, secondsPerThrow: 2.5, dice: 5 })).toBeCloseTo((2 * 1000 * 2.5) / 3600, 12);
    expect(machineHours(600, { channels: 6, secondsPerThrow: 3, dice: 6 })).toBeCloseTo(0.5, 12);
  });

  it('reports an undetectably small bias as out of reach instead of failing', () => {
    const plan = planDetection(d6Die, parseDetectSpec('6=x1.000001', d6Die, 'symbol'), 0.05, 0.8, rig);
    expect(plan.omnibusRolls).toBeNull();
    expect(plan.omnibusHours).toBeNull();
  });
});
