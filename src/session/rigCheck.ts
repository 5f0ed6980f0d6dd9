/**
 * Is the rig tumbling the dice independently? Judged once for the whole rig
 * from every die's counted rolls together: each die's serial checks
 * (repeat, same-or-opposite, transitions, runs; see stats/serial.ts) give raw
 * p-values, and Holm's step-down over all of them, across dice, controls the
 * chance of calling a good rig suspect at one look.
 *
 * The session looks again every N counted throws. Looking repeatedly at a
 * fixed level would raise the false-alarm rate with every look, so the
 * session's rig-check alpha is spent over the looks: look j is tested at
 * alpha · 6 / (π² j²), which sums to alpha over any number of looks (Bonferroni
 * over looks). Early looks keep most of the power (look 1 gets 61 % of alpha);
 * a rig bad enough to matter gives p-values far below any of these levels
 * within a few thousand throws (serial.ts: a 10 % sticky rig has z ≈ 7 at
 * 2,000 throws).
 */
import { holmAdjust } from '../stats/multiplicity.js';
import { serialChecks, type SerialCheckName } from '../stats/serial.js';
import type { FailedCheck, RigSuspectVerdict } from '../stats/verdict.js';

/** One die's counted sequence, as the rig checks need it. */
export interface RigCheckDie {
  readonly label: string;
  readonly sequence: readonly number[];
  readonly expected: readonly number[];
  readonly labels: readonly string[];
  readonly opposite?: readonly number[];
}

export interface RigCheckEntry {
  readonly die: string;
  readonly name: SerialCheckName;
  readonly p: number;
  readonly logP: number;
  /** Holm-adjusted across every check of every die at this look. */
  readonly adjustedP: number;
  readonly detail: string;
}

export interface RigCheckResult {
  /** 1 for the first look of the session, 2 for the second, ... */
  readonly look: number;
  /** The level this look is tested at (its share of the session's rig-check alpha). */
  readonly alpha: number;
  readonly suspect: boolean;
  /** Counted rolls the checks saw, over all dice. */
  readonly rolls: number;
  readonly checks: readonly RigCheckEntry[];
  /** RIG_SUSPECT with the failed checks, or null when the rig passed this look. */
  readonly verdict: RigSuspectVerdict | null;
}

/** The share of `totalAlpha` that look `look` (from 1) is tested at: total · 6 / (π² look²). */
export function lookAlpha(totalAlpha: number, look: number): number {
  if (!(Number.isInteger(look) && look >= 1)) throw new RangeError(`a rig-check look is numbered from 1, got ${look}`);
  return (totalAlpha * 6) / (Math.PI * Math.PI * look * look);
}

/** Runs the rig checks on every die's counted rolls at look `look`. */
export function checkRig(dice: readonly RigCheckDie[], look: number, totalAlpha: number): RigCheckResult {
  const alpha = lookAlpha(totalAlpha, look);
  const raw: Omit<RigCheckEntry, 'adjustedP'>[] = [];
  let rolls = 0;
  for (const d of dice) {
    rolls += d.sequence.length;
    const result = serialChecks(d.sequence, d.expected, { labels: d.labels, ...(d.opposite ? { opposite: d.opposite } : {}) });
    for (const c of result.checks) {
      if (c.skipped) continue;
      raw.push({ die: d.label, name: c.name, p: c.p, logP: c.logP, detail: c.detail });
    }
  }
  const adjusted = raw.length > 0 ? holmAdjust(raw.map((c) => c.p)) : [];
  const checks = raw.map((c, i) => ({ ...c, adjustedP: adjusted[i] as number }));
  const failed = checks.filter((c) => c.adjustedP <= alpha);
  const failedChecks: FailedCheck[] = failed.map((c) => ({ name: c.name, p: c.p, logP: c.logP, adjustedP: c.adjustedP, detail: `${c.die}: ${c.detail}` }));
  const verdict: RigSuspectVerdict | null = failed.length > 0 ? { kind: 'RIG_SUSPECT', n: rolls, alpha, failedChecks } : null;
  return { look, alpha, suspect: failed.length > 0, rolls, checks, verdict };
}
