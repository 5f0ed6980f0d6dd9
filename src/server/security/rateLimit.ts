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
  /**
   * Most keys kept (default: no bound), for keys a client chooses (its address): past it, the keys whose bucket is
   * full again go first (as good as new), then those used longest ago, so the table cannot grow without limit.
   */
  readonly maxKeys?: number;
}

/** Keys kept at most where a client chooses them (its address, a chat user's name): about 100 bytes each. */
export const MOST_CLIENT_KEYS = 10_000;

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

  /** How many keys the limiter holds now. */
  get keys(): number {
    return this.buckets.size;
  }

  private refilled(key: string): { tokens: number; at: number } {
    const { perMinute, burst, now } = this.options;
    const t = now();
    let b = this.buckets.get(key);
    if (b === undefined) {
      this.makeRoom(t);
      b = { tokens: burst, at: t };
    } else {
      // Last used last: the table is in the order its keys were used, the oldest first.
      this.buckets.delete(key);
    }
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * perMinute) / 60_000);
    b.at = t;
    this.buckets.set(key, b);
    return b;
  }

  /** Room for one more key under maxKeys: the full buckets dropped, then (to 9/10 of it, so this is rare) the oldest. */
  private makeRoom(t: number): void {
    const { maxKeys, perMinute, burst } = this.options;
    if (maxKeys === undefined || this.buckets.size < maxKeys) return;
    for (const [key, b] of this.buckets) if (b.tokens + ((t - b.at) * perMinute) / 60_000 >= burst) this.buckets.delete(key);
    const keep = Math.min(this.buckets.size, Math.floor((maxKeys * 9) / 10), maxKeys - 1);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= keep) break;
      this.buckets.delete(key);
    }
  }

  private secondsToNext(tokens: number): number {
    return Math.max(1, Math.ceil(((1 - tokens) * 60_000) / this.options.perMinute / 1000));
  }
}
