/**
 * A die's verdict as a session made and stored it, read back from what the session stored (a store's verdict row, or
 * an export's manifest, which carries the same object): only what is whole is taken, since a verdict stored by an
 * older dicerig (or a hand-edited manifest) may lack parts.
 */
import type { StoredVerdictParts } from '../analysis/sessionVerdict.js';
import type { Verdict } from '../stats/verdict.js';
import { campaignSuspectVerdict, type CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';

/** A die's verdict as a session made and stored it (kind and sentence, as is), with the intervals it rests on. */
export interface StoredDieVerdict {
  readonly session: number;
  /** The export file whose manifest carried it (absent for a stored session's own). */
  readonly file?: string;
  /** The die's rolls the session judged, read and unresolved (to check a file holds them all), when stored. */
  readonly rolls?: number;
  readonly kind: string;
  readonly sentence: string;
  /**
   * Each face's (or symbol's) simultaneous interval as the session made it: anytime-valid under its error control,
   * widened over its unresolved rolls and misread bounds. Absent in verdicts stored without them.
   */
  readonly faces?: readonly StoredFaceInterval[];
  /** The verdict itself, its e-value and where it was made, for an analysis to show in place of its own. */
  readonly parts?: StoredVerdictParts;
  /** The session's error rate for this die (its alpha over its dice), when stored. */
  readonly alphaPerDie?: number;
  /** The counts `faces` were made from (read or labelled, per face; unresolved; misread bounds), when stored. */
  readonly partial?: { readonly counts: readonly number[]; readonly unresolved: number; readonly misreadRates?: readonly number[] };
  /** For a session imported from an export: the session that made the verdict (its id where it was made) and the file. */
  readonly importedFrom?: VerdictsImportedFrom;
  /** Its campaign's finding, when the campaign found the session's rig biased: this verdict is then RIG_SUSPECT by it. */
  readonly campaign?: CampaignSessionFinding;
  /** The verdict the session itself stored, when the campaign's finding stands in its place. */
  readonly sessionKind?: string;
}

/** Where kept verdicts were made: the exported session (its id in the store it was exported from) and the file. */
export interface VerdictsImportedFrom {
  readonly session: number;
  readonly file: string;
}

export interface StoredFaceInterval {
  readonly label: string;
  readonly expected: number;
  readonly lower: number;
  readonly upper: number;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Each die's verdict of a session's stored verdicts object (`{ dice: [...] }`), by label; `file` names an export's. */
export function storedDieVerdicts(made: unknown, session: number, file?: string): { label: string; verdict: StoredDieVerdict }[] {
  const dice = (made as { dice?: unknown } | null | undefined)?.dice;
  if (!Array.isArray(dice)) return [];
  const from = (made as { importedFrom?: unknown }).importedFrom;
  const importedFrom = isImportedFrom(from) ? { importedFrom: { session: from.session, file: from.file } } : {};
  const out: { label: string; verdict: StoredDieVerdict }[] = [];
  for (const d of dice as Record<string, unknown>[]) {
    if (typeof d?.label !== 'string' || typeof d.kind !== 'string' || typeof d.sentence !== 'string') continue;
    const faces = storedFaces(d.faces);
    const parts = storedParts({ verdict: d.verdict, sentence: d.sentence, logE: d.logE, decidedAt: d.decidedAt, errorControl: d.errorControl });
    const alpha = isNumber(d.alphaPerDie) && d.alphaPerDie > 0 && d.alphaPerDie < 1 ? { alphaPerDie: d.alphaPerDie } : {};
    const partial = faces ? storedPartial(d, faces.length) : undefined;
    const rolls = isNumber(d.rolls) && Number.isInteger(d.rolls) && d.rolls >= 0 ? { rolls: d.rolls } : {};
    out.push({
      label: d.label,
      verdict: { session, ...(file !== undefined ? { file } : {}), kind: d.kind, sentence: d.sentence, ...(faces ? { faces } : {}), ...(parts ? { parts } : {}), ...alpha, ...(partial ? { partial } : {}), ...rolls, ...importedFrom },
    });
  }
  return out;
}

/** The stored verdict's parts an analysis shows, when they are whole. */
function storedParts(d: { verdict?: unknown; sentence: string; logE?: unknown; decidedAt?: unknown; errorControl?: unknown }): StoredVerdictParts | undefined {
  const v = d.verdict as { kind?: unknown } | undefined;
  if (typeof v?.kind !== 'string' || !isNumber(d.logE) || !(d.decidedAt === null || isNumber(d.decidedAt))) return undefined;
  const statement = (d.errorControl as { statement?: unknown } | null | undefined)?.statement;
  return { verdict: d.verdict as Verdict, sentence: d.sentence, logE: d.logE, decidedAt: d.decidedAt, ...(typeof statement === 'string' ? { errorControlWords: statement } : {}) };
}

/** The counts a stored verdict's intervals were made from, when whole: one count per face, the unresolved rolls, the misread bounds (null: none). */
function storedPartial(d: { counts?: unknown; unresolved?: unknown; misreadRates?: unknown }, k: number): StoredDieVerdict['partial'] {
  const counts = d.counts;
  const rates = d.misreadRates;
  const nonNegative = (x: unknown): x is number => isNumber(x) && x >= 0;
  if (!Array.isArray(counts) || counts.length !== k || !counts.every(nonNegative) || !nonNegative(d.unresolved)) return undefined;
  if (rates !== null && rates !== undefined && !(Array.isArray(rates) && rates.length === k && rates.every(nonNegative))) return undefined;
  return { counts, unresolved: d.unresolved, ...(Array.isArray(rates) ? { misreadRates: rates as number[] } : {}) };
}

/** The stored faces' intervals, when every one is whole (a verdict stored by an older dicerig may lack them). */
function storedFaces(faces: unknown): StoredFaceInterval[] | undefined {
  if (!Array.isArray(faces) || faces.length === 0) return undefined;
  const out: StoredFaceInterval[] = [];
  for (const f of faces as Record<string, unknown>[]) {
    if (typeof f?.label !== 'string' || !isNumber(f.expected) || !isNumber(f.lower) || !isNumber(f.upper)) return undefined;
    out.push({ label: f.label, expected: f.expected, lower: f.lower, upper: f.upper });
  }
  return out;
}

/**
 * A session's verdict on a die made RIG_SUSPECT by its campaign's finding (its rig found biased), as `campaign report`
 * shows the session's leg: kind, sentence and verdict the finding's; its e-value and error rate kept, so that across
 * sessions it counts as a RIG_SUSPECT session counts (no evidence of unfairness, no interval: acrossSessions.ts).
 * `own`: the session's own stored verdict on the die, if any; `n`: the die's read rolls in the session.
 */
export function withCampaignFinding(own: StoredDieVerdict | undefined, session: number, n: number, f: CampaignSessionFinding): StoredDieVerdict {
  const verdict = campaignSuspectVerdict(n, f);
  return {
    session,
    kind: 'RIG_SUSPECT',
    sentence: f.sentence,
    parts: { verdict, sentence: f.sentence, logE: own?.parts?.logE ?? 0, decidedAt: null },
    ...(own?.alphaPerDie !== undefined ? { alphaPerDie: own.alphaPerDie } : {}),
    ...(own?.rolls !== undefined ? { rolls: own.rolls } : {}),
    campaign: f,
    ...(own !== undefined ? { sessionKind: own.kind } : {}),
  };
}

export function isImportedFrom(x: unknown): x is VerdictsImportedFrom {
  const v = x as { session?: unknown; file?: unknown } | null | undefined;
  return typeof v?.session === 'number' && typeof v.file === 'string';
}
