/**
 * The session monitor's two rules, for a plan's simulated die whose every roll is read (no unresolved rolls, no
 * misread bounds): the same decisions at the same roll as a `RobustMonitor` built by `sessionMonitor`, at a fraction
 * of the cost. planSimulation.ts runs hundreds of dice through thousands of checks each; the monitor allocates at
 * every check and computes each face's interval test afresh, which made a plan cost 1-2 s of CPU.
 *
 * How it stays the same to the bit (test/unit/stats/planSimulationGolden.test.ts compares it with the monitor's
 * figures on many seeds, dice and levels):
 * - the e-value is the monitor's expression (leastFavourable.ts with nothing unresolved), term by term in the same
 *   order, its lnΓ values read from tables of the same lnΓ at the same arguments; the running maximum is kept, and
 *   skipped on a read roll, as `RobustMonitor.noteEvidence` keeps and skips it;
 * - the margin rule (robustIntervals.ts, `robustInsideMargin`) excludes expected + δ at a face's count s of n rolls
 *   exactly when s is at most some sHi(n), and expected − δ exactly when s is at least some sLo(n) (the beta-mixture
 *   log-martingale falls as s nears n·q, by far more per count than its rounding where it crosses the threshold).
 *   Every simulated die is checked at the same roll counts (one roll at a time to 200, then batches of 1/200 of the
 *   rolls so far), so sHi and sLo are found once per count and face, with the monitor's own test, and shared by
 *   every die: a die's check is then 2k comparisons.
 */
import gammaln from '@stdlib/math-base-special-gammaln';
import { DEFAULT_CS_CONCENTRATION, mixtureLogMartingale } from './confidenceSequence.js';

/** lnΓ tables longer than this are not kept (2^20 doubles, 8 MB a face): past it lnΓ is computed as needed. */
const TABLE_LIMIT = 1 << 20;
/** A margin bound not found yet. */
const UNKNOWN = -0x80000000;

/** lnΓ(base + c) for integers c ≥ 0, computed once each (the same value as calling lnΓ there). */
class LogGammaTable {
  private values = new Float64Array(0);
  constructor(private readonly base: number) {}
  at(c: number): number {
    if (c >= this.values.length) {
      if (c >= TABLE_LIMIT) return gammaln(this.base + c);
      const grown = new Float64Array(Math.min(TABLE_LIMIT, Math.max(1024, 2 * c + 2))).fill(NaN);
      grown.set(this.values);
      this.values = grown;
    }
    let v = this.values[c] as number;
    if (Number.isNaN(v)) this.values[c] = v = gammaln(this.base + c);
    return v;
  }
}

/** The settings of a session's monitor the rules depend on (read off a `RobustMonitor`). */
export interface ReadDieSettings {
  readonly expected: readonly number[];
  /** The die's own level (the session's alpha over its dice). */
  readonly alpha: number;
  readonly delta: number;
  /** The Dirichlet mixture's prior concentration. */
  readonly priorConcentration: number;
  /** The beta mixtures' concentration (robustIntervals.ts). */
  readonly csConcentration?: number;
}

/**
 * Per roll count n, the counts at which each face's interval excludes expected ± δ: face i's upper end is inside at
 * counts s ≤ hi[i], its lower end at s ≥ lo[i]. Shared by every simulated die of one plan figure.
 */
class MarginBounds {
  private readonly k: number;
  private readonly threshold: number;
  private readonly a: Float64Array;
  private readonly b: Float64Array;
  private readonly qHi: Float64Array;
  private readonly qLo: Float64Array;
  private readonly byRolls = new Map<number, Int32Array>();
  /** Per bound, the last one found and its roll count, for the next roll count's search to start from (0 rolls: none yet). */
  private readonly last: Int32Array;
  private readonly lastRolls: Float64Array;
  /** lnΓ(a) + lnΓ(b) − lnΓ(a + b) per face: the constant of betaBinomialLogMarginal. */
  private readonly logBeta: Float64Array;

  constructor(private readonly expected: readonly number[], alpha: number, delta: number, concentration: number) {
    this.k = expected.length;
    this.threshold = Math.log(this.k / alpha);
    this.a = Float64Array.from(expected, (p) => concentration * p);
    this.b = Float64Array.from(expected, (p) => concentration * (1 - p));
    this.qHi = Float64Array.from(expected, (p) => p + delta);
    this.qLo = Float64Array.from(expected, (p) => p - delta);
    this.logBeta = this.a.map((a, i) => gammaln(a) + gammaln(this.b[i] as number) - gammaln(a + (this.b[i] as number)));
    this.last = new Int32Array(2 * this.k);
    this.lastRolls = new Float64Array(2 * this.k);
  }

  /** confidenceSequence.ts's betaBinomialLogMarginal(s, f, a_i, b_i), its constant computed once (the same value). */
  private logMarginal(i: number, s: number, f: number): number {
    const a = this.a[i] as number;
    const b = this.b[i] as number;
    return gammaln(a + s) + gammaln(b + f) - gammaln(a + b + s + f) - (this.logBeta[i] as number);
  }

  /** Face i's upper bound (`side` 0) or lower bound (1) at n rolls: found when a die first needs it (most dice fail on the first face looked at). */
  bound(n: number, i: number, side: 0 | 1): number {
    let bounds = this.byRolls.get(n);
    if (bounds === undefined) this.byRolls.set(n, (bounds = new Int32Array(2 * this.k).fill(UNKNOWN)));
    const slot = side * this.k + i;
    let b = bounds[slot] as number;
    if (b === UNKNOWN) {
      bounds[slot] = b = side === 0 ? this.upperBound(i, n) : this.lowerBound(i, n);
      this.last[slot] = b;
      this.lastRolls[slot] = n;
    }
    return b;
  }

  /** robustIntervals.ts's excludedAbove at s of n rolls for face i (its test, operation for operation). */
  private excludesAbove(i: number, s: number, n: number): boolean {
    const q = (this.qHi[i] as number) * (1 - 0);
    if (q >= 1) return true;
    if (!(s / n < q) || q <= 0) return false;
    return mixtureLogMartingale(q, s, n - s, this.logMarginal(i, s, n - s)) >= this.threshold;
  }

  /** robustIntervals.ts's excludedBelow at s of n rolls for face i. */
  private excludesBelow(i: number, s: number, n: number): boolean {
    const q = (this.qLo[i] as number) + 0;
    if (q <= 0) return true;
    if (!(s / n > q) || q >= 1) return false;
    return mixtureLogMartingale(q, s, n - s, this.logMarginal(i, s, n - s)) >= this.threshold;
  }

  /** The largest s in [−1, n] with excludesAbove true for every count up to it (−1: none). */
  private upperBound(i: number, n: number): number {
    if (!((this.qHi[i] as number) < 1)) return n; // the monitor skips the check: every count passes
    return lastTrue((s) => this.excludesAbove(i, s, n), -1, n, this.guess(i, n));
  }

  /** The smallest s in [0, n + 1] with excludesBelow true for every count from it on (n + 1: none). */
  private lowerBound(i: number, n: number): number {
    if (!((this.qLo[i] as number) > 0)) return 0;
    // Mirrored (s → −s), it is the last count of a run that holds.
    const guess = this.guess(this.k + i, n);
    return -lastTrue((m) => this.excludesBelow(i, -m, n), -(n + 1), 0, guess === null ? null : -guess);
  }

  /** Where the last roll count's bound was, scaled to n rolls: the search starts there. */
  private guess(slot: number, n: number): number | null {
    const was = this.lastRolls[slot] as number;
    return was > 0 ? Math.round(((this.last[slot] as number) * n) / was) : null;
  }
}

/**
 * The last m in [from, to] of a run where `holds` is true, for a `holds` true up to some m and false after it, taken
 * true at `from` without asking (the run may be empty). From a guess it gallops outwards (a step or two when the guess
 * is near), then bisects.
 */
function lastTrue(holds: (m: number) => boolean, from: number, to: number, guess: number | null): number {
  let lo = from; // holds (or is `from`)
  let hi = to + 1; // does not hold (or is past `to`)
  if (guess !== null) {
    const g = Math.min(to, Math.max(from + 1, guess));
    if (g > from && g <= to) {
      if (holds(g)) {
        lo = g;
        for (let step = 1; lo + step <= to; step *= 2) {
          if (!holds(lo + step)) {
            hi = lo + step;
            break;
          }
          lo += step;
        }
      } else {
        hi = g;
        for (let step = 1; hi - step > from; step *= 2) {
          if (holds(hi - step)) {
            lo = hi - step;
            break;
          }
          hi -= step;
        }
      }
    }
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** One simulated die under the session's rules: feed it rolls and batches, read whether and how it decided. */
export class ReadDieRules {
  readonly k: number;
  private readonly expected: Float64Array;
  private readonly A: number;
  private readonly logA: number;
  private readonly logThreshold: number;
  private readonly dirichlet: Float64Array;
  private readonly logGammaDirichlet: Float64Array;
  private readonly logWeights: Float64Array;
  private readonly faceTables: LogGammaTable[];
  private readonly totalTable: LogGammaTable;
  private readonly margin: MarginBounds;
  private readonly counts: Float64Array;
  private readonly completionCounts: Float64Array;
  private n = 0;
  private maxLogE = 0;
  // NaN for "none" rather than null: a field that only ever holds numbers keeps them unboxed (no allocation a roll).
  private completionLogE = NaN;
  private evidence = NaN;
  /** The decision, once made. */
  decision: 'UNFAIR' | 'FAIR_WITHIN' | null = null;

  /** Rules for a die with these settings; `reset()` starts a new die on the same tables. */
  constructor(settings: ReadDieSettings) {
    const expected = settings.expected;
    this.k = expected.length;
    this.expected = Float64Array.from(expected);
    this.A = settings.priorConcentration;
    this.logA = gammaln(this.A);
    this.logThreshold = -Math.log(settings.alpha);
    this.dirichlet = Float64Array.from(expected, (p) => this.A * p);
    this.logGammaDirichlet = this.dirichlet.map((a) => gammaln(a));
    this.logWeights = Float64Array.from(expected, (p) => Math.log(p));
    this.faceTables = Array.from(this.dirichlet, (a) => new LogGammaTable(a));
    this.totalTable = new LogGammaTable(this.A);
    this.margin = new MarginBounds(expected, settings.alpha, settings.delta, settings.csConcentration ?? DEFAULT_CS_CONCENTRATION);
    this.counts = new Float64Array(this.k);
    this.completionCounts = new Float64Array(this.k);
  }

  /** Rolls so far. */
  get rolls(): number {
    return this.n;
  }

  /** Makes this die a new one, keeping the tables. */
  reset(): void {
    this.counts.fill(0);
    this.completionCounts.fill(0);
    this.n = 0;
    this.maxLogE = 0;
    this.completionLogE = NaN;
    this.evidence = NaN;
    this.decision = null;
  }

  /** One roll, read as `face` (RobustMonitor.observe). */
  observe(face: number): void {
    this.counts[face] = (this.counts[face] as number) + 1;
    this.n += 1;
    this.evidence = NaN;
    this.noteEvidence(face);
    if (this.decision === null) this.decide();
  }

  /** A batch of read rolls (RobustMonitor.observeCounts with none unresolved). */
  observeCounts(counts: ArrayLike<number>): void {
    let added = 0;
    for (let i = 0; i < this.k; i++) {
      const c = counts[i] as number;
      this.counts[i] = (this.counts[i] as number) + c;
      added += c;
    }
    this.n += added;
    this.evidence = NaN;
    this.completionLogE = NaN;
    this.noteEvidence(-1);
    if (this.decision === null) this.decide();
  }

  /** log BF at the counts (leastFavourable.ts's logBayesFactorWithWeights with nothing unresolved). */
  private logE(): number {
    let n = 0;
    for (let i = 0; i < this.k; i++) n += this.counts[i] as number;
    let sum = this.logA - this.totalTable.at(n);
    for (let i = 0; i < this.k; i++) {
      const c = this.counts[i] as number;
      sum += (this.faceTables[i] as LogGammaTable).at(c) - (this.logGammaDirichlet[i] as number) - (c > 0 ? c * (this.logWeights[i] as number) : 0);
    }
    return sum;
  }

  /** RobustMonitor.noteEvidence without misreads: `face` is the roll just read, −1 after a batch. */
  private noteEvidence(face: number): void {
    const slack = 1e-9;
    if (face >= 0 && !Number.isNaN(this.completionLogE)) {
      const p0 = this.expected[face] as number;
      this.completionLogE += Math.log((this.A * p0 + (this.completionCounts[face] as number)) / ((this.A + this.n - 1) * p0));
      this.completionCounts[face] = (this.completionCounts[face] as number) + 1;
      if (this.completionLogE < this.maxLogE - slack && this.completionLogE < this.logThreshold - slack) return;
    }
    const logE = this.logE();
    this.completionLogE = logE;
    this.completionCounts.set(this.counts);
    this.evidence = logE;
    this.maxLogE = Math.max(this.maxLogE, logE);
  }

  /** RobustMonitor.decide: UNFAIR first, then the margin. */
  private decide(): void {
    if (this.maxLogE >= this.logThreshold && (Number.isNaN(this.evidence) ? (this.evidence = this.logE()) : this.evidence) >= this.logThreshold) this.decision = 'UNFAIR';
    else if (this.insideMargin()) this.decision = 'FAIR_WITHIN';
  }

  /** robustInsideMargin at the counts: every face's upper ends first, then the lower ends (the result is the same in any order). */
  private insideMargin(): boolean {
    if (this.n === 0) return false;
    const n = this.n;
    for (let i = 0; i < this.k; i++) if ((this.counts[i] as number) > this.margin.bound(n, i, 0)) return false;
    for (let i = 0; i < this.k; i++) if ((this.counts[i] as number) < this.margin.bound(n, i, 1)) return false;
    return true;
  }
}
