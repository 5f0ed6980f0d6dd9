import { describe, expect, it } from 'vitest';
import { analyseCampaign, type CampaignRollRow, type CampaignSessionInput } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { formatCampaignReport } from '../../../src/cli/campaign/campaignText.js';
import { getDieType } from '../../../src/dice/catalogue.js';
import type { CampaignSessionRow } from '../../../src/fleet/campaignStore.js';

const TYPES = new Map([['d6', getDieType('d6')]]);
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
  sessions.map((s) => ({ batchId: s.batchId, rig: s.rig, sessionName: s.sessionName, fleetSession: s.fleetSession, originHost: 'host', localId: s.batchId, state: s.state, throwCount: s.throwCount, headHash: null, verdictsJson: s.verdictsJson }));

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
});
