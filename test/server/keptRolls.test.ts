/**
 * A stream roll's answer outlives the server: a bot that asked for a roll before a restart, or whose roll has left
 * the server's memory, gets the answer that was given, and the record is sealed in the stream session's chain.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { startTestServer } from './support/testServer.js';

describe('stream rolls kept in the roll store', () => {
  it('answers GET for a roll from before a restart as it was answered, and refuses to cancel it', async () => {
    const first = await startTestServer({ seed: 5 });
    let asked: Record<string, unknown>;
    let evidence: Record<string, unknown>;
    try {
      asked = (await first.api('POST', '/api/rolls?wait=20', { dice: '2 red, 1 green', by: 'ada' })).json;
      expect(asked.state).toBe('done');
      evidence = (await first.api('GET', `/api/rolls/${String(asked.id)}/evidence`)).json;
    } finally {
      await first.close();
    }
    const again = await startTestServer({ seed: 5, dir: first.dir });
    try {
      const got = await again.api('GET', `/api/rolls/${String(asked.id)}`);
      expect(got.status).toBe(200);
      for (const key of ['id', 'state', 'request', 'by', 'createdAt', 'startedAt', 'doneAt', 'result', 'line', 'throws', 'sessionId']) expect(got.json[key], key).toEqual(asked[key]);
      // The dice as answered (the pictures are no longer held, so no picture address).
      expect(got.json.dice).toEqual((asked.dice as Record<string, unknown>[]).map(({ evidence: _, ...d }) => d));
      // The pages start empty after a restart: an old roll is not shown again as the last one.
      const state = (await again.api('GET', '/api/state')).json as { history: { id: string }[] };
      expect(state.history).toEqual([]);
      const deleted = await again.api('DELETE', `/api/rolls/${String(asked.id)}`);
      expect(deleted.status).toBe(409);
      expect(deleted.json.error).toBe(`roll ${String(asked.id)} is done; only a waiting roll can be cancelled`);
      // Its evidence as the store sealed it: the frames' throws and channels, each file with its hash.
      const files = (await again.api('GET', `/api/rolls/${String(asked.id)}/evidence`)).json as { frames: { throwIndex: number; channel: number; stored?: string; sha256?: string }[] };
      expect(files.frames.map((f) => [f.throwIndex, f.channel])).toEqual((evidence.frames as { throwIndex: number; channel: number }[]).map((f) => [f.throwIndex, f.channel]));
      expect((await again.api('GET', '/api/rolls/0123456789')).status).toBe(404);
    } finally {
      await again.close();
    }
    // The record is an event of the stream session, in its sealed chain.
    const store = RollStore.open(join(first.dir, 'rolls.db'), { mustExist: true });
    try {
      const kept = store.events(asked.sessionId as number).filter((e) => e.kind === 'stream-roll');
      expect(kept.map((e) => (e.detail as { id: string }).id)).toEqual([asked.id]);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
  }, 120_000);
});
