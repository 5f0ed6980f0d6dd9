import { describe, expect, it } from 'vitest';
import { BATCH_CATCH_UP, closeWhenFleetAnswers } from '../../../src/cli/campaign/closeBatch.js';
import { fleetFinishLine } from '../../../src/cli/fleetSync.js';
import { CampaignClaimError, FleetUnreachableError } from '../../../src/fleet/errors.js';

const down = (): FleetUnreachableError => new FleetUnreachableError('Cannot reach the fleet store postgres://fleet while copying session 1: check that PostgreSQL is running.');

describe("closing a campaign batch while the fleet store does not answer", () => {
  it('waits out a short outage and closes the batch once the fleet store answers again, saying each wait', async () => {
    let tries = 0;
    const said: string[] = [];
    const waited: number[] = [];
    await closeWhenFleetAnswers(
      async () => {
        tries++;
        if (tries < 3) throw down();
      },
      { waitsMs: [10, 20, 30], sleep: async (ms) => void waited.push(ms), say: (l) => said.push(l), again: 'dicerig campaign run box1 --rig 1 --db r1.db --fleet URL' },
    );
    expect(tries).toBe(3);
    expect(waited).toEqual([10, 20]);
    expect(said[0]).toMatch(/^the fleet store did not answer while closing the batch \(Cannot reach .*\); trying again in 0 s\.$/);
  });

  it('gives up after its last wait saying the batch stays open and that campaign run, not sync, closes it', async () => {
    const run = closeWhenFleetAnswers(async () => Promise.reject(down()), { waitsMs: [1], sleep: async () => undefined, say: () => undefined, again: 'dicerig campaign run box1 --rig 1 --db r1.db --fleet URL' });
    await expect(run).rejects.toThrow(/The batch stays open, its throws safe in the local store: once the fleet store answers, run dicerig campaign run box1 --rig 1 --db r1\.db --fleet URL again to copy its session and close the batch \(dicerig sync copies the throws but closes no batch\)\./);
  });

  it('does not wait out a batch another rig holds: that error is thrown at once', async () => {
    let tries = 0;
    const held = closeWhenFleetAnswers(
      async () => {
        tries++;
        throw new CampaignClaimError('Batch 3 of campaign box1 stays open: rig-b holds it.');
      },
      { waitsMs: [1, 1], sleep: async () => undefined, say: () => undefined, again: 'x' },
    );
    await expect(held).rejects.toThrow(/rig-b holds it/);
    expect(tries).toBe(1);
  });
});

describe("the line a batch session's run ends with when replication fell short", () => {
  it('points to the rig host catching up before it closes the batch, where a plain run points to dicerig sync (which closes no batch)', () => {
    const behind = { refused: false, loginRefused: false, error: null, behind: 2, refusedSessions: [] };
    const plain = fleetFinishLine(behind, 'postgres://fleet', 'run `dicerig sync --db rig.db --to URL` later.');
    expect(plain).toBe('Fleet store postgres://fleet: 2 throws not copied yet; they are safe in the local store: run `dicerig sync --db rig.db --to URL` later.\n');
    const batch = fleetFinishLine({ ...behind, error: 'Cannot reach the fleet store' }, 'postgres://fleet', BATCH_CATCH_UP);
    expect(batch).toBe('Fleet store postgres://fleet: could not confirm that every throw was copied (Cannot reach the fleet store); any not copied are safe in the local store: this rig host copies them next (before it closes the batch), or says what to run.\n');
    expect(batch).not.toContain('dicerig sync');
  });
});
