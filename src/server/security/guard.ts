/**
 * The checks in front of an API route, in order: the address's failed token
 * attempts (429 with Retry-After), the token (401), the client's rate limit
 * (429 with Retry-After). The client is known by a hash of its token, never by
 * the token itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, clientKey, tokenMatches } from './auth.js';
import type { RateLimiter } from './rateLimit.js';

/**
 * Wrong tokens from one address: each one spends from the address's bucket, and an address with none left is
 * refused until it refills, whatever token it sends (else guessing could go on at full speed). A missing token
 * guesses nothing and a right one spends nothing, so a client with the right token is slowed only while its
 * address is locked out.
 */
export function lockedOut(req: FastifyRequest, reply: FastifyReply, failures: RateLimiter | undefined, text = false): boolean {
  const wait = failures?.wait(req.ip) ?? 0;
  if (wait === 0) return false;
  const message = `too many wrong tokens from your address: try again in ${wait} s`;
  void reply.code(429).header('Retry-After', String(wait));
  if (text) void reply.type('text/plain; charset=utf-8').send(`Dice roller: ${message}.`);
  else void reply.send({ error: message });
  return true;
}

/** The client key when the bearer token is right; otherwise answers 401 (or 429, see `lockedOut`) and returns undefined. */
export function bearerClient(req: FastifyRequest, reply: FastifyReply, expected: string | undefined, failures?: RateLimiter): string | undefined {
  if (lockedOut(req, reply, failures)) return undefined;
  const given = bearerToken(req.headers.authorization);
  if (expected === undefined) {
    void reply.code(401).header('WWW-Authenticate', 'Bearer').send({ error: 'the roll API is off: no API token is set (set DICERIG_TOKEN and restart dicerig serve)' });
    return undefined;
  }
  if (!tokenMatches(expected, given)) {
    if (given !== undefined) failures?.take(req.ip);
    void reply.code(401).header('WWW-Authenticate', 'Bearer').send({ error: given === undefined ? 'missing bearer token (Authorization: Bearer <token>)' : 'wrong token' });
    return undefined;
  }
  return clientKey(given as string);
}

/**
 * True when the client may go on; otherwise answers 429 with Retry-After. `spend: false` only looks: for a request
 * that spends from the limit once it is taken (a roll), so a refusal after this check costs nothing.
 */
export function withinLimit(reply: FastifyReply, limiter: RateLimiter, key: string, text = false, spend = true): boolean {
  const wait = spend ? limiter.take(key) : limiter.wait(key);
  if (wait === 0) return true;
  const message = `too many requests: try again in ${wait} s`;
  void reply.code(429).header('Retry-After', String(wait));
  if (text) void reply.type('text/plain; charset=utf-8').send(message);
  else void reply.send({ error: message });
  return false;
}
