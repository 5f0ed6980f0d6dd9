/**
 * Claims of the next dice due, on a real PostgreSQL server: rigs racing for
 * dice through their own connections never hold the same die at once, and
 * every leg of the plan is rolled exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignSettings, nextDiceDue, planCampaign } from '../../src/analysis/campaign/campaignPlan.js';
import { campaignLegs, claimNextBatch, completeBatch, createCampaign, findCampaign } from '../../src/fleet/campaignStore.js';
import { openFleet, type FleetDb } from '../../src/fleet/connect.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

let server: ScratchPostgres;

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
            const claim = await claimNextBatch(fleet, url, campaign, rig, `host-${rig}`, (p) => nextDiceDue(p, rig, settings.channels), 1);
            if (claim.kind === 'done') return;
            if (claim.kind === 'wait') {
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
            await completeBatch(fleet, url, campaign, claim.batch.id, 2);
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
});
