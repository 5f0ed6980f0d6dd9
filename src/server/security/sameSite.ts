/**
 * Requests only from the server's own pages. A page on another site, open in
 * the same browser, can send requests to 127.0.0.1 and open WebSockets there
 * (they are not held to the same origin); after DNS rebinding it even talks
 * to the server under its own host name. So: a request whose Origin is not the
 * server's own is refused, and on loopback a request addressed to a host that
 * is not loopback is refused. Clients that send no Origin (OBS, chat bots,
 * curl) are not pages of another site and pass.
 */
import type { FastifyInstance } from 'fastify';
import { isLoopback } from './bind.js';

export function sameSiteOnly(app: FastifyInstance, options: { readonly loopback: boolean; readonly what: string }): void {
  app.addHook('onRequest', async (req, reply) => {
    const hostHeader = req.headers.host ?? '';
    const host = hostHeader.replace(/:\d+$/, '');
    if (options.loopback && !isLoopback(host)) return reply.code(403).send({ error: `${options.what} answers only on loopback, not for host "${host.slice(0, 100)}"` });
    const origin = req.headers.origin;
    if (origin !== undefined && !ownOrigin(origin, hostHeader)) return reply.code(403).send({ error: `${options.what} answers only its own pages, not ${origin.slice(0, 100)}` });
    return undefined;
  });
}

/**
 * The server's own pages, reached directly (http) or through a TLS proxy that passes the Host header on (https: the
 * page's origin is then https with the same host). Another site's page has another host in its Origin, whichever
 * scheme; a rebound name reaches this plain-HTTP port only over http, where the loopback check above stands.
 */
function ownOrigin(origin: string, hostHeader: string): boolean {
  return origin === `http://${hostHeader}` || origin === `https://${hostHeader}`;
}
