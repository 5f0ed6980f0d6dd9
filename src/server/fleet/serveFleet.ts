/**
 * Starts the fleet dashboard: connects to the fleet store, reads it once (a
 * store that cannot be read at start is one clear line, not a page that never
 * fills), and serves the page. Later failures are shown on the page, not
 * fatal: the store is read again on the next poll.
 */
import type { FastifyInstance } from 'fastify';
import type { DieType } from '../../dice/types.js';
import { openFleet, type FleetDb } from '../../fleet/connect.js';
import { FleetError } from '../../fleet/errors.js';
import type { Tokens } from '../security/auth.js';
import { checkBinding, checkListenable, isLoopback, listenFailure, onlyThisMachine } from '../security/bind.js';
import { proxyLine } from '../security/trustedProxies.js';
import { createFleetServer } from './fleetApp.js';
import { FleetView } from './fleetView.js';
import { shownUrl } from '../security/shownUrl.js';

export interface ServeFleetOptions {
  /** The fleet store's postgres:// URL. */
  readonly url: string;
  readonly dice: readonly DieType[];
  readonly host: string;
  readonly port: number;
  readonly tokens: Tokens;
  /** Shortest time between two reads of the store (ms). */
  readonly pollMs: number;
  /** Wrong API tokens one address may send a minute (default DEFAULT_WRONG_TOKENS_PER_MINUTE, see wrongTokens.ts). */
  readonly wrongTokensPerMinute?: number;
  /** The reverse proxies in front, if any (trustedProxies.ts). */
  readonly trustedProxies?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface RunningFleetServer {
  readonly app: FastifyInstance;
  readonly fleet: FleetDb;
  /** http://host:port */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveFleet(options: ServeFleetOptions): Promise<RunningFleetServer> {
  const proxies = options.trustedProxies ?? [];
  checkBinding(options.host, options.tokens.api !== undefined, proxies);
  await checkListenable(options.host, options.port);
  // A short connect timeout: a store gone away is told on the page within a poll or two, not after the default 10 s.
  // Read-only: a dashboard never brings the shared schema forward, which would lock out rig hosts with an older dicerig.
  const fleet = await openFleet(options.url, { connectTimeoutMs: 3000, readOnly: true });
  let app: FastifyInstance;
  try {
    const view = new FleetView({ fleet, dice: options.dice, pollMs: options.pollMs, now: () => Date.now() });
    const first = await view.state();
    if (first.problem !== null) throw new FleetError(first.problem, { url: fleet.where });
    app = await createFleetServer({
      view,
      tokens: options.tokens,
      loopback: onlyThisMachine(options.host, proxies),
      trustedProxies: proxies,
      ...(options.wrongTokensPerMinute !== undefined ? { wrongTokensPerMinute: options.wrongTokensPerMinute } : {}),
    });
    try {
      await app.listen({ host: options.host, port: options.port });
    } catch (e) {
      await app.close();
      throw listenFailure(e, options.host, options.port);
    }
  } catch (e) {
    await fleet.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const { url, local } = shownUrl(options.host, port);
  if (!isLoopback(options.host)) options.log?.(`Listening on ${options.host}, reachable from the network${local !== undefined ? ` (from this machine: ${local})` : ''}: the page's reads need the API token.`);
  if (proxies.length > 0) options.log?.(`${proxyLine(proxies)} The page's reads need the API token.`);
  let closing: Promise<void> | undefined;
  return {
    app,
    fleet,
    url,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await fleet.close();
      })()),
  };
}
