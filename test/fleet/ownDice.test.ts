/**
 * A session of dice of the user's own, synced to a real PostgreSQL fleet store (a scratch cluster): the fleet's
 * dashboard and `report --db URL` judge it by the definitions stored with the session, as the rig's own store does,
 * with no dice file at hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { runCli } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { LOADED_CLAIM_DICE } from '../support/userDice.js';

const DICE = LOADED_CLAIM_DICE;

let pg: ScratchPostgres;
let url: string;
const dir = tempDir('dicerig-fleet-own-dice-');

beforeAll(async () => {
  pg = await startScratchPostgres();
  url = await pg.createDatabase('fleet');
  mkdirSync(join(dir, 'dice'), { recursive: true });
  writeFileSync(join(dir, 'dice', 'mine.yaml'), DICE);
  writeFileSync(join(dir, 'run.yaml'), 'seed: 3\ndiceFile: dice/mine.yaml\ndice:\n  - { label: claim-A, type: loaded-claim }\nrig: { driver: sim }\nstopping: { budgetRolls: 30 }\n');
  const db = join(dir, 'rig.db');
  const run = await runCli('run', join(dir, 'run.yaml'), '--db', db, '--plain');
  expect(run.code, run.err).toBe(0);
  // The dice file gone: the fleet has only what the session stored.
  writeFileSync(join(dir, 'dice', 'mine.yaml'), 'not: [a dice file\n');
  const synced = await runCli('sync', '--db', db, '--to', url, '--quiet');
  expect(synced.code, synced.err).toBe(0);
}, 120_000);

afterAll(async () => {
  await pg?.remove();
});

describe('a fleet session of dice of the user\'s own', () => {
  it('has its verdicts on the fleet dashboard, judged by the definitions stored with it', async () => {
    const fleet = await openFleet(url);
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 100, remakeMs: 1000, now: () => 1_800_000_000_000 });
      const session = (await view.state()).sessions[0];
      expect(session?.verdicts?.note).toBeNull();
      expect(session?.verdicts?.dice.map((d) => [d.label, d.type, d.rolls])).toEqual([['claim-A', 'loaded-claim', 30]]);
    } finally {
      await fleet.close();
    }
  });

  it('is reported from the fleet store with no dice file', async () => {
    const report = await runCli('report', '1', '--db', url, '--out', join(dir, 'report'));
    expect(report.code, report.err).toBe(0);
    expect(report.out).toMatch(/claim-A/);
  });
});
