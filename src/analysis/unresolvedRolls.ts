/**
 * A fixed-sample verdict on a stored session's die that holds whatever its unresolved rolls were. Those rolls (the
 * reader declined them, or found no die, and nobody labelled them) are not in the die's log, and a reader's declines
 * can depend on the face: the read rolls of a fair die whose 6 is a logo the reader cannot read hold almost no 6s,
 * and a test on them alone calls it UNFAIR. So for such a die:
 * - UNFAIR stands only when some face's simultaneous interval, widened over every face the unresolved rolls could
 *   have, leaves out its odds at the die's share of the error rate (alpha over the tests of the family: Bonferroni,
 *   never more than Holm allows);
 * - FAIR_WITHIN stands only when those widened intervals lie inside expected ± delta;
 * - otherwise it is INCONCLUSIVE, saying that reviewing the unresolved rolls (`dicerig review`) can settle it.
 */
import { formatCount } from '../core/format.js';
import { largestDeviationBound, unfairWhateverUnresolved, widenedGoodmanIntervals } from '../stats/intervals.js';
import { describeVerdict, type InconclusiveVerdict, type Verdict } from '../stats/verdict.js';
import type { DieAnalysis } from './analyze.js';

export interface UnresolvedSettings {
  readonly alpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family (one per die and level). */
  readonly family: number;
}

/** `d` with its verdict made to hold whatever its `unresolved` rolls were (unchanged when there are none). */
export function holdWhateverUnresolved(d: DieAnalysis, unresolved: number, s: UnresolvedSettings): DieAnalysis {
  if (unresolved <= 0 || d.verdict.kind === 'RIG_SUSPECT' || d.verdict.kind === 'INCONCLUSIVE') return d;
  const levels = d.face ? [d.symbol, d.face] : [d.symbol];
  const rolls = `${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll' : 'rolls'}`;
  let why: string;
  if (d.verdict.kind === 'UNFAIR') {
    if (levels.some((l) => unfairWhateverUnresolved(l.counts, l.expected, unresolved, s.alpha / s.family))) return d;
    why = `its read rolls alone look unfair, but its ${rolls} (not in the log) could be the faces they lack: review them (dicerig review)`;
  } else {
    const bound = Math.max(...levels.map((l) => largestDeviationBound(l.expected, widenedGoodmanIntervals(l.counts, unresolved, s.alpha))));
    if (bound <= s.delta) return d;
    why = `its read rolls alone are within ±${s.delta}, but its ${rolls} (not in the log) leave ±${bound.toFixed(3)}: review them (dicerig review)`;
  }
  const verdict: InconclusiveVerdict = {
    kind: 'INCONCLUSIVE',
    n: d.n,
    rollsNeeded: null,
    target: null,
    why,
    delta: s.delta,
    projection: { toCertify: null, toReject: null, assumption: `whatever its ${rolls} were` },
  };
  return { ...d, verdict: verdict as Verdict, sentence: describeVerdict(verdict) };
}
