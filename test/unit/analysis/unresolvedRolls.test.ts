import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { holdWhateverUnresolved } from '../../../src/analysis/unresolvedRolls.js';
import { d6Die } from '../../../src/dice/catalogue.js';
import { symbolRollsWithCounts } from './helpers.js';

/*
 * SciPy (Goodman 95 % over 6 faces, each face's lower end with none of the u unresolved rolls, its upper end with all;
 * wilson as in pool.test.ts, A = stats.chi2.isf(0.05/6, 1)):
 *   c = [100, 100, 100, 100, 100, 40]; stats.chisquare(c).pvalue -> 3.231222345468034e-06 (the read rolls: UNFAIR)
 *     u = 60: no face's widened interval leaves out 1/6 (the 60 could be the missing 6s)
 *     u = 30: the 6's does (0.167 above its upper end): unfair whatever the 30 were
 *   c = [100, 100, 100, 100, 100, 250], u = 20: the 6's does
 */
describe('a verdict that holds whatever the unresolved rolls were', () => {
  const one = (counts: number[]) => analyzeDice([symbolRollsWithCounts('D', d6Die, counts, 1)]);
  const settings = (a: ReturnType<typeof one>) => ({ alpha: a.alpha, certifyAlpha: a.certifyAlpha, delta: a.delta, family: a.family });

  it('takes back an UNFAIR that the unresolved rolls could explain, and says to review them', () => {
    const a = one([100, 100, 100, 100, 100, 40]);
    const d = a.dice[0] as (typeof a.dice)[number];
    expect(d.verdict.kind).toBe('UNFAIR');
    const held = holdWhateverUnresolved(d, 60, settings(a));
    expect(held.verdict.kind).toBe('INCONCLUSIVE');
    expect(held.sentence).toMatch(/^INCONCLUSIVE: its read rolls alone look unfair, but its 60 unresolved rolls \(no face read\) could be the faces they lack: review them \(dicerig review\)/);
    // Everything else of the analysis stays as computed.
    expect(held.symbol).toBe(d.symbol);
  });

  it('keeps an UNFAIR that holds whatever they were, and leaves a die with none alone', () => {
    const a = one([100, 100, 100, 100, 100, 40]);
    const d = a.dice[0] as (typeof a.dice)[number];
    expect(holdWhateverUnresolved(d, 30, settings(a)).verdict.kind).toBe('UNFAIR');
    expect(holdWhateverUnresolved(d, 0, settings(a))).toBe(d);
    const loaded = one([100, 100, 100, 100, 100, 250]);
    expect(holdWhateverUnresolved(loaded.dice[0] as (typeof loaded.dice)[number], 20, settings(loaded)).verdict.kind).toBe('UNFAIR');
  });

  it('takes back a FAIR_WITHIN the unresolved rolls could move out of the margin', () => {
    const a = analyzeDice([symbolRollsWithCounts('F', d6Die, [2000, 2000, 2000, 2000, 2000, 2000], 1)], { delta: 0.03 });
    const d = a.dice[0] as (typeof a.dice)[number];
    expect(d.verdict.kind).toBe('FAIR_WITHIN');
    expect(holdWhateverUnresolved(d, 5, settings(a)).verdict.kind).toBe('FAIR_WITHIN');
    const held = holdWhateverUnresolved(d, 600, settings(a));
    expect(held.verdict.kind).toBe('INCONCLUSIVE');
    expect(held.sentence).toMatch(/its read rolls alone are within ±0.03, but its 600 unresolved rolls \(no face read\) leave ±0\.0\d\d: review them/);
  });

  /*
   * SciPy (the widened Goodman bound as above; four dice of [2000]*6, delta 0.03, so each die's intervals are at
   * 0.05 / 4 = 0.0125 and its share of UNFAIR tests at 0.05 / 4):
   *   u = 290: bound at 0.05 0.02911 (would certify), at 0.0125 0.03071 (does not)
   *   projected with the read shares and the unresolved share (290 / 12,290) held, the first total whose bound at
   *   0.0125 is <= 0.03: 14,011 (0.0299999), 14,010 gives 0.0300002: 1,721 more rolls.
   *     T = 12290
   *     while boundT(c, u, T, 0.0125) > 0.03: T += 1   # boundT: counts c/n*T, unresolved u/n*T
   */
  it('holds a FAIR_WITHIN with unresolved rolls to the level the die’s intervals are at (alpha over the dice), and projects the rolls still needed with them', () => {
    const four = analyzeDice(['A', 'B', 'C', 'D'].map((l, i) => symbolRollsWithCounts(l, d6Die, [2000, 2000, 2000, 2000, 2000, 2000], i + 1)), { delta: 0.03 });
    expect(four.certifyAlpha).toBeCloseTo(0.0125, 12);
    const d = four.dice[0] as (typeof four.dice)[number];
    expect(d.verdict.kind).toBe('FAIR_WITHIN');
    const held = holdWhateverUnresolved(d, 290, settings(four));
    expect(held.verdict.kind).toBe('INCONCLUSIVE');
    expect(held.sentence).toContain('leave ±0.031: review them');
    expect(held.verdict).toMatchObject({ target: 'FAIR_WITHIN', rollsNeeded: 1721, projection: { toCertify: 1721 } });
    // At alpha alone (as before: one die's error rate, not the family's) it would have stood.
    expect(holdWhateverUnresolved(d, 290, { ...settings(four), certifyAlpha: four.alpha }).verdict.kind).toBe('FAIR_WITHIN');
  });

  it('gives no rolls needed where the unresolved share alone keeps the margin out of reach', () => {
    // 3,000 unresolved of 15,000: a face could take all of them (0.2 more than its read share), far past ±0.03.
    const a = analyzeDice([symbolRollsWithCounts('F', d6Die, [2000, 2000, 2000, 2000, 2000, 2000], 1)], { delta: 0.03 });
    const held = holdWhateverUnresolved(a.dice[0] as (typeof a.dice)[number], 3000, settings(a));
    expect(held.verdict).toMatchObject({ kind: 'INCONCLUSIVE', rollsNeeded: null, target: null, projection: { toCertify: null, toReject: null } });
  });
});
