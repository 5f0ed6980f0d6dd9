/**
 * Wrong tokens are limited per client address, against a real `serve`: after
 * a few, the address is answered 429 with Retry-After, for the bearer token
 * and the chat token alike, while requests with the right token spend nothing.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_TOKEN, startTestServer } from './support/testServer.js';

describe('wrong tokens from one address', () => {
  it('are answered 401 up to the limit, then 429 with Retry-After for any token; right tokens before do not count', async () => {
    const s = await startTestServer({ limits: { failedAuthBurst: 3, failedAuthPerMinute: 1, apiPerMinute: 6000, apiBurst: 1000 } });
    try {
      for (let i = 0; i < 10; i++) expect((await s.api('GET', '/api/rolls/none')).status).toBe(404);
      // A request with no token guesses nothing and is not counted.
      expect((await s.api('GET', '/api/rolls/none', undefined, null)).status).toBe(401);
      const wrong = [];
      for (let i = 0; i < 2; i++) wrong.push((await s.api('GET', '/api/rolls/none', undefined, `guess-${i}`)).status);
      wrong.push((await fetch(`${s.url}/api/chat/roll?dice=1+red&token=guess-chat`)).status);
      expect(wrong).toEqual([401, 401, 401]);
      const locked = await s.api('POST', '/api/run', { action: 'stop' }, 'guess-3');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(locked.json.error).toMatch(/^too many wrong tokens from your address: try again in \d+ s$/);
      const chat = await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`);
      expect(chat.status).toBe(429);
      expect(await chat.text()).toMatch(/^Dice roller: too many wrong tokens from your address: try again in \d+ s\.$/);
    } finally {
      await s.close();
    }
  });
});
