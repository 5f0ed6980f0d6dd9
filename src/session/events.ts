/**
 * What a running session tells the world, as plain JSON-able events: the
 * terminal progress display, `dicerig run --events` (one JSON line each) and,
 * later, the web dashboard all read this one stream. Times are milliseconds
 * since the Unix epoch on the session clock.
 */
import type { MonitorDecision } from '../stats/sequential.js';
import type { RigSuspectVerdict } from '../stats/verdict.js';
import type { ProblemKind } from './throwOutcome.js';

/** One die's state after a throw. */
export interface DieStatus {
  readonly label: string;
  readonly type: string;
  readonly channel: number;
  /** Counted rolls so far (the whole session, earlier runs included). */
  readonly rolls: number;
  /** The verdict kind: UNFAIR / FAIR_WITHIN / INCONCLUSIVE once decided, INCONCLUSIVE (undecided) before. */
  readonly state: MonitorDecision['kind'] | 'RIG_SUSPECT';
  readonly decided: boolean;
  /**
   * Rolls still needed for a verdict if the observed proportions hold, by the monitor's rule (the final verdict's
   * figure, not capped by the budget); 0 once decided or when no verdict is in reach (`noVerdictInReach`).
   */
  readonly rollsNeeded: number;
  /** Rolls left in the die's budget (absent in events recorded before it was kept). */
  readonly budgetLeft?: number;
  /** Undecided, and no verdict in reach if the observed proportions hold. */
  readonly noVerdictInReach?: true;
  /** Undecided: the verdict `rollsNeeded` leads to if the observed proportions hold (absent in events recorded before it was kept). */
  readonly toward?: 'UNFAIR' | 'FAIR_WITHIN';
  /** Natural log of the die's e-value against fairness (evidence so far). */
  readonly logE: number;
  /** Of its rolls, those unresolved (declined, or the die not found) that nobody has labelled yet. */
  readonly unresolved?: number;
  /**
   * A face its reader seems unable to read (`RobustMonitor.unreadableFace`), while the die is still rolling: FAIR_WITHIN
   * is then out of reach without a review, whatever `rollsNeeded` says.
   */
  readonly unreadableFace?: string;
  /** Its counted results (read, or labelled by a person) by what the session counts: face ids of pip dice, symbols of X-Wing dice. */
  readonly tally?: Readonly<Record<string, number>>;
}

/** Throw counts of the whole session (earlier runs included). */
export interface ThrowTotals {
  readonly throws: number;
  readonly ok: number;
  readonly rerolled: number;
  readonly void: number;
  /** Dice seen (read, cocked or refused) over all throws: every stored roll. */
  readonly rolls: number;
  /** Dice found cocked, over all throws. */
  readonly cocked: number;
  /** Dice of counted throws declined or not found at first (before any re-read). */
  readonly declined?: number;
  /** Of those, dice a re-read (further frames, the light stepped up and down) resolved. */
  readonly rereadResolved?: number;
  /** Those a re-read resolved, by the symbol it read them as (which faces the reader declines at first). */
  readonly rereadBySymbol?: Readonly<Record<string, number>>;
  /** Dice still unreadable after the re-reads: kept as unresolved rolls. */
  readonly unresolved?: number;
}

export interface RunClock {
  /** Epoch ms when this run started (or resumed). */
  readonly runStartedAt: number;
  /** Session-clock ms since this run started. */
  readonly elapsedMs: number;
  /**
   * With a time budget: ms of this run the budget counts, its throws measured as earlier runs' are (`rollingTime.ts`):
   * pauses between its throws left out.
   */
  readonly rollingMs?: number;
  /** Throws, ok throws and counted die-rolls in this run. */
  readonly runThrows: number;
  readonly runOkThrows: number;
  readonly runRolls: number;
}

export type SessionEvent =
  | {
      readonly type: 'started';
      readonly at: number;
      readonly sessionId: number;
      readonly resumed: boolean;
      /** Index of the last throw already stored (0 for a new session). */
      readonly lastThrowIndex: number;
      readonly simulated: boolean;
      readonly dice: readonly DieStatus[];
      readonly totals: ThrowTotals;
      readonly budgetRolls: number;
      /** The session's time budget, over all its runs. */
      readonly budgetHours?: number;
      /** With a time budget: ms the session's earlier runs rolled (`rollingTime.ts`), spent of it already. */
      readonly rolledMs?: number;
    }
  | {
      readonly type: 'throw';
      readonly at: number;
      readonly index: number;
      readonly status: 'ok' | 'rerolled' | 'void';
      readonly why?: string;
      /** Session-clock ms from the end of the motion until the dice were still. */
      readonly settleMs?: number;
      /** What each counted die showed (symbol, or the problem). */
      readonly rolls: readonly { readonly label: string; readonly faceId?: string; readonly symbol?: string; readonly cocked: boolean }[];
      readonly problems: readonly { readonly kind: ProblemKind; readonly label?: string; readonly channel?: number; readonly reason: string }[];
      readonly dice: readonly DieStatus[];
      readonly totals: ThrowTotals;
      readonly clock: RunClock;
    }
  | {
      readonly type: 'fault';
      readonly at: number;
      readonly kind: string;
      readonly message: string;
      /** Faults in a row so far. */
      readonly consecutive: number;
      readonly voidedThrow?: number;
    }
  | { readonly type: 'recovered'; readonly at: number; readonly message: string }
  /** Once per die and run: the reader seems unable to read one of its faces (`RobustMonitor.unreadableFace`). */
  | { readonly type: 'unreadable-face'; readonly at: number; readonly label: string; readonly face: string; readonly message: string }
  | { readonly type: 'decided'; readonly at: number; readonly label: string; readonly verdict: MonitorDecision; readonly sentence: string; readonly retiredNote: string }
  | {
      readonly type: 'rig-check';
      readonly at: number;
      readonly look: number;
      readonly alpha: number;
      readonly suspect: boolean;
      readonly rolls: number;
      /** The smallest Holm-adjusted p of the look (1 when no check could run). */
      readonly minAdjustedP: number;
      readonly verdict: RigSuspectVerdict | null;
    }
  | { readonly type: 'stopped'; readonly at: number; readonly state: 'finished' | 'stopped' | 'aborted'; readonly reason: string; readonly totals: ThrowTotals; readonly clock: RunClock };

/** Where events go. Listeners must not throw (a display failing must not stop the rig). */
export type SessionEventSink = (event: SessionEvent) => void;
