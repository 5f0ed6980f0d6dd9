import { describe, expect, it } from 'vitest';
import type { CampaignAnalysis } from '../../../src/analysis/campaign/campaignAnalysis.js';
import type { CampaignSessionRow, CampaignUnresolvedCount } from '../../../src/fleet/campaignStore.js';
import { reviewHint } from '../../../src/cli/campaign/campaignText.js';
import { sessionsToReview } from '../../../src/report/fleetCampaign.js';

const session = (batchId: number, rig: string): CampaignSessionRow => ({
  batchId,
  rig,
  sessionName: `box-${batchId}`,
  fleetSession: batchId,
  originHost: 'host',
  originDb: `/rigs/rig${rig}.db`,
  localId: batchId,
  state: 'finished',
  throwCount: 100,
  headHash: null,
  verdictsJson: null,
});
// A rig left unclear by its unresolved rolls: the report names where they wait for a person.
const unclear = { alpha: 0.001, types: [], biasedRigs: [], unclearRigs: [{ rig: '2', die: 'd6', reason: 'differs on its read rolls' }], legs: [] } as unknown as CampaignAnalysis;

describe('the sessions a campaign report sends a person to review', () => {
  it('names the sessions whose unresolved rolls nobody has looked at, and leaves out the rolls a person could not tell', () => {
    const sessions = [session(1, '1'), session(2, '2'), session(3, '2')];
    const unresolved: CampaignUnresolvedCount[] = [
      { batchId: 2, rig: '2', label: 'A', count: 5, cannotTell: 2 },
      { batchId: 2, rig: '2', label: 'B', count: 1, cannotTell: 0 },
      // Every unresolved roll of session 3 was looked at and could not be told: nothing waits there.
      { batchId: 3, rig: '2', label: 'A', count: 4, cannotTell: 4 },
    ];
    expect(sessionsToReview(sessions, unresolved, unclear)).toEqual([{ rig: '2', sessionName: 'box-2', unresolved: 4, host: 'host', store: '/rigs/rig2.db' }]);
  });

  it("gives the review command with the rig host's store, which is seldom the default one", () => {
    const hint = reviewHint([{ rig: '2', sessionName: 'campaign box1 rig 2 batch 4', unresolved: 46, host: 'rig-b', store: '/srv/rig 2.db' }]);
    expect(hint).toContain(`  rig 2 (on rig-b): dicerig review 'campaign box1 rig 2 batch 4' --db '/srv/rig 2.db'   (46 unresolved)`);
  });

  it('sends nobody to review when nothing waits on the unresolved rolls', () => {
    const settled = { ...unclear, unclearRigs: [] } as CampaignAnalysis;
    expect(sessionsToReview([session(2, '2')], [{ batchId: 2, rig: '2', label: 'A', count: 5, cannotTell: 0 }], settled)).toEqual([]);
  });
});
