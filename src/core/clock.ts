/**
 * Time, injected. Production code never calls Date.now or setTimeout directly
 * for its own pacing: a simulated session runs thousands of throws on a
 * simulated clock in seconds, and tests control time exactly.
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds of this clock's time, or at once when `signal` aborts: a timeout raced against
   * something that came first is called off, so it neither keeps the process alive nor, on a simulated clock, moves
   * time on to its end later.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall-clock time. */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
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

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((wake) => {
      if (signal?.aborted) return wake();
      const woken = (): void => {
        signal?.removeEventListener('abort', cancel);
        wake();
      };
      const entry = { at: this.t + Math.max(0, ms), order: this.order++, wake: woken };
      // Called off: out of the queue, so time never moves on to its end for nobody.
      const cancel = (): void => {
        const i = this.pending.indexOf(entry);
        if (i >= 0) this.pending.splice(i, 1);
        wake();
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.pending.push(entry);
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
