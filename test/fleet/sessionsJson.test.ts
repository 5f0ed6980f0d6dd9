/**
 * `dicerig sessions --json` reads alike from a local roll store and from the fleet store it was synced to: the same
 * field names with the same meanings (the rig by name, whole-millisecond times, the chain head), the fleet adding only
 * where each session came from and the local store only the process running it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

let server: ScratchPostgres;

beforeAll(async () => {
  server = await startScratchPostgres();
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

describe('sessions --json, local and fleet (a real PostgreSQL)', () => {
  it('gives a session synced to the fleet the same fields and values as the local store does', async () => {
    const local = join(tempDir('dicerig-sessions-json-'), 'demo.db');
    expect((await runCli('demo', '--seed', '3', '--budget', '30', '--db', local, '--plain')).code).toBe(0);
    const url = await server.createDatabase('sessionsjson');
    const synced = await runCli('sync', '--db', local, '--to', url);
    expect(synced.code, synced.err).toBe(0);

    const [mine] = JSON.parse((await runCli('sessions', '--db', local, '--json')).out) as Record<string, unknown>[];
    const [theirs] = JSON.parse((await runCli('sessions', '--db', url, '--json')).out) as Record<string, unknown>[];
    const { process: _process, ...shared } = mine as Record<string, unknown>;
    const { localId, originHost: _h, originDb: _d, localThrowCount, copyOf, takenOver, ...fleetShared } = theirs as Record<string, unknown>;
    // An import of another fleet session's export only (copies.ts): a rig's session is none.
    expect(copyOf).toBeNull();
    expect(takenOver).toBeNull();
    expect(Object.keys(fleetShared).sort()).toEqual(Object.keys(shared).sort());
    // Ids differ (the fleet numbers its own); everything else about the session is the same.
    expect({ ...fleetShared, id: 0 }).toEqual({ ...shared, id: 0 });
    expect(localId).toBe(mine?.['id']);
    expect(localThrowCount).toBe(mine?.['throwCount']);
    expect(typeof shared['rigId']).toBe('string');
    expect(Number.isInteger(fleetShared['endedAt'])).toBe(true);
  }, 60_000);
});
