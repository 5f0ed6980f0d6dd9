import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { d6Die, greenDefenseDie, redAttackDie } from '../../../src/dice/catalogue.js';
import { formatLogScientific } from '../../../src/core/format.js';
import { goodmanCertifier } from '../../../src/stats/intervals.js';
import { seededRandom } from '../../../src/stats/random.js';
import { formatAnalysisText } from '../../../src/cli/format/analysisText.js';
import { faceRollsWithCounts, fromFaces, loadedOdds, simulatedRolls, symbolRollsWithCounts } from './helpers.js';

describe('analyzeDice', () => {
  it('passes the SciPy Pearson and G p-values through for a red die by symbol', () => {
    // from scipy.stats import chisquare, power_divergence
    // chisquare([40,10,25,25], [37.5,12.5,25,25])            -> statistic 0.6666666666666666, p 0.8810148425137847
    // power_divergence([40,10,25,25], [37.5,12.5,25,25], lambda_="log-likelihood") -> 0.7002106647214994, p 0.8731543974699121
    const a = analyzeDice([symbolRollsWithCounts('R', redAttackDie, [40, 10, 25, 25], 1)]);
    const s = a.dice[0]!.symbol;
    expect(s.pearson.statistic).toBeCloseTo(0.6666666666666666, 12);
    expect(s.pearson.p).toBeCloseTo(0.8810148425137847, 12);
    expect(s.g.p).toBeCloseTo(0.8731543974699121, 12);
    expect(s.counts).toEqual([40, 10, 25, 25]);
  });

  it('uses the exact multinomial test as the headline when expected counts are small', () => {
    // Exact p for [5,0,2,1] vs [3/8,1/8,2/8,2/8] (n = 8), by enumeration with scipy.stats.multinomial:
    //   from itertools import product; from scipy.stats import multinomial
    //   p=[3/8,1/8,2/8,2/8]; obs=multinomial.pmf([5,0,2,1],8,p)
    //   sum(multinomial.pmf(c,8,p) for c in product(range(9),repeat=4) if sum(c)==8 and multinomial.pmf(c,8,p)<=obs*(1+1e-7))
    //   -> 0.5782279968261721
    const a = analyzeDice([symbolRollsWithCounts('R', redAttackDie, [5, 0, 2, 1], 1)]);
    expect(a.dice[0]!.symbol.headline.method).toBe('exact multinomial test');
    expect(a.dice[0]!.symbol.headline.p).toBeCloseTo(0.5782279968261721, 9);
  });

  it('calls a die 1.25x heavy on hits UNFAIR and names hit as the driver, without calling its fair neighbours unfair', () => {
    const dice = [
      simulatedRolls('fair-1', redAttackDie, redAttackDie.faceProbabilities, 4000, 11),
      simulatedRolls('loaded', redAttackDie, loadedOdds(redAttackDie, 'hit', 1.25), 4000, 12),
      simulatedRolls('fair-2', redAttackDie, redAttackDie.faceProbabilities, 4000, 13),
    ];
    const a = analyzeDice(dice);
    const [f1, loaded, f2] = a.dice;
    expect(loaded!.verdict.kind).toBe('UNFAIR');
    if (loaded!.verdict.kind === 'UNFAIR') expect(loaded!.verdict.drivers[0]!.label).toBe('hit');
    expect(f1!.verdict.kind).not.toBe('UNFAIR');
    expect(f2!.verdict.kind).not.toBe('UNFAIR');
    expect(a.homogeneity.find((h) => h.level === 'symbol')?.test.pearson.p).toBeLessThan(0.01);
  });

  it("says its anytime e-value is of the die's symbols: a red die whose hit-1 comes up in place of hit-2 is UNFAIR by face while the e-value sees nothing", () => {
    // hit-1 250, hit-2 0, hit-3 125 and the other faces at their odds: by symbol exactly [375, 125, 250, 250] of 1,000.
    const a = analyzeDice([faceRollsWithCounts('R', redAttackDie, [250, 0, 125, 125, 125, 125, 125, 125], 5)]);
    const d = a.dice[0]!;
    expect(d.verdict.kind).toBe('UNFAIR');
    expect(d.anytime.level).toBe('symbol');
    expect(d.anytime.logE).toBeLessThan(0);
    expect(formatAnalysisText(a)).toContain(`  anytime-valid e-value against the expected odds of its symbols: ${formatLogScientific(d.anytime.logE)}\n`);
  });

  it('projects UNFAIR for a red die steadily 0.022 short on blank, inside the ±0.03 margin: the test finds it long before the intervals narrow to the margin', () => {
    // Faces [383, 383, 384, 380, 393, 393, 342, 342] of 3,000: blank 0.228 instead of 0.25, every face inside ±0.03.
    // Rejecting (SciPy; n_for as in plan.test.ts, the observed shares as the alternative, alpha/2 for Holm's first step):
    //   n_for([3/8,1/8,2/8,2/8], [1150/3000, 380/3000, 786/3000, 684/3000], .025) -> 4747 (by face: 6167), so 1,747 more.
    // Certifying (the Goodman rule, cert as in plan.test.ts at alpha 0.05, ±0.03): first N at the symbol shares 16728
    //   (the face shares already do at 3,001), so 13,728 more.
    // Which comes first, simulated (numpy, 2,000 files drawn at the observed face shares through analyze's rule: Holm
    //   over both levels, then Goodman): at 4,747 rolls 83 % UNFAIR, 8 % FAIR_WITHIN; at 16,728, 100 % UNFAIR and none
    //   FAIR_WITHIN. So "more rolls to certify" would promise a verdict analyze would not give if the shares held.
    const a = analyzeDice([faceRollsWithCounts('R', redAttackDie, [383, 383, 384, 380, 393, 393, 342, 342], 8)]);
    const v = a.dice[0]!.verdict;
    expect(v.kind).toBe('INCONCLUSIVE');
    if (v.kind !== 'INCONCLUSIVE') return;
    expect(v.projection).toMatchObject({ toReject: 1747, toCertify: 13728 });
    expect(v.target).toBe('UNFAIR');
    expect(a.dice[0]!.sentence).toBe(
      'INCONCLUSIVE: about 1,700 more rolls needed to show the die unfair, if blank stays at 0.228 instead of 0.25 (no face is clearly off, but 3,000 rolls cannot yet bound every face within ±0.03).',
    );
  });

  it('writes one roll as "1 roll" in its report', () => {
    const text = formatAnalysisText(analyzeDice([faceRollsWithCounts('A', redAttackDie, [1, 0, 0, 0, 0, 0, 0, 0], 1)]));
    expect(text).toMatch(/^1 die, 1 roll\. alpha/);
    expect(text).toContain('A  (X-Wing red attack die (d8), 1 roll)');
    expect(text).toContain('but 1 roll cannot yet bound every face');
  });

  it('adjusts across dice with Holm: a p of 0.02 on one of ten dice is not enough', () => {
    // Counts chosen so the first die alone has Pearson p ≈ 0.02:
    // scipy.stats.chisquare([93,29,39,39], [75,25,50,50]) -> p 0.020344998515208438
    const first = symbolRollsWithCounts('suspect', redAttackDie, [93, 29, 39, 39], 3);
    const others = Array.from({ length: 9 }, (_, i) => symbolRollsWithCounts(`d${i}`, redAttackDie, [76, 25, 50, 49], 4 + i));
    const a = analyzeDice([first, ...others]);
    const s = a.dice[0]!;
    expect(s.symbol.pearson.p).toBeCloseTo(0.020344998515208438, 12);
    expect(s.adjusted[0]!.adjustedP).toBeGreaterThan(0.05);
    expect(s.verdict.kind).not.toBe('UNFAIR');
    const bh = analyzeDice([first, ...others], { multiplicity: 'bh' });
    expect(bh.multiplicity).toBe('bh');
    expect(bh.dice[0]!.adjusted[0]!.adjustedP).toBeGreaterThan(0.05);
  });

  it('certifies a fair die FAIR_WITHIN(0.03) after enough rolls, with a bound no wider than delta', () => {
    const a = analyzeDice([simulatedRolls('G', greenDefenseDie, greenDefenseDie.faceProbabilities, 20_000, 5)]);
    const v = a.dice[0]!.verdict;
    expect(v.kind).toBe('FAIR_WITHIN');
    if (v.kind === 'FAIR_WITHIN') expect(v.certifiedDelta).toBeLessThanOrEqual(0.03);
  });

  it('calls a short log INCONCLUSIVE and says how many more rolls it needs', () => {
    const a = analyzeDice([simulatedRolls('G', greenDefenseDie, greenDefenseDie.faceProbabilities, 300, 7)]);
    const v = a.dice[0]!.verdict;
    expect(v.kind).toBe('INCONCLUSIVE');
    if (v.kind === 'INCONCLUSIVE') {
      expect(v.rollsNeeded).toBeGreaterThan(300);
      expect(a.dice[0]!.sentence).toMatch(/^INCONCLUSIVE: about [\d,]+ more rolls needed/);
    }
  });

  it('names the rolls at which the FAIR_WITHIN rule itself certifies if the shares hold, not where a normal half-width would', () => {
    // Every face exactly 1/6: the rule first holds at 1,222 rolls (SciPy, test/unit/analysis/plan.test.ts); files of
    // 1,080 to 1,218 rolls were all told "about 1 more rolls needed".
    for (const [n, alpha, delta] of [[1080, 0.05, 0.03], [1200, 0.05, 0.03], [1218, 0.05, 0.03], [600, 0.001, 0.05], [954, 0.001, 0.05]] as const) {
      const counts = new Array<number>(6).fill(n / 6);
      const v = analyzeDice([symbolRollsWithCounts('A', d6Die, counts, 3)], { alpha, delta }).dice[0]!.verdict;
      expect(v.kind).toBe('INCONCLUSIVE');
      const more = v.kind === 'INCONCLUSIVE' ? (v.rollsNeeded as number) : NaN;
      // The rule on those shares holds at n + more and not one roll sooner...
      const rule = goodmanCertifier(d6Die.faceProbabilities, alpha, delta);
      expect(rule(counts.map((c) => (c * (n + more)) / n))).toBe(true);
      expect(rule(counts.map((c) => (c * (n + more - 1)) / n))).toBe(false);
      // ...and analyze certifies the first file of whole sixths past it.
      const whole = Math.ceil((n + more) / 6) * 6;
      const at = analyzeDice([symbolRollsWithCounts('A', d6Die, new Array<number>(6).fill(whole / 6), 3)], { alpha, delta }).dice[0]!.verdict;
      expect(at.kind).toBe('FAIR_WITHIN');
    }
  });

  it('certifies each of several dice at alpha over the dice, so a wrong FAIR_WITHIN among them all stays within alpha', () => {
    // Exact sixths, alpha 0.05, ±0.03. SciPy (Wilson score, z² = chi2.ppf(1 - a/6, 1)) gives the first n that certifies:
    //   def first(a): n = 1; while not certifies(n, a, 0.03): n += 1   ->  first(0.05) = 1222, first(0.05 / 4) = 1664
    // (certifies: max(upper - 1/6, 1/6 - lower) <= delta for the interval of n/6 successes in n).
    const file = (n: number, label: string) => symbolRollsWithCounts(label, d6Die, new Array<number>(6).fill(n / 6), 3);
    expect(analyzeDice([file(1224, 'A')]).dice[0]!.verdict.kind).toBe('FAIR_WITHIN');
    const four = (n: number) => analyzeDice(['A', 'B', 'C', 'D'].map((l) => file(n, l)));
    // The same die among four: at 1,224 rolls each it is no longer certified; from 1,668 (the first sixths past 1,664) it is.
    expect(four(1224).certifyAlpha).toBe(0.0125);
    expect(four(1224).dice.map((d) => d.verdict.kind)).toEqual(['INCONCLUSIVE', 'INCONCLUSIVE', 'INCONCLUSIVE', 'INCONCLUSIVE']);
    expect(four(1662).dice[0]!.verdict.kind).toBe('INCONCLUSIVE');
    const certified = four(1668).dice[0]!.verdict;
    expect(certified).toMatchObject({ kind: 'FAIR_WITHIN', alpha: 0.0125 });
  });

  it('withholds the verdict as RIG_SUSPECT when the rig lets a die repeat its face 15 % of the time', () => {
    const random = seededRandom(99);
    const faces = new Uint8Array(3000);
    for (let i = 0; i < faces.length; i++) faces[i] = i > 0 && random() < 0.15 ? (faces[i - 1] as number) : Math.floor(random() * 8);
    const a = analyzeDice([fromFaces('sticky', redAttackDie, faces)]);
    expect(a.dice[0]!.verdict.kind).toBe('RIG_SUSPECT');
    expect(a.dice[0]!.serial.failed.map((c) => c.name)).toContain('repeat');
  });

  it('tests physical faces only where faces share a symbol', () => {
    const a = analyzeDice([
      simulatedRolls('R', redAttackDie, redAttackDie.faceProbabilities, 500, 7),
      simulatedRolls('D', d6Die, d6Die.faceProbabilities, 500, 8),
    ]);
    expect(a.dice[0]!.face?.labels).toHaveLength(8);
    expect(a.dice[1]!.face).toBeUndefined();
    expect(a.family).toBe(3);
  });

  it('reports the game figures against the odds that follow from the die: hits+crits 1/2 and 3/4, evades 3/8 and 5/8', () => {
    const a = analyzeDice([
      simulatedRolls('R', redAttackDie, redAttackDie.faceProbabilities, 100, 1),
      simulatedRolls('G', greenDefenseDie, greenDefenseDie.faceProbabilities, 100, 2),
    ]);
    expect(a.dice[0]!.game.map((g) => g.result.expected)).toEqual([0.5, 0.75]);
    expect(a.dice[1]!.game.map((g) => g.result.expected)).toEqual([0.375, 0.625]);
  });

  it('rejects an alpha or delta outside (0, 1)', () => {
    const r = simulatedRolls('R', redAttackDie, redAttackDie.faceProbabilities, 10, 1);
    expect(() => analyzeDice([r], { alpha: 0 })).toThrow(/alpha must be between 0 and 1/);
    expect(() => analyzeDice([r], { delta: 1.5 })).toThrow(/delta must be between 0 and 1/);
  });
});
