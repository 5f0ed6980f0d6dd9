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
import { chiSquareSf } from '../stats/special.js';
import { describeVerdict, deviationWhatever, holdsWhatever, type FaceEstimate, type FairWithinVerdict, type InconclusiveVerdict, type UnfairVerdict, type Verdict } from '../stats/verdict.js';
import type { DieAnalysis } from './analyze.js';
import { estimates } from './fixedSampleVerdict.js';
import type { LevelAnalysis } from './levelAnalysis.js';
import { widenedFigures, widenedUnfairP } from './widenedFigures.js';

export interface UnresolvedSettings {
  readonly alpha: number;
  /** The level each die's intervals and FAIR_WITHIN are at (alpha over the dice analysed: `Analysis.certifyAlpha`). */
  readonly certifyAlpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family (one per die and level). */
  readonly family: number;
}

/**
 * `d` with its verdict made to hold whatever its `unresolved` rolls were (unchanged when there are none). Its intervals
 * and game figures are shown widened over them, and a verdict that stands is stated from those widened figures: over
 * all its rolls, read and unresolved, saying it holds whatever they were.
 */
export function holdWhateverUnresolved(d: DieAnalysis, unresolved: number, s: UnresolvedSettings): DieAnalysis {
  if (unresolved <= 0) return d;
  // Its rig checks failed: no verdict to make, but its figures are still shown, holding whatever those rolls were.
  if (d.verdict.kind === 'RIG_SUSPECT') return widenedFigures(d, unresolved, s);
  const levels = d.face ? [d.symbol, d.face] : [d.symbol];
  const rolls = `${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll' : 'rolls'}`;
  const shown = widenedFigures(d, unresolved, s);
  let why: string;
  if (d.verdict.kind === 'INCONCLUSIVE') {
    // Its projection must count them too: read rolls alone would promise a verdict the unresolved share can keep away.
    why = `${d.verdict.why}; its ${rolls} count as the least favourable faces`;
  } else if (d.verdict.kind === 'UNFAIR') {
    const stands = unfairWhatever(shown, unresolved, s);
    if (stands !== undefined) return { ...shown, verdict: stands, sentence: describeVerdict(stands, holdsWhatever(unresolved), undefined, unresolved) };
    why = `its read rolls alone look unfair, but its ${rolls} (no face read) could be the faces they lack: review them (dicerig review)`;
  } else {
    const widened = shown.face ? [shown.symbol, shown.face] : [shown.symbol];
    const bounds = widened.map((l) => largestDeviationBound(l.expected, l.intervals));
    const bound = Math.max(...bounds);
    if (bound <= s.delta) {
      const verdict: FairWithinVerdict = {
        ...d.verdict,
        n: d.n + unresolved,
        alpha: s.certifyAlpha,
        certifiedDelta: bound,
        faces: estimates(widened[widened.length - 1] as LevelAnalysis),
        intervalMethod: `${d.verdict.intervalMethod}, widened over every face the ${rolls} could have been`,
      };
      return { ...shown, verdict, sentence: describeVerdict(verdict, holdsWhatever(unresolved), undefined, unresolved) };
    }
    why = `its read rolls alone are within ±${s.delta}, but its ${rolls} (no face read) leave ±${bound.toFixed(3)}: review them (dicerig review)`;
  }
  const toCertify = projected(levels, unresolved, (l, counts, u) => largestDeviationBound(l.expected, widenedGoodmanIntervals(counts, u, s.certifyAlpha)) <= s.delta, 'all');
  const toReject = projected(levels, unresolved, (l, counts, u) => unfairWhateverUnresolved(counts, l.expected, u, s.alpha / s.family), 'any');
  const n = d.n + unresolved;
  const more = (total: number | null) => (total === null ? null : Math.max(1, Math.ceil(total - n)));
  const projection = { toCertify: more(toCertify), toReject: more(toReject), assumption: `the resolved proportions and the unresolved share (${rolls}) stay as they are` };
  const target = projection.toCertify !== null && (projection.toReject === null || projection.toCertify <= projection.toReject) ? 'FAIR_WITHIN' : projection.toReject !== null ? 'UNFAIR' : null;
  // "if F stays at": the face that would show it unfair, when that is the target; else the one furthest off.
  const leading = (target === 'UNFAIR' && toReject !== null ? rejectingFace(levels, unresolved, toReject, s.alpha / s.family) : undefined) ?? furthest(levels, unresolved);
  const verdict: InconclusiveVerdict = {
    kind: 'INCONCLUSIVE',
    // All its rolls, as its sentence gives each face's share of them whatever the unresolved ones were.
    n,
    rollsNeeded: target === 'FAIR_WITHIN' ? projection.toCertify : target === 'UNFAIR' ? projection.toReject : null,
    target,
    why,
    delta: s.delta,
    projection,
    ...(leading !== undefined ? { leadingDeviation: leading } : {}),
  };
  return { ...shown, verdict: verdict as Verdict, sentence: describeVerdict(verdict, undefined, undefined, unresolved) };
}


/**
 * The UNFAIR verdict that holds whatever the unresolved rolls were, stated from the widened figures, or undefined when
 * it does not hold: its p is the widened rule's (the smallest over the levels, Bonferroni over the family), its faces'
 * intervals the widened ones, its drivers the faces whose widened interval leaves out their odds.
 */
function unfairWhatever(shown: DieAnalysis, unresolved: number, s: UnresolvedSettings): UnfairVerdict | undefined {
  const levels = shown.face ? [shown.symbol, shown.face] : [shown.symbol];
  const tested = levels.map((l) => ({ l, w: widenedUnfairP(l.counts, l.expected, unresolved) })).sort((a, b) => a.w.logP - b.w.logP);
  const best = tested[0];
  if (best === undefined || !levels.some((l) => unfairWhateverUnresolved(l.counts, l.expected, unresolved, s.alpha / s.family))) return undefined;
  const logP = Math.min(0, best.w.logP + Math.log(s.family));
  const faces = estimates(best.l);
  const byZ = [...faces].sort((x, y) => (best.w.z[y.index] as number) - (best.w.z[x.index] as number));
  // A driver is a face whose widened interval leaves out its odds at the rule's level (alpha over the family).
  const k = faces.length;
  const outside = byZ.filter((f) => {
    const z = best.w.z[f.index] as number;
    return z > 0 && Math.log(k) + chiSquareSf(z * z, 1).logP + Math.log(s.family) < Math.log(s.alpha);
  });
  const rolls = `${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll' : 'rolls'}`;
  const prior = shown.verdict.kind === 'UNFAIR' ? shown.verdict : undefined;
  return {
    kind: 'UNFAIR',
    n: shown.n + unresolved,
    evidence: {
      kind: 'p-value',
      p: Math.exp(logP),
      logP,
      method: `Goodman simultaneous intervals by ${best.l.level}, widened over every face the ${rolls} could have been, adjusted for ${s.family} test${s.family === 1 ? '' : 's'} (Bonferroni)`,
    },
    effectSize: prior?.effectSize ?? { measure: "Cohen's w", value: best.l.cohensW },
    drivers: outside.length > 0 ? outside : byZ.slice(0, 1),
    faces,
    intervalMethod: `Goodman simultaneous (Wilson score, Bonferroni over faces), widened over every face the ${rolls} could have been`,
  };
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

/**
 * The face furthest from its expected odds whatever the unresolved rolls were, over the levels (for "if 6 stays at
 * 0.05 to 0.12 instead of 0.167"); none when every face's range holds its odds.
 */
function furthest(levels: readonly LevelAnalysis[], unresolved: number): FaceEstimate | undefined {
  let best: { face: FaceEstimate; gap: number } | undefined;
  for (const l of levels) {
    for (const f of estimates(l)) {
      const gap = deviationWhatever(f, l.n + unresolved, unresolved);
      if (gap > 0 && (best === undefined || gap > best.gap)) best = { face: f, gap };
    }
  }
  return best?.face;
}
