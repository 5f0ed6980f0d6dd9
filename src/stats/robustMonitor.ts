/**
 * A die's sequential monitor whose verdict the reader cannot bias.
 *
 * Same e-value and confidence sequences as SequentialMonitor, with two more
 * kinds of input:
 * - an UNRESOLVED roll (the reader declined it; `observeUnresolved()`), kept in
 *   its place in the sequence instead of being re-tumbled away, and later its
 *   face from a person (`review(position, face)`);
 * - a calibration's per-face misread rates (upper confidence bounds).
 *
 * Until every roll is resolved, the verdict holds for every possible
 * assignment of the unresolved rolls to faces (and every misread pattern
 * within the rates):
 * - UNFAIR when the LEAST favourable e-value (leastFavourable.ts: the exact
 *   minimum over assignments; with misreads a lower bound) reaches 1/alpha.
 *   It is below the e-value of the true sequence at every roll, so P(UNFAIR |
 *   fair die) ≤ alpha by Ville's inequality, however the reader's declines
 *   depend on the face and whenever the reviews arrive.
 * - FAIR_WITHIN(delta) when every face's interval, widened over every count the
 *   unresolved rolls allow (robustIntervals.ts), lies inside expected ± delta.
 * - INCONCLUSIVE otherwise, with reason 'unresolved reads' and how many rolls to
 *   review when reviewing them (if they came out like the resolved ones) would
 *   decide the die, or when their share alone puts both verdicts out of reach
 *   (review them all): the unresolved share was too large for a verdict.
 *
 * The anytime-valid p-value is 1 / the running maximum of the least favourable
 * e-value (valid at any stopping time, unlike a fixed-n p-value computed where
 * the monitor stopped).
 *
 * UNFAIR and FAIR_WITHIN are final. A budget-INCONCLUSIVE stops the rolling,
 * but a later review can still turn it into UNFAIR or FAIR_WITHIN: both rules
 * stay valid at any time, including after the last roll.
 */
import { InputError } from '../core/errors.js';
import type { ProbabilityInterval } from './confidenceSequence.js';
import { leastFavourableEvidence, mostFavourableLogE, type DirichletMixture, type PartialCounts, type RobustEvidence } from './leastFavourable.js';
import { faceEstimates, fairWithinVerdict, inconclusiveVerdict, unfairVerdict } from './monitorVerdicts.js';
import { robustFaceIntervals, robustInsideMargin, type RobustIntervalOptions } from './robustIntervals.js';
import { confidenceSequenceMethod, dirichletMethod, firstTotal, monitorSettings, type MonitorDecision, type SequentialOptions } from './sequential.js';
import { validateCounts } from './validate.js';
import { formatCount, formatCountOf } from '../core/format.js';
import type { FaceEstimate, RollProjection } from './verdict.js';

/** A face is taken for unreadable once a fair die would have shown it in the rolls read with odds of a million to one. */
const UNREAD_LOG_ODDS = Math.log(1e6);

export interface RobustMonitorOptions extends SequentialOptions {
  /**
   * Per-face upper confidence bound on the misread rate: the probability that a
   * roll of face i is read as another face (misreadRate.ts makes them from a
   * calibration's confusion matrix). Default: no misreads.
   */
  readonly misreadRates?: readonly number[];
  /** What its sentences call each face where that differs from its label (a D3's face "6" is "face 6 (reads 3)"). */
  readonly names?: readonly string[];
}

/**
 * Why the verdict is what it is:
 * - 'evidence': UNFAIR, the least favourable e-value reached the threshold;
 * - 'within margin': FAIR_WITHIN, every robust interval inside expected ± delta;
 * - 'collecting': undecided, more rolls needed;
 * - 'budget spent': the roll budget ran out undecided;
 * - 'unresolved reads': undecided because of the unresolved rolls: reviewing
 *   them could decide the die (see `readsToReview`).
 */
export type MonitorReason = 'evidence' | 'within margin' | 'collecting' | 'budget spent' | 'unresolved reads';

export interface RobustMonitorState {
  /** Rolls in the sequence: resolved + reviewed + unresolved. */
  readonly n: number;
  /** Rolls the reader read. */
  readonly resolved: number;
  /** Rolls the reader declined and a person labelled since. */
  readonly reviewed: number;
  /** Rolls the reader declined that nobody has labelled yet. */
  readonly unresolved: number;
  /** Of them, those a person looked at and could not tell (no longer waiting for a review). */
  readonly cannotTell: number;
  /** Counts per face of the resolved and reviewed rolls. */
  readonly counts: number[];
  /** Natural log of the least favourable e-value now (exact minimum over assignments without misreads; a lower bound with them). */
  readonly logE: number;
  readonly eValue: number;
  /** Running maximum of logE since the first roll (at least 0). */
  readonly maxLogE: number;
  /** Anytime-valid p-value: min(1, 1 / running max of the e-value). */
  readonly anytimeP: number;
  readonly logAnytimeP: number;
  /** The largest log e-value any assignment of the unresolved rolls could give (ignoring misreads). */
  readonly mostFavourableLogE: number;
  /** log(1/alpha): the least favourable e-value must reach it for UNFAIR. */
  readonly logThreshold: number;
  readonly decision: MonitorDecision;
  readonly decided: boolean;
  readonly decidedAt: number | null;
  readonly reason: MonitorReason;
  /** Unresolved rolls to review that would decide the die if they came out like the resolved ones (null when reviewing would not decide it). */
  readonly readsToReview: number | null;
  /** Each face's robust simultaneous anytime-valid interval now. */
  readonly confidenceSequence: ProbabilityInterval[];
}

/** Sequential fairness monitor for one die that keeps declined rolls as unresolved and decides only what every assignment of them supports. */
export class RobustMonitor {
  readonly k: number;
  readonly alpha: number;
  readonly delta: number;
  readonly maxRolls: number;
  readonly priorConcentration: number;
  readonly misreadRates: readonly number[] | null;
  readonly expected: readonly number[];
  private readonly labels: readonly string[];
  /** What sentences call each face (its label unless `names` said otherwise). */
  private readonly names: readonly string[];
  private readonly mixture: DirichletMixture;
  private readonly intervalOptions: RobustIntervalOptions;
  private readonly logThreshold: number;
  private readonly counts: Float64Array;
  /** Per face, the rolls the reader itself read (`counts` less the reviewed ones): what tells a face it cannot read. */
  private readonly readCounts: Float64Array;
  private readonly open = new Set<number>();
  /** Of the open positions, those a person looked at and could not tell: unresolved for good, no longer to review. */
  private readonly untellable = new Set<number>();
  /** The face a person gave each reviewed position (what a correction takes back out of `counts`). */
  private readonly reviewedFaces = new Map<number, number>();
  private n = 0;
  private resolvedCount = 0;
  private reviewedCount = 0;
  private maxLogE = 0;
  /** The least favourable evidence now, or null when it must be recomputed. */
  private evidence: RobustEvidence | null = null;
  /** A completion of the unresolved rolls that is still possible and its log e-value (an upper bound on the least favourable one), or null after a review or batch. */
  private completion: { logE: number; counts: Float64Array } | null = null;
  private decision: MonitorDecision | null = null;
  private decidedAtRoll: number | null = null;
  private budgetSpent = false;
  private pending: { readonly key: string; readonly verdict: MonitorDecision; readonly reason: MonitorReason; readonly readsToReview: number | null } | null = null;

  /** Throws `InputError` for invalid odds, labels or misread rates, `RangeError` for invalid options. */
  constructor(expected: readonly number[], options: RobustMonitorOptions = {}) {
    const settings = monitorSettings(expected, options);
    this.k = expected.length;
    this.expected = [...expected];
    this.alpha = settings.alpha;
    this.delta = settings.delta;
    this.maxRolls = settings.maxRolls;
    this.priorConcentration = settings.priorConcentration;
    this.labels = settings.labels;
    if (options.names !== undefined && options.names.length !== this.k) throw new InputError(`There are ${options.names.length} names for ${this.k} faces; give one name per face.`);
    this.names = options.names ?? settings.labels;
    const rates = options.misreadRates;
    if (rates !== undefined) {
      if (rates.length !== this.k) throw new InputError(`There are ${rates.length} misread rates for ${this.k} faces; give one rate per face.`);
      rates.forEach((r, i) => {
        if (!(r >= 0 && r < 0.5)) throw new InputError(`The misread rate of ${this.labels[i]} is ${r}; it must be at least 0 and below 0.5.`);
      });
    }
    this.misreadRates = rates && rates.some((r) => r > 0) ? [...rates] : null;
    this.mixture = { expected: this.expected, priorConcentration: this.priorConcentration };
    this.intervalOptions = { alpha: this.alpha, ...(options.csConcentration !== undefined ? { concentration: options.csConcentration } : {}), ...(this.misreadRates ? { misreadRates: this.misreadRates } : {}) };
    this.logThreshold = -Math.log(this.alpha);
    this.counts = new Float64Array(this.k);
    this.readCounts = new Float64Array(this.k);
  }

  /** Rolls in the sequence so far, unresolved ones included. */
  get rolls(): number {
    return this.n;
  }

  /** Unresolved rolls not reviewed yet. */
  get unresolved(): number {
    return this.open.size;
  }

  /** Natural log of the least favourable e-value now (state().logE, without the projections). */
  get logE(): number {
    return this.current().logE;
  }

  /** True once UNFAIR, FAIR_WITHIN or the budget has been reached: the die needs no more rolls. */
  get decided(): boolean {
    return this.decision !== null || this.budgetSpent;
  }

  /** Adds a roll the reader read as face `faceIndex`; returns its position in the sequence (0-based). */
  observe(faceIndex: number): number {
    this.checkFace(faceIndex);
    this.counts[faceIndex] = (this.counts[faceIndex] as number) + 1;
    this.readCounts[faceIndex] = (this.readCounts[faceIndex] as number) + 1;
    this.resolvedCount += 1;
    return this.advance(faceIndex);
  }

  /** Adds a roll the reader declined, in its place in the sequence; returns its position, for `review`. */
  observeUnresolved(): number {
    const position = this.n;
    this.open.add(position);
    this.advance('unresolved');
    return position;
  }

  /**
   * Adds a batch: `counts` read rolls per face and `unresolved` declined ones
   * (placed after the batch's read rolls; their positions are returned, for
   * `review`). The statistics depend on the counts only, so this equals
   * observing the rolls one by one, except that the decision is checked once,
   * at the end of the batch (fewer looks: still valid).
   */
  observeCounts(counts: readonly number[], unresolved = 0): number[] {
    if (counts.length !== this.k) throw new InputError(`There are ${counts.length} counts for ${this.k} faces; give one count per face.`);
    const added = validateCounts(counts);
    if (!(Number.isInteger(unresolved) && unresolved >= 0)) throw new InputError(`${unresolved} unresolved rolls is not a count.`);
    counts.forEach((c, i) => {
      this.counts[i] = (this.counts[i] as number) + c;
      this.readCounts[i] = (this.readCounts[i] as number) + c;
    });
    this.resolvedCount += added;
    this.n += added;
    const positions: number[] = [];
    for (let j = 0; j < unresolved; j++) {
      positions.push(this.n);
      this.open.add(this.n);
      this.n += 1;
    }
    this.refresh();
    return positions;
  }

  /** Whether the roll at `position` is unresolved and not reviewed yet, nor said untellable (so `review` takes it). */
  isOpen(position: number): boolean {
    return this.open.has(position) && !this.untellable.has(position);
  }

  /**
   * Records that a person looked at the unresolved roll at `position` and could not tell its face. The roll stays
   * unresolved (the evidence and every verdict are as before: they hold whatever it was); what changes is the advice,
   * which no longer counts on a review of it to decide the die.
   * Throws `InputError` for a position that is not an unresolved roll still open to review.
   */
  cannotTell(position: number): void {
    if (!this.isOpen(position)) throw new InputError(`Roll ${position} is not an unresolved roll still open to review.`);
    this.untellable.add(position);
  }

  /**
   * Records the face a person gave the unresolved roll at `position`. The roll
   * counts from now on; a final verdict stays, a budget-INCONCLUSIVE may become final.
   * Throws `InputError` for a position that is not an unresolved roll (never was, or already reviewed) or a bad face.
   */
  review(position: number, faceIndex: number): void {
    if (!this.isOpen(position)) {
      const why = Number.isInteger(position) && position >= 0 && position < this.n ? 'is not an unresolved roll (read by the reader, or already reviewed or said untellable)' : `is not in the sequence (0..${this.n - 1})`;
      throw new InputError(`Roll ${position} ${why}.`);
    }
    this.checkFace(faceIndex);
    this.open.delete(position);
    this.reviewedFaces.set(position, faceIndex);
    this.counts[faceIndex] = (this.counts[faceIndex] as number) + 1;
    this.reviewedCount += 1;
    this.evidence = null;
    this.completion = null;
    this.noteEvidence();
    if (this.decision === null) this.decide();
  }

  /** Whether a person answered the roll at `position` (gave it a face, or said they could not tell): `correct` takes it. */
  isAnswered(position: number): boolean {
    return this.reviewedFaces.has(position) || this.untellable.has(position);
  }

  /**
   * Records a person's correction of their answer for the roll at `position`: the right face, or null when they cannot
   * tell it after all (the roll is unresolved again, for good). Taken in now, as a review is: the roll counts with the
   * corrected face from here on. What the wrong answer did before stays: the running maximum of the e-value and a
   * final verdict reached meanwhile are not taken back (as with a misread nobody saw; the README says so).
   * Throws `InputError` for a position nobody answered or a bad face.
   */
  correct(position: number, faceIndex: number | null): void {
    if (!this.isAnswered(position)) throw new InputError(`Roll ${position} has no answer to correct.`);
    if (faceIndex !== null) this.checkFace(faceIndex);
    const was = this.reviewedFaces.get(position);
    if (was !== undefined) {
      this.counts[was] = (this.counts[was] as number) - 1;
      this.reviewedCount -= 1;
      this.reviewedFaces.delete(position);
      this.open.add(position);
    }
    this.untellable.delete(position);
    if (faceIndex !== null) {
      this.review(position, faceIndex);
      return;
    }
    this.untellable.add(position);
    this.evidence = null;
    this.completion = null;
    this.noteEvidence();
    if (this.decision === null) this.decide();
  }

  /** The decision if made, otherwise INCONCLUSIVE with its reason and the rolls still needed. */
  verdict(): MonitorDecision {
    return this.decision ?? this.undecided().verdict;
  }

  /** A snapshot of everything a DieVerdict needs. */
  state(): RobustMonitorState {
    const evidence = this.current();
    const undecided = this.decision ? null : this.undecided();
    const reason: MonitorReason = this.decision ? (this.decision.kind === 'UNFAIR' ? 'evidence' : 'within margin') : (undecided?.reason ?? 'collecting');
    const partial = this.partial();
    return {
      n: this.n,
      resolved: this.resolvedCount,
      reviewed: this.reviewedCount,
      unresolved: this.open.size,
      cannotTell: this.untellable.size,
      counts: Array.from(this.counts),
      logE: evidence.logE,
      eValue: Math.exp(evidence.logE),
      maxLogE: this.maxLogE,
      anytimeP: Math.exp(-this.maxLogE),
      logAnytimeP: -this.maxLogE,
      mostFavourableLogE: mostFavourableLogE(partial, this.mixture),
      logThreshold: this.logThreshold,
      decision: this.verdict(),
      decided: this.decided,
      decidedAt: this.decidedAtRoll,
      reason,
      readsToReview: undecided?.readsToReview ?? null,
      confidenceSequence: robustFaceIntervals(partial, this.expected, this.intervalOptions),
    };
  }

  private checkFace(faceIndex: number): void {
    if (!(Number.isInteger(faceIndex) && faceIndex >= 0 && faceIndex < this.k)) {
      throw new InputError(`Face index ${faceIndex} is not a face of this die (0..${this.k - 1}).`);
    }
  }

  private advance(added: number | 'unresolved'): number {
    const position = this.n;
    this.n += 1;
    this.refresh(added);
    return position;
  }

  /** After new rolls (one roll `added`, or a batch or review when undefined): tracks the evidence and decides if undecided and rolling. */
  private refresh(added?: number | 'unresolved'): void {
    this.evidence = null;
    if (added === undefined) this.completion = null;
    this.noteEvidence(added);
    if (this.decision === null && !this.budgetSpent) this.decide();
  }

  private partial(): PartialCounts {
    return { counts: this.counts, unresolved: this.open.size };
  }

  private current(): RobustEvidence {
    this.evidence ??= leastFavourableEvidence(this.partial(), this.mixture, this.misreadRates ?? undefined);
    return this.evidence;
  }

  /**
   * Keeps the running maximum. The exact bound costs an allocation (k + 1 of
   * them with misreads), so after each roll we first update, in O(1), the e-value
   * of one completion that is still possible (the last least favourable one with
   * the new roll added: for an unresolved roll, on the face the greedy takes next).
   * It is at least the least favourable e-value, so when it can neither raise the
   * maximum nor reach the threshold, the exact value is left to be computed when asked.
   */
  private noteEvidence(added?: number | 'unresolved'): void {
    const slack = 1e-9;
    if (added !== undefined && this.completion) {
      const c = this.completion;
      let face = typeof added === 'number' ? added : 0;
      if (added === 'unresolved') {
        for (let i = 1; i < this.k; i++) if (this.nextValue(i) < this.nextValue(face)) face = i;
      }
      const p0 = this.expected[face] as number;
      c.logE += Math.log((this.priorConcentration * p0 + (c.counts[face] as number)) / ((this.priorConcentration + this.n - 1) * p0));
      c.counts[face] = (c.counts[face] as number) + 1;
      if (c.logE < this.maxLogE - slack && c.logE < this.logThreshold - slack) return;
    }
    const withoutMisreads = leastFavourableEvidence(this.partial(), this.mixture);
    this.completion = { logE: withoutMisreads.logE, counts: Float64Array.from(withoutMisreads.counts) };
    if (this.misreadRates && withoutMisreads.logE <= this.maxLogE && withoutMisreads.logE < this.logThreshold) return;
    if (!this.misreadRates) this.evidence = withoutMisreads;
    this.maxLogE = Math.max(this.maxLogE, this.current().logE);
  }

  /** (a_i + x_i)/p0_i of the tracked completion: the cost of one more roll on face i. */
  private nextValue(i: number): number {
    const p0 = this.expected[i] as number;
    return (this.priorConcentration * p0 + ((this.completion as { counts: Float64Array }).counts[i] as number)) / p0;
  }

  private decide(): void {
    // UNFAIR first: if both rules fire on the same roll, the exact-odds hypothesis is rejected.
    // maxLogE is the cheap gate: while it is below the threshold, so is the current bound.
    if (this.maxLogE >= this.logThreshold && this.current().logE >= this.logThreshold) this.settle(this.unfair());
    else if (robustInsideMargin(this.partial(), this.expected, this.intervalOptions, this.delta)) this.settle(this.fairWithin());
    else if (this.n >= this.maxRolls && !this.budgetSpent) {
      this.budgetSpent = true;
      this.decidedAtRoll = this.n;
    }
  }

  private settle(decision: MonitorDecision): void {
    this.decision = decision;
    this.decidedAtRoll = this.n;
    this.pending = null;
  }

  private known(): number {
    return this.resolvedCount + this.reviewedCount;
  }

  private faces(): FaceEstimate[] {
    return faceEstimates(this.labels, this.expected, this.counts, this.known(), robustFaceIntervals(this.partial(), this.expected, this.intervalOptions));
  }

  private intervalMethod(): string {
    const misreads = this.misreadRates ? ' and misread rates' : '';
    return `${confidenceSequenceMethod(this.k, this.alpha)}, widened over every assignment of the unresolved rolls${misreads}`;
  }

  private unfair() {
    const evidence = this.current();
    const completion = evidence.counts.map((c) => c / this.n);
    const bound = this.misreadRates ? 'lower bound over every assignment of the unresolved rolls and misreads within the calibration rates' : 'minimum over every assignment of the unresolved rolls';
    return unfairVerdict({
      n: this.n,
      logE: evidence.logE,
      method: `${dirichletMethod(this.priorConcentration)}, ${bound}`,
      faces: this.faces(),
      proportions: completion,
      intervalMethod: this.intervalMethod(),
    });
  }

  private fairWithin() {
    return fairWithinVerdict(this.n, this.delta, this.alpha, this.faces(), this.intervalMethod());
  }

  /** The undecided verdict, reason and reads to review, computed once per state (the projections cost a few ms). */
  private undecided(): { verdict: MonitorDecision; reason: MonitorReason; readsToReview: number | null } {
    const untold = this.untellable.size;
    const key = `${this.n}/${this.open.size}/${untold}/${this.budgetSpent}`;
    if (this.pending?.key === key) return this.pending;
    const projection = this.project(this.open.size / Math.max(1, this.n));
    // Reviewing can decide the die now; or the unresolved share alone puts every verdict out of reach. Only the rolls
    // nobody has said they cannot tell can be reviewed.
    const reviewable = this.open.size - untold;
    let readsToReview = this.readsThatWouldDecide(reviewable);
    if (readsToReview === null && reviewable > 0 && projection.toCertify === null && projection.toReject === null) {
      const reviewed = this.project(untold / Math.max(1, this.n));
      if (reviewed.toCertify !== null || reviewed.toReject !== null) readsToReview = reviewable;
    }
    const reason: MonitorReason = readsToReview !== null ? 'unresolved reads' : this.budgetSpent ? 'budget spent' : 'collecting';
    const parts = [this.budgetSpent ? `the budget of ${formatCountOf(this.maxRolls, 'roll')} is spent` : `undecided after ${formatCountOf(this.n, 'roll')}`];
    const reads = (m: number) => (m === 1 ? '1 unresolved read' : `${formatCount(m)} unresolved reads`);
    const open = reads(this.open.size);
    const nobody = `${untold === 1 ? '1' : formatCount(untold)} nobody could tell`;
    if (readsToReview !== null && untold > 0) {
      parts.push(`${reads(reviewable)} not yet reviewed could change the verdict: review ${reviewable === 1 ? 'it' : `at least ${formatCount(readsToReview)} of them`} (${nobody} ${untold === 1 ? 'stays' : 'stay'} unresolved)`);
    } else if (readsToReview !== null) parts.push(`${open} could change the verdict: review ${this.open.size === 1 ? 'it' : `at least ${formatCount(readsToReview)} of them`}`);
    else if (this.open.size > 0) parts.push(`${open} counted as the least favourable ${this.open.size === 1 ? 'face' : 'faces'}${untold > 0 ? ` (${nobody})` : ''}`);
    const unread = this.unreadableFace();
    // Its rolls stay unresolved until a person labels them: said only while some still are.
    if (unread !== undefined) parts.push(`${unread.sentence}${this.open.size === 0 ? '' : this.reviewedCount > 0 ? ', so the ones not labelled are left unresolved' : ', so every one is left unresolved'}`);
    // An unreadable face's 0 is not an observation of the die: the deviation a projection names is another face's, as
    // a share of all rolls (its unresolved rolls are, nearly all, that face's, so the read shares are all inflated).
    const faces = this.known() > 0 ? this.faces() : [];
    const named = unread === undefined ? faces : faces.filter((_, i) => i !== unread.index).map((f) => ({ ...f, observed: f.count / this.n }));
    const verdict = inconclusiveVerdict(this.n, parts.join('; '), this.delta, projection, named, this.open.size);
    this.pending = { key, verdict, reason, readsToReview };
    return this.pending;
  }

  /**
   * A face never read in so many rolls that a fair die would have shown it with all but certainty (`UNREAD_LOG_ODDS`),
   * while at least half its share of the rolls ended unresolved: the reader cannot read that face (a logo in place of
   * its pips), and rolls spent on the die stay unresolved. Undefined when there is none.
   */
  unreadableFace(): { readonly index: number; readonly label: string; readonly sentence: string } | undefined {
    // The reader's own reads and declines: a person's labels of that face show the die has it, not that the reader can read it.
    const read = this.resolvedCount;
    const declined = this.open.size + this.reviewedCount;
    for (let i = 0; i < this.k; i++) {
      const p = this.expected[i] as number;
      if ((this.readCounts[i] as number) > 0 || !(p > 0 && p < 1)) continue;
      const share = Math.round(this.n * p);
      if (-read * Math.log1p(-p) < UNREAD_LOG_ODDS || declined < share / 2) continue;
      const label = this.labels[i] as string;
      const name = this.names[i] as string;
      // Rolls a person has labelled since are not unresolved any more: said as what happened to them.
      const reviewed = this.reviewedCount;
      const fate = reviewed === 0 ? 'ended unresolved' : reviewed === declined ? 'were declined, all labelled by a person since' : `were declined, ${formatCount(reviewed)} of them labelled by a person since`;
      const sentence =
        `no ${name} was read in ${formatCount(read)} rolls (a fair die would have shown ${name} about ${formatCount(share)} times), while ${formatCount(declined)} ${fate}: ` +
        `the reader likely cannot read this die's ${name}`;
      return { index: i, label, sentence };
    }
    return undefined;
  }

  /** Rules on hypothetical counts: does the die reject, or certify? */
  private decidesAt(partial: PartialCounts): boolean {
    if (leastFavourableEvidence(partial, this.mixture, this.misreadRates ?? undefined).logE >= this.logThreshold) return true;
    return robustInsideMargin(partial, this.expected, this.intervalOptions, this.delta);
  }

  /**
   * The fewest unresolved rolls whose review would decide the die, if the reviewed
   * rolls split like the resolved ones; null when even reviewing all `reviewable` ones
   * (those nobody has said they cannot tell) would not.
   */
  private readsThatWouldDecide(reviewable: number): number | null {
    const open = this.open.size;
    const known = this.known();
    if (reviewable === 0 || known === 0) return null;
    const withReviewed = (m: number): PartialCounts => ({ counts: Array.from(this.counts, (c) => c + (m * c) / known), unresolved: open - m });
    if (!this.decidesAt(withReviewed(reviewable))) return null;
    let lo = 0;
    let hi = reviewable;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.decidesAt(withReviewed(mid))) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /**
   * Rolls still needed, if the resolved proportions stay as they are and a
   * `share` of the rolls stays unresolved: the smallest total N at which N rolls
   * in those shares reject or certify, robustly. An unresolved share that the
   * least favourable assignment can hide the deviation behind (or that is wider
   * than the margin) makes a verdict unreachable (null).
   */
  private project(share: number): RollProjection {
    const known = this.known();
    if (known === 0) return { toCertify: null, toReject: null, assumption: 'no resolved rolls yet to project from' };
    const phat = Array.from(this.counts, (c) => c / known);
    const at = (total: number): PartialCounts => ({ counts: phat.map((p) => p * total * (1 - share)), unresolved: total * share });
    const rejects = (total: number): boolean => leastFavourableEvidence(at(total), this.mixture, this.misreadRates ?? undefined).logE >= this.logThreshold;
    // Whether certifying is worth projecting: every face's share could be within the margin whatever the unresolved
    // rolls are (the read shares alone put a face the reader declines out of it, aiming a fair die at UNFAIR).
    const open = this.n - known;
    const certifiable = Array.from(this.counts, (c, i) => {
      const p = this.expected[i] as number;
      return Math.max(0, c / this.n - p, p - (c + open) / this.n) < this.delta;
    }).every(Boolean);
    const certifies = (total: number): boolean => robustInsideMargin(at(total), this.expected, this.intervalOptions, this.delta);
    const toReject = firstTotal(this.n, rejects);
    const toCertify = certifiable ? firstTotal(this.n, certifies) : null;
    const assumption = share > 0 ? 'the resolved proportions and the unresolved share stay as they are' : 'the observed proportions stay as they are';
    return {
      toCertify: toCertify === null ? null : Math.max(1, toCertify - this.n),
      toReject: toReject === null ? null : Math.max(1, toReject - this.n),
      assumption,
    };
  }
}
