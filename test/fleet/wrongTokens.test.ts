/**
 * Wrong API tokens on the fleet dashboard (`dicerig serve --db postgres://...` beyond loopback), against the real
 * HTTP server over a real PostgreSQL fleet store: an address that sent too many wrong tokens is answered 429 with
 * Retry-After, whatever token it then sends, until it is back under the limit (a test clock moves time on); another
 * address with the right token is served meanwhile. Two loopback addresses (127.0.0.1 and 127.0.0.2) stand for two
 * clients, as the server sees them by their address.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { InputError } from '../../src/core/errors.js';
import { openFleet, type FleetDb } from '../../src/fleet/connect.js';
import { createFleetServer } from '../../src/server/fleet/fleetApp.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { DEFAULT_WRONG_TOKENS_PER_MINUTE, WRONG_TOKENS_ENV, wrongTokensPerMinute } from '../../src/server/fleet/wrongTokens.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';

const TOKEN = 'fleet-token-0123456789';
let pg: ScratchPostgres;
let fleet: FleetDb;

beforeAll(async () => {
  pg = await startScratchPostgres();
  fleet = await openFleet(await pg.createDatabase('fleet'), { readOnly: true });
}, 60_000);

afterAll(async () => {
  await fleet?.close();
  await pg?.remove();
});

/** GET `path` from the client address `from`, with `token` as the bearer token (none when undefined). */
function get(port: number, path: string, from: string, token?: string, forwardedFor?: string): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** The fleet dashboard's app beyond loopback (every API read needs the token), on a port of this test's range, with a test clock. */
async function server(port: number, clock: { ms: number }, settings: { wrongTokensPerMinute?: number; maxAddresses?: number; trustedProxies?: readonly string[] } = {}) {
  const view = new FleetView({ fleet, dice: allDice(), pollMs: 1000, now: () => Date.now() });
  const app = await createFleetServer({ view, tokens: { api: TOKEN }, loopback: false, limitClock: () => clock.ms, ...settings });
  await app.listen({ host: '127.0.0.1', port });
  return app;
}

describe('wrong API tokens on the fleet dashboard', () => {
  it('lock the address out after the limit (429 with Retry-After, even for the right token), not another address, until a minute has passed', async () => {
    const clock = { ms: 1_000_000 };
    const app = await server(47310, clock, { wrongTokensPerMinute: 3 });
    try {
      expect((await get(47310, '/api/fleet', '127.0.0.2', TOKEN)).status).toBe(200);
      // No token guesses nothing: not counted.
      for (let i = 0; i < 5; i++) expect((await get(47310, '/api/fleet', '127.0.0.2')).status).toBe(401);
      const guesses = [];
      for (let i = 0; i < 3; i++) guesses.push((await get(47310, '/api/fleet', '127.0.0.2', `guess-${i}-0123456789`)).status);
      expect(guesses).toEqual([401, 401, 401]);
      for (const token of ['guess-3-0123456789', TOKEN]) {
        const locked = await get(47310, '/api/fleet/sessions/1/report', '127.0.0.2', token);
        expect(locked.status).toBe(429);
        expect(Number(locked.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(JSON.parse(locked.body)).toEqual({ error: expect.stringMatching(/^too many wrong tokens from your address: try again in \d+ s$/) as unknown });
      }
      // Another address with the right token is served.
      expect((await get(47310, '/api/fleet', '127.0.0.1', TOKEN)).status).toBe(200);
      // One wrong token comes back every 20 s at 3 a minute: after Retry-After the right token is served again.
      const wait = Number((await get(47310, '/api/fleet', '127.0.0.2', TOKEN)).retryAfter);
      clock.ms += wait * 1000;
      expect((await get(47310, '/api/fleet', '127.0.0.2', TOKEN)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it(`are limited to ${DEFAULT_WRONG_TOKENS_PER_MINUTE} an address by default`, async () => {
    const clock = { ms: 5_000 };
    const app = await server(47311, clock);
    try {
      const statuses = [];
      for (let i = 0; i <= DEFAULT_WRONG_TOKENS_PER_MINUTE; i++) statuses.push((await get(47311, '/api/fleet', '127.0.0.3', `wrong-${i}-0123456789`)).status);
      expect(statuses).toEqual([...Array<number>(DEFAULT_WRONG_TOKENS_PER_MINUTE).fill(401), 429]);
    } finally {
      await app.close();
    }
  });

  it('are counted in a table of bounded size: addresses beyond it push out the oldest, not the memory', async () => {
    const clock = { ms: 5_000 };
    const app = await server(47312, clock, { wrongTokensPerMinute: 1, maxAddresses: 20 });
    try {
      // 60 addresses, each locked out by one wrong token: only the last ones are remembered.
      for (let i = 0; i < 60; i++) expect((await get(47312, '/api/fleet', `127.0.1.${i + 1}`, 'wrong-0123456789')).status).toBe(401);
      expect((await get(47312, '/api/fleet', '127.0.1.60', TOKEN)).status).toBe(429);
      // The first, pushed out, is served again with the right token (as a new address would be).
      expect((await get(47312, '/api/fleet', '127.0.1.1', TOKEN)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('wrong API tokens on a fleet dashboard behind a trusted proxy (--trust-proxy 127.0.0.1)', () => {
  it('lock out the client the proxy forwards for, not the other clients behind it, nor does a direct client escape by writing X-Forwarded-For', async () => {
    const clock = { ms: 5_000 };
    const app = await server(47313, clock, { wrongTokensPerMinute: 2, trustedProxies: ['127.0.0.1'] });
    try {
      for (let i = 0; i < 2; i++) expect((await get(47313, '/api/fleet', '127.0.0.1', `guess-${i}-0123456789`, '203.0.113.5')).status).toBe(401);
      expect((await get(47313, '/api/fleet', '127.0.0.1', TOKEN, '203.0.113.5')).status).toBe(429);
      expect((await get(47313, '/api/fleet', '127.0.0.1', TOKEN, '198.51.100.7')).status).toBe(200);
      // 127.0.0.2 is no proxy: counted by its own address whatever it writes.
      const direct = [];
      for (let i = 0; i < 3; i++) direct.push((await get(47313, '/api/fleet', '127.0.0.2', `guess-${i}-0123456789`, `192.0.2.${i + 1}`)).status);
      expect(direct).toEqual([401, 401, 429]);
    } finally {
      await app.close();
    }
  });
});

describe(`${WRONG_TOKENS_ENV}`, () => {
  it('sets the limit, and a value that is not a whole number from 1 up is an error naming the variable', () => {
    expect(wrongTokensPerMinute({})).toBe(DEFAULT_WRONG_TOKENS_PER_MINUTE);
    expect(wrongTokensPerMinute({ [WRONG_TOKENS_ENV]: ' 25 ' })).toBe(25);
    for (const bad of ['0', '-3', '2.5', 'ten', '99999999']) {
      const e = (() => {
        try {
          wrongTokensPerMinute({ [WRONG_TOKENS_ENV]: bad });
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(e, bad).toBeInstanceOf(InputError);
      expect((e as Error).message).toContain(`${WRONG_TOKENS_ENV}: the wrong API tokens one address may send a minute must be a whole number from 1 to 10000 (default 10), not "${bad}"`);
    }
  });
});
