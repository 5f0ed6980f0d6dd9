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
}

export interface EvidenceTraceOptions {
  readonly alpha: number;
  readonly delta: number;
  /** Tests in the multiplicity family: the monitor runs at alpha / family, as in `analyzeDice`. */
  readonly family: number;
  /** At most about this many points are kept (default 400): enough for a chart, small for the page. */
  readonly maxPoints?: number;
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
  const monitor = new SequentialMonitor(expected, { alpha: monitorAlpha, delta: options.delta });
  const n = symbols.length;
  const step = Math.max(1, Math.ceil(n / (options.maxPoints ?? 400)));
  const rolls: number[] = [0];
  const logE: number[] = [0];
  let wasDecided = false;
  for (let i = 0; i < n; i++) {
    monitor.observe(symbols[i] as number);
    const seen = i + 1;
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
  };
}
