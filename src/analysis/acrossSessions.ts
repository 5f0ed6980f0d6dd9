/**
 * A die rolled in several stored sessions, judged on all of them without a fixed-n test. A session stops when its
 * die is decided or its budget is spent, and a person rolls the die again because it was undecided: the pooled rolls'
 * count was not fixed in advance, so a fixed-n test on them claims more than it can (optional continuation).
 *
 * Each session's final e-value (least favourable over its unresolved rolls and within its misread bounds) is an
 * e-value whatever came before it, as the session's monitor starts afresh on new rolls; so their product is an
 * e-value for all of them, however the decision to roll again was made (Grünwald, de Heide & Koolen, "Safe testing").
 * - UNFAIR when the product reaches family/alpha: the die's Bonferroni share of the analysis's alpha, which keeps
 *   the family's error rate whatever Holm decides for the other dice (Holm rejects no true null while every true
 *   null's p exceeds alpha over their number, and neither does this).
 * - FAIR_WITHIN when each face's interval, the intersection of the sessions' own anytime-valid intervals, lies within
 *   expected ± delta. It is wrong only if some session's interval missed, so its error is at most the sum of the
 *   sessions' per-die alphas; it is claimed only when that sum is within alpha/family.
 * - Otherwise INCONCLUSIVE, with what the sessions show together. A RIG_SUSPECT session (its rig checks failed, or
 *   its campaign found its rig biased: src/analysis/campaign/sessionFindings.ts) brings no
 *   evidence of unfairness and no interval: its e-value counts only where it is below 1 (never above its own, so the
 *   product stays an e-value; dropping it outright would choose sessions by their outcome).
 */
import { formatCountOf, formatLogScientific, formatProbability } from '../core/format.js';
import { largestDeviationBound, type Interval } from '../stats/intervals.js';
import { faceEstimates, fairWithinVerdict, unfairVerdict } from '../stats/monitorVerdicts.js';
import type { InconclusiveVerdict, Verdict } from '../stats/verdict.js';
import type { AcrossSessions, DieAnalysis } from './analyze.js';
import { namesOf, type LevelAnalysis } from './levelAnalysis.js';

/** What one stored session decided on its part of the die's rolls. */
export interface SessionPart {
  readonly session: number;
  readonly kind: string;
  /** Its final log e-value for the die. */
  readonly logE: number;
  /** Its error rate per die (its alpha over its dice), when stored. */
  readonly alphaPerDie?: number;
  /** Its anytime-valid interval per face or symbol, when stored. */
  readonly faces?: readonly { readonly label: string; readonly lower: number; readonly upper: number }[];
}

export interface AcrossSettings {
  readonly alpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family. */
  readonly family: number;
}

/** What the sessions show together, and the decision it supports. */
export interface Combined {
  /** The product of the sessions' e-values (capped at 1 for a session whose rig checks failed), as a log. */
  readonly logE: number;
  readonly logThreshold: number;
  /** Each face's intersected interval; absent when a session stored none or on some face they do not meet (`apart`). */
  readonly intervals?: readonly Interval[];
  readonly apart: boolean;
  /** The largest deviation those intervals leave, and the most it can be wrong (the sum of the sessions' per-die alphas). */
  readonly certified?: { readonly within: number; readonly alpha: number };
  readonly decision: 'UNFAIR' | 'FAIR_WITHIN' | 'INCONCLUSIVE';
}

/**
 * The sessions' evidence together on one level (`labels`, with their `expected` odds, in the order of each part's
 * `faces`): UNFAIR when the product of the e-values reaches family/alpha; else FAIR_WITHIN when the intersected
 * intervals lie within ± delta and the sessions' alphas add up to at most alpha/family; else INCONCLUSIVE.
 * A session whose rig checks failed counts with its e-value capped at 1, and no interval.
 */
export function combineSessions(parts: readonly SessionPart[], expected: readonly number[], labels: readonly string[] | undefined, s: AcrossSettings): Combined {
  const trusted = parts.filter((p) => p.kind !== 'RIG_SUSPECT');
  const logE = parts.reduce((sum, p) => sum + (p.kind === 'RIG_SUSPECT' ? Math.min(0, p.logE) : p.logE), 0);
  const logThreshold = Math.log(s.family / s.alpha);
  const matches = labels !== undefined && trusted.length > 0 && trusted.every((p) => p.faces !== undefined && p.faces.length === labels.length && p.faces.every((f, i) => f.label === labels[i]));
  const intervals = matches ? intersect(labels.length, trusted) : undefined;
  // Every session's alpha, the set-aside ones' too: which intervals are intersected depends on the sessions' outcomes.
  const alpha = parts.reduce((sum, p) => sum + (p.alphaPerDie ?? Number.POSITIVE_INFINITY), 0);
  const certified = intervals !== undefined && Number.isFinite(alpha) ? { within: largestDeviationBound(expected, intervals), alpha } : undefined;
  const decision = logE >= logThreshold ? 'UNFAIR' : certified !== undefined && certified.within <= s.delta && certified.alpha <= s.alpha / s.family ? 'FAIR_WITHIN' : 'INCONCLUSIVE';
  return { logE, logThreshold, ...(intervals !== undefined ? { intervals } : {}), apart: matches && intervals === undefined, ...(certified !== undefined ? { certified } : {}), decision };
}

/** `d` judged on the product of its sessions' e-values and their intervals together; `d` unchanged for a RIG_SUSPECT analysis. */
export function judgeAcrossSessions(d: DieAnalysis, parts: readonly SessionPart[], s: AcrossSettings): DieAnalysis {
  if (d.verdict.kind === 'RIG_SUSPECT' || parts.length === 0) return d;
  const level = levelOf(d, parts);
  const shown = level ?? d.symbol;
  const c = combineSessions(parts, shown.expected, level?.labels, s);
  const across: AcrossSessions = {
    sessions: parts.map((p) => p.session),
    logE: c.logE,
    logThreshold: c.logThreshold,
    ...(c.certified !== undefined ? { certified: { level: shown.level, ...c.certified } } : {}),
  };
  const faces = faceEstimates(namesOf(shown), shown.expected, shown.counts, shown.n, c.intervals ?? shown.intervals);
  const ignored = parts.filter((p) => p.kind === 'RIG_SUSPECT').length;
  const setAside = ignored > 0 ? `; ${ignored === 1 ? 'one session' : `${ignored} sessions`} RIG_SUSPECT (${ignored === 1 ? 'its' : 'their'} rig checks failed, or ${ignored === 1 ? 'its' : 'their'} campaign found ${ignored === 1 ? 'its rig' : 'their rigs'} biased) brought no evidence of unfairness` : '';
  const apart = c.apart ? "; their intervals do not meet on every face (a session's interval missed, or the die changed between sessions), so they certify nothing together" : '';
  const sessions = `${parts.length} sessions`;
  let verdict: Verdict;
  let sentence: string;
  if (c.decision === 'UNFAIR') {
    // Worded as the sessions word theirs: the faces whose (intersected) interval leaves out their odds, most deviant first.
    const unfair = unfairVerdict({
      n: d.n,
      logE: c.logE,
      method: `product of the e-values of ${sessions}`,
      faces,
      proportions: faces.map((f) => f.observed),
      intervalMethod: c.intervals !== undefined ? "intersection of the sessions' anytime-valid intervals" : 'fixed-n simultaneous intervals (descriptive)',
    });
    verdict = unfair;
    const lead = unfair.drivers.slice(0, 2).map((f, i) => `${f.label} ${i === 0 ? 'comes up ' : ''}${formatProbability(f.observed)} instead of ${formatProbability(f.expected)}`);
    sentence = `UNFAIR: ${lead.join(' and ')} (e = ${formatLogScientific(c.logE)}, the product of its ${sessions}' e-values, after ${formatCountOf(d.n, 'roll')}${setAside}).`;
  } else if (c.decision === 'FAIR_WITHIN' && c.certified !== undefined) {
    verdict = fairWithinVerdict(d.n, s.delta, c.certified.alpha, faces, "intersection of the sessions' anytime-valid intervals");
    sentence =
      `FAIR_WITHIN: every ${shown.level} is within ±${formatProbability(s.delta)} of its expected odds, by its ${sessions}' intervals together ` +
      `(largest deviation still possible ${formatProbability(c.certified.within)}; wrong only if a session's interval missed: at most ${formatProbability(c.certified.alpha)}${setAside}).`;
  } else {
    const leaves = c.certified !== undefined ? `, and their intervals together leave ±${formatProbability(c.certified.within)} (FAIR_WITHIN needs ±${formatProbability(s.delta)})` : '';
    const why = `the product of its ${sessions}' e-values is ${formatLogScientific(c.logE)} (UNFAIR needs ${formatLogScientific(c.logThreshold)})${leaves}${apart}${setAside}`;
    const inconclusive: InconclusiveVerdict = { kind: 'INCONCLUSIVE', n: d.n, rollsNeeded: null, target: null, why, delta: s.delta, projection: { toCertify: null, toReject: null, assumption: 'across sessions' } };
    verdict = inconclusive;
    sentence = `INCONCLUSIVE: ${why}. Rolling it on in one session (dicerig run CONFIG --resume SESSION --more-rolls N) narrows its interval as its evidence grows.`;
  }
  return { ...d, verdict, sentence, anytime: { logE: c.logE, decision: verdict.kind, decidedAt: null }, across };
}

/** The level the sessions' intervals are at (the labels of the first session that stored them), if the analysis has it. */
function levelOf(d: DieAnalysis, parts: readonly SessionPart[]): LevelAnalysis | undefined {
  const labels = parts.find((p) => p.faces !== undefined)?.faces?.map((f) => f.label).join('\u0000');
  return labels === undefined ? undefined : [d.symbol, d.face].find((l) => l !== undefined && l.labels.join('\u0000') === labels);
}

/**
 * Each face's intersection of the sessions' intervals; undefined when on some face they do not meet (some session's
 * interval missed, or the die changed between sessions): then they certify nothing together.
 */
function intersect(k: number, parts: readonly SessionPart[]): Interval[] | undefined {
  const out: Interval[] = [];
  for (let i = 0; i < k; i++) {
    const lower = Math.max(...parts.map((p) => p.faces?.[i]?.lower ?? 0));
    const upper = Math.min(...parts.map((p) => p.faces?.[i]?.upper ?? 1));
    if (lower > upper) return undefined;
    out.push({ lower, upper });
  }
  return out;
}
