/**
 * The verdict vocabulary every part of dicerig reports in. There is no plain
 * "FAIR": a test that fails to reject says nothing about fairness, so the only
 * favourable verdict is FAIR_WITHIN(delta), earned by an equivalence rule.
 */

import { confidenceLabel, formatCount, formatCountOf, formatLogScientific, formatProbability, shellWord } from '../core/format.js';

/** One face (or symbol) of a die: what was expected, what was seen, and an interval for its true probability. */
export interface FaceEstimate {
  readonly index: number;
  /** What a user calls it: a symbol (`hit`) or a face id (`hit-2`, `6`). */
  readonly label: string;
  readonly expected: number;
  /** Observed proportion count / n (NaN before any roll). */
  readonly observed: number;
  readonly count: number;
  /** Interval for the true probability (simultaneous over the faces; see `intervalMethod` on the verdict). */
  readonly lower: number;
  readonly upper: number;
}

/** How strong the evidence against the expected odds is. */
export type Evidence =
  | {
      /** An e-value from an anytime-valid test; p = min(1, 1/e) is a valid p-value at any stopping time. */
      readonly kind: 'e-value';
      readonly e: number;
      readonly logE: number;
      readonly p: number;
      readonly logP: number;
      readonly method: string;
    }
  | {
      /** A fixed-sample p-value (valid only if n was fixed in advance). */
      readonly kind: 'p-value';
      readonly p: number;
      readonly logP: number;
      readonly method: string;
    };

/** The die's odds differ from the expected ones. */
export interface UnfairVerdict {
  readonly kind: 'UNFAIR';
  readonly n: number;
  readonly evidence: Evidence;
  /** A scale-free size of the deviation (e.g. Cohen's w), so tiny biases found by huge n read as tiny. */
  readonly effectSize: { readonly measure: string; readonly value: number };
  /** The faces driving the verdict, most deviant first (at least one). */
  readonly drivers: readonly FaceEstimate[];
  readonly faces: readonly FaceEstimate[];
  readonly intervalMethod: string;
}

/** Every face's probability is certified within expected ± delta. */
export interface FairWithinVerdict {
  readonly kind: 'FAIR_WITHIN';
  readonly n: number;
  readonly delta: number;
  /** Error rate of the certification (the simultaneous intervals' miscoverage). */
  readonly alpha: number;
  /** Largest distance from an interval end to its face's expected probability (<= delta). */
  readonly certifiedDelta: number;
  readonly faces: readonly FaceEstimate[];
  readonly intervalMethod: string;
}

/** Rolls still needed, and toward which verdict, under a stated assumption. */
export interface RollProjection {
  /** More rolls until FAIR_WITHIN(delta) would be reached, or null when the assumption rules it out. */
  readonly toCertify: number | null;
  /** More rolls until UNFAIR would be reached, or null when the assumption rules it out. */
  readonly toReject: number | null;
  readonly assumption: string;
}

/** Not enough evidence either way (yet, or within the roll budget). */
export interface InconclusiveVerdict {
  readonly kind: 'INCONCLUSIVE';
  readonly n: number;
  /** The smaller of the projections, or null when neither verdict is reachable under the assumption. */
  readonly rollsNeeded: number | null;
  /** Which verdict `rollsNeeded` leads to. */
  readonly target: 'FAIR_WITHIN' | 'UNFAIR' | null;
  readonly why: string;
  readonly delta: number;
  readonly projection: RollProjection;
  /** The face furthest from its expected odds (for "if hit stays at 0.41" wording), if any roll was seen. */
  readonly leadingDeviation?: FaceEstimate;
}

/** One failed rig check (see serial.ts), as carried by RIG_SUSPECT. */
export interface FailedCheck {
  readonly name: string;
  readonly p: number;
  readonly logP: number;
  /** p after Holm adjustment across the rig checks. */
  readonly adjustedP: number;
  readonly detail: string;
}

/** The rig does not tumble the dice independently: per-die verdicts are withheld. */
export interface RigSuspectVerdict {
  readonly kind: 'RIG_SUSPECT';
  readonly n: number;
  readonly alpha: number;
  readonly failedChecks: readonly FailedCheck[];
  /**
   * Set when it is a campaign's finding (no failed check of its own): the campaign found the rig the session ran on
   * biased against its other rigs, on the same dice. `reason` is the campaign report's words.
   */
  readonly campaign?: { readonly name: string; readonly rig: string; readonly reason: string };
}

export type Verdict = UnfairVerdict | FairWithinVerdict | InconclusiveVerdict | RigSuspectVerdict;

/**
 * One plain-English sentence for a verdict, starting with its kind; `also`: a clause it ends with, after a semicolon;
 * `names`: what the sentence calls a face or symbol label (a D3's face "2" is "face 2 (reads 1)"), else the label;
 * `unresolved`: rolls among the verdict's `n` whose face is not known. With some, a face's share is said as the range it
 * spans whatever they were (the reader's declines can depend on the face: the read rolls alone can show a loaded
 * die's hits at 0.7 when they are 0.56 of all its rolls). A verdict that holds whatever they were says so in `also`
 * ({@link holdsWhatever}).
 */
export function describeVerdict(v: Verdict, also?: string, names?: ReadonlyMap<string, string>, unresolved = 0): string {
  const sentence = verdictSentence(v, names, verdictUnresolved(v, unresolved));
  return also === undefined ? sentence : `${sentence.replace(/\.$/, '')}; ${also}.`;
}

/**
 * The unresolved rolls among a verdict's `n`: for a final one (UNFAIR, FAIR_WITHIN), those its face counts leave out
 * when it was made (rolls reviewed or fed since do not change it); else `now`, the die's unresolved rolls now.
 */
export function verdictUnresolved(v: Verdict, now: number): number {
  if (now <= 0 || (v.kind !== 'UNFAIR' && v.kind !== 'FAIR_WITHIN') || v.faces.length === 0) return Math.max(0, now);
  return Math.max(0, v.n - v.faces.reduce((s, f) => s + f.count, 0));
}

/** "it holds whatever the 26 unresolved rolls were": how every verdict sentence says its unresolved rolls do not matter. */
export function holdsWhatever(unresolved: number): string {
  return `it holds whatever ${unresolved === 1 ? 'the unresolved roll was' : `the ${formatCount(unresolved)} unresolved rolls were`}`;
}

/**
 * A face's share of a die's `n` rolls, `unresolved` of them of no known face: from none of those being this face to all.
 * With none unresolved, both ends are its observed share.
 */
export function shareWhatever(face: Pick<FaceEstimate, 'count' | 'observed'>, n: number, unresolved: number): { readonly low: number; readonly high: number } {
  if (unresolved <= 0 || !(n > 0)) return { low: face.observed, high: face.observed };
  return { low: face.count / n, high: Math.min(n, face.count + unresolved) / n };
}

/** "0.638", or with unresolved rolls "0.561 to 0.682": a face's share as every sentence about a verdict says it. */
export function shareWords(face: Pick<FaceEstimate, 'count' | 'observed'>, n: number, unresolved: number): string {
  const { low, high } = shareWhatever(face, n, unresolved);
  return low === high ? formatProbability(low) : `${formatProbability(low)} to ${formatProbability(high)}`;
}

/**
 * How far a face is from its odds whatever the unresolved rolls were: the distance from its expected share to the
 * nearer end of its range (0 when the range holds it).
 */
export function deviationWhatever(face: FaceEstimate, n: number, unresolved: number): number {
  const { low, high } = shareWhatever(face, n, unresolved);
  return Math.max(0, low - face.expected, face.expected - high);
}

function verdictSentence(v: Verdict, names: ReadonlyMap<string, string> | undefined, unresolved: number): string {
  const name = (f: FaceEstimate): string => names?.get(f.label) ?? f.label;
  switch (v.kind) {
    case 'UNFAIR': {
      // Said for the faces whose deviation holds whatever the unresolved rolls were (the first driver always).
      const drivers = v.drivers.slice(0, 2).filter((f, i) => i === 0 || deviationWhatever(f, v.n, unresolved) > 0 || unresolved === 0);
      const shown = drivers.map((f, i) => `${name(f)} ${i === 0 ? 'comes up ' : ''}${shareWords(f, v.n, unresolved)} instead of ${formatProbability(f.expected)}`);
      const strength =
        v.evidence.kind === 'e-value' ? `e = ${formatLogScientific(v.evidence.logE)}` : `p = ${formatLogScientific(v.evidence.logP)}`;
      return `UNFAIR: ${shown.join(' and ')} (${strength}, after ${formatCountOf(v.n, 'roll')}).`;
    }
    case 'FAIR_WITHIN': {
      const confidence = confidenceLabel(v.alpha);
      return (
        `FAIR_WITHIN: every face is within ±${formatProbability(v.delta)} of its expected odds after ${formatCountOf(v.n, 'roll')} ` +
        `(largest deviation still possible ${formatProbability(v.certifiedDelta)}, ${confidence} confidence).`
      );
    }
    case 'INCONCLUSIVE': {
      if (v.rollsNeeded === null || v.target === null) return `INCONCLUSIVE: ${v.why}; no verdict is in reach if the observed proportions hold.`;
      const rounded = roundToTwoFigures(v.rollsNeeded);
      const more = `about ${formatCount(rounded)} more ${rounded === 1 ? 'roll' : 'rolls'} needed`;
      if (v.target === 'FAIR_WITHIN') return `INCONCLUSIVE: ${more} to certify within ±${formatProbability(v.delta)} (${v.why}).`;
      const lead = v.leadingDeviation;
      const holds = lead ? `, if ${name(lead)} stays at ${shareWords(lead, v.n, unresolved)} instead of ${formatProbability(lead.expected)}` : '';
      return `INCONCLUSIVE: ${more} to show the die unfair${holds} (${v.why}).`;
    }
    case 'RIG_SUSPECT': {
      if (v.campaign !== undefined) return campaignSuspectSentence(v.campaign);
      const checks = v.failedChecks.map((c) => `${c.detail} (p = ${formatLogScientific(c.logP)})`).join('; ');
      return `RIG_SUSPECT: the rig may not be tumbling the dice independently: ${checks}; per-die verdicts are withheld.`;
    }
  }
}

/**
 * A campaign's RIG_SUSPECT for a session on a rig it found biased, worded as `campaign report` words the session's
 * legs, with where to read the finding: every reader of the session (analyze, pool, report, the fleet page) says it so.
 */
export function campaignSuspectSentence(c: { readonly name: string; readonly rig: string; readonly reason: string }): string {
  return `RIG_SUSPECT: ${c.reason}; no per-die verdict from this rig's sessions. This session ran on rig ${c.rig} of campaign ${c.name}: dicerig campaign report ${shellWord(c.name)} gives the finding and each die's verdict on the trusted rigs.`;
}

/** A count to two significant figures (ceiling below 100), as verdict sentences give rolls still needed. */
export function roundToTwoFigures(n: number): number {
  if (n < 100) return Math.ceil(n);
  const scale = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / scale) * scale;
}
