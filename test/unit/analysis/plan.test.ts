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
