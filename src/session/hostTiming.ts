/**
 * Where the loop's own host time goes, per throw and per phase, measured with
 * an injected stopwatch (e.g. `performance.now`); without one every call is a
 * no-op, so the loop reads the same either way.
 */

/** Where the loop's own host time goes: settle detection, the vision pipeline, evidence images, the store's commit, statistics and events. */
export type HostPhase = 'settle' | 'vision' | 'evidence' | 'store' | 'stats';

export class HostTiming {
  /** Host ms of each throw of this run that got past its tumble. */
  readonly perThrow: number[] = [];
  readonly phases: Record<HostPhase, number> = { settle: 0, vision: 0, evidence: 0, store: 0, stats: 0 };
  private current = 0;

  constructor(private readonly stopwatch?: () => number) {}

  /** Starts a throw's tally. */
  startThrow(): void {
    this.current = 0;
  }

  /** Closes a throw's tally. */
  endThrow(): void {
    if (this.stopwatch) this.perThrow.push(this.current);
  }

  /** A start time for `tock`. */
  tick(): number {
    return this.stopwatch?.() ?? 0;
  }

  /** Adds the host time since `t0` to this throw's tally and to its phase. */
  tock(t0: number, phase: HostPhase): void {
    if (!this.stopwatch) return;
    const ms = this.stopwatch() - t0;
    this.current += ms;
    this.phases[phase] += ms;
  }
}

/**
 * A stopwatch of CPU time (ms) rather than wall time: the loop's own work per
 * throw is then what the loop computed, not also the time its thread waited
 * for a core while other work ran (a server's requests on a 2-core machine,
 * another process). The count is the process's, exact for the calling thread
 * (Linux brings it up to date when it is read); the loop's phases are
 * synchronous, so while one runs the process's other threads are idle unless
 * the caller started some (a load generator belongs in another process).
 */
export function cpuStopwatch(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
