import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { generalizedCmh } from '../../../src/stats/cmh.js';
import { oddsOnBiasedRig } from '../../../src/stats/rigBias.js';
import { dieEffectGivenRig, findBiasedRigs, rigEffectGivenDie, rigVersusRest, type CampaignCounts } from '../../../src/stats/rigEffects.js';

/*
 * Golden values (SciPy 1.17.1, NumPy 2.4.6), computed once with:
 *
 *   import numpy as np
 *   from scipy.stats import chi2, chi2_contingency
 *   def cmh(strata):   # generalised CMH general association (Landis, Heyman & Koch 1978)
 *       strata = [np.array(t, dtype=float) for t in strata]
 *       R, C = strata[0].shape
 *       dev = np.zeros((R-1)*(C-1)); V = np.zeros(((R-1)*(C-1),)*2)
 *       for t in strata:
 *           n = t.sum(); r = t.sum(1); c = t.sum(0)
 *           if n < 2 or (r > 0).sum() < 2 or (c > 0).sum() < 2: continue
 *           e = np.outer(r, c) / n
 *           dev += (t - e)[:-1, :-1].ravel()
 *           Vr = (n*np.diag(r) - np.outer(r, r))[:-1, :-1]
 *           Vc = (n*np.diag(c) - np.outer(c, c))[:-1, :-1]
 *           V += np.kron(Vr, Vc) / (n*n*(n-1))
 *       Q = dev @ np.linalg.pinv(V) @ dev; df = np.linalg.matrix_rank(V)
 *       return Q, df, chi2.sf(Q, df), chi2.logsf(Q, df)
 *   def sg(strata):    # stratified G: per-stratum chi2_contingency G, summed
 *       s = 0; df = 0
 *       for t in strata:
 *           t = np.array(t); t = t[t.sum(1) > 0][:, t.sum(0) > 0]
 *           if t.shape[0] < 2 or t.shape[1] < 2: continue
 *           g = chi2_contingency(t, correction=False, lambda_="log-likelihood")
 *           s += g.statistic; df += g.dof
 *       return s, df, chi2.sf(s, df), chi2.logsf(s, df)
 *   T = <TABLE below>   # counts[die][rig][face]
 *   print(cmh(T), sg(T))                                                     # rig | die
 *   print(cmh([[T[d][r] for d in range(3)] for r in range(3)]), sg(...same))  # die | rig
 *   for rig in range(3):
 *       S = [[T[d][rig], list(np.sum([T[d][o] for o in range(3) if o != rig], axis=0))] for d in range(3)]
 *       print(cmh(S))
 *
 *   # the classic 2 x 2 x K CMH (no continuity correction), textbook formula, an independent check:
 *   S = [[[12,8],[5,15]],[[20,10],[14,16]],[[7,13],[3,17]]]
 *   num = sum(a - (a+b)*(a+c)/n ...); var = sum((a+b)(c+d)(a+c)(b+d)/(n^2 (n-1)))
 *   Q = num^2/var -> 8.837650342215431, chi2.sf -> 0.002950788020212303, logsf -> -5.825683018806376
 */
const TABLE: CampaignCounts = {
  dice: ['A', 'B', 'C'],
  rigs: ['rig-1', 'rig-2', 'rig-3'],
  faces: ['1', '2', '3', '4', '5', '6'],
  counts: [
    [[52, 48, 50, 47, 49, 54], [45, 50, 47, 46, 52, 70], [50, 51, 49, 53, 48, 49]],
    [[60, 55, 58, 62, 57, 58], [50, 52, 49, 51, 48, 75], [55, 57, 60, 52, 59, 57]],
    [[40, 38, 42, 41, 39, 40], [35, 36, 40, 38, 37, 54], [0, 0, 0, 0, 0, 0]],
  ],
};

describe('generalised Cochran–Mantel–Haenszel test', () => {
  it('equals the classic 2 x 2 x K CMH statistic without continuity correction', () => {
    const r = generalizedCmh([[[12, 8], [5, 15]], [[20, 10], [14, 16]], [[7, 13], [3, 17]]]);
    expect(r.statistic).toBeCloseTo(8.837650342215431, 10);
    expect(r.df).toBe(1);
    expect(r.p).toBeCloseTo(0.002950788020212303, 12);
    expect(r.logP).toBeCloseTo(-5.825683018806376, 9);
  });

  it('refuses strata of different shapes and counts that are not whole', () => {
    expect(() => generalizedCmh([[[1, 2]], [[1, 2], [3, 4]]])).toThrow(InputError);
    expect(() => generalizedCmh([[[1, 2.5], [3, 4]]])).toThrow(/non-negative integers/);
  });

  it('has nothing to test when no stratum has two rows and two columns with counts', () => {
    const r = generalizedCmh([[[5, 5], [0, 0]], [[0, 3], [0, 4]]]);
    expect(r).toMatchObject({ statistic: 0, df: 0, p: 1, strataUsed: 0 });
  });
});

describe('rig effects given the die', () => {
  it('matches SciPy for the rig effect within dice (CMH and stratified G), a die missing from one rig included', () => {
    const r = rigEffectGivenDie(TABLE);
    expect(r.cmh.statistic).toBeCloseTo(13.312962803615413, 9);
    expect(r.cmh.df).toBe(10);
    expect(r.cmh.p).toBeCloseTo(0.2066962616948291, 12);
    expect(r.cmh.logP).toBeCloseTo(-1.5765048981143281, 9);
    expect(r.stratifiedG.statistic).toBeCloseTo(15.24698081215303, 9);
    expect(r.stratifiedG.df).toBe(25);
    expect(r.stratifiedG.p).toBeCloseTo(0.9354182874724661, 12);
  });

  it('matches SciPy for die effects given the rig', () => {
    const r = dieEffectGivenRig(TABLE);
    expect(r.cmh.statistic).toBeCloseTo(0.6066121936434022, 9);
    expect(r.cmh.df).toBe(10);
    expect(r.cmh.logP).toBeCloseTo(-1.6628804849323067e-5, 12);
    expect(r.stratifiedG.statistic).toBeCloseTo(2.73859971713304, 9);
    expect(r.stratifiedG.df).toBe(25);
  });

  it('matches SciPy for each rig against the rest, and names the face the heavy rig favours', () => {
    const golden = [
      [4.387666700423722, 0.4950524223999695, -0.7030916181825402],
      [12.817132579556729, 0.025154045782299572, -3.6827365292785412],
      [3.4292296364623756, 0.6341220879050926, -0.4555137754100379],
    ];
    golden.forEach(([q, p, logP], rig) => {
      const r = rigVersusRest(TABLE, rig);
      expect(r.statistic).toBeCloseTo(q!, 9);
      expect(r.df).toBe(5);
      expect(r.p).toBeCloseTo(p!, 12);
      expect(r.logP).toBeCloseTo(logP!, 9);
    });
    const heavy = rigVersusRest(TABLE, 1);
    expect(heavy.favouredFace).toBe('6');
    expect(heavy.rolls).toBe(45 + 50 + 47 + 46 + 52 + 70 + 50 + 52 + 49 + 51 + 48 + 75 + 35 + 36 + 40 + 38 + 37 + 54);
    const six = heavy.faces[5]!;
    expect(six.observed).toBe(70 + 75 + 54);
    expect(six.excess).toBeCloseTo((six.observed - six.expected) / heavy.rolls, 12);
  });

  it('flags no rig when the rigs agree at alpha, and the heavy rig when they do not', () => {
    expect(findBiasedRigs(TABLE, 0.05).biased).toEqual([]);
    const stronger: CampaignCounts = { ...TABLE, counts: TABLE.counts.map((byRig) => byRig.map((row, r) => (r === 1 ? row.map((x, f) => (f === 5 ? x * 2 : x)) : [...row]))) };
    const found = findBiasedRigs(stronger, 0.05);
    expect(found.biased.map((b) => b.rig)).toEqual(['rig-2']);
    expect(found.biased[0]!.reason).toMatch(/rig rig-2 differs from the other rigs.*favouring 6/);
    expect(found.steps.map((s) => s.flagged)).toEqual([['rig-2'], []]);
  });

  it('flags both of two rigs that disagree, since which is off cannot be told', () => {
    const two: CampaignCounts = { ...TABLE, rigs: ['a', 'b'], counts: TABLE.counts.map((byRig) => [byRig[0]!, byRig[1]!.map((x, f) => (f === 5 ? x * 2 : x))]) };
    const found = findBiasedRigs(two, 0.05);
    expect(found.biased.map((b) => b.rig)).toEqual(['a', 'b']);
    expect(found.biased[0]!.reason).toMatch(/cannot be told/);
  });

  it('refuses a table whose dice, rigs and faces do not line up', () => {
    expect(() => rigEffectGivenDie({ ...TABLE, dice: ['A', 'B'] })).toThrow(/3 dice of counts for 2 dice/);
    expect(() => findBiasedRigs(TABLE, 1.5)).toThrow(/alpha/);
  });
});

describe('odds on a rig that favours a face', () => {
  it('gives a fair die exactly the excess on the favoured face and keeps the odds summing to 1', () => {
    const odds = oddsOnBiasedRig([1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6], 5, 0.04);
    expect(odds[5]).toBeCloseTo(1 / 6 + 0.04, 12);
    expect(odds[0]).toBeCloseTo((5 / 6 - 0.04) / 5, 12);
    expect(odds.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('refuses a face the die does not have and an excess that leaves no odds', () => {
    expect(() => oddsOnBiasedRig([0.5, 0.5], 2, 0.1)).toThrow(/not a face/);
    expect(() => oddsOnBiasedRig([0.5, 0.5], 0, 0.6)).toThrow(/between 0 and 1/);
  });
});

/*
 * Step-down golden values (SciPy 1.17.1, NumPy 2.4.6): `cmh` as above, then
 *
 *   def vs_rest(T, rig, active):
 *       return cmh([[T[d][rig], list(np.sum([T[d][o] for o in active if o != rig], axis=0))] for d in range(len(T))])
 *   active = [0, 1, 2, 3, 4]
 *   while len(active) >= 2:                       # Holm: smallest p times the rigs still compared
 *       r, t = min(((r, vs_rest(FIVE, r, active)) for r in active), key=lambda x: x[1][3])
 *       print(active, r, t, t[2] * len(active))
 *       if t[2] * len(active) > alpha or len(active) == 2: break
 *       active.remove(r)
 *
 *   step 1, rigs 1-5 compared: rig 2 (index 1), Q = 55.32557728783746, p = 1.1187705097624487e-10, 5p = 5.593852548812243e-10
 *   step 2, rigs 1,3,4,5:      rig 4 (index 3), Q = 22.723512032623393, p = 0.00038121957108177125, 4p = 0.001524878284327085
 *   step 3, rigs 1,3,5:        rig 3 (index 2), Q = 0.5437802462136744, p = 0.9904324118989362
 */
const FIVE: CampaignCounts = {
  dice: ['A', 'B', 'C', 'D'],
  rigs: ['rig-1', 'rig-2', 'rig-3', 'rig-4', 'rig-5'],
  faces: ['1', '2', '3', '4', '5', '6'],
  // rig-2 shows the 6 about 1.45x as often, rig-4 the 1 about 1.3x; the other rigs are fair.
  counts: [
    [[95, 97, 109, 98, 106, 96], [98, 100, 101, 101, 98, 144], [101, 92, 104, 104, 101, 102], [135, 95, 107, 96, 104, 94], [96, 98, 99, 99, 107, 97]],
    [[102, 93, 105, 94, 102, 103], [105, 96, 108, 97, 105, 138], [97, 99, 100, 100, 97, 98], [130, 102, 103, 103, 100, 101], [103, 94, 106, 95, 103, 93]],
    [[98, 100, 101, 101, 98, 99], [101, 92, 104, 104, 101, 148], [104, 95, 107, 96, 104, 94], [125, 98, 99, 99, 107, 97], [99, 101, 102, 102, 99, 100]],
    [[105, 96, 108, 97, 105, 95], [97, 99, 100, 100, 97, 142], [100, 102, 103, 103, 100, 101], [134, 94, 106, 95, 103, 93], [95, 97, 109, 98, 106, 96]],
  ],
};

describe("step-down flagging (Holm's rule over the rigs)", () => {
  it('flags the furthest rig, drops it and tests the others again, until the rigs left agree', () => {
    const found = findBiasedRigs(FIVE, 0.01);
    expect(found.steps.map((s) => s.rigsCompared)).toEqual([
      ['rig-1', 'rig-2', 'rig-3', 'rig-4', 'rig-5'],
      ['rig-1', 'rig-3', 'rig-4', 'rig-5'],
      ['rig-1', 'rig-3', 'rig-5'],
    ]);
    expect(found.steps.map((s) => s.flagged)).toEqual([['rig-2'], ['rig-4'], []]);
    const [first, second] = found.biased;
    expect(first!.test.statistic).toBeCloseTo(55.32557728783746, 8);
    expect(first!.test.p).toBeCloseTo(1.1187705097624487e-10, 18);
    expect(first!.reason).toBe('rig rig-2 differs from the other rigs on the same dice (p = 5.6e-10, 5 rigs compared), favouring 6');
    // The second rig is tested against the rigs still trusted, not against the rig already flagged.
    expect(second!.test.statistic).toBeCloseTo(22.723512032623393, 8);
    expect(second!.test.p).toBeCloseTo(0.00038121957108177125, 14);
    expect(second!.reason).toBe('rig rig-4 differs from the other rigs on the same dice (p = 0.0015, 4 rigs compared), favouring 1');
    // The rig-vs-rest figures for the report are each rig against all the others.
    expect(found.versusRest.map((t) => t.rig)).toEqual(FIVE.rigs);
  });

  it('multiplies the smallest p by the number of rigs still compared: 4 at the second step', () => {
    // 4p = 0.001525 at the second step: flagged at alpha 0.0016 (it would not be with 5p = 0.0019), not at 0.0015 (it would be with p alone).
    expect(findBiasedRigs(FIVE, 0.0016).biased.map((b) => b.rig)).toEqual(['rig-2', 'rig-4']);
    expect(findBiasedRigs(FIVE, 0.0015).biased.map((b) => b.rig)).toEqual(['rig-2']);
  });

  it('multiplies by the number of rigs at the first step: a rig with p below alpha is not flagged when 3p is above it', () => {
    // rig-2 vs the rest in TABLE: p = 0.025154045782299572 (SciPy, above), 3p = 0.0755.
    expect(findBiasedRigs(TABLE, 0.05).biased).toEqual([]);
    expect(findBiasedRigs(TABLE, 0.08).steps[0]!.flagged).toEqual(['rig-2']);
  });
});
