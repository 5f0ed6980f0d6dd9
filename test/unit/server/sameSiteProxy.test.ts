/**
 * Behind a TLS proxy (Caddy, nginx passing the Host header on), the dashboard's page is https://HOST and its requests
 * carry that Origin: they are the server's own pages. Another site's page stays refused, over https as over http.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sameSiteOnly } from '../../../src/server/security/sameSite.js';

const app = Fastify();
beforeAll(async () => {
  sameSiteOnly(app, { loopback: false, what: 'dicerig serve' });
  app.post('/api/control', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

const post = (host: string, origin: string): Promise<number> => app.inject({ method: 'POST', url: '/api/control', headers: { host, origin } }).then((r) => r.statusCode);

it('answers its own page served through a TLS proxy that passes the host on (Origin https://HOST)', async () => {
  expect(await post('dice.example.com', 'https://dice.example.com')).toBe(200);
  expect(await post('192.168.1.20:8080', 'http://192.168.1.20:8080')).toBe(200);
});

it('refuses another site’s page whatever its scheme, and a page of the same name on another port', async () => {
  expect(await post('dice.example.com', 'https://evil.example')).toBe(403);
  expect(await post('dice.example.com', 'http://evil.example')).toBe(403);
  expect(await post('dice.example.com', 'https://dice.example.com:8443')).toBe(403);
  const refused = await app.inject({ method: 'POST', url: '/api/control', headers: { host: 'dice.example.com', origin: 'https://evil.example' } });
  expect(refused.json()).toEqual({ error: 'dicerig serve answers only its own pages, not https://evil.example' });
});
