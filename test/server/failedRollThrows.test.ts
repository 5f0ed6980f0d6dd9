/**
 * A stream roll that fails after throws that did not count: its answer (the queue's, GET /api/rolls/:id and the
 * record kept in the roll store) names each of those stored throws, void or tumbled again, with why, so the throw
 * that failed it can be found in the store. Here a simulated rig that jams on every tumble: each jam is stored as a
 * void throw, and the roll fails when no tumble is left.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STREAM_ROLL_EVENT } from '../../src/server/queue/rollRecords.js';
import { simServeConfig } from '../../src/server/serve.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { RollStore } from '../../src/store/rollStore.js';
import { startTestServer } from './support/testServer.js';

type Retumbled = { index: number; status: string; reason: string };

describe('a stream roll failed by void throws', () => {
  it('names every void throw it took, with why, in its answer, on GET and in the record kept in the store', async () => {
    const base = simServeConfig('xwing', { clock: 'simulated', seed: 3, cockedRate: 0 });
    const config = checkSessionConfig({ ...base, rig: { ...base.rig, sim: { faults: { jamRate: 1 } } } }, 'test');
    const s = await startTestServer({ config, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    try {
      const answer = await s.api('POST', '/api/rolls?wait=30', { dice: '1 red' });
      expect(answer.json.state).toBe('failed');
      const retumbled = answer.json.retumbled as Retumbled[];
      expect(retumbled.length).toBeGreaterThan(0);
      for (const t of retumbled) expect([t.status, t.reason]).toEqual(['void', expect.stringMatching(/jam/i)]);
      expect((await s.api('GET', `/api/rolls/${String(answer.json.id)}`)).json.retumbled).toEqual(retumbled);

      const store = RollStore.open(join(s.dir, 'rolls.db'), { mustExist: true });
      try {
        const stream = store.sessions().find((x) => x.kind === 'stream');
        expect(stream).toBeDefined();
        const events = store.events(stream?.id as number);
        // The void throws stored for this roll are exactly the ones its answer names.
        expect(events.filter((e) => e.kind === 'fault').map((e) => e.throwIndex)).toEqual(retumbled.map((t) => t.index));
        expect(store.counts(stream?.id as number).void).toBe(retumbled.length);
        const kept = events.find((e) => e.kind === STREAM_ROLL_EVENT);
        expect((kept?.detail as { retumbled?: unknown }).retumbled).toEqual(retumbled);
      } finally {
        store.close();
      }
    } finally {
      await s.close();
    }
  });
});
