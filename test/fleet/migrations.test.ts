/**
 * The fleet store's schema migrations on a real PostgreSQL: a store written by the previous schema (before
 * corrections) is brought forward with its rows and hashes as they were, and reads and verifies as before.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignBatches, campaignSessions, findCampaign } from '../../src/fleet/campaignStore.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FLEET_MIGRATIONS, FLEET_SCHEMA_VERSION, migrateFleet } from '../../src/fleet/migrations.js';
import { runCli } from '../cli/runCli.js';
import { okThrow, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

let server: ScratchPostgres;
let dir: string;
let n = 0;
const freshFleet = (): Promise<string> => server.createDatabase(`migr${++n}`);

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-migr-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/** The fleet's tables in the order their foreign keys allow filling them. */
const TABLES = ['rigs', 'rig_setups', 'dice', 'campaigns', 'sessions', 'throws', 'rolls', 'events', 'reviews', 'session_verdicts'];

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A fleet store as the previous schema made it: a database migrated only to `version`, holding the rows of `from`
 * (a fleet store synced by this dicerig) in the columns that schema has, ids and hashes as they are.
 */
async function storeAtVersion(version: number, from: string): Promise<string> {
  const url = await freshFleet();
  await withClient(url, async (to) => {
    await migrateFleet(to, url, FLEET_MIGRATIONS.filter((m) => m.version <= version));
    await withClient(from, async (src) => {
      for (const t of TABLES) {
        const cols = (await to.query<{ c: string }>('SELECT column_name AS c FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [t])).rows.map((r) => r.c);
        const rows = (await src.query<Record<string, unknown>>(`SELECT ${cols.join(', ')} FROM ${t}`)).rows;
        for (const row of rows) await to.query(`INSERT INTO ${t} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, cols.map((c) => row[c]));
        if (cols.includes('id') && t !== 'rigs') await to.query(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), greatest(1, (SELECT max(id) FROM ${t})))`);
      }
    });
  });
  return url;
}

/** Every review row's identity and hashes, and every throw's hash, as the fleet store holds them. */
const chainRows = (url: string) =>
  withClient(url, async (c) => ({
    reviews: (await c.query('SELECT id, session_id, n, roll_id, local_roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash FROM reviews ORDER BY id')).rows,
    throws: (await c.query('SELECT id, session_id, idx, prev_hash, hash FROM throws ORDER BY id')).rows,
    rolls: (await c.query('SELECT id, resolution FROM rolls ORDER BY id')).rows,
  }));

/** A local store whose session has a labelled roll (throw 2) and one nobody could tell (throw 4). */
function reviewedStore(name: string): { path: string; close(): void; store: ReturnType<typeof storeWithSession>['store']; sessionId: number; dice: ReturnType<typeof storeWithSession>['dice'] } {
  const { store, dice, session } = storeWithSession(join(dir, name));
  const declined = (i: number) => ({ ...okThrow(i, dice), rolls: okThrow(i, dice).rolls.map((r, k) => (k === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) });
  for (let i = 1; i <= 5; i++) store.recordThrow(session.id, i === 2 || i === 4 ? declined(i) : okThrow(i, dice));
  const [labelled, untold] = store.unresolvedRolls(session.id);
  store.reviewRoll(session.id, { rollId: labelled?.rollId as number, faceId: 'crit', reviewer: 'ada', at: 1_700_000_900_000 });
  store.reviewRoll(session.id, { rollId: untold?.rollId as number, faceId: null, reviewer: 'ada', at: 1_700_000_901_000 });
  return { path: join(dir, name), store, sessionId: session.id, dice, close: () => store.close() };
}

describe('fleet store migrations (a real PostgreSQL on a unix socket)', () => {
  it('brings a fleet store made before corrections to the latest schema, keeping its reviews, throws and hashes, and it verifies and exports as before', async () => {
    const local = reviewedStore('old-fleet.db');
    local.close();
    const current = await freshFleet();
    expect((await runCli('sync', '--db', local.path, '--to', current)).code).toBe(0);
    const old = await storeAtVersion(2, current);
    const before = await chainRows(old);
    expect(before.reviews).toHaveLength(2);

    const fleet = await openFleet(old);
    await fleet.close();
    const versions = await withClient(old, async (c) => (await c.query<{ version: number }>('SELECT version FROM dicerig_schema ORDER BY version')).rows.map((r) => r.version));
    expect(versions).toEqual([1, 2, 3, 4]);
    expect(FLEET_SCHEMA_VERSION).toBe(4);
    expect(await chainRows(old)).toEqual(before);

    const verified = await runCli('verify', '--db', old);
    expect(verified.code, verified.out).toBe(0);
    const exportOf = async (db: string) => (await runCli('export', 'bench-test', '--db', db, '--format', 'jsonl')).out.replace(/"exportedAt":"[^"]*"/g, '');
    expect(await exportOf(old)).toBe(await exportOf(local.path));
  }, 60_000);

  it('takes a correction of a review it copied before corrections: the review gets its local id from the rig host, and the fleet verifies and exports as that host', async () => {
    const local = reviewedStore('old-fleet-corrected.db');
    const current = await freshFleet();
    expect((await runCli('sync', '--db', local.path, '--to', current)).code).toBe(0);
    const old = await storeAtVersion(2, current);
    const [label] = local.store.reviews(local.sessionId);
    local.store.reviewLog.correct(local.sessionId, { rollId: label?.rollId as number, faceId: 'hit-2', reviewer: 'bob', at: 1_700_000_902_000, supersedes: label?.id as number });
    const localIds = local.store.reviews(local.sessionId).map((r) => r.id);
    local.close();
    const synced = await runCli('sync', '--db', local.path, '--to', old, '--json');
    expect(synced.code, synced.err).toBe(0);
    expect(JSON.parse(synced.out)).toMatchObject({ reviews: 1 });
    const ids = await withClient(old, async (c) => (await c.query<{ local_id: number | null }>('SELECT local_id FROM reviews ORDER BY n')).rows.map((r) => r.local_id));
    expect(ids).toEqual(localIds);
    expect(ids).toHaveLength(3);
    const verified = await runCli('verify', '--db', old);
    expect(verified.code, verified.out).toBe(0);
    const exportOf = async (db: string) => (await runCli('export', 'bench-test', '--db', db, '--format', 'jsonl')).out.replace(/"exportedAt":"[^"]*"/g, '');
    const fromFleet = await exportOf(old);
    expect(fromFleet).toBe(await exportOf(local.path));
    expect(fromFleet).toMatch(/"throw":2,"die":"R1"[^\n]*"symbol":"hit"/);
  }, 60_000);

  it("brings a campaign from before batch claims forward: it gets its own id, and each batch counts one session of its name, the claiming host's, whose store becomes the claim's", async () => {
    const url = await freshFleet();
    await withClient(url, async (c) => {
      await migrateFleet(c, url, FLEET_MIGRATIONS.filter((m) => m.version <= 3));
      await c.query(`INSERT INTO campaigns (id, name, created_at, settings_json) VALUES (1, 'old', 0, '{"rigs":1,"channels":1,"rollsPerLeg":5}')`);
      await c.query(`INSERT INTO campaign_dice (campaign_id, label, type_id, position) VALUES (1, 'O1', 'd6', 0)`);
      await c.query(`INSERT INTO campaign_batches (id, campaign_id, rig, host, claimed_at, session_name) VALUES (7, 1, '1', 'hostX', 0, 'campaign old rig 1 batch 7')`);
      await c.query(`INSERT INTO campaign_legs (campaign_id, label, rig, step, position, state, batch_id) VALUES (1, 'O1', '1', 0, 0, 'claimed', 7)`);
      // The same batch rolled by a second host run with the same rig id (copied first), and by the claiming host.
      for (const [id, host] of [[1, 'hostY'], [2, 'hostX']] as const) {
        await c.query(
          `INSERT INTO sessions (id, genesis, origin_host, origin_db, local_id, campaign_id, name, origin, kind, config_json, software_version, simulated, started_at, state, chain_version, head_hash, synced_at)
           VALUES ($1, $2, $3, $4, 1, 1, 'campaign old rig 1 batch 7', 'rig', 'fairness', '{}', 'old', 1, 0, 'running', 2, $2, 0)`,
          [id, `g-${host}`, host, `/srv/${host}.db`],
        );
      }
    });
    const fleet = await openFleet(url);
    try {
      const campaign = await findCampaign(fleet, url, 'old');
      expect(campaign.uid).toMatch(/^[0-9a-f]{32}$/);
      expect((await campaignSessions(fleet, url, campaign.id)).map((s) => [s.batchId, s.originHost])).toEqual([[7, 'hostX']]);
      expect((await campaignBatches(fleet, url, campaign.id)).map((b) => [b.host, b.store, b.genesis])).toEqual([['hostX', '/srv/hostX.db', 'g-hostX']]);
    } finally {
      await fleet.close();
    }
  }, 60_000);

  it('leaves a fleet store of an older schema as it is when only read (sessions, report, serve, campaign status and report), naming both versions and what brings it forward, so an older rig host still syncs to it', async () => {
    const local = storeWithSession(join(dir, 'older.db'));
    for (let i = 1; i <= 5; i++) local.store.recordThrow(local.session.id, okThrow(i, local.dice));
    local.store.close();
    const url = await freshFleet();
    const older = FLEET_SCHEMA_VERSION - 1;
    await withClient(url, (c) => migrateFleet(c, url, FLEET_MIGRATIONS.filter((m) => m.version <= older)));
    const refusal = new RegExp(`^dicerig: The fleet store \\S+ has schema version ${older}; this dicerig reads version ${FLEET_SCHEMA_VERSION}\\. A command that only reads leaves it as it is, so rig hosts running an older dicerig can still sync to it: once they run this version, \`dicerig sync\` from one of them brings it forward`);
    for (const args of [['sessions', '--db', url], ['report', '1', '--db', url, '--out', join(dir, 'older-report')], ['serve', '--db', url, '--port', '0'], ['campaign', 'status', 'box', '--db', url], ['campaign', 'report', 'box', '--db', url]]) {
      const r = await runCli(...args);
      expect(r.code, args[0]).toBe(1);
      expect(r.err, args[0]).toMatch(refusal);
    }
    const version = async (): Promise<number> => withClient(url, async (c) => Number((await c.query('SELECT max(version) AS v FROM dicerig_schema')).rows[0].v));
    expect(await version()).toBe(older);
    // A writer brings it forward.
    expect((await runCli('sync', '--db', local.path, '--to', url)).code).toBe(0);
    expect(await version()).toBe(FLEET_SCHEMA_VERSION);
    expect((await runCli('sessions', '--db', url)).code).toBe(0);
  });

  it('reads a database dicerig has made no tables in yet without making them: the dashboard starts empty, a report says nothing has been synced', async () => {
    const url = await freshFleet();
    const r = await runCli('report', '1', '--db', url, '--out', join(dir, 'empty-report'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: The fleet store \S+ holds nothing of dicerig's yet: `dicerig sync --to URL` \(or run --fleet\) from a rig host makes its tables and copies its sessions\.\n$/);
    expect(await withClient(url, async (c) => (await c.query("SELECT to_regclass('dicerig_schema')::text AS t")).rows[0])).toEqual({ t: null });
  });
});
