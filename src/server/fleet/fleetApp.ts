/**
 * The fleet dashboard's app (`dicerig serve --db postgres://...`): the same
 * stack and same-site checks as `dicerig serve`, the fleet page, and two
 * read-only routes over a FleetView. Nothing here rolls, starts or stops
 * anything: every route of the rig dashboard that would (and any request but a
 * read) is answered 405 with a line saying why, rather than a bare 404.
 *
 * Beyond loopback every API read needs the API token (the fleet's results are
 * the organiser's), checked and rate-limited by the serve API's own guard, and
 * an address sending wrong tokens is locked out for a while (wrongTokens.ts).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Tokens } from '../security/auth.js';
import { bearerClient, withinLimit } from '../security/guard.js';
import { RateLimiter } from '../security/rateLimit.js';
import { sameSiteOnly } from '../security/sameSite.js';
import { createStack } from '../stack.js';
import type { FleetState, FleetView } from './fleetView.js';
import { DEFAULT_WRONG_TOKENS_PER_MINUTE, wrongTokenLimiter } from './wrongTokens.js';

export const FLEET_PAGES = { '/': 'fleet.html' } as const;

export const READ_ONLY =
  'the fleet dashboard is read-only: it shows what the rigs stored in the fleet store and controls no rig. Roll, switch mode or start and stop on the rig host (dicerig serve --config FILE there).';

/** The rig dashboard's routes that act on a rig (or stream it live), refused here by name. */
const RIG_ROUTES = ['/api/rolls', '/api/rolls/:id', '/api/rolls/:id/evidence', '/api/rolls/:id/evidence/:n', '/api/mode', '/api/run', '/api/chat/roll', '/live', '/overlay'];

export interface FleetServerOptions {
  readonly view: FleetView;
  readonly tokens: Tokens;
  /** Listening on loopback only: no token needed, and requests to other host names are refused. */
  readonly loopback: boolean;
  /** The reverse proxies in front, if any: wrong tokens are then counted by each client's own address (trustedProxies.ts). */
  readonly trustedProxies?: readonly string[];
  /** API reads per minute per client token beyond loopback, and the burst (default 240 and 60: a page polls every few seconds). */
  readonly perMinute?: number;
  readonly burst?: number;
  /** Wrong API tokens one address may send a minute (default DEFAULT_WRONG_TOKENS_PER_MINUTE), and how many addresses are remembered. */
  readonly wrongTokensPerMinute?: number;
  readonly maxAddresses?: number;
  /** Milliseconds clock for the rate limits (default performance.now). */
  readonly limitClock?: () => number;
}

/** The header giving when the store was last read, on a 304 as on a 200: the page's "updated" time moves on either. */
export const READ_AT_HEADER = 'x-fleet-read-at';

/**
 * A state's body and its ETag. The tag leaves out when the store was read (that moves on every read, and would make
 * every answer new): equal tags are the same sessions, campaigns and store status, so the tag is weak (W/).
 * Kept per state object: the view hands out one object until its next read.
 */
const encoded = new WeakMap<FleetState, { readonly body: string; readonly etag: string }>();
function encode(state: FleetState): { readonly body: string; readonly etag: string } {
  let e = encoded.get(state);
  if (e === undefined) {
    const { readAt: _readAt, ...content } = state;
    e = { body: JSON.stringify(state), etag: `W/"${createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 27)}"` };
    encoded.set(state, e);
  }
  return e;
}

/** If-None-Match names the tag (weak comparison, as RFC 9110 has it for If-None-Match), or is `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = (t: string): string => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

const refuse = async (_req: unknown, reply: FastifyReply): Promise<FastifyReply> => reply.code(405).header('Allow', 'GET, HEAD').send({ error: READ_ONLY });

export async function createFleetServer(options: FleetServerOptions): Promise<FastifyInstance> {
  const app = createStack({ pages: FLEET_PAGES, bodyLimit: 1024, ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}) });
  sameSiteOnly(app, { loopback: options.loopback, what: 'the fleet dashboard' });
  for (const url of RIG_ROUTES) app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url, handler: refuse });
  app.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: refuse });
  const clock = options.limitClock ?? (() => performance.now());
  const limit = new RateLimiter({ perMinute: options.perMinute ?? 240, burst: options.burst ?? 60, now: clock });
  const wrongTokens = wrongTokenLimiter(options.wrongTokensPerMinute ?? DEFAULT_WRONG_TOKENS_PER_MINUTE, clock, options.maxAddresses);
  const { view } = options;
  await app.register(async (scope) => {
    if (!options.loopback) {
      scope.addHook('onRequest', async (req, reply) => {
        const client = bearerClient(req, reply, options.tokens.api, wrongTokens);
        if (client === undefined || !withinLimit(reply, limit, client)) return reply;
        return undefined;
      });
    }
    // A page polls every few seconds: an unchanged state is a 304 with no body, not the whole fleet again.
    scope.get('/api/fleet', async (req, reply) => {
      const state = await view.state();
      const { body, etag } = encode(state);
      // no-cache: a browser cache may keep it but must ask again each time (the page asks with If-None-Match itself).
      reply.header('ETag', etag).header('Cache-Control', 'no-cache').header(READ_AT_HEADER, state.readAt === null ? '' : String(state.readAt));
      if (matches(req.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
    scope.get<{ Params: { id: string } }>('/api/fleet/sessions/:id/report', async (req, reply) => {
      // Digits only: nothing a request says reaches the store but a number.
      const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      const report = id === undefined ? undefined : await view.report(id);
      if (report === undefined) return reply.code(404).send({ error: 'the fleet store holds no such session' });
      if (report.retryAfter !== undefined) void reply.header('Retry-After', String(report.retryAfter));
      return reply.code(report.status).send(report.body);
    });
  });
  return app;
}
