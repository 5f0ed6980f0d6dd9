/**
 * The session's throw and roll counts (all runs, from the store, then kept up
 * to date throw by throw), its throws' times (what its time budget counts), and this run's own counts and clock.
 */
import type { RollStore } from '../store/rollStore.js';
import type { ThrowTiming } from '../store/records.js';
import { rollingTimeMs } from './rollingTime.js';
import type { RunClock, ThrowTotals } from './events.js';
import type { ThrowOutcome } from './throwOutcome.js';

export class SessionTotals {
  private readonly all: { throws: number; ok: number; rerolled: number; void: number; rolls: number; cocked: number; declined: number; rereadResolved: number; unresolved: number; rereadBySymbol: Record<string, number> };
  private run = { throws: 0, ok: 0, rolls: 0 };
  private runStart = 0;

  /** Every throw's times, earlier runs' and this one's: the session's rolling time is measured over them all. */
  private readonly times: ThrowTiming[];
  /** The rolling time of the session's earlier runs (`rollingTime.ts`), which its time budget counts too. */
  readonly earlierRollingMs: number;
  private rolling: number | undefined;

  /** Starts from the session's stored counts (zero for a new session) and its stored throws' times (in throw order). */
  constructor(stored: ThrowTotals, earlierTimes: readonly ThrowTiming[] = []) {
    this.times = [...earlierTimes];
    this.earlierRollingMs = rollingTimeMs(earlierTimes);
    this.all = {
      throws: stored.throws,
      ok: stored.ok,
      rerolled: stored.rerolled,
      void: stored.void,
      rolls: stored.rolls,
      cocked: stored.cocked,
      declined: stored.declined ?? 0,
      rereadResolved: stored.rereadResolved ?? 0,
      unresolved: stored.unresolved ?? 0,
      rereadBySymbol: { ...stored.rereadBySymbol },
    };
  }

  /** A run starts (or resumes) at this session-clock time: its own counts start at zero. */
  startRun(clockNow: number): void {
    this.runStart = clockNow;
    this.run = { throws: 0, ok: 0, rolls: 0 };
  }

  /** Counted throws of the whole session. */
  get ok(): number {
    return this.all.ok;
  }

  /** A stored throw (`ok` or `rerolled`) and its times, with how many of its rolls the monitors counted. */
  countThrow(outcome: ThrowOutcome, countedRolls: number, timing: ThrowTiming): void {
    this.timed(timing);
    this.all.throws++;
    this.run.throws++;
    this.all.rolls += outcome.rolls.length;
    this.all.cocked += outcome.rolls.filter((r) => r.cocked).length;
    if (outcome.status === 'ok') {
      this.all.ok++;
      this.run.ok++;
      this.run.rolls += countedRolls;
    } else {
      this.all.rerolled++;
    }
  }

  /** Re-reads of a counted throw: dice declined or not found at first, of them resolved by a re-read (and the symbols read), and still unresolved. */
  countRereads(declined: number, resolved: number, unresolved: number, symbols: readonly string[] = []): void {
    addSymbols(this.all.rereadBySymbol, symbols);
    this.all.declined += declined;
    this.all.rereadResolved += resolved;
    this.all.unresolved += unresolved;
  }

  /** A throw a fault voided, and its times. */
  countVoid(timing: ThrowTiming): void {
    this.timed(timing);
    this.all.throws++;
    this.all.void++;
    this.run.throws++;
  }

  snapshot(): ThrowTotals {
    return { ...this.all, rereadBySymbol: { ...this.all.rereadBySymbol } };
  }

  private timed(timing: ThrowTiming): void {
    this.times.push(timing);
    this.rolling = undefined;
  }

  /**
   * Ms the session has rolled over all its runs, this one's throws measured as its earlier runs' are (`rollingTime`):
   * a pause between this run's throws (the rig waiting on the user, a stall) is left out, as a resume's would be.
   */
  sessionRollingMs(): number {
    this.rolling ??= rollingTimeMs(this.times);
    return this.rolling;
  }

  /** Hours the session has rolled, over all its runs (`sessionRollingMs`). */
  sessionHours(): number {
    return this.sessionRollingMs() / 3_600_000;
  }

  /**
   * This run's clock and counts; `timeOrigin` is the epoch ms at session-clock time 0. `withRolling`: add this run's
   * share of the session's rolling time (what a time budget counts), measured only for a session that has one.
   */
  runClock(timeOrigin: number, clockNow: number, withRolling = false): RunClock {
    return {
      runStartedAt: timeOrigin + this.runStart,
      elapsedMs: clockNow - this.runStart,
      ...(withRolling ? { rollingMs: Math.max(0, this.sessionRollingMs() - this.earlierRollingMs) } : {}),
      runThrows: this.run.throws,
      runOkThrows: this.run.ok,
      runRolls: this.run.rolls,
    };
  }
}

function addSymbols(into: Record<string, number>, symbols: readonly string[]): void {
  for (const s of symbols) into[s] = (into[s] ?? 0) + 1;
}

/** The session's stored counts, with the re-read counts of its earlier runs (from their `reread` events). */
export function storedTotals(store: Pick<RollStore, 'counts' | 'events'>, sessionId: number): ThrowTotals {
  const sum = { declined: 0, rereadResolved: 0, unresolved: 0, rereadBySymbol: {} as Record<string, number> };
  for (const e of store.events(sessionId)) {
    if (e.kind !== 'reread') continue;
    // `resolvedAs` is absent from the events of runs before it was recorded: their resolutions have no symbol.
    const d = e.detail as { declined?: number; resolved?: number; unresolved?: number; resolvedAs?: Record<string, string> };
    addSymbols(sum.rereadBySymbol, Object.values(d.resolvedAs ?? {}));
    sum.declined += d.declined ?? 0;
    sum.rereadResolved += d.resolved ?? 0;
    sum.unresolved += d.unresolved ?? 0;
  }
  return { ...store.counts(sessionId), ...sum };
}
