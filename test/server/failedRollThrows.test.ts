/**
 * A stream roll that fails after throws that did not count: its answer (the queue's, GET /api/rolls/:id and the
 * record kept in the roll store) names each of those stored throws, void or tumbled again, with why, so the throw
 * that failed it can be found in the store. Here a simulated rig that jams on every tumble: each jam is stored as a
 * void throw, and the roll fails when no tumble is left; and a reader that declines every face, so the roll ends with
 * the throw that made too many unread in a row (stored too, and named with the others).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STREAM_ROLL_EVENT } from '../../src/server/queue/rollRecords.js';
import { simServeConfig } from '../../src/server/serve.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { RollStore } from '../../src/store/rollStore.js';
import { startTestServer } from './support/testServer.js';

type Retumbled = { index: number; status: string; reason: string };

/** Each stored throw's index in the stream session, with what the store holds of the roll's kept record. */
function storedRoll(dir: string): { throws: number[]; kept: unknown } {
  const store = RollStore.open(join(dir, 'rolls.db'), { mustExist: true });
  try {
    const stream = store.sessions().find((x) => x.kind === 'stream');
    expect(stream).toBeDefined();
    const id = stream?.id as number;
    const kept = store.events(id).find((e) => e.kind === STREAM_ROLL_EVENT);
    return { throws: store.throwTimes(id).map((t) => t.index), kept: (kept?.detail as { retumbled?: unknown }).retumbled };
  } finally {
    store.close();
  }
}

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

  it('names the throw that ended it too (no die read in too many throws in a row), with why, in its answer, on GET and in the kept record', async () => {
    const base = simServeConfig('d6', { clock: 'simulated', seed: 5, cockedRate: 0 });
    const declines = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((f) => [f, 1]));
    const config = checkSessionConfig({ ...base, camera: { ...base.camera, declines }, stopping: { ...base.stopping, maxConsecutiveUnread: 4 } }, 'test');
    const s = await startTestServer({ config, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    try {
      const answer = await s.api('POST', '/api/rolls?wait=30', { dice: '1d6' });
      expect(answer.json.state).toBe('failed');
      expect(String(answer.json.error)).toMatch(/^No die was read in 4 throws in a row/);
      const retumbled = answer.json.retumbled as Retumbled[];
      // Four throws stored, every one unread: the fourth ended the roll and is named as the three before it are.
      expect(retumbled.map((t) => [t.status, t.reason])).toEqual(Array.from({ length: 4 }, () => ['rerolled', expect.stringMatching(/declined by the reader; kept unresolved for review$/)]));
      expect((await s.api('GET', `/api/rolls/${String(answer.json.id)}`)).json.retumbled).toEqual(retumbled);
      const { throws, kept } = storedRoll(s.dir);
      expect(retumbled.map((t) => t.index)).toEqual(throws);
      expect(kept).toEqual(retumbled);
    } finally {
      await s.close();
    }
  });
});
