/**
 * How long a session has rolled, over all its runs: what its time budget (`stopping.budgetHours`) counts. Measured
 * from the stored throws' own times, as the report's rig health measures its "rolling time": each throw counts from
 * its start to the next throw's start, unless that gap is a pause (longer than max(MIN_PAUSE_MS, 10 x the median
 * cycle): a crash, Ctrl-C, a night between runs), when only the throw itself counts. So a resumed session gets what
 * is left of its budget, not a fresh one, and the hours it sat stopped are not charged to it.
 */
import { median } from '../stats/median.js';
import type { ThrowTiming } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';

/** A gap between throws longer than this (and than 10 typical cycles) is a pause, not rolling. */
export const MIN_PAUSE_MS = 60_000;

/** The rolling time of these throws (in throw order), and the pauses left out of it (how many, how long, the gap that counts as one). */
export function rollingTime(times: readonly ThrowTiming[]): { ms: number; pauses: number; pausedMs: number; pauseMs: number } {
  const cycles = times.slice(1).map((t, i) => t.startedAt - (times[i] as ThrowTiming).startedAt);
  const pauseMs = Math.max(MIN_PAUSE_MS, cycles.length > 0 ? 10 * median(cycles) : 0);
  let ms = 0;
  let pauses = 0;
  let pausedMs = 0;
  times.forEach((t, i) => {
    const own = Math.max(0, t.endedAt - t.startedAt);
    const cycle = cycles[i];
    if (cycle !== undefined && cycle <= pauseMs) {
      ms += Math.max(0, cycle);
    } else {
      ms += own;
      if (cycle !== undefined) {
        pauses++;
        pausedMs += cycle - own;
      }
    }
  });
  return { ms, pauses, pausedMs, pauseMs };
}

/** Milliseconds of rolling in these throws (in throw order). */
export function rollingTimeMs(times: readonly ThrowTiming[]): number {
  return rollingTime(times).ms;
}

/** Milliseconds the session's stored throws rolled (0 for a new session). */
export function storedRollingMs(store: Pick<RollStore, 'throwTimes'>, sessionId: number): number {
  return rollingTimeMs(store.throwTimes(sessionId));
}

/** Hours, as a budget is given, without float noise (`0.55`, `1.2`). */
export function formatHours(hours: number): string {
  return `${Number(hours.toPrecision(3))} h`;
}
