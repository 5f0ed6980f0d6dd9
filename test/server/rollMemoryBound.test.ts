/**
 * What `dicerig serve` keeps of its rolls in memory over hours of streaming: the last 200 ended rolls with their
 * dice's pictures (rigController.ts KEEP_ROLLS), older ones answered from the roll store, and every roll still
 * waiting. bench/serveSoak.ts measures the memory this bounds.
 */
import { expect, it } from 'vitest';
import { startTestServer } from './support/testServer.js';

const KEPT = 200;

it('keeps at most the last 200 ended rolls in memory, answers an older one from the roll store without its pictures, and never drops a roll still waiting', async () => {
  const s = await startTestServer({ limits: { apiPerMinute: 1_000_000, apiBurst: 1_000_000 } });
  try {
    const first = (await s.api('POST', '/api/rolls?wait=10', { dice: '1 red, 1 green' })).json as { id: string; state: string; dice: { evidence?: string }[] };
    expect(first.state).toBe('done');
    expect(first.dice.every((d) => typeof d.evidence === 'string')).toBe(true);
    // Paused, a roll waits; each of the others is cancelled as soon as it is asked, so it ends without the rig.
    await s.api('POST', '/api/run', { action: 'pause' });
    const waiting = (await s.api('POST', '/api/rolls', { dice: '1 red' })).json.id as string;
    const ended: string[] = [];
    for (let i = 0; i < KEPT; i++) {
      const id = (await s.api('POST', '/api/rolls', { dice: '1 green' })).json.id as string;
      expect((await s.api('DELETE', `/api/rolls/${id}`)).status).toBe(200);
      ended.push(id);
    }
    const all = [first.id, waiting, ...ended];
    // The two oldest ended rolls (the first, then the first cancelled) made room; the waiting one between them stays.
    expect(all.filter((id) => s.controller.roll(id) !== undefined)).toEqual([waiting, ...ended.slice(1)]);
    expect(s.controller.roll(waiting)?.state).toBe('queued');
    const again = await s.api('GET', `/api/rolls/${first.id}`);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.id, state: 'done' });
    // Answered from the store: the dice as given, with no picture address (the crops left memory with the roll).
    expect((again.json.dice as { evidence?: string }[]).map((d) => d.evidence)).toEqual([undefined, undefined]);
  } finally {
    await s.close();
  }
});
