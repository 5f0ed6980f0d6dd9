/**
 * The fleet dashboard's app (`dicerig serve --db postgres://...`): the same
 * stack and same-site checks as `dicerig serve`, the fleet page, and two
 * read-only routes over a FleetView. Nothing here rolls, starts or stops
 * anything: every route of the rig dashboard that would (and any request but a
 * read) is answered 405 with a line saying why, rather than a bare 404.
 *
 * Beyond loopback every API read needs the API token (the fleet's results are
 * the organiser's), checked and rate-limited by the serve API's own guard.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Tokens } from '../security/auth.js';
import { bearerClient, withinLimit } from '../security/guard.js';
import { RateLimiter } from '../security/rateLimit.js';
import { sameSiteOnly } from '../security/sameSite.js';
import { createStack } from '../stack.js';
import type { FleetView } from './fleetView.js';

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
  /** API reads per minute per client token beyond loopback, and the burst (default 240 and 60: a page polls every few seconds). */
  readonly perMinute?: number;
  readonly burst?: number;
  /** Milliseconds clock for the rate limit (default performance.now). */
  readonly limitClock?: () => number;
}

const refuse = async (_req: unknown, reply: FastifyReply): Promise<FastifyReply> => reply.code(405).header('Allow', 'GET, HEAD').send({ error: READ_ONLY });

export async function createFleetServer(options: FleetServerOptions): Promise<FastifyInstance> {
  const app = createStack({ pages: FLEET_PAGES, bodyLimit: 1024 });
  sameSiteOnly(app, { loopback: options.loopback, what: 'the fleet dashboard' });
  for (const url of RIG_ROUTES) app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url, handler: refuse });
  app.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: refuse });
  const limit = new RateLimiter({ perMinute: options.perMinute ?? 240, burst: options.burst ?? 60, now: options.limitClock ?? (() => performance.now()) });
  const { view } = options;
  await app.register(async (scope) => {
    if (!options.loopback) {
      scope.addHook('onRequest', async (req, reply) => {
        const client = bearerClient(req, reply, options.tokens.api);
        if (client === undefined || !withinLimit(reply, limit, client)) return reply;
        return undefined;
      });
    }
    scope.get('/api/fleet', async () => view.state());
    scope.get<{ Params: { id: string } }>('/api/fleet/sessions/:id/report', async (req, reply) => {
      // Digits only: nothing a request says reaches the store but a number.
      const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      const report = id === undefined ? undefined : await view.report(id);
      return report ?? reply.code(404).send({ error: 'the fleet store holds no such session' });
    });
  });
  return app;
}
