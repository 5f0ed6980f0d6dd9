import { StoreError } from './errors.js';
import type { VerifyReport } from './records.js';
import type { RollStore } from './rollStore.js';

/** The problems verification finds that bear on one session: the file's damage and its own chain breaks. */
export function sessionProblems(report: VerifyReport, sessionId: number): string[] {
  return [...(report.damage ?? []).map((d) => `the file is damaged: ${d}`), ...report.breaks.filter((b) => b.sessionId === sessionId).map((b) => b.problem)];
}

/**
 * Verifies the store before a session is read out of it (export, report).
 * A failure is refused with one line, unless `allow`: then it is only warned
 * about, through `warn`, and the caller goes on (told whether the file is damaged). `report`: the store's
 * verification when the caller has it already (it walks every chain of the store).
 */
export function requireVerified(
  store: RollStore,
  sessionId: number,
  allow: boolean,
  warn: (line: string) => void,
  doing = 'exported',
  report: VerifyReport = store.verify(),
): { readonly damaged: boolean } {
  const problems = sessionProblems(report, sessionId);
  if (problems.length === 0) return { damaged: false };
  const first = problems[0] as string;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  const damaged = /damaged/.test(first);
  const what = `session ${sessionId} in ${store.path} fails verification: ${first}${more}`;
  if (!allow) {
    throw new StoreError(
      `The ${damaged ? 'store is damaged and ' : ''}${what}; nothing was ${doing}. Run \`dicerig verify --db ${store.path}\` for every problem; pass --allow-unverified to go on anyway.`,
      { db: store.path, session: sessionId, reason: damaged ? 'damaged' : 'unverified' },
    );
  }
  warn(`dicerig: warning: ${what}; going on because of --allow-unverified.`);
  return { damaged };
}
