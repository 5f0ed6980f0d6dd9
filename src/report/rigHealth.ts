import { formatDuration } from '../session/progress.js';
import { rollingTime } from '../session/rollingTime.js';
import type { EventRecord, SessionCounts, SessionRecord, ThrowTiming } from '../store/records.js';

/** How well the rig ran during a session. */
export interface RigHealth {
  readonly counts: SessionCounts;
  /** Void throws (a fault interrupted them) per throw; null with no throws. */
  readonly voidRate: number | null;
  /** Rerolled throws (a die cocked, unreadable or missing) per throw. */
  readonly rerollRate: number | null;
  /** Cocked dice per die read (every roll row, counted or not). */
  readonly cockedRate: number | null;
  /** Hours the throw rate is measured over; null when the session gives no usable span. */
  readonly hours: number | null;
  readonly throwsPerHour: number | null;
  readonly countedRollsPerHour: number | null;
  /** How the span was measured (or why it could not be). */
  readonly spanNote: string;
  /** Pauses between throws left out of the rolling time (a crash, Ctrl-C, a rig left waiting). */
  readonly pauses: { readonly count: number; readonly totalMs: number };
  /** Logged events by kind, most frequent first. */
  readonly events: readonly { readonly kind: string; readonly count: number }[];
}


/**
 * Rig-health figures from the store's counts, events and throw times. The throw
 * rate is measured over the rolling time (see `rollingTime`); without throw
 * times, over the session's span: its start to its end, or, for a session still
 * running (or crashed), to its last logged event.
 */
export function rigHealth(session: SessionRecord, counts: SessionCounts, events: readonly EventRecord[], throwTimes: readonly ThrowTiming[] = []): RigHealth {
  const rate = (x: number, of: number): number | null => (of > 0 ? x / of : null);
  let ms = 0;
  let spanNote: string;
  let pauses = { count: 0, totalMs: 0 };
  const rolling = session.origin === 'import' || throwTimes.length === 0 ? undefined : rollingTime(throwTimes);
  if (session.origin === 'import') {
    spanNote = 'not measured: the session was imported from roll logs, which hold its counted throws only (not its void or re-tumbled throws, nor the rig’s events)';
  } else if (rolling !== undefined && rolling.ms > 0) {
    ms = rolling.ms;
    pauses = { count: rolling.pauses, totalMs: rolling.pausedMs };
    spanNote =
      'over the rolling time: each throw’s start to the next’s' +
      (rolling.pauses > 0
        ? `, leaving out ${rolling.pauses} pause${rolling.pauses === 1 ? '' : 's'} longer than ${formatDuration(rolling.pauseMs)} (${formatDuration(rolling.pausedMs)} in all: a crash, Ctrl-C or the rig left waiting)`
        : '');
  } else {
    const lastEvent = events.reduce<number | null>((m, e) => (m === null || e.at > m ? e.at : m), null);
    let end: number | null = session.endedAt;
    spanNote = 'from the session’s start to its end';
    if (end === null) {
      end = lastEvent;
      spanNote = end === null ? 'not measured: the session has not ended and logged no events' : 'from the session’s start to its last logged event (it has not ended)';
    }
    ms = end === null ? 0 : end - session.startedAt;
    if (ms <= 0 && end !== null) spanNote = 'not measured: the session’s span is zero';
  }
  const hours = ms > 0 ? ms / 3_600_000 : null;
  const kinds = new Map<string, number>();
  for (const e of events) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
  return {
    counts,
    voidRate: rate(counts.void, counts.throws),
    rerollRate: rate(counts.rerolled, counts.throws),
    cockedRate: rate(counts.cocked, counts.rolls),
    hours,
    throwsPerHour: hours === null ? null : counts.throws / hours,
    countedRollsPerHour: hours === null ? null : counts.countedRolls / hours,
    spanNote,
    pauses,
    events: [...kinds].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1)),
  };
}
