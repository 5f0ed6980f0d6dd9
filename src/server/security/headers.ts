/**
 * Headers every response carries. The pages are plain files with their
 * scripts and styles beside them: the Content-Security-Policy allows only the
 * server's own scripts, styles, images and WebSocket (no inline script, no
 * other origin), so a label that slipped through unescaped could still not run.
 */
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  // OBS browser sources and other tabs may show the pages; other sites may not frame them.
  "frame-ancestors 'self'",
].join('; ');

export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    return payload;
  });
}
