/**
 * A page on another site, open in the streamer's browser, can open a WebSocket
 * to 127.0.0.1 (WebSockets are not held to the same origin) or, after DNS
 * rebinding, talk to the server under its own host name. On loopback, serve
 * answers only requests addressed to a loopback host, and nothing sent by
 * another site's page.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './support/testServer.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The status a WebSocket upgrade to /live gets with these headers (101 when it opens). */
function upgrade(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** GET with an explicit Host header (fetch will not send another host's name). */
function get(path: string, host: string): Promise<number> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

describe('requests from other sites', () => {
  it('opens the live stream for its own pages and for clients that send no origin (OBS, bots)', async () => {
    const own = new URL(server.url);
    expect(await upgrade({})).toBe(101);
    expect(await upgrade({ origin: `http://${own.host}` })).toBe(101);
    expect(await get('/api/state', own.host)).toBe(200);
    expect(await get('/overlay', `localhost:${own.port}`)).toBe(200);
  });

  it('refuses the live stream to another site’s page, and any request addressed to another host name while on loopback', async () => {
    expect(await upgrade({ origin: 'https://evil.example' })).toBe(403);
    expect(await get('/api/state', `evil.example:${new URL(server.url).port}`)).toBe(403);
    expect(await get('/overlay', 'rebound.example')).toBe(403);
  });
});
