/**
 * A server reachable from the network must not let anyone open live pages until it runs out: `/live` refuses a page
 * over `server.livePerAddress` from its address or over `server.liveMax` in all, before the upgrade (503 with
 * Retry-After, saying which limit), and lets a page in again once one has left. Real `serve`, real WebSockets; the
 * other addresses are other loopback addresses the client binds to.
 */
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/testServer.js';

type Opened = { ok: true; ws: WebSocket; state: Record<string, unknown> } | { ok: false; status: number; retryAfter: string | undefined; body: string };

function openLive(url: string, from: string, forwardedFor?: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/live`, { localAddress: from, ...(forwardedFor !== undefined ? { headers: { 'x-forwarded-for': forwardedFor } } : {}) });
    ws.once('message', (data: Buffer) => resolve({ ok: true, ws, state: JSON.parse(data.toString('utf8')) as Record<string, unknown> }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ ok: false, status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }));
    });
    ws.once('error', (e) => reject(e));
  });
}

let server: TestServer | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server?.close();
  server = undefined;
});

async function admitted(url: string, from: string, forwardedFor?: string): Promise<WebSocket> {
  const r = await openLive(url, from, forwardedFor);
  if (!r.ok) throw new Error(`refused: ${r.status} ${r.body}`);
  expect(r.state.type).toBe('state');
  sockets.push(r.ws);
  return r.ws;
}

describe('live pages over the limits', () => {
  it('are refused per address and in all with 503 naming the limit, and let in again once a page has left', async () => {
    server = await startTestServer({ limits: { liveMax: 3, livePerAddress: 2 } });
    const url = server.url;
    const first = await admitted(url, '127.0.0.1');
    await admitted(url, '127.0.0.1');
    const third = await openLive(url, '127.0.0.1');
    expect(third).toMatchObject({ ok: false, status: 503, retryAfter: '30' });
    expect(JSON.parse((third as { body: string }).body)).toEqual({ error: 'your address has 2 live pages open, its limit (server.livePerAddress): close one or raise the limit' });

    await admitted(url, '127.0.0.2');
    const full = await openLive(url, '127.0.0.3');
    expect(full).toMatchObject({ ok: false, status: 503 });
    expect((full as { body: string }).body).toContain('the server has 3 live pages open, its limit (server.liveMax)');

    // Once a page has left (the server sees its close), its address may open one again.
    first.close();
    let again: Opened | undefined;
    for (let i = 0; i < 50 && !again?.ok; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      again = await openLive(url, '127.0.0.1');
    }
    expect(again?.ok).toBe(true);
    if (again?.ok) sockets.push(again.ws);
  });

  it('are counted by default up to 20 from one address, so a streamer’s overlays, dashboard and review pages all fit', async () => {
    server = await startTestServer();
    for (let i = 0; i < 20; i++) await admitted(server.url, '127.0.0.1');
    const over = await openLive(server.url, '127.0.0.1');
    expect(over).toMatchObject({ ok: false, status: 503 });
    await admitted(server.url, '127.0.0.4');
  });

  it('behind a trusted proxy are counted per client the proxy forwards for, not all as the proxy', async () => {
    server = await startTestServer({ limits: { liveMax: 10, livePerAddress: 2 }, trustedProxies: ['127.0.0.1'] });
    const url = server.url;
    await admitted(url, '127.0.0.1', '203.0.113.5');
    await admitted(url, '127.0.0.1', '203.0.113.5');
    expect(await openLive(url, '127.0.0.1', '203.0.113.5')).toMatchObject({ ok: false, status: 503 });
    // Another viewer behind the same proxy still gets its pages.
    await admitted(url, '127.0.0.1', '198.51.100.7');
    await admitted(url, '127.0.0.1', '198.51.100.7');
  });
});
