/**
 * A stored session's budgets as they stand: its stored config's, raised by `run --resume SESSION --more-rolls N`
 * (rolls a die) and `--more-hours H` (its time budget, which counts the rolling time of all its runs).
 * A die left INCONCLUSIVE when its budget was spent "needs about N more rolls"; rolling them in the same session keeps
 * them on the same evidence (each die's monitor goes on from where it stopped, valid at any stopping time), where a new
 * session would start from nothing. The stored config is part of the session's hash, so a raise is an event
 * (`budget-raised`, chained like every event), and whoever rebuilds the session's monitors (a resumed run, a review)
 * reads its config through `storedSessionConfig`.
 */
import { DicerigError } from '../core/errors.js';
import type { EventRecord, SessionRecord } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { checkSessionConfig, type SessionConfig } from './config.js';
import { refuseImported } from './importedSession.js';
import { MonitorSet } from './monitorSet.js';
import { formatHours } from './rollingTime.js';
import type { SessionDie } from './sessionDie.js';
import { movedConfig } from './resumedAddresses.js';

export const BUDGET_RAISED = 'budget-raised';
/** The time budget's raise: an event of its own, so a reader of `budget-raised` (rolls a die) never takes hours for rolls. */
export const HOURS_RAISED = 'time-budget-raised';

/** The budgets each `budget-raised` and `time-budget-raised` event left, in order; the last of each stands. */
export function effectiveStopping(stopping: SessionConfig['stopping'], events: readonly EventRecord[]): SessionConfig['stopping'] {
  let budgetRolls = stopping.budgetRolls;
  let budgetHours = stopping.budgetHours;
  for (const e of events) {
    if (e.kind !== BUDGET_RAISED && e.kind !== HOURS_RAISED) continue;
    const to = (e.detail as { to?: unknown } | null)?.to;
    if (typeof to !== 'number' || !(to > 0)) continue;
    if (e.kind === HOURS_RAISED) budgetHours = to;
    else if (Number.isInteger(to)) budgetRolls = to;
  }
  if (budgetRolls === stopping.budgetRolls && budgetHours === stopping.budgetHours) return stopping;
  return { ...stopping, budgetRolls, ...(budgetHours !== undefined ? { budgetHours } : {}) };
}

/** The config a stored session runs with now: the one stored with it, its roll budget as its `budget-raised` events left it, its hardware where a resume moved it. */
export function storedSessionConfig(store: Pick<RollStore, 'events'>, session: SessionRecord): SessionConfig {
  // An imported session's stored config is the import's (files, settings): there is no run's config to read.
  refuseImported(session, 'config');
  const kept = checkSessionConfig(JSON.parse(session.configJson) as unknown, `session ${session.id} (stored config)`);
  const events = store.events(session.id);
  return { ...movedConfig(kept, events), stopping: effectiveStopping(kept.stopping, events) };
}

/** A raise asked of a session that has nothing left to roll on. */
export class BudgetRaiseError extends DicerigError {}

/**
 * Refuses a raise when every die of the session has a verdict: no die would be rolled on, and a `budget-raised` event
 * would be stored for nothing. Its dice's monitors are rebuilt from the store under the raised budget, as the resumed
 * run would rebuild them, so a die left INCONCLUSIVE by the old budget counts as undecided.
 */
export function requireUndecidedDie(store: RollStore, sessionId: number, dice: readonly SessionDie[], stopping: SessionConfig['stopping'], raise: { readonly moreRolls?: number; readonly moreHours?: number }): void {
  const monitors = new MonitorSet(dice, { alpha: stopping.alpha, delta: stopping.delta, budgetRolls: stopping.budgetRolls });
  monitors.replayStored(store, sessionId);
  if (monitors.tracks.some((t) => !t.retired)) return;
  const flag = raise.moreRolls !== undefined ? '--more-rolls' : '--more-hours';
  throw new BudgetRaiseError(
    `every die of session ${sessionId} has a verdict; nothing to roll on (${flag} rolls on the dice its budget left INCONCLUSIVE), so nothing was stored. To roll these dice again, run a new session: analyze judges a die on both.`,
    { session: sessionId, ...raise },
  );
}

/**
 * The time budget a resumed session runs with: raised by `moreHours` when given (a session without one has none to
 * raise); a session that finished on its time budget is refused without a raise, as it would stop again at once
 * (its hours count over all its runs: `rollingTime.ts`). `rolledMs`: the session's rolling time so far; `events`: its
 * events, whose last `run-ended` says how its last run stopped.
 */
export function resumedHours(session: Pick<SessionRecord, 'id' | 'state'>, budgetHours: number | undefined, rolledMs: number, events: readonly EventRecord[], moreHours: number | undefined): { from: number; to: number } | undefined {
  if (moreHours !== undefined) {
    if (budgetHours === undefined) throw new BudgetRaiseError(`session ${session.id} has no time budget (stopping.budgetHours) to raise: it rolls until its roll budget is spent; give --more-rolls N to raise that`, { session: session.id, moreHours });
    return { from: budgetHours, to: Number((budgetHours + moreHours).toPrecision(12)) };
  }
  if (session.state !== 'finished' || budgetHours === undefined) return undefined;
  // The run's clock stopped it a little past the throws' own rolling time (homing before the first throw): its stop says.
  const lastStop = (events.filter((e) => e.kind === 'run-ended').at(-1)?.detail as { stop?: unknown } | undefined)?.stop;
  if (lastStop !== 'time-budget' && rolledMs < budgetHours * 3_600_000) return undefined;
  throw new BudgetRaiseError(
    `session ${session.id} finished on its time budget: its ${formatHours(budgetHours)} of rolling (over all its runs) are spent, so a resume would roll nothing. To roll on in the same session, raise its time budget: run --resume ${session.id} --more-hours H (H more hours of rolling; the summary of its last run suggests H)`,
    { session: session.id, budgetHours, rolledHours: rolledMs / 3_600_000 },
  );
}
