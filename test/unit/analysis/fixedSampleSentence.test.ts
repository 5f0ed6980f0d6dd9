import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../../src/analysis/analyze.js';
import { analysisJson } from '../../../src/cli/format/analysisJson.js';
import { formatAnalysisText } from '../../../src/cli/format/analysisText.js';
import { d3Die, redAttackDie } from '../../../src/dice/catalogue.js';
import { verdictMeaning } from '../../../src/report/plainWords.js';
import { faceRollsWithCounts, simulatedRolls } from './helpers.js';

// The tester's D3: D6 faces [313, 86, 180, 210, 214, 197], so results 1, 2, 3 [399, 390, 411].
// from scipy.stats import chisquare
// chisquare([399, 390, 411])                 -> statistic 0.555, p 0.7576755646029745
// chisquare([313, 86, 180, 210, 214, 197])   -> statistic 132.35, p 7.546991969068374e-27
// Holm over the two: face 2 * 7.547e-27 = 1.509e-26, symbol max(0.7577, 1.509e-26) = 0.7577.
const d3 = () => analyzeDice([faceRollsWithCounts('A', d3Die, [313, 86, 180, 210, 214, 197], 3)]);

describe('the sentence of a die UNFAIR by face', () => {
  it("names a D3's faces with what they read, and says its results show no bias, with SciPy's p", () => {
    const a = d3();
    const d = a.dice[0]!;
    expect(d.symbol.pearson.p).toBeCloseTo(0.7576755646029745, 12);
    expect(d.face!.pearson.p / 7.546991969068374e-27).toBeCloseTo(1, 9);
    expect(d.sentence).toBe(
      'UNFAIR: face 2 (reads 1) comes up 0.0717 instead of 0.167 and face 1 (reads 1) 0.261 instead of 0.167 (p = 1.5e-26, after 1,200 rolls); ' +
        'by what it reads (1, 2, 3) no bias found, p = 0.76.',
    );
  });

  it("shows a D3's faces by name in the text tables and the report, and keeps their ids in the JSON categories", () => {
    const a = d3();
    const text = formatAnalysisText(a);
    expect(text).toMatch(/^ {4}face 2 \(reads 1\) +86 +0\.072 +0\.167 /m);
    const json = JSON.parse(analysisJson(a)) as { dice: { face: { categories: string[]; names: string[] }; verdict: { drivers: { label: string }[] } }[] };
    expect(json.dice[0]!.face.categories).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(json.dice[0]!.face.names[1]).toBe('face 2 (reads 1)');
    expect(json.dice[0]!.verdict.drivers[0]!.label).toBe('face 2 (reads 1)');
    const meaning = verdictMeaning(a.dice[0]!, a);
    expect(meaning).toContain('face 2 (reads 1) comes up 0.0717 of the time instead of 0.167 (-57 %).');
    expect(meaning).toContain('By what it reads (1, 2, 3) no bias was found (p = 0.76): the bias is between faces that read alike.');
  });

  it('says the same of a red die whose hit-1 comes up in place of hit-2, whose faces keep their ids', () => {
    // By symbol exactly [375, 125, 250, 250] of 1,000: chisquare(...) gives p 1.
    // 2 * chisquare([250, 0, 125, 125, 125, 125, 125, 125]).pvalue -> 5.54142341649455e-50 (Holm over the two tests)
    const a = analyzeDice([faceRollsWithCounts('R', redAttackDie, [250, 0, 125, 125, 125, 125, 125, 125], 5)]);
    expect(a.dice[0]!.sentence).toBe(
      'UNFAIR: hit-1 comes up 0.25 instead of 0.125 and hit-2 0 instead of 0.125 (p = 5.5e-50, after 1,000 rolls); by what it reads (hit, crit, focus, blank) no bias found, p = 1.',
    );
  });

  it('adds nothing when the symbols are off too', () => {
    // Every hit face at 0.25: hit at 0.75 of 2,000 rolls is far off by symbol as well as by face.
    const odds = [0.25, 0.25, 0.25, 0.05, 0.05, 0.05, 0.05, 0.05];
    const a = analyzeDice([simulatedRolls('R', redAttackDie, odds, 2000, 9)]);
    expect(a.dice[0]!.verdict.kind).toBe('UNFAIR');
    expect(a.dice[0]!.sentence).not.toContain('no bias found');
    expect(verdictMeaning(a.dice[0]!, a).join(' ')).not.toContain('no bias was found');
  });
});
