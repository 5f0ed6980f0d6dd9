import { describe, expect, it } from 'vitest';
import { formatCount, formatLogScientific, formatProbability } from '../../../src/core/format.js';
import { describeVerdict, type FaceEstimate, type InconclusiveVerdict, type Verdict } from '../../../src/stats/verdict.js';

const hit: FaceEstimate = { index: 0, label: 'hit', expected: 0.375, observed: 0.47, count: 94, lower: 0.39, upper: 0.55 };
const crit: FaceEstimate = { index: 1, label: 'crit', expected: 0.125, observed: 0.06, count: 12, lower: 0.03, upper: 0.11 };

const inconclusive: InconclusiveVerdict = {
  kind: 'INCONCLUSIVE',
  n: 1500,
  rollsNeeded: 2318,
  target: 'FAIR_WITHIN',
  why: 'the budget of 1,500 rolls is spent',
  delta: 0.03,
  projection: { toCertify: 2318, toReject: 90_000, assumption: 'the observed proportions stay as they are' },
};

describe('describeVerdict', () => {
  it('names the face driving an UNFAIR verdict, what it does instead of what it should, and the e-value', () => {
    const v: Verdict = {
      kind: 'UNFAIR',
      n: 200,
      evidence: { kind: 'e-value', e: 31_000, logE: Math.log(31_000), p: 1 / 31_000, logP: -Math.log(31_000), method: 'test' },
      effectSize: { measure: "Cohen's w", value: 0.3 },
      drivers: [hit],
      faces: [hit],
      intervalMethod: 'test',
    };
    expect(describeVerdict(v)).toBe('UNFAIR: hit comes up 0.47 instead of 0.375 (e = 3.1e4, after 200 rolls).');
  });

  it('names up to two drivers and quotes a fixed-sample p-value as p, even one that underflows a double', () => {
    const v: Verdict = {
      kind: 'UNFAIR',
      n: 20_000,
      evidence: { kind: 'p-value', p: 0, logP: -800 * Math.LN10, method: 'pearson' },
      effectSize: { measure: "Cohen's w", value: 0.3 },
      drivers: [hit, crit, hit],
      faces: [hit, crit],
      intervalMethod: 'test',
    };
    expect(describeVerdict(v)).toBe('UNFAIR: hit comes up 0.47 instead of 0.375 and crit 0.06 instead of 0.125 (p = 1e-800, after 20,000 rolls).');
  });

  it('states the margin, the rolls and the confidence of a FAIR_WITHIN verdict, never a bare "fair"', () => {
    const v: Verdict = { kind: 'FAIR_WITHIN', n: 4120, delta: 0.03, alpha: 0.05, certifiedDelta: 0.0291, faces: [], intervalMethod: 'test' };
    const text = describeVerdict(v);
    expect(text).toBe('FAIR_WITHIN: every face is within ±0.03 of its expected odds after 4,120 rolls (largest deviation still possible 0.0291, 95 % confidence).');
    expect(text).not.toMatch(/\bFAIR\b(?!_WITHIN)/);
  });

  it('gives the rolls still needed, rounded to two figures, for an INCONCLUSIVE verdict', () => {
    expect(describeVerdict(inconclusive)).toBe('INCONCLUSIVE: about 2,300 more rolls needed to certify within ±0.03 (the budget of 1,500 rolls is spent).');
  });

  it('says "1 more roll", not "1 more rolls"', () => {
    expect(describeVerdict({ ...inconclusive, rollsNeeded: 1 })).toBe('INCONCLUSIVE: about 1 more roll needed to certify within ±0.03 (the budget of 1,500 rolls is spent).');
    const fair: Verdict = { kind: 'FAIR_WITHIN', n: 1, delta: 0.9, alpha: 0.05, certifiedDelta: 0.8, faces: [], intervalMethod: 'test' };
    expect(describeVerdict(fair)).toContain(' after 1 roll (');
  });

  it('ends with a clause it is given, after a semicolon', () => {
    expect(describeVerdict({ ...inconclusive, rollsNeeded: 1 }, 'by what it reads (1, 2, 3) no bias found, p = 0.76')).toBe(
      'INCONCLUSIVE: about 1 more roll needed to certify within ±0.03 (the budget of 1,500 rolls is spent); by what it reads (1, 2, 3) no bias found, p = 0.76.',
    );
  });

  it('says what assumption an INCONCLUSIVE projection toward UNFAIR rests on', () => {
    const v: InconclusiveVerdict = { ...inconclusive, rollsNeeded: 687, target: 'UNFAIR', leadingDeviation: { ...hit, observed: 0.42 } };
    expect(describeVerdict(v)).toBe(
      'INCONCLUSIVE: about 690 more rolls needed to show the die unfair, if hit stays at 0.42 instead of 0.375 (the budget of 1,500 rolls is spent).',
    );
  });

  it('says when no verdict is in reach', () => {
    const v: InconclusiveVerdict = { ...inconclusive, rollsNeeded: null, target: null, why: 'undecided after 0 rolls' };
    expect(describeVerdict(v)).toBe('INCONCLUSIVE: undecided after 0 rolls; no verdict is in reach if the observed proportions hold.');
  });

  it('lists the failed rig checks of a RIG_SUSPECT verdict and says per-die verdicts are withheld', () => {
    const v: Verdict = {
      kind: 'RIG_SUSPECT',
      n: 2000,
      alpha: 0.01,
      failedChecks: [{ name: 'repeat', p: 1.2e-9, logP: Math.log(1.2e-9), adjustedP: 4.8e-9, detail: 'the same face came up again too often' }],
    };
    expect(describeVerdict(v)).toBe(
      'RIG_SUSPECT: the rig may not be tumbling the dice independently: the same face came up again too often (p = 1.2e-9); per-die verdicts are withheld.',
    );
  });
});

describe('number formatting', () => {
  it('prints probabilities to three significant figures without trailing zeros', () => {
    expect(formatProbability(0.375)).toBe('0.375');
    expect(formatProbability(0.4712)).toBe('0.471');
    expect(formatProbability(0.03)).toBe('0.03');
    expect(formatProbability(0)).toBe('0');
  });

  it('groups thousands without depending on the locale', () => {
    expect(formatCount(2300)).toBe('2,300');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999)).toBe('999');
  });

  it('prints numbers given by their log in short scientific form, beyond the range of a double too', () => {
    expect(formatLogScientific(Math.log(31_000))).toBe('3.1e4');
    expect(formatLogScientific(Math.log(2.3e-5))).toBe('2.3e-5');
    expect(formatLogScientific(Math.log(20))).toBe('20');
    expect(formatLogScientific(Math.log(9.99e5))).toBe('1e6');
    expect(formatLogScientific(-1000 * Math.LN10)).toBe('1e-1000');
    expect(formatLogScientific(-Infinity)).toBe('0');
  });
});

describe('confidenceLabel', () => {
  it('writes the confidence of an error rate as people do, without rounding 99.9 % up to 100 %', async () => {
    const { confidenceLabel } = await import('../../../src/core/format.js');
    expect(confidenceLabel(0.05)).toBe('95 %');
    expect(confidenceLabel(0.01)).toBe('99 %');
    expect(confidenceLabel(0.001)).toBe('99.9 %');
    expect(confidenceLabel(0.0001)).toBe('99.99 %');
    // A session's per-die alpha (0.001 over 4 dice) and smaller: never shown as 100 %.
    expect(confidenceLabel(0.00025)).toBe('99.975 %');
    expect(confidenceLabel(1e-7)).toBe('99.99999 %');
    expect(confidenceLabel(0.0125)).toBe('98.7 %');
  });
});
