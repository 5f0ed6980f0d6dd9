/**
 * A rate limiter keyed by something a client chooses (its address) holds at most maxKeys keys: past it, the keys
 * whose bucket is full again go first (forgetting them changes nothing), then those used longest ago.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/server/security/rateLimit.js';

describe('a rate limiter with maxKeys', () => {
  it('never holds more keys than maxKeys, however many clients come', () => {
    const clock = { ms: 0 };
    const limiter = new RateLimiter({ perMinute: 1, burst: 1, now: () => clock.ms, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`10.0.${i >> 8}.${i & 255}`);
      expect(limiter.keys).toBeLessThanOrEqual(100);
    }
  });

  it('forgets a key whose bucket is full again before one still locked out, and the one used last is kept', () => {
    const clock = { ms: 0 };
    const limiter = new RateLimiter({ perMinute: 1, burst: 1, now: () => clock.ms, maxKeys: 3 });
    expect(limiter.take('old-but-locked')).toBe(0);
    expect(limiter.take('refilled')).toBe(0);
    clock.ms = 30_000;
    expect(limiter.take('locked')).toBe(0);
    // 'refilled' is full again at 60 s (one a minute), 'old-but-locked' too; used again, 'old-but-locked' is locked anew.
    clock.ms = 61_000;
    expect(limiter.take('old-but-locked')).toBe(0);
    expect(limiter.take('new')).toBe(0);
    expect(limiter.keys).toBe(3);
    // The two still locked out are remembered: asking again is refused, with the wait.
    expect(limiter.wait('old-but-locked')).toBeGreaterThan(0);
    expect(limiter.wait('locked')).toBeGreaterThan(0);
    expect(limiter.wait('new')).toBeGreaterThan(0);
  });

  it('without maxKeys keeps every key, as before', () => {
    const limiter = new RateLimiter({ perMinute: 1, burst: 1, now: () => 0 });
    for (let i = 0; i < 500; i++) limiter.take(`k${i}`);
    expect(limiter.keys).toBe(500);
  });
});
