/**
 * The session's throw and roll counts (all runs, from the store, then kept up
 * to date throw by throw) and this run's own counts and clock.
 */
import type { RollStore } from '../store/rollStore.js';
import type { RunClock, ThrowTotals } from './events.js';
import type { ThrowOutcome } from './throwOutcome.js';

export class SessionTotals {
  private readonly all: { throws: number; ok: number; rerolled: number; void: number; rolls: number; cocked: number; declined: number; rereadResolved: number; unresolved: number; rereadBySymbol: Record<string, number> };
  private run = { throws: 0, ok: 0, rolls: 0 };
  private runStart = 0;

  /**
   * Starts from the session's stored counts (zero for a new session) and the rolling time of its earlier runs
   * (`rollingTime.ts`), which its time budget counts too.
   */
  constructor(
    stored: ThrowTotals,
    readonly earlierRollingMs = 0,
  ) {
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

  /** A stored throw (`ok` or `rerolled`), with how many of its rolls the monitors counted. */
  countThrow(outcome: ThrowOutcome, countedRolls: number): void {
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

  /** A throw a fault voided. */
  countVoid(): void {
    this.all.throws++;
    this.all.void++;
    this.run.throws++;
  }

  snapshot(): ThrowTotals {
    return { ...this.all, rereadBySymbol: { ...this.all.rereadBySymbol } };
  }

  /** Hours the session has rolled: its earlier runs' rolling time and this run's session clock. */
  sessionHours(clockNow: number): number {
    return (this.earlierRollingMs + clockNow - this.runStart) / 3_600_000;
  }

  /** This run's clock and counts; `timeOrigin` is the epoch ms at session-clock time 0. */
  runClock(timeOrigin: number, clockNow: number): RunClock {
    return {
      runStartedAt: timeOrigin + this.runStart,
      elapsedMs: clockNow - this.runStart,
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
