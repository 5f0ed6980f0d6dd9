import { describe, expect, it } from 'vitest';
import { analyseCampaign, type CampaignRollRow } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { getDieType } from '../../../src/dice/catalogue.js';

const TYPES = new Map(['d6', 'red', 'green'].map((id) => [id, getDieType(id)]));
const BOX = [{ label: 'D', die: 'd6' }, { label: 'R', die: 'red' }, { label: 'G', die: 'green' }];

/** One die of each type, the same counts on rig 1 and rig 2 (so no rig differs): the d6 shows its 6 at 134 of 634. */
function rows(): CampaignRollRow[] {
  const perRig: [string, string, string[], number[]][] = [
    ['D', 'd6', ['1', '2', '3', '4', '5', '6'], [100, 100, 100, 100, 100, 134]],
    ['R', 'red', ['hit', 'crit', 'focus', 'blank'], [31, 9, 20, 20]],
    ['G', 'green', ['evade', 'focus', 'blank'], [28, 22, 30]],
  ];
  return perRig.flatMap(([label, die, symbols, counts]) =>
    ['1', '2'].flatMap((rig) => symbols.map((symbol, i) => ({ batchId: Number(rig), rig, label, die, symbol, count: counts[i] as number }))),
  );
}

const analysis = () => analyseCampaign({ alpha: 0.01, rigs: ['1', '2'], box: BOX, types: TYPES, rows: rows(), sessions: [] });

describe("a campaign's error control", () => {
  it('decides the dice of every type as one family, Holm over all of them, so three types do not spend three alphas', () => {
    // Golden values, SciPy 1.17 (G test of the pooled counts; Holm over the three p-values by hand):
    //   from scipy.stats import power_divergence; import numpy as np
    //   g = lambda c, p: power_divergence(np.array(c, float), f_exp=np.array(p) * sum(c), lambda_='log-likelihood').pvalue
    //   ps = [g([200,200,200,200,200,268], [1/6]*6), g([62,18,40,40], [3/8,1/8,2/8,2/8]), g([56,44,60], [3/8,2/8,3/8])]
    //   -> [0.004335214049190278, 0.9650311735848233, 0.7188898670833863]; Holm -> [0.013005642147570835, 1, 1]
    const a = analysis();
    const dice = a.types.flatMap((t) => t.dice);
    expect(dice.map((d) => d.die)).toEqual(['D', 'R', 'G']);
    expect(dice[0]!.g.p).toBeCloseTo(0.004335214049190278, 14);
    expect(dice[1]!.g.p).toBeCloseTo(0.9650311735848233, 12);
    expect(dice[2]!.g.p).toBeCloseTo(0.7188898670833863, 12);
    expect(dice[0]!.pHolm).toBeCloseTo(0.013005642147570835, 14);
    expect(dice.slice(1).map((d) => d.pHolm)).toEqual([1, 1]);
    // Holm within the d6 dice alone would have called D unfair at 0.0043 <= 0.01.
    expect(dice.map((d) => d.unfair)).toEqual([false, false, false]);
    expect(a.errorControl).toMatchObject({ alpha: 0.01, dieTypes: 3, dice: 3, bound: 0.02 });
  });

  it("flags rigs at alpha split over the die types, and says so with the level it used", () => {
    const a = analysis();
    expect(a.types.map((t) => t.rigs.alpha)).toEqual([0.01 / 3, 0.01 / 3, 0.01 / 3]);
    expect(a.errorControl.rigAlphaPerType).toBe(0.01 / 3);
    expect(a.errorControl.lines[1]).toBe(
      'Rigs: a rig is set aside while its p × the rigs still compared is at most 0.00333 for each of the 3 die types (d6, red and green: α = 0.01 split over them); with no rig biased, one is set aside wrongly with chance at most 0.01.',
    );
  });

  it('gives one campaign-wide bound on any wrong finding, and says a leg is its own session\'s verdict at its own alpha', () => {
    const { lines } = analysis().errorControl;
    expect(lines[2]).toMatch(/^Dice: each die's campaign verdict pools its rolls on the trusted rigs \(G test against its odds\), Holm over all 3 dice of the box at 0\.01 .*the chance that any fair die is called UNFAIR is at most 0\.01\. They certify no FAIR_WITHIN/);
    expect(lines[3]).toBe('In all: with no rig biased, the chance of any wrong finding in this report (a rig set aside, or a fair die called UNFAIR) is at most 0.02.');
    expect(lines[4]).toMatch(/^Legs: each leg's verdict is its session's own, made at that session's α for the dice it rolled together/);
  });
});
