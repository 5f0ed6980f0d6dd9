/**
 * Progress of a running session, from its event stream: throws, rolls per
 * hour measured on the session clock, each die's state and the rolls it still
 * needs, and an ETA (or when the time budget ends the session first). `ProgressTracker` keeps the latest snapshot;
 * `progressLines` renders it as text, one line per die; `TerminalProgress`
 * redraws those lines in place on a terminal and prints plain lines
 * otherwise: at the start, then every minute or 250 throws, whichever comes
 * first, at every verdict and at the end.
 */
import { formatCount } from '../core/format.js';
import type { DieStatus, RunClock, SessionEvent, ThrowTotals } from './events.js';

export interface ProgressSnapshot {
  readonly sessionId: number;
  readonly lastThrowIndex: number;
  readonly totals: ThrowTotals;
  readonly dice: readonly DieStatus[];
  readonly clock: RunClock;
  /** Throws and counted die-rolls per hour of session clock in this run (undefined before any time passed). */
  readonly throwsPerHour?: number;
  readonly rollsPerHour?: number;
  /**
   * Session-clock ms until every die should have a verdict (or reach its roll budget) at the measured pace, not capped
   * by the time budget (undefined when unknown).
   */
  readonly etaMs?: number;
  /** What ends the dice's rolling at `etaMs`: their verdicts, or the roll budget of a die that needs more. */
  readonly etaBy?: 'verdicts' | 'roll-budget';
  readonly budgetHours?: number;
  /** Session-clock ms left of the time budget, which counts every run of the session (`rollingTime.ts`). */
  readonly budgetLeftMs?: number;
  readonly stopped?: { readonly state: string; readonly reason: string };
}

const HOUR = 3_600_000;

/**
 * When the dice stop rolling: the die needing the most rolls sets it, at the measured rate of counted throws (each
 * counted throw gives every die still counted one roll); a die stops at its roll budget, so it counts the rolls it
 * will get. Not capped by the time budget: the progress line says that apart (`progressLines`).
 */
export function estimateFinish(dice: readonly DieStatus[], clock: RunClock): { readonly ms: number; readonly by: 'verdicts' | 'roll-budget' } | undefined {
  const pending = dice.filter((d) => !d.decided);
  if (pending.length === 0) return { ms: 0, by: 'verdicts' };
  if (clock.runOkThrows === 0 || clock.elapsedMs <= 0) return undefined;
  const msPerOkThrow = clock.elapsedMs / clock.runOkThrows;
  const need = pending.map((d) => (d.noVerdictInReach ? Infinity : d.rollsNeeded));
  const get = pending.map((d, i) => Math.min(need[i] as number, d.budgetLeft ?? Infinity));
  const most = Math.max(...get);
  if (!Number.isFinite(most)) return undefined;
  return { ms: most * msPerOkThrow, by: get.some((g, i) => g === most && g < (need[i] as number)) ? 'roll-budget' : 'verdicts' };
}

/** `estimateFinish`'s time alone. */
export function estimateEtaMs(dice: readonly DieStatus[], clock: RunClock): number | undefined {
  return estimateFinish(dice, clock)?.ms;
}

/** Ms left of a time budget of `budgetHours` over the session, `rolledMs` of it spent by earlier runs, the rest by this run's rolling. */
export function timeBudgetLeftMs(clock: RunClock, budgetHours: number, rolledMs = 0): number {
  return Math.max(0, budgetHours * HOUR - rolledMs - (clock.rollingMs ?? clock.elapsedMs));
}

/**
 * Keeps the latest progress snapshot from a session's events. The dice (and the rates worked out from them) are read
 * from the latest throw event only when a snapshot is asked for: a display that prints now and then leaves a throw's
 * dice statuses unread (`RunnerDeps.diceOnDemand`).
 */
export class ProgressTracker {
  private latest: Pick<ProgressSnapshot, 'sessionId' | 'lastThrowIndex' | 'totals' | 'clock' | 'stopped'> | undefined;
  private dice: () => readonly DieStatus[] = () => [];
  private snap: ProgressSnapshot | undefined;
  private budgetHours: number | undefined;
  private rolledMs = 0;

  /** The event sink to give the runner. */
  readonly onEvent = (e: SessionEvent): void => this.update(e);

  get snapshot(): ProgressSnapshot | undefined {
    const l = this.latest;
    if (l === undefined) return undefined;
    if (this.snap === undefined) {
      const dice = this.dice();
      this.snap = { sessionId: l.sessionId, lastThrowIndex: l.lastThrowIndex, totals: l.totals, dice, clock: l.clock, ...(l.stopped ? { stopped: l.stopped } : {}), ...this.rates(dice, l.clock) };
    }
    return this.snap;
  }

  /** The last throw the snapshot is of, without working out its dice. */
  get lastThrowIndex(): number | undefined {
    return this.latest?.lastThrowIndex;
  }

  update(e: SessionEvent): void {
    if (e.type === 'started') {
      this.budgetHours = e.budgetHours;
      this.rolledMs = e.rolledMs ?? 0;
      this.latest = { sessionId: e.sessionId, lastThrowIndex: e.lastThrowIndex, totals: e.totals, clock: { runStartedAt: e.at, elapsedMs: 0, runThrows: 0, runOkThrows: 0, runRolls: 0 } };
      this.dice = () => e.dice;
    } else if (e.type === 'throw' && this.latest) {
      this.latest = { ...this.latest, lastThrowIndex: e.index, totals: e.totals, clock: e.clock };
      this.dice = () => e.dice;
    } else if (e.type === 'stopped' && this.latest) {
      // The dice stay the last throw's.
      this.latest = { ...this.latest, totals: e.totals, clock: e.clock, stopped: { state: e.state, reason: e.reason } };
    } else return;
    this.snap = undefined;
  }

  private rates(dice: readonly DieStatus[], clock: RunClock): Pick<ProgressSnapshot, 'throwsPerHour' | 'rollsPerHour' | 'etaMs' | 'etaBy' | 'budgetHours' | 'budgetLeftMs'> {
    const hours = clock.elapsedMs / HOUR;
    const eta = estimateFinish(dice, clock);
    return {
      ...(hours > 0 ? { throwsPerHour: clock.runThrows / hours, rollsPerHour: clock.runRolls / hours } : {}),
      ...(eta !== undefined ? { etaMs: eta.ms, etaBy: eta.by } : {}),
      ...(this.budgetHours !== undefined ? { budgetHours: this.budgetHours, budgetLeftMs: timeBudgetLeftMs(clock, this.budgetHours, this.rolledMs) } : {}),
    };
  }
}

/** `1 h 05 min`, `12 min`, `40 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return `${formatCount(h)} h ${String(min % 60).padStart(2, '0')} min`;
}

function dieLine(d: DieStatus, width: number): string {
  // A die retired INCONCLUSIVE was not decided by its evidence: its roll budget ran out (the only way one retires so).
  const state = d.decided ? `${d.state} (${d.state === 'INCONCLUSIVE' ? 'budget spent' : 'decided'})` : d.state === 'RIG_SUSPECT' ? 'RIG_SUSPECT' : 'undecided';
  // A face never read leaves FAIR_WITHIN out of reach: a count of rolls still needed would only mislead. With no roll
  // yet there are no proportions to project from.
  const need = d.decided
    ? ''
    : d.unreadableFace !== undefined
      ? `, no ${d.unreadableFace} read yet: FAIR_WITHIN needs a review of its unresolved rolls`
      : d.rolls === 0
        ? ', not measured yet'
        : d.noVerdictInReach
          ? ', no verdict in reach if the proportions hold'
          : d.rollsNeeded > 0
            ? `, ~${formatCount(d.rollsNeeded)} more ${d.rollsNeeded === 1 ? 'roll' : 'rolls'} needed${d.toward !== undefined ? ` toward ${d.toward}` : ''}${d.budgetLeft !== undefined && d.rollsNeeded > d.budgetLeft ? `, beyond the budget (${formatCount(d.budgetLeft)} left)` : ''}`
            : '';
  return `  ${d.label.padEnd(width)}  ch ${d.channel}  ${formatCount(d.rolls).padStart(6)} ${d.rolls === 1 ? 'roll ' : 'rolls'}  ${state}${need}`;
}

/**
 * The ETA, or, when the time budget ends the session first, that (with what the dice would need): a figure that
 * counted down with the budget while the dice needed hours more read as the verdicts' ETA.
 */
function etaWords(s: ProgressSnapshot): string {
  const left = s.budgetLeftMs;
  if (left === undefined || (s.etaMs !== undefined && s.etaMs <= left)) return s.etaMs !== undefined ? `ETA ${formatDuration(s.etaMs)}` : 'ETA unknown';
  const need = s.etaMs === undefined ? 'no ETA for the verdicts yet' : `${s.etaBy === 'roll-budget' ? 'the roll budget ends' : 'verdicts need'} ~${formatDuration(s.etaMs)} at this pace`;
  return `time budget ends in ${formatDuration(left)} (${need})`;
}

/** The snapshot as text: a header line, then one line per die. */
export function progressLines(s: ProgressSnapshot): string[] {
  const t = s.totals;
  const rate = s.rollsPerHour !== undefined ? `${formatCount(s.rollsPerHour)} die-rolls/h` : 'rate not measured yet';
  const eta = s.stopped ? s.stopped.reason : etaWords(s);
  const header =
    `session ${s.sessionId}: throw ${formatCount(s.lastThrowIndex)} (${formatCount(t.ok)} counted, ${formatCount(t.rerolled)} re-tumbled, ${formatCount(t.void)} void), ` +
    `${rate}, ${formatDuration(s.clock.elapsedMs)} of rig time; ${eta}`;
  const width = Math.max(...s.dice.map((d) => d.label.length), 3);
  return [header, ...s.dice.map((d) => dieLine(d, width))];
}

export interface TerminalProgressOptions {
  readonly write: (text: string) => void;
  /** Redraw in place (a terminal); otherwise print plain lines. */
  readonly tty: boolean;
  /** Wall clock for throttling redraws (ms). */
  readonly now: () => number;
  /** Least time between redraws on a terminal. Default 100 ms. */
  readonly redrawMs?: number;
  /** Without a terminal: print the progress every this many throws. Default 250. */
  readonly everyThrows?: number;
  /**
   * Without a terminal: print the progress at the first throw this long (ms of `now`) after the last print, however
   * few throws that was. Default a minute: a real rig's throw takes seconds, so 250 throws are ten minutes of silence.
   */
  readonly everyMs?: number;
  /** Terminal width: longer lines are cut, so a wrapped line cannot break the redraw. */
  readonly columns?: number;
}

/** Shows a session's progress on a terminal (or a log). */
export class TerminalProgress {
  private readonly tracker = new ProgressTracker();
  private drawn = 0;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastPrintedThrow = 0;
  /** When the last block was printed without a terminal (`now`). */
  private lastPrintAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: TerminalProgressOptions) {}

  readonly onEvent = (e: SessionEvent): void => {
    this.tracker.update(e);
    if (this.tracker.lastThrowIndex === undefined) return;
    const o = this.options;
    switch (e.type) {
      case 'started':
        this.print([`${e.resumed ? 'Resuming' : 'Starting'} session ${e.sessionId}${e.resumed ? ` after throw ${e.lastThrowIndex}` : ''}${e.simulated ? ' (simulated: its rolls never count as real fairness data)' : ''}.`]);
        this.show(true);
        return;
      case 'throw': {
        const due = o.tty
          ? o.now() - this.lastDraw >= (o.redrawMs ?? 100)
          : e.index - this.lastPrintedThrow >= (o.everyThrows ?? 250) || o.now() - this.lastPrintAt >= (o.everyMs ?? 60_000);
        if (due) this.show(false);
        return;
      }
      case 'decided':
        this.print([`${e.label}: ${e.sentence} The die is ${e.retiredNote}.`]);
        if (o.tty) this.show(true);
        return;
      case 'fault':
        this.print([`fault (${e.consecutive} in a row): ${e.message}`]);
        return;
      case 'recovered':
        this.print([e.message]);
        return;
      case 'unreadable-face':
        this.print([`${e.label}: ${e.message}`]);
        return;
      case 'rig-check':
        if (e.suspect) this.print([`rig check ${e.look}: the rig looks suspect (see the verdict below).`]);
        return;
      case 'stopped':
        this.show(true);
        this.drawn = 0;
        return;
    }
  };

  /** Prints lines above the live block (which is redrawn below them). */
  private print(lines: readonly string[]): void {
    this.clear();
    this.options.write(`${lines.join('\n')}\n`);
  }

  private clear(): void {
    if (this.options.tty && this.drawn > 0) this.options.write(`\x1b[${this.drawn}A\x1b[0J`);
    this.drawn = 0;
  }

  /** Draws the block (on a terminal) or prints it, unless it shows the throw printed last (its dice then go unread). */
  private show(force: boolean): void {
    const index = this.tracker.lastThrowIndex as number;
    if (!this.options.tty && !force && index === this.lastPrintedThrow) return;
    const s = this.tracker.snapshot as ProgressSnapshot;
    const lines = progressLines(s);
    if (this.options.tty) {
      this.clear();
      const cols = this.options.columns;
      const fitted = cols !== undefined && cols > 10 ? lines.map((l) => (l.length >= cols ? `${l.slice(0, cols - 2)}…` : l)) : lines;
      this.options.write(`${fitted.join('\n')}\n`);
      this.drawn = lines.length;
      this.lastDraw = this.options.now();
    } else {
      this.options.write(`${lines.join('\n')}\n`);
      this.lastPrintAt = this.options.now();
    }
    this.lastPrintedThrow = index;
  }
}

/** `--events`: every event as one JSON line. */
export function jsonLineEvents(write: (line: string) => void): (e: SessionEvent) => void {
  // JSON has no Infinity (an e-value can overflow): such numbers are written as strings.
  return (e) => write(`${JSON.stringify(e, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))}\n`);
}
