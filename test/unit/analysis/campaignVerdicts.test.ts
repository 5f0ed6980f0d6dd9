import { describe, expect, it } from 'vitest';
import { analyseCampaign, type CampaignRollRow, type CampaignSessionInput } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { getDieType } from '../../../src/dice/catalogue.js';

const TYPES = new Map([['d6', getDieType('d6')]]);
const FACES = ['1', '2', '3', '4', '5', '6'];
const FAIR = [83, 84, 83, 84, 83, 83];
const BOX = ['A', 'B', 'C'].map((label) => ({ label, die: 'd6' }));
const verdicts = (label: string, kind: string): string => JSON.stringify({ dice: [{ label, kind, sentence: `${kind}: as the session said.` }] });

/**
 * Three dice, each on two of three rigs for 500 rolls (A on 1+2, B on 2+3, C on 3+1); `count(rig, face)` gives each
 * leg's counts, `said(rig, label)` the verdict each leg's session stored.
 */
function campaign(count: (rig: string, face: number, label: string) => number, said: (rig: string, label: string) => string, rigs = ['1', '2', '3']) {
  const legs: [string, string, number][] = [['A', '1', 1], ['A', '2', 2], ['B', '2', 3], ['B', '3', 4], ['C', '3', 5], ['C', '1', 6]].filter(([, rig]) => rigs.includes(rig as string)) as [string, string, number][];
  const rows: CampaignRollRow[] = legs.flatMap(([label, rig, batchId]) => FACES.map((symbol, f) => ({ batchId, rig, label, die: 'd6', symbol, count: count(rig, f, label) })));
  const sessions: CampaignSessionInput[] = legs.map(([label, rig, batchId]) => ({ batchId, rig, sessionName: `s${batchId}`, fleetSession: batchId, state: 'finished', throwCount: 500, verdictsJson: verdicts(label, said(rig, label)) }));
  return analyseCampaign({ alpha: 0.01, rigs, box: BOX, types: TYPES, rows, sessions });
}

describe("a campaign's one verdict per die", () => {
  it("gives each die the pooled verdict of its trusted rigs, and names a leg that alone says UNFAIR, with how its rig compares and why it was not set aside", () => {
    // Rig 3 shows the 6 at 122 of 539 where the others show 83 of 500: not enough to set it aside (p × 3 rigs > 0.01).
    const a = campaign((rig, f) => (rig === '3' && f === 5 ? 122 : (FAIR[f] as number)), (rig) => (rig === '3' ? 'UNFAIR' : 'INCONCLUSIVE'));
    expect(a.biasedRigs).toEqual([]);
    const rig3 = a.types[0]!.rigs.versusRest.find((r) => r.rig === '3')!;
    expect(rig3.p * 3).toBeGreaterThan(0.01);
    expect(rig3.p).toBeLessThan(0.05);
    expect(a.verdicts.map((v) => [v.label, v.kind, v.rigs])).toEqual([
      ['A', 'INCONCLUSIVE', ['1', '2']],
      ['B', 'INCONCLUSIVE', ['2', '3']],
      ['C', 'INCONCLUSIVE', ['1', '3']],
    ]);
    const b = a.verdicts[1]!;
    expect(b.sentence).toMatch(/^INCONCLUSIVE: not shown unfair across rigs 2 and 3 \(p = [\d.]+, Holm over the 3 dice of the box; UNFAIR needs at most 0\.01\); no margin is certified\.$/);
    expect(b.pHolm).toBe(a.types[0]!.dice[1]!.pHolm);
    expect(b.disagreements).toEqual([
      `rig 3's leg alone says UNFAIR (its session's verdict, at that session's α); across rigs 2 and 3 the die is not shown unfair. Rig 3 may favour 6 (p = ${rig3.p.toPrecision(2)} against the other trusted rigs; not set aside: that needs p × 3 rigs ≤ 0.01).`,
    ]);
    // A die whose legs agree with its verdict has nothing to reconcile.
    expect(a.verdicts[0]!.disagreements).toEqual([]);
  });

  it('says there is no trusted rig left for a die when every rig that rolled it was set aside, instead of a row of zeros', () => {
    // Two rigs that disagree: which one is off cannot be told, so both are set aside.
    const a = campaign((rig, f) => (rig === '2' && f === 5 ? 200 : (FAIR[f] as number)), (rig) => (rig === '2' ? 'UNFAIR' : 'INCONCLUSIVE'), ['1', '2']);
    expect(a.biasedRigs.map((b) => b.rig)).toEqual(['1', '2']);
    const die = a.verdicts.find((v) => v.label === 'A')!;
    expect(die).toMatchObject({ kind: 'RIG_SUSPECT', rigs: [], rolls: 0, pHolm: null });
    expect(die.sentence).toBe('RIG_SUSPECT: no trusted rig left for this die: rigs 1 and 2, every rig that rolled it, were found biased, so no verdict on the die itself; roll it on a rig not found biased.');
    // The leg that said UNFAIR on a rig set aside is named as left out.
    expect(die.disagreements).toEqual(["rig 2's leg is left out: its session said UNFAIR, but rig 2 was found biased."]);
    // B was rolled on rig 2 alone here (its rig 3 leg is not in this campaign): set aside with it.
    expect(a.verdicts.find((v) => v.label === 'B')!.sentence).toMatch(/^RIG_SUSPECT: no trusted rig left for this die: rig 2, the only rig that rolled it, was found biased/);
  });

  it('makes a die UNFAIR on its pooled trusted rolls, names a leg that alone said FAIR_WITHIN, and leaves out the rolls of a rig set aside', () => {
    // Die A shows the 6 at 130 of 547 on rigs 1 and 2; rig 3 shows the 6 at 200 of 617 on dice B and C, and is set aside.
    const a = campaign(
      (rig, f, label) => (f !== 5 ? (FAIR[f] as number) : label === 'A' ? 130 : rig === '3' ? 200 : 83),
      (rig, label) => (label === 'A' && rig === '1' ? 'FAIR_WITHIN' : 'INCONCLUSIVE'),
    );
    expect(a.biasedRigs.map((b) => b.rig)).toEqual(['3']);
    expect(a.verdicts.map((v) => [v.label, v.kind, v.rigs, v.rolls])).toEqual([
      ['A', 'UNFAIR', ['1', '2'], 1094],
      ['B', 'INCONCLUSIVE', ['2'], 500],
      ['C', 'INCONCLUSIVE', ['1'], 500],
    ]);
    expect(a.verdicts[0]!.sentence).toMatch(/^UNFAIR across rigs 1 and 2: 6 comes up 0\.238 instead of 0\.167 over 1,094 rolls \(G test, p = [\d.e-]+, Holm over the 3 dice of the box, at most 0\.01\)\.$/);
    expect(a.verdicts[0]!.disagreements).toEqual(["rig 1's leg alone says FAIR_WITHIN (its session's verdict, at that session's α); across rigs 1 and 2 the die is UNFAIR. Rig 1: p = 1.0 against the other trusted rig; not set aside: that needs p × 2 rigs ≤ 0.01."]);
    expect(a.verdicts[1]!.sentence).toMatch(/^INCONCLUSIVE: not shown unfair on its one trusted rig, rig 2 \(.*\); no margin is certified\. Its rolls on rig 3 are left out: found biased\.$/);
  });

  it("gives an UNFAIR die's leading face as the share it spans whatever its unresolved rolls were, over all its rolls, not of its read ones", () => {
    // Die A shows the 6 at 130 of 547 read rolls on rigs 1 and 2, and 30 more of its rolls on rig 1 are unresolved.
    const legs: [string, string, number][] = [['A', '1', 1], ['A', '2', 2], ['B', '2', 3], ['B', '3', 4], ['C', '3', 5], ['C', '1', 6]];
    const count = (f: number, label: string): number => (f === 5 && label === 'A' ? 130 : (FAIR[f] as number));
    const rows: CampaignRollRow[] = legs.flatMap(([label, rig, batchId]) => FACES.map((symbol, f) => ({ batchId, rig, label, die: 'd6', symbol, count: count(f, label) })));
    const sessions: CampaignSessionInput[] = legs.map(([label, rig, batchId]) => ({ batchId, rig, sessionName: `s${batchId}`, fleetSession: batchId, state: 'finished', throwCount: 500, verdictsJson: verdicts(label, 'INCONCLUSIVE') }));
    const a = analyseCampaign({ alpha: 0.01, rigs: ['1', '2', '3'], box: BOX, types: TYPES, rows, unresolved: [{ batchId: 1, rig: '1', label: 'A', count: 30 }], sessions });
    const die = a.verdicts.find((v) => v.label === 'A')!;
    expect(die.kind).toBe('UNFAIR');
    // 260 of the 1,094 read rolls are 6s (0.238); of all 1,124 rolls, 260 to 290 whatever the 30 were: 0.231 to 0.258.
    expect(die.sentence).toMatch(/^UNFAIR across rigs 1 and 2: 6 comes up 0\.231 to 0\.258 instead of 0\.167 over 1,124 rolls \(G test, /);
    expect(die.sentence).not.toContain('0.238');
  });
});
