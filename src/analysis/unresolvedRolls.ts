/**
 * A fixed-sample verdict on a die that holds whatever its unresolved rolls were (a stored session's, or an export's
 * rows marked `unresolved`). Those rolls (the reader declined them, or found no die, and nobody labelled them) have
 * no face among the die's read rolls, and a reader's declines
 * can depend on the face: the read rolls of a fair die whose 6 is a logo the reader cannot read hold almost no 6s,
 * and a test on them alone calls it UNFAIR. So for such a die:
 * - UNFAIR stands only when some face's simultaneous interval, widened over every face the unresolved rolls could
 *   have, leaves out its odds at the die's share of the error rate (alpha over the tests of the family: Bonferroni,
 *   never more than Holm allows);
 * - FAIR_WITHIN stands only when those widened intervals (at the die's certifying level) lie inside expected ± delta;
 * - otherwise it is INCONCLUSIVE, saying that reviewing the unresolved rolls (`dicerig review`) can settle it, with
 *   the rolls each verdict would take were the read rolls' shares and the unresolved share to hold.
 */
import { formatCount } from '../core/format.js';
import { largestDeviationBound, unfairWhateverUnresolved, widenedGoodmanIntervals } from '../stats/intervals.js';
import { firstTotal } from '../stats/sequential.js';
import { describeVerdict, type FaceEstimate, type InconclusiveVerdict, type Verdict } from '../stats/verdict.js';
import type { DieAnalysis } from './analyze.js';
import { estimates } from './fixedSampleVerdict.js';
import type { LevelAnalysis } from './levelAnalysis.js';

export interface UnresolvedSettings {
  readonly alpha: number;
  /** The level each die's intervals and FAIR_WITHIN are at (alpha over the dice analysed: `Analysis.certifyAlpha`). */
  readonly certifyAlpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family (one per die and level). */
  readonly family: number;
}

/** `d` with its verdict made to hold whatever its `unresolved` rolls were (unchanged when there are none). */
export function holdWhateverUnresolved(d: DieAnalysis, unresolved: number, s: UnresolvedSettings): DieAnalysis {
  if (unresolved <= 0 || d.verdict.kind === 'RIG_SUSPECT') return d;
  const levels = d.face ? [d.symbol, d.face] : [d.symbol];
  const rolls = `${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll' : 'rolls'}`;
  let why: string;
  if (d.verdict.kind === 'INCONCLUSIVE') {
    // Its projection must count them too: read rolls alone would promise a verdict the unresolved share can keep away.
    why = `${d.verdict.why}; its ${rolls} count as the least favourable faces`;
  } else if (d.verdict.kind === 'UNFAIR') {
    if (levels.some((l) => unfairWhateverUnresolved(l.counts, l.expected, unresolved, s.alpha / s.family))) return d;
    why = `its read rolls alone look unfair, but its ${rolls} (no face read) could be the faces they lack: review them (dicerig review)`;
  } else {
    const bound = Math.max(...levels.map((l) => largestDeviationBound(l.expected, widenedGoodmanIntervals(l.counts, unresolved, s.certifyAlpha))));
    if (bound <= s.delta) return d;
    why = `its read rolls alone are within ±${s.delta}, but its ${rolls} (no face read) leave ±${bound.toFixed(3)}: review them (dicerig review)`;
  }
  const toCertify = projected(levels, unresolved, (l, counts, u) => largestDeviationBound(l.expected, widenedGoodmanIntervals(counts, u, s.certifyAlpha)) <= s.delta, 'all');
  const toReject = projected(levels, unresolved, (l, counts, u) => unfairWhateverUnresolved(counts, l.expected, u, s.alpha / s.family), 'any');
  const n = d.n + unresolved;
  const more = (total: number | null) => (total === null ? null : Math.max(1, Math.ceil(total - n)));
  const projection = { toCertify: more(toCertify), toReject: more(toReject), assumption: `the resolved proportions and the unresolved share (${rolls}) stay as they are` };
  const target = projection.toCertify !== null && (projection.toReject === null || projection.toCertify <= projection.toReject) ? 'FAIR_WITHIN' : projection.toReject !== null ? 'UNFAIR' : null;
  // "if F stays at": the face that would show it unfair, when that is the target; else the one furthest off.
  const leading = (target === 'UNFAIR' && toReject !== null ? rejectingFace(levels, unresolved, toReject, s.alpha / s.family) : undefined) ?? furthest(levels);
  const verdict: InconclusiveVerdict = {
    kind: 'INCONCLUSIVE',
    n: d.n,
    rollsNeeded: target === 'FAIR_WITHIN' ? projection.toCertify : target === 'UNFAIR' ? projection.toReject : null,
    target,
    why,
    delta: s.delta,
    projection,
    ...(leading !== undefined ? { leadingDeviation: leading } : {}),
  };
  return { ...d, verdict: verdict as Verdict, sentence: describeVerdict(verdict) };
}

/**
 * The total rolls (read and unresolved) at which `reached` holds on every level (`all`) or on some (`any`), were the
 * read rolls to keep their shares and the unresolved ones theirs; null when never (the unresolved share alone can
 * keep a face's bound wider than the margin, or the odds inside).
 */
function projected(
  levels: readonly LevelAnalysis[],
  unresolved: number,
  reached: (l: LevelAnalysis, counts: readonly number[], unresolved: number) => boolean,
  mode: 'all' | 'any',
): number | null {
  const totals = levels.map((l) => {
    const n = l.n + unresolved;
    if (l.n === 0) return null;
    return firstTotal(n, (total) => reached(l, l.counts.map((c) => (c / n) * total), (unresolved / n) * total));
  });
  if (mode === 'all') return totals.some((t) => t === null) ? null : Math.max(...(totals as number[]));
  const found = totals.filter((t) => t !== null);
  return found.length === 0 ? null : Math.min(...found);
}

/** At `total` rolls in the shares seen, the face whose widened interval leaves out its odds by the most, if any. */
function rejectingFace(levels: readonly LevelAnalysis[], unresolved: number, total: number, alpha: number): FaceEstimate | undefined {
  let best: { face: FaceEstimate; gap: number } | undefined;
  for (const l of levels) {
    const n = l.n + unresolved;
    const intervals = widenedGoodmanIntervals(l.counts.map((c) => (c / n) * total), (unresolved / n) * total, alpha);
    estimates(l).forEach((f, i) => {
      const iv = intervals[i] as { lower: number; upper: number };
      const gap = Math.max(iv.lower - f.expected, f.expected - iv.upper);
      if (gap > 0 && (best === undefined || gap > best.gap)) best = { face: f, gap };
    });
  }
  return best?.face;
}

/** The face furthest from its expected odds, over the levels (for "if 6 stays at 0.05 instead of 0.167"). */
function furthest(levels: readonly LevelAnalysis[]): FaceEstimate | undefined {
  let best: FaceEstimate | undefined;
  for (const l of levels) for (const f of estimates(l)) if (best === undefined || Math.abs(f.observed - f.expected) > Math.abs(best.observed - best.expected)) best = f;
  return best;
}
