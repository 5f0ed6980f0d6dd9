/**
 * Time, injected. Production code never calls Date.now or setTimeout directly
 * for its own pacing: a simulated session runs thousands of throws on a
 * simulated clock in seconds, and tests control time exactly.
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** Wall-clock time. */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/**
 * A clock that jumps: `sleep` advances time at once (after yielding to other
 * pending work), so simulated rigs and cameras can run a long session fast
 * while every recorded duration stays what it would have been in real time.
 */
export class SimulatedClock implements Clock {
  private t: number;

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  async sleep(ms: number): Promise<void> {
    await Promise.resolve();
    this.t += Math.max(0, ms);
  }

  /** Moves time forward without waiting (e.g. the cost of a step a test models). */
  advance(ms: number): void {
    this.t += Math.max(0, ms);
  }
}
