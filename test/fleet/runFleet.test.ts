import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite.js';
import { runCli } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetSessionCount, fleetThrows, localThrows, sorted } from './support/compare.js';
import { cliProcess } from './support/cliProcess.js';

let server: ScratchPostgres;
let dir: string;
let n = 0;
const freshFleet = (): Promise<string> => server.createDatabase(`runfleet${++n}`);

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-run-fleet-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/** A simulated session config of two dice, `budget` rolls each. */
function sessionConfig(name: string, budget: number): string {
  const file = join(dir, name);
  writeFileSync(file, `seed: 5\ndice:\n  - { label: q-A, type: d6 }\n  - { label: q-B, type: d6 }\nrig:\n  driver: sim\nstopping: { budgetRolls: ${budget} }\n`);
  return file;
}

describe('dicerig run --fleet and the local store (a real PostgreSQL)', () => {
  it('closes the local store as a plain run does: no write-ahead log is left, and a copy of the store file alone holds every throw', async () => {
    const config = sessionConfig('closes.yaml', 20);
    const plain = join(dir, 'plain.db');
    expect((await runCli('run', config, '--db', plain, '--plain')).code).toBe(0);
    const fleetRun = join(dir, 'fleet-run.db');
    const url = await freshFleet();
    const r = await runCli('run', config, '--db', fleetRun, '--plain', '--fleet', url);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/every throw copied/);
    expect(existsSync(`${plain}-wal`)).toBe(false);
    expect(existsSync(`${fleetRun}-wal`)).toBe(false);
    expect(statSync(fleetRun).size).toBeGreaterThan(4096);
    const copy = join(dir, 'fleet-run-copy.db');
    copyFileSync(fleetRun, copy);
    const listed = await runCli('sessions', '--db', copy);
    expect(listed.out).toMatch(/^1 .* finished +20$/m);
    expect(sorted(localThrows(copy))).toEqual(sorted(await fleetThrows(url)));
  }, 90_000);

  it('copies nothing and ends at once when the session cannot open (a session to resume that is not there)', async () => {
    const config = sessionConfig('resume.yaml', 5);
    const db = join(dir, 'resume.db');
    expect((await runCli('run', config, '--db', db, '--plain')).code).toBe(0);
    const url = await freshFleet();
    const started = Date.now();
    const end = await cliProcess(['run', config, '--db', db, '--resume', '99', '--plain', '--fleet', url]).ended;
    expect(end.code, end.err).toBe(1);
    expect(end.err).toMatch(/There is no session "99" in \S*resume\.db/);
    // The replicator used to start before the session opened: it copied the store's other session and kept its
    // connections until the pool's idle timeout (10 s) let the process go.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await fleetSessionCount(url)).toBe(0);
  }, 60_000);
  it('goes on copying the running session when the store holds an older session the fleet store refuses, and names that one once', async () => {
    const config = sessionConfig('refused-old.yaml', 12);
    const db = join(dir, 'refused-old.db');
    expect((await runCli('run', config, '--db', db, '--plain')).code).toBe(0);
    // The older session's throw changed after it was recorded: the fleet store refuses that session, as sync does.
    const raw = openDatabase(db);
    raw.prepare("UPDATE rolls SET face_id = CASE face_id WHEN '1' THEN '2' ELSE '1' END WHERE seq = 0 AND throw_id = (SELECT id FROM throws WHERE session_id = 1 AND idx = 3)").run();
    raw.close();
    const url = await freshFleet();
    const r = await runCli('run', config, '--db', db, '--plain', '--fleet', url);
    expect(r.code, r.err).toBe(0);
    const refusals = r.err.match(/fleet: .*session 1 .*throw 3 does not match its hash/g) ?? [];
    expect(refusals, r.err).toHaveLength(1);
    expect(r.err).not.toMatch(/replication to .* stopped/);
    expect(r.out).toMatch(/Fleet store .*: 1 session refused \(session 1 .*\); every throw of the others copied\./);
    // Every throw of session 2 is in the fleet store, none of session 1.
    const local = localThrows(db);
    const fleet = await fleetThrows(url);
    const genesisOf = (k: string): string => k.split('|')[0] as string;
    const second = local.filter((k) => genesisOf(k) !== genesisOf(local[0] as string));
    expect(second.length).toBeGreaterThanOrEqual(12);
    expect(sorted(fleet)).toEqual(sorted(second));
  }, 90_000);
});
