import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { bearerToken, clientKey, tokenMatches, tokensFrom } from '../../src/server/security/auth.js';
import { checkBinding, isLoopback } from '../../src/server/security/bind.js';
import { RateLimiter } from '../../src/server/security/rateLimit.js';
import { RollQueue } from '../../src/server/queue/rollQueue.js';
import { thrown } from '../support/thrown.js';

describe('binding', () => {
  it('calls 127.x, ::1 and localhost loopback, and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.5', '::', 'example.org', '128.0.0.1']) expect(isLoopback(h)).toBe(false);
  });

  it('refuses a network address without an API token, saying what to set', () => {
    const e = thrown(() => checkBinding('0.0.0.0', false), InputError);
    expect(e.message).toContain('--host 0.0.0.0');
    expect(e.message).toContain('needs an API token: set DICERIG_TOKEN');
    expect(() => checkBinding('0.0.0.0', true)).not.toThrow();
    expect(() => checkBinding('127.0.0.1', false)).not.toThrow();
  });
});

describe('tokens', () => {
  it('match only the exact token, and never when none is configured', () => {
    expect(tokenMatches('s3cret-token-xyz', 's3cret-token-xyz')).toBe(true);
    expect(tokenMatches('s3cret-token-xyz', 's3cret-token-xy')).toBe(false);
    expect(tokenMatches(undefined, '')).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('Basic abc')).toBeUndefined();
  });

  it('come from the environment before the config, and a client is known by a hash that does not contain its token', () => {
    expect(tokensFrom({ api: 'from-config-000000', chat: 'chat-config-0000' }, { DICERIG_TOKEN: 'from-env-0000000000' })).toEqual({ api: 'from-env-0000000000', chat: 'chat-config-0000' });
    expect(tokensFrom({}, {})).toEqual({});
    const key = clientKey('from-env-0000000000');
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    expect(key).not.toContain('from-env');
  });
});

describe('tokens from the environment', () => {
  it('are held to the config file’s minimum lengths, the error naming the variable and never the value', () => {
    const api = thrown(() => tokensFrom({}, { DICERIG_TOKEN: 'abc' }), InputError);
    expect(api.message).toBe('DICERIG_TOKEN: a token needs at least 16 characters (this one has 3)');
    const chat = thrown(() => tokensFrom({}, { DICERIG_CHAT_TOKEN: 'short-chat' }), InputError);
    expect(chat.message).toBe('DICERIG_CHAT_TOKEN: a chat token needs at least 12 characters (this one has 10)');
    expect(tokensFrom({}, { DICERIG_TOKEN: '0123456789abcdef', DICERIG_CHAT_TOKEN: '0123456789ab' })).toEqual({ api: '0123456789abcdef', chat: '0123456789ab' });
  });

  it('are refused at start when they hold a space, which no Authorization header could carry, naming the variable', () => {
    const api = thrown(() => tokensFrom({}, { DICERIG_TOKEN: 'aaaaaaaa bbbbbbbb' }), InputError);
    expect(api.message).toBe(
      'DICERIG_TOKEN: a token cannot contain spaces or other whitespace: a client sends it as "Authorization: Bearer TOKEN", which ends at the first space, so it could never be used',
    );
    expect(api.message).not.toContain('aaaaaaaa');
    expect(thrown(() => tokensFrom({}, { DICERIG_CHAT_TOKEN: 'cccccc\tdddddd' }), InputError).message).toMatch(/^DICERIG_CHAT_TOKEN: a chat token cannot contain spaces/);
  });
});

describe('rate limits', () => {
  it('allow a burst, then one request per refill interval, and say how long to wait', () => {
    let t = 0;
    const limit = new RateLimiter({ perMinute: 6, burst: 2, now: () => t });
    expect([limit.take('a'), limit.take('a')]).toEqual([0, 0]);
    expect(limit.take('a')).toBe(10);
    expect(limit.take('b')).toBe(0);
    t = 10_000;
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(10);
  });
});

describe('the roll queue', () => {
  it('takes one request from each client in turn, so a busy client cannot starve another', () => {
    const q = new RollQueue<string>();
    for (const [id, client] of [['a1', 'a'], ['a2', 'a'], ['a3', 'a'], ['b1', 'b'], ['c1', 'c'], ['b2', 'b']]) q.push({ id: id as string, client: client as string, item: id as string });
    expect(q.list().map((e) => e.id)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(q.placeOf('c1')).toBe(3);
    expect(q.shift()?.id).toBe('a1');
    q.push({ id: 'a4', client: 'a', item: 'a4' });
    expect(q.list().map((e) => e.id)).toEqual(['b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(q.remove('c1')).toBe(true);
    expect(q.waitingFor('a')).toBe(3);
    expect([q.shift(), q.shift(), q.shift(), q.shift(), q.shift(), q.shift()].map((e) => e?.id)).toEqual(['b1', 'a2', 'b2', 'a3', 'a4', undefined]);
  });
});
