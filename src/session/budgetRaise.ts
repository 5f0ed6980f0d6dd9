/**
 * A stored session's roll budget as it stands: its stored config's, raised by `run --resume SESSION --more-rolls N`.
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
import type { SessionDie } from './sessionDie.js';

export const BUDGET_RAISED = 'budget-raised';

/** The budget each `budget-raised` event left, in order; the last one stands. */
export function effectiveStopping(stopping: SessionConfig['stopping'], events: readonly EventRecord[]): SessionConfig['stopping'] {
  let budgetRolls = stopping.budgetRolls;
  for (const e of events) {
    if (e.kind !== BUDGET_RAISED) continue;
    const to = (e.detail as { to?: unknown } | null)?.to;
    if (typeof to === 'number' && Number.isInteger(to) && to > 0) budgetRolls = to;
  }
  return budgetRolls === stopping.budgetRolls ? stopping : { ...stopping, budgetRolls };
}

/** The config a stored session runs with now: the one stored with it, its roll budget as its `budget-raised` events left it. */
export function storedSessionConfig(store: Pick<RollStore, 'events'>, session: SessionRecord): SessionConfig {
  // An imported session's stored config is the import's (files, settings): there is no run's config to read.
  refuseImported(session, 'config');
  const kept = checkSessionConfig(JSON.parse(session.configJson) as unknown, `session ${session.id} (stored config)`);
  return { ...kept, stopping: effectiveStopping(kept.stopping, store.events(session.id)) };
}

/** A raise asked of a session that has nothing left to roll on. */
export class BudgetRaiseError extends DicerigError {}

/**
 * Refuses a raise when every die of the session has a verdict: no die would be rolled on, and a `budget-raised` event
 * would be stored for nothing. Its dice's monitors are rebuilt from the store under the raised budget, as the resumed
 * run would rebuild them, so a die left INCONCLUSIVE by the old budget counts as undecided.
 */
export function requireUndecidedDie(store: RollStore, sessionId: number, dice: readonly SessionDie[], stopping: SessionConfig['stopping'], moreRolls: number): void {
  const monitors = new MonitorSet(dice, { alpha: stopping.alpha, delta: stopping.delta, budgetRolls: stopping.budgetRolls });
  monitors.replayStored(store, sessionId);
  if (monitors.tracks.some((t) => !t.retired)) return;
  throw new BudgetRaiseError(
    `every die of session ${sessionId} has a verdict; nothing to roll on (--more-rolls rolls on the dice its budget left INCONCLUSIVE), so nothing was stored. To roll these dice again, run a new session: analyze judges a die on both.`,
    { session: sessionId, moreRolls },
  );
}
