/**
 * A campaign session whose rig host died mid-batch, and whose batch another host then took over (`--take-over`),
 * on a real PostgreSQL server with the rig hosts as processes of their own: the fleet knows the batch left it, so
 * `dicerig sessions --db URL` and the fleet page (FleetView, the state the page shows) say it was taken over and by
 * whom, instead of `running?` for ever; while its host still held the batch it was `running` / `running?` as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pgLib from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { takeOverBatch } from '../../src/fleet/campaignClaims.js';
import { campaignBatches, findCampaign } from '../../src/fleet/campaignStore.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cli, cliHere, writeBox } from './support/campaignCli.js';
import { rigHostStoppedAt, slowRig } from './support/rigHost.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = mkdtempSync(join(tmpdir(), 'dicerig-taken-over-'));
}, 120_000);

afterAll(async () => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each fleet session's state as the `sessions --db URL` table prints it, by the host it came from. */
async function tableStates(url: string): Promise<Map<string, string>> {
  const r = await cliHere(['sessions', '--db', url]);
  expect(r.code, r.stderr).toBe(0);
  const out = new Map<string, string>();
  for (const host of ['hostX', 'hostY']) {
    const line = r.stdout.split('\n').find((l) => l.includes(` ${host}:`));
    // The state column follows "HOST:ID", the throw count ends the line.
    if (line !== undefined) out.set(host, (/ host[XY]:\d+ +(.*?) +[\d,]+\s*$/.exec(line)?.[1] ?? '').trim());
  }
  return out;
}

/** Each fleet session's state as the fleet page shows it, by the host it came from. */
async function pageStates(url: string): Promise<Map<string, string>> {
  const fleet = await openFleet(url, { readOnly: true });
  try {
    const state = await new FleetView({ fleet, dice: allDice(), pollMs: 1000, now: () => Date.now() }).state();
    expect(state.problem).toBeNull();
    return new Map(state.sessions.map((s) => [s.originHost, s.stateText]));
  } finally {
    await fleet.close();
  }
}

describe('a campaign session whose batch another host took over', () => {
  it('shows as taken over, naming the batch and the host rolling it now, in sessions --db URL and on the fleet page, not as running?', async () => {
    const url = await server.createDatabase('taken_over');
    const box = writeBox(dir, ['T1', 'T2']);
    expect((await cliHere(['campaign', 'create', 'lost', '--dice', box, '--rigs', '1', '--channels', '2', '--rolls', '30', '--db', url])).code).toBe(0);
    const dbX = join(dir, 'hostX.db');
    const dbY = join(dir, 'hostY.db');

    // hostX takes the batch and dies part-way (no Ctrl-C: its session stays running, in its store and in the fleet's copy).
    const x = await rigHostStoppedAt(['campaign', 'run', 'lost', '--rig', '1', '--fleet', url, '--db', dbX, '--host', 'hostX', '--config', slowRig(dir)], dbX, 3, ['SIGKILL']);
    expect(x.signal).toBe('SIGKILL');
    // While hostX still holds its batch, the session is running as far as the fleet knows.
    await expect.poll(async () => (await tableStates(url)).get('hostX'), { timeout: 10_000 }).toBe('running');
    expect((await pageStates(url)).get('hostX')).toBe('running');

    // Twelve minutes later nothing more has come from hostX: running? (its host may be gone).
    const c = new pgLib.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('UPDATE throws SET synced_at = synced_at - 12 * 60000');
      await c.query('UPDATE sessions SET synced_at = synced_at - 12 * 60000');
    } finally {
      await c.end();
    }
    expect((await tableStates(url)).get('hostX')).toBe('running? (no throw arrived for 12 min)');

    // hostY takes the batch over (as `campaign run --take-over` does, stopped before it opens a session of its own).
    const fleet = await openFleet(url);
    let batchId: number;
    let since: number;
    try {
      const campaign = await findCampaign(fleet, url, 'lost');
      const [seen] = await campaignBatches(fleet, url, campaign.id);
      const taken = await takeOverBatch(fleet, url, campaign, seen!, { host: 'hostY', store: dbY }, Date.now());
      batchId = taken.id;
      since = taken.claimedAt;
    } finally {
      await fleet.close();
    }
    const minute = `${new Date(since).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const words = `taken over (batch ${batchId} is rolled by host hostY since ${minute}: this session's rolls no longer count)`;
    expect((await tableStates(url)).get('hostX')).toBe(words);
    expect((await pageStates(url)).get('hostX')).toBe(words);
    const listed = await cliHere(['sessions', '--db', url, '--json']);
    const json = JSON.parse(listed.stdout) as { originHost: string; takenOver: unknown }[];
    expect(json.find((j) => j.originHost === 'hostX')?.takenOver).toEqual({ batch: batchId, host: 'hostY', store: dbY, since });

    // hostY rolls the batch (its claim, so no --take-over needed) and finishes: hostX's session stays taken over.
    const y = await cli(['campaign', 'run', 'lost', '--rig', '1', '--fleet', url, '--db', dbY, '--host', 'hostY', '--json']);
    expect(y.code, y.stderr).toBe(0);
    const after = await tableStates(url);
    expect(after.get('hostX')).toBe(words);
    expect(after.get('hostY')).toBe('finished');
    expect((await pageStates(url)).get('hostX')).toBe(words);
  }, 240_000);
});
