import { describe, expect, it } from 'vitest';
import { analyseCampaign, campaignTables, type CampaignRollRow, type CampaignSessionInput } from '../../../src/analysis/campaign/campaignAnalysis.js';
import { getDieType } from '../../../src/dice/catalogue.js';

const TYPES = new Map([['d6', getDieType('d6')], ['red', getDieType('red')]]);
const RIGS = ['1', '2', '3'];
const BOX = ['A', 'B', 'C'].map((label) => ({ label, die: 'd6' }));

/** Three dice each on two rigs (A on 1+2, B on 2+3, C on 3+1); rig 2 shows the 6 `heavy` times as often as the others' rolls of the same dice. */
function rows(heavy: number): CampaignRollRow[] {
  const out: CampaignRollRow[] = [];
  const legs: [string, string, number][] = [['A', '1', 1], ['A', '2', 2], ['B', '2', 3], ['B', '3', 4], ['C', '3', 5], ['C', '1', 6]];
  for (const [label, rig, batchId] of legs) {
    for (const symbol of ['1', '2', '3', '4', '5', '6']) out.push({ batchId, rig, label, die: 'd6', symbol, count: symbol === '6' && rig === '2' ? 100 * heavy : 100 });
  }
  return out;
}

const verdicts = (labels: string[], kind: string): string => JSON.stringify({ dice: labels.map((label) => ({ label, kind, sentence: `${kind}: as the session said.` })) });

function sessions(): CampaignSessionInput[] {
  const legs: [number, string, string][] = [[1, '1', 'A'], [2, '2', 'A'], [3, '2', 'B'], [4, '3', 'B'], [5, '3', 'C'], [6, '1', 'C']];
  return legs.map(([batchId, rig, label]) => ({ batchId, rig, sessionName: `campaign c rig ${rig} batch ${batchId}`, fleetSession: batchId, state: 'finished', throwCount: 600, verdictsJson: verdicts([label], rig === '2' ? 'UNFAIR' : 'INCONCLUSIVE') }));
}

describe('campaign tables', () => {
  it('adds every row into its die, rig and symbol, one table per die type in box order', () => {
    const t = campaignTables(rows(1), RIGS, [...BOX, { label: 'R1', die: 'red' }], TYPES);
    expect([...t.keys()]).toEqual(['d6', 'red']);
    const d6 = t.get('d6')!;
    expect(d6.dice).toEqual(['A', 'B', 'C']);
    expect(d6.counts[0]).toEqual([[100, 100, 100, 100, 100, 100], [100, 100, 100, 100, 100, 100], [0, 0, 0, 0, 0, 0]]);
    expect(t.get('red')!.faces).toEqual(['hit', 'crit', 'focus', 'blank']);
  });
});

describe('campaign analysis', () => {
  it('finds the rig whose dice show the 6 more often than on the other rigs, and makes its sessions RIG_SUSPECT, keeping what they said', () => {
    const a = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: rows(1.6), sessions: sessions() });
    expect(a.biasedRigs.map((b) => b.rig)).toEqual(['2']);
    const onRig2 = a.legs.filter((l) => l.rig === '2');
    expect(onRig2.map((l) => [l.label, l.kind, l.sessionKind])).toEqual([['A', 'RIG_SUSPECT', 'UNFAIR'], ['B', 'RIG_SUSPECT', 'UNFAIR']]);
    expect(onRig2[0]!.sentence).toMatch(/^RIG_SUSPECT: rig 2 differs from the other rigs .*favouring 6; no per-die verdict from this rig's sessions\.$/);
    expect(a.legs.filter((l) => l.rig !== '2').every((l) => l.kind === 'INCONCLUSIVE')).toBe(true);
    // Judged on rigs 1 and 3 only, the dice are exactly fair: not unfair.
    expect(a.types[0]!.dice.map((d) => [d.die, d.rolls, d.unfair])).toEqual([['A', 600, false], ['B', 600, false], ['C', 1200, false]]);
    expect(a.legs.find((l) => l.batchId === 2)!.rolls).toBe(660);
  });

  it('leaves a rig found biased on the D6s out of every die type\'s pooled test, as its sessions are RIG_SUSPECT whatever dice they rolled', () => {
    const red = ['hit', 'crit', 'focus', 'blank'];
    const redRows: CampaignRollRow[] = [['1', 7], ['2', 8]].flatMap(([rig, batchId]) => red.map((symbol) => ({ batchId: batchId as number, rig: rig as string, label: 'R1', die: 'red', symbol, count: 50 })));
    const redSessions = [7, 8].map((batchId) => ({ batchId, rig: String(batchId - 6), sessionName: `r${batchId}`, fleetSession: batchId, state: 'finished', throwCount: 200, verdictsJson: null }));
    const a = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: [...BOX, { label: 'R1', die: 'red' }], types: TYPES, rows: [...rows(1.6), ...redRows], sessions: [...sessions(), ...redSessions] });
    expect(a.biasedRigs.map((b) => [b.rig, b.die])).toEqual([['2', 'd6']]);
    expect(a.legs.find((l) => l.label === 'R1' && l.rig === '2')!.kind).toBe('RIG_SUSPECT');
    expect(a.types[1]!.dice.map((d) => [d.die, d.rolls])).toEqual([['R1', 200]]);
    expect(a.verdicts.find((v) => v.label === 'R1')!.rigs).toEqual(['1']);
  });

  it('does not make a rig\'s sessions RIG_SUSPECT when its reader declined the 6s its read rolls lack, and names the rig as unclear', () => {
    // Every rig fair; rig 2's camera left 90 of each die's 100 sixes unresolved.
    const read = rows(1).map((r) => (r.rig === '2' && r.symbol === '6' ? { ...r, count: 10 } : r));
    const unresolved = [{ batchId: 2, rig: '2', label: 'A', count: 90 }, { batchId: 3, rig: '2', label: 'B', count: 90 }];
    const onRead = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: read, sessions: sessions() });
    expect(onRead.biasedRigs.map((b) => b.rig)).toEqual(['2']);
    const a = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: read, unresolved, sessions: sessions() });
    expect(a.biasedRigs).toEqual([]);
    expect(a.unclearRigs.map((u) => [u.rig, u.die])).toEqual([['2', 'd6']]);
    expect(a.unclearRigs[0]!.reason).toMatch(/the 180 unresolved rolls of the dice compared could be the faces/);
    expect(a.legs.filter((l) => l.rig === '2').map((l) => l.kind)).toEqual(['UNFAIR', 'UNFAIR']);
    // Judged on every rig now, dice A and B lack 6s on their read rolls, but not whatever their unresolved rolls were.
    expect(a.types[0]!.dice.map((d) => [d.die, d.unresolved, d.unfair, d.reviewFirst])).toEqual([['A', 90, false, true], ['B', 90, false, true], ['C', 0, false, false]]);
  });

  it('flags no rig when the rigs agree, and shows each session\'s own verdict', () => {
    const a = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: rows(1), sessions: sessions() });
    expect(a.biasedRigs).toEqual([]);
    expect(a.legs.filter((l) => l.rig === '2').map((l) => l.kind)).toEqual(['UNFAIR', 'UNFAIR']);
  });

  it('says a session is pending when it is not synced or has no verdict yet', () => {
    const pending: CampaignSessionInput[] = [{ batchId: 9, rig: '1', sessionName: 'x', fleetSession: null, state: null, throwCount: 0, verdictsJson: null }];
    const a = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: [{ batchId: 9, rig: '1', label: 'A', die: 'd6', symbol: '1', count: 1 }], sessions: pending });
    expect(a.legs).toEqual([{ batchId: 9, rig: '1', fleetSession: null, label: 'A', rolls: 1, kind: 'PENDING', sentence: 'not synced yet' }]);
  });

  it("says a session resumed after a stop is pending, not the verdict it stored when it stopped, and names that one as of then", () => {
    const stopped = verdicts(['A'], 'INCONCLUSIVE').replace('as the session said.', 'undecided after 14 rolls.');
    const base = { batchId: 1, rig: '1', sessionName: 'campaign c rig 1 batch 1', fleetSession: 1, throwCount: 37, verdictsJson: stopped };
    const row = [{ batchId: 1, rig: '1', label: 'A', die: 'd6', symbol: '1', count: 37 }];
    const running = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: row, sessions: [{ ...base, state: 'running' }] });
    expect(running.legs.map((l) => [l.kind, l.sentence])).toEqual([['PENDING', 'the session is still running (37 throws so far); its verdict comes when it finishes (when it last ended it said: INCONCLUSIVE: undecided after 14 rolls)']]);
    const again = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: row, sessions: [{ ...base, state: 'stopped' }] });
    expect(again.legs[0]!.sentence).toBe("the session was stopped after 37 throws; its leg is not done: `dicerig campaign run` on its rig's host resumes it (when it last ended it said: INCONCLUSIVE: undecided after 14 rolls)");
    const finished = analyseCampaign({ alpha: 0.01, rigs: RIGS, box: BOX, types: TYPES, rows: row, sessions: [{ ...base, state: 'finished' }] });
    expect(finished.legs.map((l) => l.kind)).toEqual(['INCONCLUSIVE']);
  });
});
