import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite.js';
import { runCli } from '../cli/runCli.js';
import { storeWithSession, okThrow, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetCounts, fleetThrows, localThrows, sorted } from './support/compare.js';

let server: ScratchPostgres;
let dir: string;
let n = 0;
const freshFleet = (): Promise<string> => server.createDatabase(`fleet${++n}`);

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/** A local store with one session of `throws` deterministic throws of three dice. */
function fixtureStore(name: string, throws: number): string {
  const path = join(dir, name);
  const { store, dice, session } = storeWithSession(path);
  store.atomically(() => {
    for (let i = 1; i <= throws; i++) store.recordThrow(session.id, okThrow(i, dice));
  });
  store.recordEvent(session.id, { at: 1_700_000_000_500, kind: 'fault', throwIndex: 2, detail: { message: 'jam' } });
  store.close();
  return path;
}

describe('dicerig sync to a fleet store (a real PostgreSQL on a unix socket)', () => {
  it('copies a demo session so that the fleet store reads as the local one: report, export, pool, analyze, verify', async () => {
    const local = join(dir, 'demo.db');
    expect((await runCli('demo', '--seed', '3', '--budget', '40', '--db', local, '--json')).code).toBe(0);
    const url = await freshFleet();
    const synced = await runCli('sync', '--db', local, '--to', url, '--batch', '7', '--json');
    expect(synced.code, synced.err).toBe(0);
    expect(JSON.parse(synced.out)).toMatchObject({ sessions: 1, duplicates: 0, behind: 0 });
    expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(local)));

    // The report: the same JSON and the same chart images, whichever store it is read from.
    const fromLocal = await runCli('report', '1', '--db', local, '--json', '--out', join(dir, 'r-local'));
    const fromFleet = await runCli('report', '1', '--db', url, '--json', '--out', join(dir, 'r-fleet'));
    expect(fromFleet.code, fromFleet.err).toBe(0);
    expect(fromFleet.err).toMatch(/fleet session 1\b.*session 1 of .*demo\.db/);
    const a = JSON.parse(fromLocal.out) as { html: string; charts: string[] };
    const b = JSON.parse(fromFleet.out) as { html: string; charts: string[] };
    expect({ ...b, html: '', charts: [] }).toEqual({ ...a, html: '', charts: [] });
    expect(b.charts.length).toBeGreaterThan(0);
    b.charts.forEach((file, i) => expect(readFileSync(file).equals(readFileSync(a.charts[i] as string))).toBe(true));

    const exportOf = async (db: string) => {
      const r = await runCli('export', '1', '--db', db, '--format', 'jsonl');
      expect(r.code, r.err).toBe(0);
      return r.out.replace(/"exportedAt":"[^"]*"/, '');
    };
    expect(await exportOf(url)).toBe(await exportOf(local));

    const pooled = async (db: string) => (await runCli('pool', '1', '--size', '2', '--db', db, '--json')).out;
    expect(await pooled(url)).toBe(await pooled(local));
    const analysed = async (db: string) => (await runCli('analyze', '1', '--db', db, '--json')).out;
    // The one difference: the analysis names its source by the fleet's id.
    const analysis = await analysed(url);
    expect(analysis).toMatch(/"fleet session 1"/);
    expect(analysis.replace(/"fleet session 1"/g, '"session 1"')).toBe(await analysed(local));
    expect(analysis).toMatch(/demo3-d6-A/);

    const verified = await runCli('verify', '--db', url);
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/1 session, \d+ throws, \d+ rolls: every hash chain verifies/);
    const listed = await runCli('sessions', '--db', url);
    expect(listed.out).toMatch(/^1 .*sim-01 +\S+:1 +finished/m);
  }, 120_000);

  it('stores throws synced twice once: the second sync copies nothing, a third from a copy of the file neither', async () => {
    const local = fixtureStore('twice.db', 120);
    const url = await freshFleet();
    const first = JSON.parse((await runCli('sync', '--db', local, '--to', url, '--json', '--batch', '50')).out) as { throws: number; batches: number };
    expect(first).toMatchObject({ throws: 120, batches: 3 });
    const again = JSON.parse((await runCli('sync', '--db', local, '--to', url, '--json')).out) as { throws: number; rolls: number; events: number };
    expect(again).toMatchObject({ throws: 0, rolls: 0, events: 0 });
    // The same store under another name (a backup restored elsewhere) is the same sessions: nothing doubles.
    const copy = join(dir, 'twice-copy.db');
    const db = openDatabase(local, { readonly: true });
    db.exec(`VACUUM INTO '${copy}'`);
    db.close();
    expect(JSON.parse((await runCli('sync', '--db', copy, '--to', url, '--json')).out)).toMatchObject({ throws: 0 });
    expect(await fleetCounts(url)).toMatchObject({ sessions: 1, throws: 120, rolls: 360, events: 1, dice: 3, rigs: 1 });
    expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(local)));
  });

  it('refuses a local throw changed after it was recorded, naming session and throw, and copies nothing of its batch', async () => {
    const local = fixtureStore('tampered.db', 30);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', local, '--to', url, '--batch', '10')).code).toBe(0);
    // Append ten more throws, then change a face of throw 35 by hand.
    const { RollStore } = await import('../../src/store/rollStore.js');
    const store = RollStore.open(local);
    const dice = store.dice();
    for (let i = 31; i <= 40; i++) store.recordThrow(1, okThrow(i, dice));
    store.close();
    const db = openDatabase(local);
    db.prepare("UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE seq = 0 AND throw_id = (SELECT id FROM throws WHERE session_id = 1 AND idx = 35)").run();
    db.close();
    const r = await runCli('sync', '--db', local, '--to', url, '--batch', '20');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: session 1 \(bench-test\) of .*tampered\.db: throw 35 does not match its hash: .*nothing of this batch was copied\.\n$/);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(await fleetCounts(url)).toMatchObject({ throws: 30 });
  });

  it('says in one line, with a non-zero exit and no stack trace, that the server is down or the URL is wrong', async () => {
    const local = fixtureStore('down.db', 3);
    const gone = `postgres:///fleet?host=${join(dir, 'no-server-here')}`;
    const down = await runCli('sync', '--db', local, '--to', gone);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^dicerig: Cannot reach the fleet store postgres:\/\/\/fleet\?host=.* \(ENOENT\): check that PostgreSQL is running and listening on the unix socket in .*no-server-here, and that this host can reach it\.\n$/);
    const noDb = await runCli('report', '1', '--db', server.url('nosuchdb'));
    expect(noDb.code).toBe(1);
    expect(noDb.err).toMatch(/^dicerig: The fleet store .*nosuchdb.* does not exist on the unix socket in .*: create it first/);
    const secret = await runCli('sync', '--db', local, '--to', `postgres://dice:s3cret@${join(dir, 'x').replace(/\//g, '%2F')}/fleet`);
    expect(secret.code).toBe(1);
    expect(secret.err).not.toContain('s3cret');
    expect(secret.err.trim().split('\n')).toHaveLength(1);
    const notUrl = await runCli('sync', '--db', local, '--to', 'fleet.db');
    expect(notUrl.err).toBe('dicerig: --to must be a postgres:// URL of the fleet store, not "fleet.db"\n');
  });
});
