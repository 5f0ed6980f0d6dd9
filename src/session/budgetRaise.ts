/**
 * A stored session's roll budget as it stands: its stored config's, raised by `run --resume SESSION --more-rolls N`.
 * A die left INCONCLUSIVE when its budget was spent "needs about N more rolls"; rolling them in the same session keeps
 * them on the same evidence (each die's monitor goes on from where it stopped, valid at any stopping time), where a new
 * session would start from nothing. The stored config is part of the session's hash, so a raise is an event
 * (`budget-raised`, chained like every event), and whoever rebuilds the session's monitors (a resumed run, a review)
 * reads its config through `storedSessionConfig`.
 */
import type { EventRecord, SessionRecord } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { checkSessionConfig, type SessionConfig } from './config.js';
import { refuseImported } from './importedSession.js';

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

