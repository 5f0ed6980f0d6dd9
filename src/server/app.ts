/**
 * The `dicerig serve` app: the shared stack (headers, app-folder files,
 * errors), the live stream, the roll and control API, and the chat endpoint,
 * over one rig controller. A factory, so tests, the bench and the CLI build
 * the same server.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { LiveHub } from './live/hub.js';
import { LiveSeats } from './live/liveSeats.js';
import type { RigController } from './rigController.js';
import { chatRoutes } from './routes/chatRoutes.js';
import { controlRoutes } from './routes/controlRoutes.js';
import { liveRoutes } from './routes/liveRoutes.js';
import { rollRoutes } from './routes/rollRoutes.js';
import type { Tokens } from './security/auth.js';
import { MOST_CLIENT_KEYS, RateLimiter } from './security/rateLimit.js';
import { sameSiteOnly } from './security/sameSite.js';
import { createStack } from './stack.js';

export interface Limits {
  /** API requests per minute per client token, and the burst allowed. */
  readonly apiPerMinute: number;
  readonly apiBurst: number;
  /** Chat rolls per minute per chat token, and the burst allowed. */
  readonly chatPerMinute: number;
  readonly chatBurst: number;
  /** Wrong tokens per client address: how many in a row, and how many a minute after that (then 429). */
  readonly failedAuthBurst: number;
  readonly failedAuthPerMinute: number;
  /** Live pages (`/live` connections) open at once: in all, and from one address. */
  readonly liveMax: number;
  readonly livePerAddress: number;
}

export const DEFAULT_LIMITS: Limits = { apiPerMinute: 120, apiBurst: 30, chatPerMinute: 20, chatBurst: 5, failedAuthBurst: 10, failedAuthPerMinute: 10, liveMax: 100, livePerAddress: 20 };

export interface ServerOptions {
  readonly controller: RigController;
  readonly hub: LiveHub;
  readonly tokens: Tokens;
  /** Listening on loopback only: a request addressed to another host name (DNS rebinding) is refused. */
  readonly loopback: boolean;
  /** The reverse proxies in front, if any: limits per address then count each client by its own (trustedProxies.ts). */
  readonly trustedProxies?: readonly string[];
  readonly limits?: Partial<Limits>;
  /** How long a chat request waits for its roll (default 4 s: bots give up after a few seconds). */
  readonly chatWaitMs?: number;
  /** Milliseconds clock for the rate limits (default performance.now). */
  readonly limitClock?: () => number;
}

export const PAGES = { '/': 'dashboard.html', '/overlay': 'overlay.html' } as const;

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = createStack({ pages: PAGES, finishInFlight: true, ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}) });
  await app.register(websocket, { options: { maxPayload: 4096 } });
  // After the WebSocket plugin: its own onRequest hook marks an upgrade, so that a refused one has its socket closed.
  sameSiteOnly(app, { loopback: options.loopback, what: 'dicerig serve' });
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const now = options.limitClock ?? (() => performance.now());
  // Keys a client chooses (its address, a chat user's name): the tables are bounded, as the fleet dashboard's is.
  const maxKeys = MOST_CLIENT_KEYS;
  const ctx = {
    controller: options.controller,
    hub: options.hub,
    tokens: options.tokens,
    apiLimit: new RateLimiter({ perMinute: limits.apiPerMinute, burst: limits.apiBurst, now, maxKeys }),
    chatLimit: new RateLimiter({ perMinute: limits.chatPerMinute, burst: limits.chatBurst, now, maxKeys }),
    failedAuth: new RateLimiter({ perMinute: limits.failedAuthPerMinute, burst: limits.failedAuthBurst, now, maxKeys }),
    failedChatAuth: new RateLimiter({ perMinute: limits.failedAuthPerMinute, burst: limits.failedAuthBurst, now, maxKeys }),
    liveSeats: new LiveSeats({ total: limits.liveMax, perAddress: limits.livePerAddress }),
    chatWaitMs: options.chatWaitMs ?? 4000,
  };
  await app.register(async (scope) => {
    liveRoutes(scope, ctx);
    rollRoutes(scope, ctx);
    controlRoutes(scope, ctx);
    chatRoutes(scope, ctx);
  });
  return app;
}
