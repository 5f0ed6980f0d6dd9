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
