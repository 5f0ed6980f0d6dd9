/**
 * Token checks. Tokens come from the config or the environment and are never
 * logged or shown; they are compared in constant time (over their SHA-256, so
 * the length does not leak either). The API token controls the rig; the chat
 * token may only ask for rolls.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { InputError } from '../../core/errors.js';

/** Shortest tokens taken, from the config or the environment alike (a short one is guessed quickly). */
export const MIN_API_TOKEN = 16;
export const MIN_CHAT_TOKEN = 12;

export interface Tokens {
  /** Full API (rolls, modes, start/stop). */
  readonly api?: string;
  /** Roll-only token for chat bots (in the query string, as bots call a plain URL). */
  readonly chat?: string;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** True when `given` is the expected token (false when no token is configured). */
export function tokenMatches(expected: string | undefined, given: string | undefined): boolean {
  if (expected === undefined || expected === '' || given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

/** The token of an `Authorization: Bearer ...` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : undefined;
}

/** A short, stable, non-reversible name for a token (rate limits and queue fairness key on it; it is safe to show). */
export function clientKey(token: string): string {
  return digest(`dicerig-client:${token}`).toString('hex').slice(0, 12);
}

/** Why a token with whitespace is refused: a client sends it as `Authorization: Bearer TOKEN`, which ends at a space. */
export const TOKEN_SPACE = 'cannot contain spaces or other whitespace: a client sends it as "Authorization: Bearer TOKEN", which ends at the first space, so it could never be used';

/** A token from the environment, refused when too short (the message names the variable, never the value). */
function fromEnv(env: NodeJS.ProcessEnv, name: string, min: number, what: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (value.length < min) throw new InputError(`${name}: ${what} needs at least ${min} characters (this one has ${value.length})`);
  if (/\s/.test(value)) throw new InputError(`${name}: ${what} ${TOKEN_SPACE}`);
  return value;
}

/** Tokens from the config, overridden by DICERIG_TOKEN and DICERIG_CHAT_TOKEN (held to the config's minimum lengths). */
export function tokensFrom(config: Tokens, env: NodeJS.ProcessEnv): Tokens {
  const api = fromEnv(env, 'DICERIG_TOKEN', MIN_API_TOKEN, 'a token') ?? config.api;
  const chat = fromEnv(env, 'DICERIG_CHAT_TOKEN', MIN_CHAT_TOKEN, 'a chat token') ?? config.chat;
  return { ...(api ? { api } : {}), ...(chat ? { chat } : {}) };
}
