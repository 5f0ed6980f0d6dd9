/**
 * What the dashboard shows of the fairness run, kept up to date from the
 * session's own events: each die's verdict state, its tally of faces (or
 * symbols), and its evidence so far (log e-value against counted rolls: the
 * evidence plot), plus the run's totals and the rig's health.
 */
import { sessionErrorControl, type ErrorControl } from '../../stats/dieVerdict.js';
import type { DieStatus, SessionEvent, ThrowTotals } from '../../session/events.js';

export interface DieView {
  readonly label: string;
  readonly type: string;
  readonly channel: number;
  state: string;
  decided: boolean;
  rolls: number;
  rollsNeeded: number;
  /** A face the reader seems unable to read while the die rolls (null when none): the dashboard says so instead of a count. */
  unreadableFace: string | null;
  logE: number;
  /** Counted results (read or labelled) by face id (pip dice) or symbol (X-Wing dice). */
  tally: Record<string, number>;
  /** [counted rolls, log e-value] after each counted throw, thinned to at most MAX_POINTS. */
  trace: [number, number][];
  sentence?: string;
}

export const MAX_POINTS = 400;

export interface RigHealth {
  state: 'ok' | 'fault' | 'lost';
  faults: number;
  lastFault?: string;
  lastFaultAt?: number;
  recovered?: string;
}

export class FairnessView {
  readonly dice: DieView[];
  totals: ThrowTotals | undefined;
  run: 'idle' | 'running' | 'stopping' | 'paused' | 'finished' | 'stopped' | 'aborted' = 'idle';
  reason = '';
  sessionId: number;
  readonly rig: RigHealth = { state: 'ok', faults: 0 };
  rigCheck: { look: number; suspect: boolean; minAdjustedP: number } | undefined;
  /** The session's error control, as its monitors decide (each die at α/K: the chart's UNFAIR line is K/α). */
  readonly errorControl: ErrorControl;

  constructor(
    sessionId: number,
    dice: readonly { label: string; type: string; channel: number; level: 'face' | 'symbol' }[],
    counted: ReadonlyMap<string, readonly string[]>,
    alpha: number,
  ) {
    this.sessionId = sessionId;
    this.errorControl = sessionErrorControl(alpha, Math.max(1, dice.length));
    this.dice = dice.map((d) => {
      const tally: Record<string, number> = {};
      for (const k of counted.get(d.label) ?? []) tally[k] = (tally[k] ?? 0) + 1;
      return { label: d.label, type: d.type, channel: d.channel, state: 'INCONCLUSIVE', decided: false, rolls: counted.get(d.label)?.length ?? 0, rollsNeeded: 0, unreadableFace: null, logE: 0, tally, trace: [] };
    });
  }

  private apply(statuses: readonly DieStatus[]): void {
    for (const s of statuses) {
      const d = this.dice.find((x) => x.label === s.label);
      if (d === undefined) continue;
      const moved = s.rolls !== d.rolls || d.trace.length === 0;
      Object.assign(d, { state: s.state, decided: s.decided, rolls: s.rolls, rollsNeeded: s.rollsNeeded, unreadableFace: s.unreadableFace ?? null, logE: s.logE });
      // The session's own counts: read rolls and labels a person gave meanwhile (`dicerig review`) alike.
      if (s.tally !== undefined) d.tally = { ...s.tally };
      if (moved) {
        d.trace.push([s.rolls, Number(s.logE.toFixed(4))]);
        // Thin the trace by half when full: the plot keeps its shape at any length.
        if (d.trace.length > MAX_POINTS) d.trace = d.trace.filter((_, i) => i % 2 === 0 || i === d.trace.length - 1);
      }
    }
  }

  /** Folds one session event in. */
  onEvent(e: SessionEvent): void {
    switch (e.type) {
      case 'started':
        this.sessionId = e.sessionId;
        this.run = 'running';
        this.totals = e.totals;
        this.apply(e.dice);
        break;
      case 'throw':
        this.totals = e.totals;
        this.apply(e.dice);
        break;
      case 'decided': {
        const d = this.dice.find((x) => x.label === e.label);
        if (d) d.sentence = e.sentence;
        break;
      }
      case 'rig-check':
        this.rigCheck = { look: e.look, suspect: e.suspect, minAdjustedP: e.minAdjustedP };
        break;
      case 'fault':
        this.rig.state = 'fault';
        this.rig.faults++;
        this.rig.lastFault = e.message;
        this.rig.lastFaultAt = e.at;
        break;
      case 'recovered':
        this.rig.state = 'ok';
        this.rig.recovered = e.message;
        break;
      case 'stopped':
        this.run = e.state;
        this.reason = e.reason;
        this.totals = e.totals;
        break;
    }
  }
}
