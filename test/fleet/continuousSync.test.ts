import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFleet } from '../../src/fleet/connect.js';
import { LocalRows } from '../../src/fleet/localRows.js';
import { syncStore } from '../../src/fleet/replicate.js';
import { okThrow, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetThrows, localThrows, sorted } from './support/compare.js';

let server: ScratchPostgres;
let dir: string;

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-continuous-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

describe('continuous replication passes (run --fleet) on a real PostgreSQL', () => {
  it('skips a session unchanged since a pass copied it, and still copies what comes after: throws, a review, new verdicts, its end', async () => {
    const path = join(dir, 'passes.db');
    const { store, dice, session } = storeWithSession(path);
    for (let i = 1; i <= 10; i++) store.recordThrow(session.id, okThrow(i, dice));
    const url = await server.createDatabase('passes');
    const fleet = await openFleet(url);
    const local = LocalRows.open(path);
    const copied = new Map<number, string>();
    const pass = () => syncStore(local, fleet, { copied });
    const fleetSession = async () =>
      (await fleet.pool.query<{ state: string; reviews: number; verdicts: string | null }>(
        'SELECT s.state, s.review_count AS reviews, v.verdicts_json AS verdicts FROM sessions s LEFT JOIN session_verdicts v ON v.session_id = s.id',
      )).rows[0];
    try {
      expect(await pass()).toMatchObject({ throws: 10, behind: 0 });
      // Nothing changed: not even one transaction is opened for the session...
      expect(await pass()).toMatchObject({ batches: 0, throws: 0 });
      // ...where a pass without that memory reads the fleet store to find it holds everything.
      expect(await syncStore(local, fleet)).toMatchObject({ batches: 1, throws: 0 });

      const declined = { ...okThrow(11, dice), rolls: okThrow(11, dice).rolls.map((r, i) => (i === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) };
      store.recordThrow(session.id, declined);
      for (let i = 12; i <= 13; i++) store.recordThrow(session.id, okThrow(i, dice));
      expect(await pass()).toMatchObject({ throws: 3, behind: 0 });

      const roll = store.unresolvedRolls(session.id)[0];
      store.reviewRoll(session.id, { rollId: roll?.rollId as number, faceId: 'hit-1', reviewer: 'ada', at: 1_700_000_900_000 });
      expect(await pass()).toMatchObject({ throws: 0, reviews: 1 });
      expect((await fleetSession())?.reviews).toBe(1);

      store.saveVerdicts(session.id, 1_700_001_000_000, [{ die: 'R1', kind: 'INCONCLUSIVE' }]);
      await pass();
      // Replaced under the same time: the pass must still see it changed.
      store.saveVerdicts(session.id, 1_700_001_000_000, [{ die: 'R1', kind: 'FAIR_WITHIN' }]);
      await pass();
      expect(JSON.parse((await fleetSession())?.verdicts ?? 'null')).toEqual([{ die: 'R1', kind: 'FAIR_WITHIN' }]);

      store.endSession(session.id, 1_700_002_000_000);
      await pass();
      expect((await fleetSession())?.state).toBe('finished');
      expect(await pass()).toMatchObject({ batches: 0 });
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
    } finally {
      local.close();
      store.close();
      await fleet.close();
    }
  }, 60_000);
});
