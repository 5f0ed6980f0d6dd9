/**
 * `dicerig serve` behind a reverse proxy (`--trust-proxy`, `server.trustProxy`), against a real server: requests
 * that come from the proxy's address (127.0.0.1 here) are counted by the client address the proxy forwards, so one
 * guesser behind the proxy does not lock every other viewer out; a request from any other address (127.0.0.2, a
 * client reaching the port directly) is counted by its own, whatever X-Forwarded-For it writes.
 */
import { request } from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InputError } from '../../src/core/errors.js';
import { loadServeConfig } from '../../src/server/serveConfig.js';
import { parseTrustedProxies } from '../../src/server/security/trustedProxies.js';
import { serve, simServeConfig } from '../../src/server/serve.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from '../cli/runCli.js';
import { API_TOKEN, startTestServer } from './support/testServer.js';

/** GET `path` from the local address `from`, as a proxy forwarding for `forwardedFor` (no header when undefined). */
function get(url: string, path: string, from: string, token: string, forwardedFor?: string, hostHeader?: string): Promise<number> {
  const { hostname, port } = new URL(url);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  if (hostHeader !== undefined) headers.host = hostHeader;
  return new Promise((done, fail) => {
    const req = request({ host: hostname, port, path, localAddress: from, headers }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

const LIMITS = { failedAuthBurst: 3, failedAuthPerMinute: 1, apiPerMinute: 6000, apiBurst: 1000 };
const GUESSER = '203.0.113.5';
const VIEWER = '198.51.100.7';

/** The guesser sends 3 wrong tokens through the proxy; then the guesser and another viewer each ask with the right token. */
async function guessThenAsk(url: string): Promise<{ guesser: number; viewer: number }> {
  for (let i = 0; i < 3; i++) expect(await get(url, '/api/rolls/none', '127.0.0.1', `guess-${i}-0123456789`, GUESSER)).toBe(401);
  return { guesser: await get(url, '/api/rolls/none', '127.0.0.1', API_TOKEN, GUESSER), viewer: await get(url, '/api/rolls/none', '127.0.0.1', API_TOKEN, VIEWER) };
}

describe('serve behind a trusted proxy', () => {
  it('locks out the client that guessed tokens through the proxy, and serves the other clients behind it', async () => {
    const s = await startTestServer({ limits: LIMITS, trustedProxies: ['127.0.0.1'] });
    try {
      expect(await guessThenAsk(s.url)).toEqual({ guesser: 429, viewer: 404 });
      // The proxy passes on its public host name (nginx: proxy_set_header Host $host): not refused as DNS rebinding.
      expect(await get(s.url, '/api/rolls/none', '127.0.0.1', API_TOKEN, VIEWER, 'dice.example.com')).toBe(404);
      expect(s.logs.join('\n')).toContain('Behind a proxy (127.0.0.1): a request from it is counted by the client address it adds to X-Forwarded-For');
    } finally {
      await s.close();
    }
  });

  it('without --trust-proxy counts every client behind the proxy as the proxy: the guesser locks the viewer out too', async () => {
    const s = await startTestServer({ limits: LIMITS });
    try {
      expect(await guessThenAsk(s.url)).toEqual({ guesser: 429, viewer: 429 });
      // And on loopback without it, a request naming another host is refused (DNS rebinding).
      expect(await get(s.url, '/api/rolls/none', '127.0.0.2', API_TOKEN, undefined, 'dice.example.com')).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('counts a client that reaches the port directly by its own address, whatever X-Forwarded-For it writes', async () => {
    const s = await startTestServer({ limits: LIMITS, trustedProxies: ['127.0.0.1'] });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await get(s.url, '/api/rolls/none', '127.0.0.2', `guess-${i}-0123456789`, `192.0.2.${i + 1}`));
      expect(statuses).toEqual([401, 401, 401, 429]);
      // The proxy's clients are not touched by it.
      expect(await get(s.url, '/api/rolls/none', '127.0.0.1', API_TOKEN, VIEWER)).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('refuses to start behind a proxy without an API token, opening no store', async () => {
    const dir = tempDir('dicerig-proxy-');
    await expect(serve({ config: simServeConfig('xwing', { clock: 'simulated', seed: 3 }), dbPath: join(dir, 'rolls.db'), host: '127.0.0.1', port: 0, tokens: {}, trustedProxies: ['127.0.0.1'] })).rejects.toThrow(
      /--trust-proxy 127\.0\.0\.1: a server behind a proxy is reachable from the network; that needs an API token: set DICERIG_TOKEN/,
    );
  });
});

describe('the proxies given', () => {
  const fail = (problem: string): Error => new InputError(`--trust-proxy: ${problem}`);

  it('are addresses, ranges and named ranges, separated by commas or listed, each kept once', () => {
    expect(parseTrustedProxies(' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,loopback,127.0.0.1', fail)).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(parseTrustedProxies(['192.168.1.2', 'uniquelocal'], fail)).toEqual(['192.168.1.2', 'uniquelocal']);
  });

  it('refuse anything else, naming the entry: a host name, "true", a range of too many bits, an empty entry', () => {
    expect(() => parseTrustedProxies('proxy.example', fail)).toThrow('--trust-proxy: "proxy.example" is not an IP address, a range (ADDRESS/BITS) or one of loopback, linklocal, uniquelocal');
    expect(() => parseTrustedProxies('true', fail)).toThrow('"true" is not an IP address');
    expect(() => parseTrustedProxies('10.0.0.0/33', fail)).toThrow('"10.0.0.0/33": the bits after "/" must be a whole number from 0 to 32');
    expect(() => parseTrustedProxies('::1/129', fail)).toThrow('from 0 to 128');
    expect(() => parseTrustedProxies('127.0.0.1,,10.0.0.1', fail)).toThrow('with no empty entry');
  });

  it("are read from the config's server.trustProxy, and a bad one names the key, the line and the entry", async () => {
    const dir = tempDir('dicerig-proxy-config-');
    const file = join(dir, 'serve.yaml');
    const base = 'dice:\n  - { label: R1, type: red }\nrig: { driver: sim }\ncamera: { source: sim }\nserver:\n  port: 8090\n';
    writeFileSync(file, `${base}  trustProxy: [127.0.0.1, "10.1.0.0/16"]\n`);
    expect((await loadServeConfig(file)).server.trustProxy).toEqual(['127.0.0.1', '10.1.0.0/16']);
    writeFileSync(file, `${base}  trustProxy: "127.0.0.1, caddy"\n`);
    const e = await loadServeConfig(file).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toBe(`${file}: config key "server.trustProxy": "caddy" is not an IP address, a range (ADDRESS/BITS) or one of loopback, linklocal, uniquelocal (line 7)`);
  });

  it('given to dicerig serve that cannot use them is one clear line and exit code 1: a bad entry, or no API token', async () => {
    const bad = await runCli('serve', '--sim', '--trust-proxy', '127.0.0.1,nginx');
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toBe('dicerig: --trust-proxy: "nginx" is not an IP address, a range (ADDRESS/BITS) or one of loopback, linklocal, uniquelocal');
    expect(process.env.DICERIG_TOKEN).toBeUndefined();
    const db = join(tempDir('dicerig-proxy-cli-'), 'rolls.db');
    const tokenless = await runCli('serve', '--sim', '--trust-proxy', '127.0.0.1', '--port', '0', '--db', db);
    expect(tokenless.code).toBe(1);
    expect(tokenless.err.trim().split('\n')).toHaveLength(1);
    expect(tokenless.err).toContain('--trust-proxy 127.0.0.1: a server behind a proxy is reachable from the network; that needs an API token');
    expect(existsSync(db)).toBe(false);
  });
});
