/**
 * One session's rolls reaching a real PostgreSQL fleet store twice: as the session itself (synced from its rig host's
 * store) and as an import of its export in another store, synced from another host, the copy first. The fleet keeps
 * both, says which is the copy, and counts the rolls once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { loadedSessionStore } from './support/loadedSession.js';

let pg: ScratchPostgres;
let url: string;
const dir = tempDir('dicerig-fleet-copies-');
const rigDb = join(dir, 'rig.db');
const otherDb = join(dir, 'other.db');
let copySync: { code: number; out: string; err: string };
let originalSync: { code: number; out: string; err: string };

beforeAll(async () => {
  pg = await startScratchPostgres();
  url = await pg.createDatabase('fleet');
  await loadedSessionStore(dir, rigDb);
  const exported = await runCli('export', '1', '--db', rigDb, '--format', 'jsonl', '--out', join(dir, 's1.jsonl'));
  expect(exported.code, exported.err).toBe(0);
  const imported = await runCli('import', join(dir, 's1.jsonl'), '--db', otherDb);
  expect(imported.code, imported.err).toBe(0);
  // The copy reaches the fleet first, the session it copies after.
  copySync = await runCli('sync', '--db', otherDb, '--to', url, '--host', 'other', '--quiet');
  originalSync = await runCli('sync', '--db', rigDb, '--to', url, '--host', 'rig', '--quiet');
}, 180_000);

afterAll(async () => {
  await pg?.remove();
});

describe('an import of an export of a session the fleet holds', () => {
  it('is stored, and sync says on both sides that the fleet counts those rolls once', () => {
    expect(copySync.code, copySync.err).toBe(0);
    expect(originalSync.code, originalSync.err).toBe(0);
    // Synced first, the copy has nothing in the fleet to copy yet.
    expect(copySync.err).not.toMatch(/copy|count.*once/);
    expect(originalSync.err).toMatch(/fleet session 1 \(other:1\) is an import of an export of fleet session 2 \(rig:1\) .*: the fleet counts those rolls once, in session 1 of .*rig\.db \(fleet session 2\)/);
  });

  it('is listed as a copy of the session, in the table and in --json', async () => {
    const table = await runCli('sessions', '--db', url);
    expect(table.out).toMatch(/other:1\s+finished, a copy: its rolls count once, as fleet session 2's/);
    const json = JSON.parse((await runCli('sessions', '--db', url, '--json')).out) as { id: number; copyOf: { of: number; why: string } | null }[];
    expect(json.map((s) => [s.id, s.copyOf?.of ?? null])).toEqual([
      [1, 2],
      [2, null],
    ]);
  });

  it('is left out of analyze beside the session it copies, which judges the die as that session alone does', async () => {
    const alone = await runCli('analyze', '2', '--db', url);
    const both = await runCli('analyze', '1', '2', '--db', url);
    expect(both.code, both.err).toBe(0);
    expect(both.err).toMatch(/fleet session 1 is left out: it is an import of an export of fleet session 2 .*its rolls are counted once, as fleet session 2's/);
    // The same rolls and the same verdict: no evidence multiplied.
    expect(both.out).toBe(alone.out);
    expect(both.out).not.toMatch(/product of its 2 sessions/);
  });

  it('named alone, is judged as the session whose rolls it holds, with a note saying so: one verdict for those rolls', async () => {
    const alone = await runCli('analyze', '2', '--db', url);
    const copy = await runCli('analyze', '1', '--db', url);
    expect(copy.code, copy.err).toBe(0);
    expect(copy.err).toMatch(/fleet session 1 is an import of an export of fleet session 2 .*: judged as fleet session 2, whose rolls they are/);
    expect(copy.out).toBe(alone.out);
  });

  it('is left out of pool beside the session it copies', async () => {
    const alone = await runCli('pool', '2', '--db', url, '--size', '1');
    const both = await runCli('pool', '1', '2', '--db', url, '--size', '1');
    expect(both.err).toMatch(/fleet session 1 is left out/);
    expect(both.out).toBe(alone.out);
  });
});
