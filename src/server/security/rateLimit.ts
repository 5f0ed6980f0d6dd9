/**
 * Per-client rate limits: a token bucket per key (client token, chat token,
 * address). A request spends one token; tokens come back at `perMinute`, up to
 * `burst`. When the bucket is empty the answer is how long until the next one,
 * for a 429's Retry-After.
 */
export interface RateLimitOptions {
  readonly perMinute: number;
  readonly burst: number;
  /** Milliseconds clock (performance.now or a test clock). */
  readonly now: () => number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Takes one token for `key`: 0 when allowed, else the whole seconds to wait. */
  take(key: string): number {
    const b = this.refilled(key);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return this.secondsToNext(b.tokens);
  }

  /** What `take` would answer, spending nothing: 0 when a token is left, else the whole seconds to wait. */
  wait(key: string): number {
    const b = this.refilled(key);
    return b.tokens >= 1 ? 0 : this.secondsToNext(b.tokens);
  }

  private refilled(key: string): { tokens: number; at: number } {
    const { perMinute, burst, now } = this.options;
    const t = now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * perMinute) / 60_000);
    b.at = t;
    this.buckets.set(key, b);
    return b;
  }

  private secondsToNext(tokens: number): number {
    return Math.max(1, Math.ceil(((1 - tokens) * 60_000) / this.options.perMinute / 1000));
  }
}
