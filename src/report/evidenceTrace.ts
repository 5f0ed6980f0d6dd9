import { rollsInPlace } from '../analysis/rollsInPlace.js';
import { RobustMonitor } from '../stats/robustMonitor.js';
import { SequentialMonitor } from '../stats/sequential.js';
import type { MonitorDecision } from '../stats/sequential.js';

/** The anytime-valid evidence against fairness as a die's rolls accumulated. */
export interface EvidenceTrace {
  /** Roll counts at which the e-value was read (0 first, the last roll last, the decision roll included). */
  readonly rolls: readonly number[];
  /** Natural log of the e-value at each of `rolls`. */
  readonly logE: readonly number[];
  /** log(1/α′): crossing it is the UNFAIR decision (α′ = alpha / tests in the family). */
  readonly thresholdLogE: number;
  /** The per-die level the monitor decided at (alpha / family). */
  readonly monitorAlpha: number;
  readonly decision: MonitorDecision['kind'];
  readonly decidedAt: number | null;
  readonly finalLogE: number;
  /** Why there is no trace, when the die has a symbol that can never come up (the monitor needs every symbol possible). */
  readonly unavailable?: string;
  /**
   * `session`: the least favourable e-value the session's own monitor used (its read, unresolved and
   * reviewed rolls, its misread bounds, its threshold K/α); absent: the read rolls replayed by the analysis.
   */
  readonly source?: 'session';
  /** The unresolved rolls the replay kept in their places, least favourable over every face they could have been (absent: none). */
  readonly unresolved?: number;
}

export interface EvidenceTraceOptions {
  readonly alpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family: the monitor runs at alpha / family, as in `analyzeDice`. */
  readonly family: number;
  /** At most about this many points are kept (default 400): enough for a chart, small for the page. */
  readonly maxPoints?: number;
  /**
   * Where the die's unresolved rolls were: `unresolvedAt[j]` read rolls came before the j-th. Given, the replay keeps
   * them in their places and reads the least favourable e-value (as analyze's anytime figure and a session's monitor).
   */
  readonly unresolvedAt?: readonly number[];
}

/**
 * Replays a die's symbol rolls through the same sequential monitor the
 * analysis uses (Bonferroni over the family, so its final e-value equals the
 * analysis' anytime figure), reading the e-value every few rolls and at the
 * roll where it decided.
 */
export function evidenceTrace(symbols: ArrayLike<number>, expected: readonly number[], options: EvidenceTraceOptions): EvidenceTrace {
  const monitorAlpha = options.alpha / options.family;
  if (expected.length < 2 || !expected.every((p) => p > 0)) {
    // analyzeDice reports an e-value of 1 for such a die; say why rather than draw a flat line.
    return {
      rolls: [0],
      logE: [0],
      thresholdLogE: -Math.log(monitorAlpha),
      monitorAlpha,
      decision: 'INCONCLUSIVE',
      decidedAt: null,
      finalLogE: 0,
      unavailable: 'the anytime test needs at least two symbols, each with a chance to come up',
    };
  }
  const at = options.unresolvedAt ?? [];
  // With unresolved rolls the read rolls alone would say more than holds whatever those were.
  const monitor = at.length > 0 ? new RobustMonitor(expected, { alpha: monitorAlpha, delta: options.delta }) : new SequentialMonitor(expected, { alpha: monitorAlpha, delta: options.delta });
  const n = symbols.length + at.length;
  const step = Math.max(1, Math.ceil(n / (options.maxPoints ?? 400)));
  const rolls: number[] = [0];
  const logE: number[] = [0];
  let wasDecided = false;
  let seen = 0;
  for (const roll of rollsInPlace(symbols, at)) {
    // Only the robust monitor is given unresolved rolls: `at` is empty otherwise.
    if (roll === undefined) (monitor as RobustMonitor).observeUnresolved();
    else monitor.observe(roll);
    seen++;
    const decidedNow: boolean = !wasDecided && monitor.decided;
    wasDecided ||= decidedNow;
    if (seen % step === 0 || seen === n || decidedNow) {
      rolls.push(seen);
      // state() also projects the rolls still needed (~65 µs), so it is read only at the kept points.
      logE.push(monitor.state().logE);
    }
  }
  const final = monitor.state();
  return {
    rolls,
    logE,
    thresholdLogE: -Math.log(monitorAlpha),
    monitorAlpha,
    decision: final.decision.kind,
    decidedAt: final.decidedAt,
    finalLogE: final.logE,
    ...(at.length > 0 ? { unresolved: at.length } : {}),
  };
}
