/**
 * A die's analysis with the verdict its session made and stored in place of a recomputed one. A sequential session
 * decides each die once, at its own error control, where its monitor stopped; a fixed-sample test of the same rolls
 * is another verdict (another alpha, margin and stopping assumption), and two verdicts for one die is one too many.
 * So wherever a stored session's die is shown (`report`, `analyze`, `pool`), its verdict, sentence and e-value are
 * the session's, and the fixed-sample figures stay beside them, labelled descriptive.
 */
import { formatLogScientific } from '../core/format.js';
import type { Verdict } from '../stats/verdict.js';
import type { DieAnalysis } from './analyze.js';

/** What a session stored for one die, as far as the analysis shows it. */
export interface StoredVerdictParts {
  readonly verdict: Verdict;
  readonly sentence: string;
  readonly logE: number;
  readonly decidedAt: number | null;
  /** The session's error control in its own words (α over its dice, the correction, the per-die level), when stored. */
  readonly errorControlWords?: string;
}

/**
 * `d` showing the stored verdict of `session` (its id, when known: the analysis then says whose verdict it is), as
 * its store holds it or as `file`, its export, carries it; `importedFrom`: the session imported it with that session's export.
 */
export function withSessionVerdict(
  d: DieAnalysis,
  stored: StoredVerdictParts,
  session?: number,
  file?: string,
  importedFrom?: { readonly session: number; readonly file: string },
): DieAnalysis {
  return {
    ...d,
    verdict: stored.verdict,
    sentence: stored.sentence,
    anytime: { logE: stored.logE, decision: stored.verdict.kind, decidedAt: stored.decidedAt },
    ...(session !== undefined ? { decidedBy: session } : {}),
    ...(session !== undefined && stored.errorControlWords !== undefined ? { decidedUnder: stored.errorControlWords } : {}),
    ...(session !== undefined && file !== undefined ? { decidedIn: file } : {}),
    ...(session !== undefined && importedFrom !== undefined ? { decidedImportedFrom: importedFrom } : {}),
  };
}

/**
 * Why a stored UNFAIR die's e-value now reads other than the one its sentence gives, or null when they read alike.
 * The sentence keeps the e-value the die was decided on; labels given after the decision (its unresolved rolls named,
 * the review page remaking the stored verdicts) move the session's e-value but never the verdict, so a page showing
 * both must say which is which, not show two e-values for one die after one count of rolls.
 */
export function decidedOnWords(verdict: Verdict, logENow: number): string | null {
  if (verdict.kind !== 'UNFAIR' || verdict.evidence.kind !== 'e-value') return null;
  const decided = formatLogScientific(verdict.evidence.logE);
  if (decided === formatLogScientific(logENow)) return null;
  return `decided at e = ${decided}, as its verdict says: labels given since moved the e-value, not the verdict`;
}
