/**
 * The roll API's rate limit counts the rolls it takes, not the requests it refuses: a chat bot that keeps asking
 * while its queue is full (each answer a 429 with Retry-After), or sends dice it cannot have, is served as soon as
 * it backs off and a place is free. The limit's clock is injected, so no test waits for a token to come back.
 */
import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/testServer.js';

describe('requests the roll API refuses', () => {
  it('spend nothing from the rate limit: a client refused while its queue is full is served once it backs off and a place frees', async () => {
    let t = 0;
    // One token back a minute: after a 10 s back-off a charged refusal would still be owed.
    const s = await startTestServer({ limits: { apiPerMinute: 1, apiBurst: 21 }, limitClock: () => t });
    try {
      await s.controller.pause();
      const ids: string[] = [];
      for (let i = 0; i < s.controller.maxWaitingPerClient; i++) {
        const r = await s.api('POST', '/api/rolls', { dice: '1 red' });
        expect(r.status).toBe(202);
        ids.push(r.json.id as string);
      }
      // The bot hammers while its queue is full: every answer is the queue's 429 with its cooldown.
      for (let i = 0; i < 5; i++) {
        const r = await s.api('POST', '/api/rolls', { dice: '1 red' });
        expect([r.status, r.headers.get('retry-after'), r.json.error]).toEqual([429, '10', `you already have ${s.controller.maxWaitingPerClient} rolls waiting; wait for them first`]);
      }
      // It backs off for the cooldown it was told, and meanwhile one of its rolls leaves the queue.
      t += 10_000;
      expect(s.controller.cancel(ids[0] as string)).toBe(true);
      const served = await s.api('POST', '/api/rolls', { dice: '1 red' });
      expect([served.status, served.json.error]).toEqual([202, undefined]);
    } finally {
      await s.close();
    }
  });

  it('spend nothing when the body is malformed or asks for dice the rig does not hold', async () => {
    const t = 0;
    const s = await startTestServer({ limits: { apiPerMinute: 1, apiBurst: 2 }, limitClock: () => t });
    try {
      await s.controller.pause();
      for (let i = 0; i < 3; i++) expect((await s.api('POST', '/api/rolls', '{"dice": ')).status).toBe(400);
      for (let i = 0; i < 3; i++) expect((await s.api('POST', '/api/rolls', { dice: '2d6' })).status).toBe(422);
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await s.api('POST', '/api/rolls', { dice: '1 green' })).status);
      // The burst of two is spent by the two rolls taken, and only then is a request refused for the rate.
      expect(codes).toEqual([202, 202, 429]);
    } finally {
      await s.close();
    }
  });
});
