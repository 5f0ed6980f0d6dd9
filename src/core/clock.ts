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
 * A discrete-event clock: `sleep` never waits in real time. Pending sleeps wake
 * in time order, each once the work that was runnable before it has run (one
 * macrotask turn), so concurrent sleepers (a tumble and its heartbeat, say)
 * interleave exactly as they would on the wall clock, only much faster. A
 * simulated session runs thousands of throws in seconds while every recorded
 * duration is what it would have been in real time.
 */
export class SimulatedClock implements Clock {
  private t: number;
  private readonly pending: { at: number; order: number; wake: () => void }[] = [];
  private order = 0;
  private scheduled = false;

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      this.pending.push({ at: this.t + Math.max(0, ms), order: this.order++, wake });
      this.schedule();
    });
  }

  /** Moves time forward without waiting (e.g. the cost of a step a test models). */
  advance(ms: number): void {
    this.t += Math.max(0, ms);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending.length === 0) return;
      this.pending.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.pending.shift() as { at: number; wake: () => void };
      this.t = Math.max(this.t, next.at);
      next.wake();
      if (this.pending.length > 0) this.schedule();
    });
  }
}
