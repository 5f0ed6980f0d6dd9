import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRows } from '../../src/fleet/localRows.js';
import { runCli } from '../cli/runCli.js';
import { okThrow, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetCounts, fleetThrows, localThrows, sorted, waitForFleetThrows } from './support/compare.js';
import { cliProcess } from './support/cliProcess.js';

let server: ScratchPostgres;
let dir: string;
let n = 0;
const freshFleet = (): Promise<string> => server.createDatabase(`faults${++n}`);

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-faults-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/**
 * A local store of two sessions with `throws` throws each (three dice), written fast in one transaction per session.
 * 750 each: a sync copies them in 30 batches of 50 (about a second here), and the tests below strike at the first
 * batch the fleet store shows (the kill came at 50 throws when measured); more throws would only copy more batches.
 */
function bigStore(name: string, throws: number): string {
  const path = join(dir, name);
  const { store, dice, session } = storeWithSession(path);
  const second = store.createSession({ name: 'second', config: { channels: 3 }, simulated: false, startedAt: 1_700_100_000_000 });
  for (const s of [session.id, second.id]) {
    store.atomically(() => {
      for (let i = 1; i <= throws; i++) store.recordThrow(s, okThrow(i, dice));
    });
  }
  store.close();
  return path;
}

async function expectSameThrows(local: string, url: string): Promise<void> {
  const fleet = await fleetThrows(url);
  expect(new Set(fleet).size).toBe(fleet.length);
  expect(sorted(fleet)).toEqual(sorted(localThrows(local)));
}

describe('the replicator under faults (a real PostgreSQL, stopped and restarted; real processes, killed)', () => {
  it('loses and doubles nothing when the replicator is killed with SIGKILL mid-batch and run again', async () => {
    const local = bigStore('killed.db', 750);
    const url = await freshFleet();
    const child = cliProcess(['sync', '--db', local, '--to', url, '--batch', '50', '--quiet']);
    await waitForFleetThrows(url, 1, 30_000);
    child.proc.kill('SIGKILL');
    const end = await child.ended;
    expect(end.signal).toBe('SIGKILL');
    const atKill = (await fleetCounts(url)).throws as number;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(1500);
    // Every batch is all or nothing: the fleet holds whole batches only.
    expect(atKill % 50).toBe(0);
    const rerun = await runCli('sync', '--db', local, '--to', url, '--json');
    expect(rerun.code, rerun.err).toBe(0);
    expect(JSON.parse(rerun.out)).toMatchObject({ throws: 1500 - atKill, duplicates: 0 });
    await expectSameThrows(local, url);
    expect(await fleetCounts(url)).toMatchObject({ sessions: 2, throws: 1500, rolls: 4500 });
  }, 60_000);

  it('stops with one line when PostgreSQL goes down mid-sync, and the next sync after its restart catches up exactly', async () => {
    const local = bigStore('server-down.db', 750);
    const url = await freshFleet();
    const child = cliProcess(['sync', '--db', local, '--to', url, '--batch', '50', '--quiet']);
    await waitForFleetThrows(url, 1, 30_000);
    await server.stop('immediate');
    const end = await child.ended;
    await server.start();
    expect(end.code).toBe(1);
    expect(end.err).toMatch(/^dicerig: Cannot reach the fleet store postgres:\/\/\/faults\d.* while copying session \d \S* of .*server-down\.db .*check that PostgreSQL is running/);
    expect(end.err.trim().split('\n')).toHaveLength(1);
    const rerun = await runCli('sync', '--db', local, '--to', url);
    expect(rerun.code, rerun.err).toBe(0);
    await expectSameThrows(local, url);
  }, 60_000);

  it('keeps a run going while PostgreSQL is down and catches up when it is back (run --fleet)', async () => {
    const local = join(dir, 'continuous.db');
    const url = await freshFleet();
    const child = cliProcess(['demo', '--seed', '6', '--budget', '80', '--db', local, '--fleet', url, '--plain']);
    await waitForFleetThrows(url, 1, 60_000);
    await server.stop('immediate');
    await new Promise((r) => setTimeout(r, 1500));
    await server.start();
    const end = await child.ended;
    expect(end.code, end.err).toBe(0);
    expect(end.out).toMatch(/Session 1 finished/);
    expect(end.err).toMatch(/fleet: Cannot reach the fleet store .* The session goes on; retrying/);
    expect(end.out).toMatch(/Fleet store postgres:\/\/\/faults\d\S*: every throw copied\./);
    await expectSameThrows(local, url);
    const verified = await runCli('verify', '--db', url);
    expect(verified.code, verified.out).toBe(0);
  }, 120_000);

  it('loses and doubles nothing when the rig process is SIGKILLed mid-run and resumed (demo --fleet), and the session keeps its id', async () => {
    const local = join(dir, 'rig-killed.db');
    const url = await freshFleet();
    // 80 rolls: the kill comes at the first throw the fleet store shows (the 8th when measured), far from the budget.
    const demo = ['demo', '--seed', '8', '--budget', '80', '--db', local, '--fleet', url, '--plain'];
    const killed = cliProcess(demo);
    await waitForFleetThrows(url, 1, 60_000);
    killed.proc.kill('SIGKILL');
    expect((await killed.ended).signal).toBe('SIGKILL');
    const rows = LocalRows.open(local);
    const atKill = rows.sessions()[0];
    rows.close();
    // Killed mid-run: the session was still running, with throws the fleet may not have had yet.
    expect(atKill?.state).toBe('running');
    expect((await fleetCounts(url)).throws).toBeLessThanOrEqual(atKill?.throwCount as number);

    const resumed = await cliProcess([...demo, '--resume', '1']).ended;
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toMatch(/Session 1 finished/);
    expect(resumed.out).toMatch(/Fleet store postgres:\/\/\/faults\d\S*: every throw copied\./);
    await expectSameThrows(local, url);
    expect(await fleetCounts(url)).toMatchObject({ sessions: 1 });
    expect((await runCli('verify', '--db', url)).code).toBe(0);
    // The fleet names it by this rig host and its id here, and reads it as the local store does.
    const listed = (await runCli('sessions', '--db', url)).out.split('\n');
    expect(listed.filter((line) => /^1 /.test(line) && line.includes(` ${hostname()}:1 `) && / finished\b/.test(line))).toHaveLength(1);
    const exportOf = async (key: string, db: string) => (await runCli('export', key, '--db', db, '--format', 'jsonl')).out.replace(/"exportedAt":"[^"]*"/g, '');
    const fromFleet = await exportOf(`${hostname()}:1`, url);
    expect(fromFleet).toMatch(/"throw":1,/);
    expect(fromFleet).toBe(await exportOf('1', local));
  }, 180_000);
});
