/** A real `serve` on a free loopback port over the simulated rig and camera (on a simulated clock unless asked), with a store in a temp folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Limits } from '../../../src/server/app.js';
import type { Tokens } from '../../../src/server/security/auth.js';
import type { SessionConfig } from '../../../src/session/config.js';
import { serve, simServeConfig, type RunningServer, type SimDice } from '../../../src/server/serve.js';

export const API_TOKEN = 'api-token-for-tests-0123456789';
export const CHAT_TOKEN = 'chat-token-for-tests-42';

export interface TestServer extends RunningServer {
  readonly dir: string;
  readonly logs: string[];
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; headers: Headers; json: Record<string, unknown> & { error?: string } }>;
}

export async function startTestServer(
  options: { config?: SessionConfig; dice?: SimDice; clock?: 'system' | 'simulated'; limits?: Partial<Limits>; chatWaitMs?: number; limitClock?: () => number; tokens?: Tokens; seed?: number; cockedRate?: number; port?: number; dir?: string; trustedProxies?: readonly string[] } = {},
): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'dicerig-serve-'));
  const logs: string[] = [];
  const running = await serve({
    config: options.config ?? simServeConfig(options.dice ?? 'xwing', { clock: options.clock ?? 'simulated', seed: options.seed ?? 7, ...(options.cockedRate !== undefined ? { cockedRate: options.cockedRate } : {}) }),
    dbPath: join(dir, 'rolls.db'),
    host: '127.0.0.1',
    port: options.port ?? 0,
    tokens: options.tokens ?? { api: API_TOKEN, chat: CHAT_TOKEN },
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.chatWaitMs !== undefined ? { chatWaitMs: options.chatWaitMs } : {}),
    ...(options.limitClock ? { limitClock: options.limitClock } : {}),
    ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
    log: (line) => logs.push(line),
  });
  return {
    ...running,
    dir,
    logs,
    async api(method, path, body, token = API_TOKEN) {
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(`${running.url}${path}`, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
      const text = await r.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = { text };
      }
      return { status: r.status, headers: r.headers, json };
    },
  };
}

/** A WebSocket client on /live that keeps every message. */
export async function liveClient(url: string): Promise<{ messages: Record<string, unknown>[]; next(pred: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>; close(): void }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/live`);
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let seen = 0;
  return {
    messages,
    async next(pred, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (seen < messages.length) {
          const m = messages[seen++] as Record<string, unknown>;
          if (pred(m)) return m;
        }
        if (Date.now() > deadline) throw new Error(`no such live message in ${timeoutMs} ms; got ${messages.map((m) => m.type).join(', ')}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => ws.close(),
  };
}
