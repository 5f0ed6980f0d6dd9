import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { holdWhateverUnresolved } from '../../../src/analysis/unresolvedRolls.js';
import { widenedUnfairP } from '../../../src/analysis/widenedFigures.js';
import { unfairWhateverUnresolved } from '../../../src/stats/intervals.js';
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
    // Its counts and tests stay as computed; its intervals are shown widened over the unresolved rolls.
    expect(held.symbol.counts).toBe(d.symbol.counts);
    expect(held.symbol.headline).toBe(d.symbol.headline);
    expect(held.symbol.widenedOver).toBe(60);
  });

  it('keeps an UNFAIR that holds whatever they were, and leaves a die with none alone', () => {
    const a = one([100, 100, 100, 100, 100, 40]);
    const d = a.dice[0] as (typeof a.dice)[number];
    expect(holdWhateverUnresolved(d, 30, settings(a)).verdict.kind).toBe('UNFAIR');
    expect(holdWhateverUnresolved(d, 0, settings(a))).toBe(d);
    const loaded = one([100, 100, 100, 100, 100, 250]);
    expect(holdWhateverUnresolved(loaded.dice[0] as (typeof loaded.dice)[number], 20, settings(loaded)).verdict.kind).toBe('UNFAIR');
  });

  // SciPy 1.17 as in the FAIR_WITHIN test below: 300 of each face, 40 unresolved -> 0.14160048844782488–0.20982636858747813.
  it('shows a RIG_SUSPECT die’s intervals widened over its unresolved rolls, its verdict as it was', () => {
    const a = analyzeDice([symbolRollsWithCounts('S', d6Die, [300, 300, 300, 300, 300, 300], 1)], { alpha: 0.05, delta: 0.05 });
    const read = a.dice[0] as (typeof a.dice)[number];
    const d = { ...read, verdict: { kind: 'RIG_SUSPECT' as const, n: read.n, alpha: 0.01, failedChecks: [] } };
    const held = holdWhateverUnresolved(d, 40, settings(a));
    expect(held.verdict).toBe(d.verdict);
    expect(held.symbol.widenedOver).toBe(40);
    expect(held.symbol.intervals[5]?.lower).toBeCloseTo(0.14160048844782488, 12);
    expect(held.symbol.intervals[5]?.upper).toBeCloseTo(0.20982636858747813, 12);
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

  /*
   * SciPy 1.17 (Goodman 95 % over 6 faces as Wilson intervals at 1 - 0.05/6; widened: lower end with none of the u
   * unresolved rolls the face's, upper end with all of them):
   *   from scipy import stats
   *   for u in (10, 40):
   *       lo = stats.binomtest(300, 1800 + u).proportion_ci(1 - 0.05/6, method='wilson').low
   *       hi = stats.binomtest(300 + u, 1800 + u).proportion_ci(1 - 0.05/6, method='wilson').high
   *       max(1/6 - lo, hi - 1/6)
   *   u = 10: 0.029215379790856505 (0.1439755134987542–0.19588204645752316)
   *   u = 40: 0.04315970192081148  (0.14160048844782488–0.20982636858747813)
   *   (u = 0: 0.024449659822010583, the read rolls' own)
   */
  it('states a FAIR_WITHIN that holds from its widened intervals: over all its rolls, with the margin still possible whatever they were', () => {
    const a = analyzeDice([symbolRollsWithCounts('W', d6Die, [300, 300, 300, 300, 300, 300], 1)], { alpha: 0.05, delta: 0.05 });
    const d = a.dice[0] as (typeof a.dice)[number];
    expect(d.verdict).toMatchObject({ kind: 'FAIR_WITHIN', n: 1800 });
    expect(d.verdict.kind === 'FAIR_WITHIN' && d.verdict.certifiedDelta).toBeCloseTo(0.024449659822010583, 12);
    for (const [u, bound, lower, upper] of [
      [10, 0.029215379790856505, 0.1439755134987542, 0.19588204645752316],
      [40, 0.04315970192081148, 0.14160048844782488, 0.20982636858747813],
    ] as const) {
      const held = holdWhateverUnresolved(d, u, settings(a));
      expect(held.verdict).toMatchObject({ kind: 'FAIR_WITHIN', n: 1800 + u });
      if (held.verdict.kind !== 'FAIR_WITHIN') continue;
      expect(held.verdict.certifiedDelta).toBeCloseTo(bound, 12);
      for (const f of held.verdict.faces) {
        expect(f.lower).toBeCloseTo(lower, 12);
        expect(f.upper).toBeCloseTo(upper, 12);
      }
      // The table shows the same widened intervals, and says so.
      expect(held.symbol.intervals[5]?.upper).toBeCloseTo(upper, 12);
      expect(held.symbol.widenedOver).toBe(u);
      expect(held.sentence).toBe(
        `FAIR_WITHIN: every face is within ±0.05 of its expected odds after ${u === 10 ? '1,810' : '1,840'} rolls (largest deviation still possible ${bound.toFixed(4)}, 95 % confidence); it holds whatever the ${u} unresolved rolls were.`,
      );
    }
  });

  /*
   * SciPy 1.17: c = [100]*5 + [40], u = 30, N = 570. The widened rule's p: a Wilson interval leaves out p0 exactly when
   * (c - N p0)^2 > z^2 N p0 (1 - p0), the face's count taken at the assignment nearest its odds:
   *   import numpy as np; from scipy import stats
   *   c = np.array([100]*5 + [40]); u = 30; N = c.sum() + u; p0 = 1/6
   *   gap = np.maximum(np.maximum(c - N*p0, N*p0 - (c + u)), 0); x = gap**2 / (N*p0*(1 - p0))
   *   min(1, 6 * stats.chi2.sf(x, 1).min())                                         -> 0.029747310487624547
   *   stats.binomtest(40, 570).proportion_ci(1 - 0.05/6, method='wilson').low        -> 0.04682891619862933
   *   stats.binomtest(70, 570).proportion_ci(1 - 0.05/6, method='wilson').high       -> 0.16369333472429387
   */
  it('states an UNFAIR that holds from its widened intervals, with the p of the widened rule, not the read rolls alone', () => {
    const a = one([100, 100, 100, 100, 100, 40]);
    const d = a.dice[0] as (typeof a.dice)[number];
    const held = holdWhateverUnresolved(d, 30, settings(a));
    expect(held.verdict).toMatchObject({ kind: 'UNFAIR', n: 570 });
    if (held.verdict.kind !== 'UNFAIR') return;
    expect(held.verdict.evidence.p).toBeCloseTo(0.029747310487624547, 12);
    expect(held.verdict.drivers.map((f) => f.label)).toEqual(['6']);
    expect(held.verdict.faces[5]?.lower).toBeCloseTo(0.04682891619862933, 12);
    expect(held.verdict.faces[5]?.upper).toBeCloseTo(0.16369333472429387, 12);
    // The 6's share of all 570 rolls whatever the 30 were (40/570 to 70/570), not of the 540 read (0.0741).
    expect(held.sentence).toBe('UNFAIR: 6 comes up 0.0702 to 0.123 instead of 0.167 (p = 0.03, after 570 rolls); it holds whatever the 30 unresolved rolls were.');
  });

  it("gives a p below a level exactly when the widened intervals at that level leave out some face's odds", () => {
    const cases: [number[], number][] = [
      [[100, 100, 100, 100, 100, 40], 30],
      [[100, 100, 100, 100, 100, 40], 60],
      [[100, 100, 100, 100, 100, 250], 20],
      [[120, 95, 100, 90, 105, 60], 12],
      [[300, 300, 300, 300, 300, 300], 40],
    ];
    for (const [counts, u] of cases) {
      const { p } = widenedUnfairP(counts, new Array(6).fill(1 / 6), u);
      for (const level of [0.001, 0.01, 0.05, 0.2]) expect(p < level).toBe(unfairWhateverUnresolved(counts, new Array(6).fill(1 / 6), u, level));
    }
  });

  /*
   * SciPy 1.17 (sixes of [100]*5 + [60] read and 40 unresolved, Wilson 95 %):
   *   stats.binomtest(60, 600).proportion_ci(0.95, method='wilson').low    -> 0.07848166958806388
   *   stats.binomtest(100, 600).proportion_ci(0.95, method='wilson').high  -> 0.19858767644742514
   *   (read rolls alone: binomtest(60, 560): 0.08414998250053843–0.13548881291495912, which leaves out 1/6)
   */
  it("widens a game figure's interval over the unresolved rolls, from none of them in it to all of them", () => {
    const a = one([100, 100, 100, 100, 100, 60]);
    const d = a.dice[0] as (typeof a.dice)[number];
    const sixes = (x: typeof d) => x.game.find((g) => g.figure.name === '6s');
    expect(sixes(d)?.result.interval.upper).toBeCloseTo(0.13548881291495912, 12);
    const held = holdWhateverUnresolved(d, 40, settings(a));
    expect(sixes(held)?.result.interval.lower).toBeCloseTo(0.07848166958806388, 12);
    expect(sixes(held)?.result.interval.upper).toBeCloseTo(0.19858767644742514, 12);
    expect(sixes(held)?.widenedOver).toBe(40);
  });
});
