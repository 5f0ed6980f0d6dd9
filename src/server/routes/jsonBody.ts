/**
 * The API's bodies are JSON. Fastify also reads text/plain (as a string), which
 * then fails the body check with a misleading "needs one of dice, attack...":
 * a body sent as anything else is answered 415 naming the type to send.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** True when the body is declared JSON; otherwise answers 415 and returns false. */
export function jsonBody(req: FastifyRequest, reply: FastifyReply): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') return true;
  void reply.code(415).send({ error: `send the body as JSON with Content-Type: application/json (not ${type === '' ? 'no Content-Type' : type})` });
  return false;
}
