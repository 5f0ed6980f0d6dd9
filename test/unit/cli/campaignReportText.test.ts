import { describe, expect, it } from 'vitest';
import { analyseCampaign, type CampaignRollRow, type CampaignSessionInput } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { formatCampaignReport } from '../../../src/cli/campaign/campaignText.js';
import { getDieType } from '../../../src/dice/catalogue.js';
import type { CampaignSessionRow } from '../../../src/fleet/campaignStore.js';

const TYPES = new Map(['d6', 'red', 'green'].map((id) => [id, getDieType(id)]));
const FACES = ['1', '2', '3', '4', '5', '6'];

/** Two dice, each rolled 600 times on rig 1 and on rig 2; rig 2 shows the 6 at 150 of 600 where rig 1 shows 100. */
function twoRigs(): { rows: CampaignRollRow[]; sessions: CampaignSessionInput[] } {
  const rows: CampaignRollRow[] = [];
  const legs: [string, string, number][] = [['A', '1', 1], ['B', '1', 1], ['A', '2', 2], ['B', '2', 2]];
  for (const [label, rig, batchId] of legs) {
    for (const symbol of FACES) rows.push({ batchId, rig, label, die: 'd6', symbol, count: rig === '2' ? (symbol === '6' ? 150 : 90) : 100 });
  }
  const sessions = [1, 2].map((batchId) => ({ batchId, rig: String(batchId), sessionName: `campaign c rig ${batchId} batch ${batchId}`, fleetSession: batchId, state: 'finished', throwCount: 600, verdictsJson: null }));
  return { rows, sessions };
}

const rowsOf = (sessions: readonly CampaignSessionInput[]): CampaignSessionRow[] =>
  sessions.map((s) => ({ batchId: s.batchId, rig: s.rig, sessionName: s.sessionName, fleetSession: s.fleetSession, originHost: 'host', originDb: `/rigs/rig${s.rig}.db`, localId: s.batchId, state: s.state, throwCount: s.throwCount, headHash: null, verdictsJson: s.verdictsJson }));

describe('campaign report text', () => {
  it('says once, for both rigs, that two rigs left disagreeing are both set aside', () => {
    const { rows, sessions } = twoRigs();
    const a = analyseCampaign({ alpha: 0.01, rigs: ['1', '2'], box: [{ label: 'A', die: 'd6' }, { label: 'B', die: 'd6' }], types: TYPES, rows, sessions });
    expect(a.biasedRigs.map((b) => b.rig)).toEqual(['1', '2']);
    const text = formatCampaignReport('c', rowsOf(sessions), a);
    const lines = text.split('\n').filter((l) => l.includes('RIG BIASED'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}RIG BIASED: rigs 1 and 2 disagree on the same dice \(p = [^)]+\); with two rigs left, which one is off cannot be told \(d6 dice\)\. The verdicts of the sessions of rigs 1 and 2 are RIG_SUSPECT\.$/);
    expect(text).not.toMatch(/Its sessions/);
  });

  it('gives each die one verdict for the campaign before its legs, and says so when no trusted rig is left for it', () => {
    const { rows, sessions } = twoRigs();
    const a = analyseCampaign({ alpha: 0.01, rigs: ['1', '2'], box: [{ label: 'A', die: 'd6' }, { label: 'B', die: 'd6' }], types: TYPES, rows, sessions });
    const text = formatCampaignReport('c', rowsOf(sessions), a);
    const verdicts = text.indexOf("The campaign's verdict for each die");
    const legs = text.indexOf('Each die on every rig it visited');
    expect(verdicts).toBeGreaterThan(0);
    expect(legs).toBeGreaterThan(verdicts);
    expect(text).toMatch(/^ {2}A +d6 +RIG_SUSPECT +- +0 +0 +-$/m);
    expect(text).toContain('  A: RIG_SUSPECT: no trusted rig left for this die: rigs 1 and 2, every rig that rolled it, were found biased, so no verdict on the die itself; roll it on a rig not found biased.\n');
    // The legs, each die's rigs together, in box order.
    expect(text.slice(legs).match(/^ {2}[AB] +rig \d/gm)?.map((l) => l.replace(/ +/g, ' '))).toEqual([' A rig 1', ' A rig 2', ' B rig 1', ' B rig 2']);
  });

  it('prints the level each die type\'s rigs are flagged at (alpha split over the types), and the campaign-wide bound', () => {
    const box = [{ label: 'D', die: 'd6' }, { label: 'R', die: 'red' }, { label: 'G', die: 'green' }];
    const rows: CampaignRollRow[] = [
      ...['1', '2'].flatMap((rig) => FACES.map((symbol) => ({ batchId: Number(rig), rig, label: 'D', die: 'd6', symbol, count: 100 }))),
      ...['1', '2'].flatMap((rig) => ['hit', 'crit', 'focus', 'blank'].map((symbol, i) => ({ batchId: Number(rig), rig, label: 'R', die: 'red', symbol, count: [30, 10, 20, 20][i] as number }))),
      ...['1', '2'].flatMap((rig) => ['evade', 'focus', 'blank'].map((symbol, i) => ({ batchId: Number(rig), rig, label: 'G', die: 'green', symbol, count: [30, 20, 30][i] as number }))),
    ];
    const a = analyseCampaign({ alpha: 0.01, rigs: ['1', '2'], box, types: TYPES, rows, sessions: [] });
    const text = formatCampaignReport('mix', [], a);
    expect(text).toContain('flagged one at a time while p × rigs still compared ≤ 0.00333 (α = 0.01 split over the 3 die types), Holm):');
    expect(text).not.toMatch(/still compared ≤ 0\.01\b/);
    expect(text).toMatch(/^Error control: α = 0\.01, spent on the rigs and again on the dice\.$/m);
    expect(text).toMatch(/^ {2}In all: with no rig biased, the chance of any wrong finding in this report \(a rig set aside, or a fair die called UNFAIR\) is at most 0\.02\.$/m);
    expect(text).toContain('Holm across all 3 dice of the box at 0.01');
  });
});
