import { formatCountOf } from '../core/format.js';
import type { SessionVerdicts } from '../stats/dieVerdict.js';

/**
 * How a report heads a session's stored verdicts: made by the session, by its own rule, and (when people labelled
 * declined rolls since) remade with those labels the same way, never by the report. `also`: a clause inside the
 * parentheses (where imported verdicts were made).
 */
export function verdictsMadeWords(v: SessionVerdicts, also = ''): string {
  const labels = v.dice.reduce((n, d) => n + d.reviewed, 0);
  const made = labels > 0 ? `Verdicts as the session's rule makes them, with the ${formatCountOf(labels, 'label')} people gave its declined rolls` : 'Verdicts as the session made them';
  return `${made} (not recomputed by this report${also})`;
}

/** Where an import's verdicts were made (the clause `verdictsMadeWords` takes), so the text and the page say it alike; '' for a session's own. */
export function importedVerdictsClause(v: SessionVerdicts): string {
  return v.importedFrom !== undefined ? `; made by the session ${v.importedFrom.file} was exported from, its session ${v.importedFrom.session}, and imported with it` : '';
}

/** Said where the stored verdicts do not judge the session's last throws (counted in the tables beside them). */
export function verdictsBehindWords(rollsSince: number): string | undefined {
  if (rollsSince === 0) return undefined;
  return `These verdicts are as the session stored them when a run last stopped; it stored ${formatCountOf(rollsSince, 'roll')} after that (a run still rolling, or one whose process died before it stopped), which the roll counts here include and the verdicts do not: its next stop (or \`dicerig run --resume\`) judges them.`;
}
