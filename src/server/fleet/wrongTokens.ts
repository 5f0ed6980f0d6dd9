/**
 * Wrong API tokens on the fleet dashboard, per client address: beyond loopback every read of the fleet's results
 * needs the token, and without a limit one address could guess at full speed. An address that sent more wrong
 * tokens than it may in a minute is answered 429 with Retry-After (whatever token it sends) until it is back under
 * the limit; other addresses, and a right token before, are not affected. `DICERIG_FLEET_WRONG_TOKENS` sets how
 * many a minute (the fleet dashboard reads no config file: its settings come, as its token does, from the
 * environment).
 */
import { InputError } from '../../core/errors.js';
import { MOST_CLIENT_KEYS, RateLimiter } from '../security/rateLimit.js';

export const WRONG_TOKENS_ENV = 'DICERIG_FLEET_WRONG_TOKENS';
/** Wrong tokens an address may send a minute (and at once), as `dicerig serve` allows its API. */
export const DEFAULT_WRONG_TOKENS_PER_MINUTE = 10;
const MOST_WRONG_TOKENS_PER_MINUTE = 10_000;
/** Addresses remembered at most: an attacker with many addresses cannot grow the table without limit. */
export const MAX_ADDRESSES = MOST_CLIENT_KEYS;

/** The limit DICERIG_FLEET_WRONG_TOKENS sets, else the default; a bad value is an error naming the variable. */
export function wrongTokensPerMinute(env: NodeJS.ProcessEnv): number {
  const raw = env[WRONG_TOKENS_ENV]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_WRONG_TOKENS_PER_MINUTE;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MOST_WRONG_TOKENS_PER_MINUTE)) {
    throw new InputError(`${WRONG_TOKENS_ENV}: the wrong API tokens one address may send a minute must be a whole number from 1 to ${MOST_WRONG_TOKENS_PER_MINUTE} (default ${DEFAULT_WRONG_TOKENS_PER_MINUTE}), not "${raw.slice(0, 40)}"`);
  }
  return n;
}

/** The per-address count of wrong tokens: `perMinute` at once, coming back at `perMinute` a minute. */
export function wrongTokenLimiter(perMinute: number, now: () => number, maxAddresses = MAX_ADDRESSES): RateLimiter {
  return new RateLimiter({ perMinute, burst: perMinute, now, maxKeys: maxAddresses });
}
