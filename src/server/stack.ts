/**
 * The web stack every dicerig page is served with (the live dashboard now, the
 * review page later): fastify with the security headers, the pages' files
 * from the app's own folder only, errors as one line naming the problem, and
 * no request logging (query strings may hold a chat token).
 */
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { securityHeaders } from './security/headers.js';
import { loadStaticFiles, publicDir, staticFiles } from './security/staticFiles.js';

export interface StackOptions {
  /** Page routes to file names in the app folder, e.g. { '/': 'dashboard.html' }. */
  readonly pages: Readonly<Record<string, string>>;
  /** The app folder (default: src/server/public). */
  readonly folder?: string;
  /**
   * At close, let requests under way finish (default: cut them off). The roll server answers its waiting callers
   * before it closes; pages with no long requests close faster without waiting.
   */
  readonly finishInFlight?: boolean;
  /** Largest request body in bytes (default 16 KiB: a roll request is tiny). */
  readonly bodyLimit?: number;
  /** Addresses and ranges of the reverse proxies in front (see trustedProxies.ts): `req.ip` is then the client's. */
  readonly trustedProxies?: readonly string[];
}

export function createStack(options: StackOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? 16 * 1024,
    return503OnClosing: true,
    forceCloseConnections: options.finishInFlight === true ? 'idle' : true,
    ...(options.trustedProxies !== undefined && options.trustedProxies.length > 0 ? { trustProxy: [...options.trustedProxies] } : {}),
  });
  if (options.finishInFlight === true) closeUnusedConnections(app);
  securityHeaders(app);
  staticFiles(app, loadStaticFiles(options.folder ?? publicDir()), options.pages);
  app.setErrorHandler((error: FastifyError, _req, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const message = status === 500 ? 'internal error' : error.message;
    return reply.code(status).type('application/json').send({ error: message });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).type('application/json').send({ error: 'not found' }));
  return app;
}

/**
 * At close, closes the connections on which no byte of a request has come (a browser opens some ahead of need).
 * Node's close ends idle keep-alive connections but counts such a one as a request under way, so it held the
 * close until its headers timed out, 60 to 90 s later. Connections with a request on them are left to finish.
 */
function closeUnusedConnections(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', (done) => {
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}
