/**
 * Wrong tokens are limited per client address, against a real `serve`: after a few, the address is answered 429
 * with Retry-After, whatever token it then sends (else a right guess would show), while requests with the right
 * token spend nothing. API and chat tokens are counted apart: on loopback a chat bot and the streamer's dashboard
 * share one address.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_TOKEN, startTestServer } from './support/testServer.js';

describe('wrong tokens from one address', () => {
  it('are answered 401 up to the limit, then 429 with Retry-After for any token of that kind; right tokens before do not count', async () => {
    const s = await startTestServer({ limits: { failedAuthBurst: 3, failedAuthPerMinute: 1, apiPerMinute: 6000, apiBurst: 1000 } });
    try {
      for (let i = 0; i < 10; i++) expect((await s.api('GET', '/api/rolls/none')).status).toBe(404);
      // A request with no token guesses nothing and is not counted.
      expect((await s.api('GET', '/api/rolls/none', undefined, null)).status).toBe(401);
      const wrong = [];
      for (let i = 0; i < 3; i++) wrong.push((await s.api('GET', '/api/rolls/none', undefined, `guess-${i}`)).status);
      expect(wrong).toEqual([401, 401, 401]);
      const locked = await s.api('POST', '/api/run', { action: 'stop' }, 'guess-3');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(locked.json.error).toMatch(/^too many wrong tokens from your address: try again in \d+ s$/);
      expect((await s.api('GET', '/api/rolls/none')).status).toBe(429);

      const chatWrong = [];
      for (let i = 0; i < 3; i++) chatWrong.push((await fetch(`${s.url}/api/chat/roll?dice=1+red&token=guess-chat-${i}`)).status);
      expect(chatWrong).toEqual([401, 401, 401]);
      const chat = await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`);
      expect(chat.status).toBe(429);
      expect(await chat.text()).toMatch(/^Dice roller: too many wrong tokens from your address: try again in \d+ s\.$/);
    } finally {
      await s.close();
    }
  });

  it('of chat (a bot with an old chat token on the same PC) do not lock the streamer out of the API: the rig can still be stopped', async () => {
    const s = await startTestServer({ limits: { failedAuthBurst: 10, failedAuthPerMinute: 1 } });
    try {
      for (let i = 0; i < 11; i++) await fetch(`${s.url}/api/chat/roll?dice=1+red&token=old-chat-token-${i}`);
      expect((await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`)).status).toBe(429);
      const stop = await s.api('POST', '/api/run', { action: 'stop' });
      expect(stop.status).toBe(200);
      expect(stop.json).toMatchObject({ mode: 'stream', run: 'paused' });
    } finally {
      await s.close();
    }
  });
});
