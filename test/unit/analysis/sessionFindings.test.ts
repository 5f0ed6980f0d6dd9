import { describe, expect, it } from 'vitest';
import { analyseCampaign, type CampaignRollRow, type CampaignSessionInput } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { campaignSessionFindings, campaignSuspectVerdict } from '../../../src/analysis/campaign/sessionFindings.js';
import { getDieType } from '../../../src/dice/catalogue.js';
import { describeVerdict } from '../../../src/stats/verdict.js';

const TYPES = new Map([['d6', getDieType('d6')]]);
const FACES = ['1', '2', '3', '4', '5', '6'];

/** A on rigs 1+2, B on 2+3, C on 3+1, 600 rolls a leg; rig 2 shows the 6 at 160 where the others show 100. */
function analysis() {
  const legs: [string, string, number][] = [['A', '1', 1], ['A', '2', 2], ['B', '2', 3], ['B', '3', 4], ['C', '3', 5], ['C', '1', 6]];
  const rows: CampaignRollRow[] = legs.flatMap(([label, rig, batchId]) => FACES.map((symbol) => ({ batchId, rig, label, die: 'd6', symbol, count: symbol === '6' && rig === '2' ? 160 : 100 })));
  const sessions: CampaignSessionInput[] = legs.map(([label, rig, batchId]) => ({
    batchId,
    rig,
    sessionName: `campaign box rig ${rig} batch ${batchId}`,
    fleetSession: batchId + 10,
    state: 'finished',
    throwCount: 600,
    verdictsJson: JSON.stringify({ dice: [{ label, kind: 'UNFAIR', sentence: 'UNFAIR: as the session said.' }] }),
  }));
  return analyseCampaign({ alpha: 0.01, rigs: ['1', '2', '3'], box: ['A', 'B', 'C'].map((label) => ({ label, die: 'd6' })), types: TYPES, rows, sessions });
}

describe("a campaign's findings on its sessions, for the other readers", () => {
  it('names each synced session on a rig the campaign found biased, with the words its report gives the leg and where to read them', () => {
    const a = analysis();
    expect(a.biasedRigs.map((b) => b.rig)).toEqual(['2']);
    const found = campaignSessionFindings('box', a);
    expect([...found.keys()]).toEqual([12, 13]);
    const f = found.get(12)!;
    expect(f).toMatchObject({ campaign: 'box', fleetSession: 12, rig: '2', reason: a.biasedRigs[0]!.reason, alpha: 0.01 });
    const leg = a.legs.find((l) => l.fleetSession === 12)!;
    expect(f.sentence).toBe(`${leg.sentence} This session ran on rig 2 of campaign box: dicerig campaign report box gives the finding and each die's verdict on the trusted rigs.`);
  });

  it('gives a die of such a session a RIG_SUSPECT verdict that carries the campaign and reads as the finding', () => {
    const f = campaignSessionFindings('box', analysis()).get(13)!;
    const v = campaignSuspectVerdict(600, f);
    expect(v).toEqual({ kind: 'RIG_SUSPECT', n: 600, alpha: 0.01, failedChecks: [], campaign: { name: 'box', rig: '2', reason: f.reason } });
    expect(describeVerdict(v)).toBe(f.sentence);
  });

  it('finds nothing of the sessions when no rig is set aside, or a session is not synced yet', () => {
    const a = analysis();
    expect(campaignSessionFindings('box', { ...a, biasedRigs: [], legs: a.legs.map((l) => ({ ...l, kind: 'UNFAIR' })) }).size).toBe(0);
    expect(campaignSessionFindings('box', { ...a, legs: a.legs.map((l) => ({ ...l, fleetSession: null })) }).size).toBe(0);
  });
});
