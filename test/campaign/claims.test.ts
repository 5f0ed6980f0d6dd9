/**
 * Claims of the next dice due, on a real PostgreSQL server: rigs racing for
 * dice through their own connections never hold the same die at once, and
 * every leg of the plan is rolled exactly once. A batch closes only with its
 * claim's session finished and holding exactly its dice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignSettings, nextDiceDue, planCampaign } from '../../src/analysis/campaign/campaignPlan.js';
import { bindBatchSession, claimNextBatch, completeBatch, takeOverBatch, type BatchClaimant } from '../../src/fleet/campaignClaims.js';
import { campaignBatches, campaignLegs, createCampaign, findCampaign, type Batch, type CampaignRecord } from '../../src/fleet/campaignStore.js';
import { openFleet, type FleetDb } from '../../src/fleet/connect.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

let server: ScratchPostgres;
let sessions = 0;

/**
 * What a rig host does between taking a batch and closing it, as the fleet store sees it: a session of the batch's
 * dice (`dice`: others, to try closing it with them), bound to the batch, copied, in state `state`.
 */
async function rolledIn(fleet: FleetDb, url: string, campaign: CampaignRecord, batch: Batch, by: BatchClaimant, state = 'finished', dice = batch.dice): Promise<void> {
  const genesis = `genesis-${++sessions}`;
  const config = { campaign: campaign.name, campaignUid: campaign.uid, campaignBatch: batch.id, dice: dice.map((d) => ({ label: d.label, type: d.die })) };
  await bindBatchSession(fleet, url, campaign, batch.id, by, { genesis, name: batch.sessionName });
  await fleet.pool.query(
    `INSERT INTO sessions (genesis, origin_host, origin_db, local_id, name, origin, kind, config_json, software_version, simulated, started_at, state, chain_version, head_hash, synced_at)
     VALUES ($1, $2, $3, $4, $5, 'rig', 'fairness', $6, 'test', 1, 0, $7, 2, $1, 0)`,
    [genesis, by.host, by.store, sessions, batch.sessionName, JSON.stringify(config), state],
  );
}

beforeAll(async () => {
  server = await startScratchPostgres();
}, 120_000);

afterAll(async () => {
  await server?.remove();
});

describe('taking the next dice due', () => {
  it('never gives two racing rigs the same die, and hands out every leg exactly once', async () => {
    const url = await server.createDatabase('claims');
    const box = Array.from({ length: 12 }, (_, i) => ({ label: `D${i + 1}`, die: i < 8 ? 'd6' : 'red', line: i + 2 }));
    const settings = campaignSettings({ rigs: 3, channels: 2, rollsPerLeg: 10, legsPerDie: 3 });
    const plan = planCampaign(box, settings);
    const admin = await openFleet(url);
    const rigs: FleetDb[] = [];
    try {
      await createCampaign(admin, url, { name: 'race', settings: { ...settings }, dice: box, legs: plan.legs, now: 0 });
      const campaign = await findCampaign(admin, url, 'race');
      const inRig = new Map<string, string>();
      const doubleHeld: string[] = [];
      const rolled: string[] = [];
      for (let i = 0; i < 3; i++) rigs.push(await openFleet(url, { max: 1 }));
      await Promise.all(
        ['1', '2', '3'].map(async (rig, i) => {
          const fleet = rigs[i] as FleetDb;
          for (;;) {
            const by = { host: `host-${rig}`, store: `/rig${rig}.db` };
            const claim = await claimNextBatch(fleet, url, campaign, rig, by, (p) => nextDiceDue(p, rig, settings.channels), 1);
            if (claim.kind === 'done') return;
            expect(claim.kind).not.toBe('open');
            if (claim.kind !== 'batch') {
              await new Promise((r) => setTimeout(r, 5));
              continue;
            }
            expect(new Set(claim.batch.dice.map((d) => d.die)).size).toBe(1);
            for (const d of claim.batch.dice) {
              const holder = inRig.get(d.label);
              if (holder !== undefined) doubleHeld.push(`${d.label} in rigs ${holder} and ${rig}`);
              inRig.set(d.label, rig);
              rolled.push(`${d.label}@${rig}`);
            }
            await new Promise((r) => setTimeout(r, 2));
            // The dice leave the rig before the fleet store frees them.
            for (const d of claim.batch.dice) inRig.delete(d.label);
            await rolledIn(fleet, url, campaign, claim.batch, by);
            await completeBatch(fleet, url, campaign, claim.batch.id, by, 2);
          }
        }),
      );
      expect(doubleHeld).toEqual([]);
      expect(rolled.sort()).toEqual(plan.legs.map((l) => `${l.label}@${l.rig}`).sort());
      expect((await campaignLegs(admin, url, campaign.id)).every((l) => l.state === 'done')).toBe(true);
    } finally {
      for (const f of rigs) await f.close();
      await admin.close();
    }
  }, 120_000);

  it('refuses a second campaign of the same name and names the campaigns there are for an unknown one', async () => {
    const url = await server.createDatabase('names');
    const fleet = await openFleet(url);
    try {
      const box = [{ label: 'X', die: 'd6' }];
      const settings = campaignSettings({ rigs: 2, channels: 1, rollsPerLeg: 5 });
      const plan = planCampaign(box.map((d) => ({ ...d, line: 2 })), settings);
      await createCampaign(fleet, url, { name: 'one', settings: { ...settings }, dice: box, legs: plan.legs, now: 0 });
      await expect(createCampaign(fleet, url, { name: 'one', settings: { ...settings }, dice: box, legs: plan.legs, now: 0 })).rejects.toThrow(/The campaign "one" exists already/);
      await expect(findCampaign(fleet, url, 'two')).rejects.toThrow(/There is no campaign "two" in .*; campaigns: one\./);
    } finally {
      await fleet.close();
    }
  }, 60_000);

  it('gives one of two hosts claiming the same rig at once a new batch, and the other that batch as open, to check whose it is', async () => {
    const url = await server.createDatabase('same_rig_race');
    const box = [{ label: 'X1', die: 'd6' }, { label: 'X2', die: 'd6' }];
    const settings = campaignSettings({ rigs: 1, channels: 1, rollsPerLeg: 5 });
    const admin = await openFleet(url);
    const hosts = [await openFleet(url, { max: 1 }), await openFleet(url, { max: 1 })];
    try {
      await createCampaign(admin, url, { name: 'race1', settings: { ...settings }, dice: box, legs: planCampaign(box.map((d, i) => ({ ...d, line: i + 2 })), settings).legs, now: 0 });
      const campaign = await findCampaign(admin, url, 'race1');
      const claims = await Promise.all(hosts.map((fleet, i) => claimNextBatch(fleet, url, campaign, '1', { host: `host-${i}`, store: '/rig.db' }, (p) => nextDiceDue(p, '1', 1), 1)));
      expect(claims.map((c) => c.kind).sort()).toEqual(['batch', 'open']);
      expect(new Set(claims.map((c) => (c.kind === 'batch' || c.kind === 'open' ? c.batch.id : undefined))).size).toBe(1);
    } finally {
      for (const f of hosts) await f.close();
      await admin.close();
    }
  }, 60_000);

  it("keeps a batch open until the claim's own session has finished with exactly the batch's dice", async () => {
    const url = await server.createDatabase('closing');
    const box = [{ label: 'Y1', die: 'd6' }, { label: 'Y2', die: 'd6' }];
    const settings = campaignSettings({ rigs: 1, channels: 2, rollsPerLeg: 5 });
    const fleet = await openFleet(url);
    try {
      await createCampaign(fleet, url, { name: 'close', settings: { ...settings }, dice: box, legs: planCampaign(box.map((d, i) => ({ ...d, line: i + 2 })), settings).legs, now: 0 });
      const campaign = await findCampaign(fleet, url, 'close');
      const by = { host: 'bench', store: '/bench.db' };
      const claim = await claimNextBatch(fleet, url, campaign, '1', by, (p) => nextDiceDue(p, '1', 2), 1);
      if (claim.kind !== 'batch') throw new Error(`no batch: ${claim.kind}`);
      const batch = claim.batch;
      await expect(completeBatch(fleet, url, campaign, batch.id, by, 2)).rejects.toThrow(`Batch ${batch.id} of campaign close stays open: no session of it has been opened.`);
      // Another campaign's session of the same name, with other dice: it rolled something else.
      await rolledIn(fleet, url, campaign, batch, by, 'finished', [{ label: 'Z9', die: 'd6' }]);
      await expect(completeBatch(fleet, url, campaign, batch.id, by, 2)).rejects.toThrow(/stays open: session "campaign close rig 1 batch \d+" rolled Z9 \(d6\), not the batch's Y1 \(d6\), Y2 \(d6\)\./);
      // Only the claim's holder closes it.
      await expect(completeBatch(fleet, url, campaign, batch.id, { host: 'bench', store: '/other.db' }, 2)).rejects.toThrow(/is now held by host bench with the local store \/bench\.db .* not by host bench with \/other\.db \(it was taken over\)/);
      // A session is bound once: another one of the same store is refused; after a take-over the new session is.
      await expect(rolledIn(fleet, url, campaign, batch, by)).rejects.toThrow(/is being rolled in another session of \/bench\.db/);
      const taken = await takeOverBatch(fleet, url, campaign, (await campaignBatches(fleet, url, campaign.id))[0] as Batch, by, 3);
      expect(taken.genesis).toBeNull();
      await rolledIn(fleet, url, campaign, taken, by, 'running');
      await expect(completeBatch(fleet, url, campaign, batch.id, by, 4)).rejects.toThrow(/stays open: its session "campaign close rig 1 batch \d+" is running in the fleet store, not finished\./);
      await fleet.pool.query(`UPDATE sessions SET state = 'finished' WHERE genesis = $1`, [(await campaignBatches(fleet, url, campaign.id))[0]?.genesis]);
      await completeBatch(fleet, url, campaign, batch.id, by, 5);
      expect((await campaignLegs(fleet, url, campaign.id)).map((l) => l.state)).toEqual(['done', 'done']);
    } finally {
      await fleet.close();
    }
  }, 60_000);
});
