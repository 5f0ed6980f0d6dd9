import type { Clock } from '../core/clock.js';

/** A scheduled callback that can be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

/**
 * Cancellable timers. A driver must release every timer when it closes (the
 * runner and the CLI must not hang on a forgotten timeout), which `Clock.sleep`
 * cannot do, so drivers that need timeouts and heartbeats take one of these.
 */
export interface TimerHost {
  /** Milliseconds since an arbitrary origin. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds unless cancelled first. */
  after(ms: number, fn: () => void): TimerHandle;
}

/** Wall-clock timers (Node's setTimeout). */
export const systemTimers: TimerHost = {
  now: () => performance.now(),
  after(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(t) };
  },
};

/**
 * Timers on an injected clock, e.g. a `SimulatedClock`. A cancelled timer's
 * sleep still ends on the clock, it just does nothing: on a simulated clock
 * that costs no real time.
 */
export function clockTimers(clock: Clock): TimerHost {
  return {
    now: () => clock.now(),
    after(ms, fn) {
      let live = true;
      void clock.sleep(ms).then(() => {
        if (live) fn();
      });
      return {
        cancel: () => {
          live = false;
        },
      };
    },
  };
}

/** Resolves after `ms` on `timers`. */
export function delay(timers: TimerHost, ms: number): Promise<void> {
  return new Promise((resolve) => timers.after(ms, resolve));
}

function isTimerHost(c: Clock | TimerHost): c is TimerHost {
  return typeof (c as TimerHost).after === 'function';
}

/**
 * The timers a driver runs on, from its `clock` option: cancellable timers as they are, a `Clock`
 * (e.g. a `SimulatedClock`) wrapped, and the wall clock when none is given.
 */
export function timerHostOf(clock: Clock | TimerHost | undefined): TimerHost {
  if (clock === undefined) return systemTimers;
  return isTimerHost(clock) ? clock : clockTimers(clock);
}
