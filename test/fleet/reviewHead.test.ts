/**
 * The review chain's head in a real PostgreSQL fleet store: the fleet keeps each session's review count with the
 * reviews it copies, so `verify --db URL` sees a review row deleted from the end there, and `verify --expect` finds a
 * review head written down on the rig host.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThrowInput } from '../../src/store/records.js';
import { runCli } from '../cli/runCli.js';
import { okThrow, storeWithSession } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

let server: ScratchPostgres;
let url: string;
let lastHash: string;

function throwWithDecline(n: number, dice: Parameters<typeof okThrow>[1]): ThrowInput {
  const t = okThrow(n, dice);
  const [first, ...rest] = t.rolls;
  return { ...t, rolls: [{ dieId: first!.dieId, channel: 0, confidence: 0.2, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-0-unreadable.png`, evidenceHash: 'hx', resolution: 'unresolved' }, ...rest] };
}

beforeAll(async () => {
  server = await startScratchPostgres();
  url = await server.createDatabase('reviewhead');
  const { store, session, dice, path } = storeWithSession();
  store.recordThrow(session.id, throwWithDecline(1, dice));
  store.recordThrow(session.id, throwWithDecline(2, dice));
  const [a, b] = store.unresolvedRolls(session.id);
  store.reviewRoll(session.id, { rollId: a!.rollId, faceId: 'crit', reviewer: 'Ada', at: 10 });
  lastHash = store.reviewRoll(session.id, { rollId: b!.rollId, faceId: 'hit-1', reviewer: 'Ada', at: 11 }).hash;
  store.close();
  const synced = await runCli('sync', '--db', path, '--to', url, '--host', 'rig1', '--quiet');
  expect(synced.code, synced.err).toBe(0);
}, 120_000);

afterAll(async () => {
  await server?.remove();
});

describe('the review chain head in the fleet store', () => {
  it('is listed by sessions --json and found by verify --expect', async () => {
    const [listed] = JSON.parse((await runCli('sessions', '--db', url, '--json')).out) as { reviewCount: number; reviewsHead: string }[];
    expect(listed).toMatchObject({ reviewCount: 2, reviewsHead: lastHash });
    const found = await runCli('verify', '--db', url, '--expect', lastHash);
    expect(found.code, found.out + found.err).toBe(0);
    expect(found.out).toMatch(/fleet session 1 \(session 1 of rig1\)'s reviews reach the expected review head \(review 2 of 2\)/);
  });

  it('makes verify --db fail once the last review row is deleted there, and --expect say its head is missing', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('DELETE FROM reviews WHERE n = (SELECT max(n) FROM reviews)');
    } finally {
      await client.end();
    }
    const after = await runCli('verify', '--db', url);
    expect(after.code).toBe(1);
    expect(after.out).toMatch(/recorded 2 review\(s\) but 1 are stored/);
    const missing = await runCli('verify', '--db', url, '--expect', lastHash);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/EXPECTED HEAD MISSING/);
  });
});
