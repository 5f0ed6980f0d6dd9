/**
 * One verdict per die, made once under ONE error control for the whole
 * session, and carried as a plain record (JSON-safe) that every consumer —
 * the session's summary, `report`, `pool`, `export` — shows as is, with the
 * threshold that was actually used.
 *
 * The error control, in one place ({@link sessionErrorControl}):
 *   alpha is the chance that ANY die of the session gets a wrong verdict
 *   (a fair die called UNFAIR, or a die more than delta off called
 *   FAIR_WITHIN). Each of the session's K dice is decided at alpha / K
 *   (Bonferroni): UNFAIR when its least favourable e-value reaches K / alpha,
 *   FAIR_WITHIN when its (1 − alpha/K) robust confidence sequences fit the margin.
 *
 * Why Bonferroni and not e-BH: each die's verdict is made by its own monitor,
 * at its own stopping time, and is final (the die then retires from the
 * session). e-BH decides all dice together from their e-values at one time,
 * and a die's rejection there can depend on the other dice's later evidence,
 * which does not fit final per-die decisions; it also bounds the false
 * discovery rate, not the chance of any false UNFAIR, and a tournament
 * organiser who drops a die wants the latter. Bonferroni on e-processes needs
 * no independence between dice (a union bound over Ville's inequality) and
 * costs little here: with K = 4 the threshold rises from 1/alpha to 4/alpha,
 * log 4 ≈ 1.4 more nats of evidence, a few percent more rolls.
 */
import { cockedShareNote, type SessionCocked } from './cockedShare.js';
import { InputError } from '../core/errors.js';
import { fixedSampleTests, type HeadlineTest } from './fixedSampleTests.js';
import { noMisreadMeasure, type MisreadAssumption } from './misreadRate.js';
import { faceEstimates } from './monitorVerdicts.js';
import { RobustMonitor, type MonitorReason, type RobustMonitorOptions } from './robustMonitor.js';
import { formatLogScientific } from '../core/format.js';
import { describeVerdict, holdsWhatever, verdictUnresolved, type FaceEstimate, type RigSuspectVerdict, type Verdict } from './verdict.js';

/** The session's error control: stated once, applied to every die, shown by every consumer. */
export interface ErrorControl {
  /** The family: the session's dice (every die, whatever its verdict). */
  readonly scope: 'session';
  readonly method: 'bonferroni';
  /** Chance that any die of the session gets a wrong UNFAIR or FAIR_WITHIN. */
  readonly alpha: number;
  /** Dice in the session (K). */
  readonly dice: number;
  /** The level each die is decided at: alpha / K. */
  readonly alphaPerDie: number;
  /** The e-value a die's least favourable e-value must reach for UNFAIR: K / alpha. */
  readonly threshold: number;
  readonly logThreshold: number;
  /** The rule in one sentence, for summaries and reports. */
  readonly statement: string;
}

/** The session's error control for `dice` dice at family-wise error rate `alpha`. */
export function sessionErrorControl(alpha: number, dice: number): ErrorControl {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(Number.isInteger(dice) && dice >= 1)) throw new RangeError(`a session has at least one die, got ${dice}`);
  const alphaPerDie = alpha / dice;
  const logThreshold = Math.log(dice / alpha);
  const each = dice === 1 ? 'its one die is decided at α' : `each of its ${dice} dice is decided at α/${dice} = ${Number(alphaPerDie.toPrecision(3))} (Bonferroni)`;
  return {
    scope: 'session',
    method: 'bonferroni',
    alpha,
    dice,
    alphaPerDie,
    threshold: dice / alpha,
    logThreshold,
    statement:
      `α = ${alpha} for the whole session: ${each}, UNFAIR once its e-value reaches ${formatLogScientific(logThreshold)}; ` +
      `the chance that any die of the session gets a wrong UNFAIR or FAIR_WITHIN is at most ${alpha}.`,
  };
}

/** A die's monitor under the session's error control: the one place a monitor's alpha is set. */
export function sessionMonitor(control: ErrorControl, expected: readonly number[], options: Omit<RobustMonitorOptions, 'alpha'> = {}): RobustMonitor {
  return new RobustMonitor(expected, { ...options, alpha: control.alphaPerDie });
}

/** Fixed-n p-values on the resolved rolls, for description only. */
export interface DescriptiveTests {
  readonly label: 'descriptive';
  /** Why these p-values are not the verdict's evidence. */
  readonly note: string;
  /** Rolls they are computed on (resolved and reviewed). */
  readonly n: number;
  readonly pearson: { readonly statistic: number; readonly df: number; readonly p: number; readonly logP: number };
  /** Pearson, or the exact multinomial test when expected counts are small (by seeded Monte Carlo above the enumeration cap). */
  readonly headline: HeadlineTest;
}

export type DieVerdictReason = MonitorReason | 'rig checks failed';

/** One die's verdict, as the session made it. */
export interface DieVerdict {
  readonly label: string;
  readonly kind: Verdict['kind'];
  readonly reason: DieVerdictReason;
  /** One plain-English sentence, starting with the kind. */
  readonly sentence: string;
  readonly errorControl: ErrorControl;
  /** The session's alpha (see errorControl). */
  readonly alpha: number;
  /** The level this die was decided at. */
  readonly alphaPerDie: number;
  /** The e-value threshold actually used for UNFAIR (1 / alphaPerDie). */
  readonly threshold: number;
  readonly logThreshold: number;
  readonly delta: number;
  /** The least favourable e-value now (over the unresolved rolls' assignments and misreads). */
  readonly eValue: number;
  readonly logE: number;
  /** Running maximum of log e since the first roll. */
  readonly maxLogE: number;
  /** Anytime-valid p-value of this die: min(1, 1 / running max of its e-value); valid at whatever roll the session stopped. */
  readonly anytimeP: number;
  readonly logAnytimeP: number;
  /** anytimeP × dice (capped at 1): compare it with the session's alpha. */
  readonly adjustedAnytimeP: number;
  /** Rolls in the die's sequence: resolved + reviewed + unresolved. */
  readonly rolls: number;
  readonly resolved: number;
  readonly reviewed: number;
  readonly unresolved: number;
  /** Roll at which the verdict was made (or the budget ran out); null while undecided. */
  readonly decidedAt: number | null;
  /** More rolls a verdict would take if the proportions hold: 0 once UNFAIR or FAIR_WITHIN, null when out of reach. */
  readonly rollsStillNeeded: number | null;
  /** Unresolved rolls to review that would decide the die (reason 'unresolved reads'), else null. */
  readonly readsToReview: number | null;
  /** Per-face misread-rate bounds the verdict allows for (null: none). */
  readonly misreadRates: readonly number[] | null;
  /** The misread assumption the verdict rests on (measured bounds, or none and why); absent in verdicts stored before it was kept. */
  readonly misreads?: MisreadAssumption;
  /** Counts per face of the resolved and reviewed rolls. */
  readonly counts: readonly number[];
  /** Each face: observed proportion among resolved rolls, robust simultaneous interval. */
  readonly faces: readonly FaceEstimate[];
  /** Fixed-n p-values, labelled descriptive (null before any resolved roll). */
  readonly descriptive: DescriptiveTests | null;
  /** The verdict in the shared vocabulary (verdict.ts), for `describeVerdict` and detailed sections. */
  readonly verdict: Verdict;
}

export interface SessionDie {
  readonly label: string;
  readonly monitor: RobustMonitor;
  /** Face or symbol labels, for the face estimates (default: "face 1", ...). */
  readonly labels?: readonly string[];
  /** What the sentence calls each label, where it differs (a D3's face "2" is "face 2 (reads 1)"). */
  readonly names?: readonly string[];
  /** Where the monitor's misread rates came from (default: none, or rates given without a measure). */
  readonly misreads?: MisreadAssumption;
}

export interface SessionVerdictOptions {
  /** The session's rig checks failed: every die is RIG_SUSPECT, with this verdict. */
  readonly rigSuspect?: RigSuspectVerdict;
  /** Seed of the descriptive Monte Carlo p-value. */
  readonly seed?: number;
}

export interface SessionVerdicts {
  readonly errorControl: ErrorControl;
  readonly dice: readonly DieVerdict[];
  /** Kept by a session imported from an export: the exported session that made them (its own id) and the file. */
  readonly importedFrom?: { readonly session: number; readonly file: string };
}

const DESCRIPTIVE_NOTE =
  'fixed-n p-value at a sample size the stopping rule chose: descriptive only, not a valid test; the verdict rests on the anytime-valid e-value';

/**
 * The session's verdicts, under its one error control. Throws `InputError`
 * when the dice do not match the control (another number of dice, or a monitor
 * built at another alpha): the verdicts would not mean what the control says.
 */
export function sessionVerdicts(control: ErrorControl, dice: readonly SessionDie[], options: SessionVerdictOptions = {}): SessionVerdicts {
  if (dice.length !== control.dice) {
    throw new InputError(`The error control is for ${control.dice} dice but the session has ${dice.length}; make the control from the session's dice.`);
  }
  for (const d of dice) {
    if (Math.abs(d.monitor.alpha - control.alphaPerDie) > 1e-12 * control.alphaPerDie) {
      throw new InputError(`Die "${d.label}" is monitored at alpha ${d.monitor.alpha}, not the session's ${control.alphaPerDie}; build its monitor with sessionMonitor().`);
    }
    const bounds = d.misreads?.faces?.map((f) => f.bound) ?? null;
    const rates = d.monitor.misreadRates;
    const same = bounds === null ? rates === null : rates !== null && bounds.length === rates.length && bounds.every((b, i) => b === rates[i]);
    if (d.misreads !== undefined && !same) {
      throw new InputError(`Die "${d.label}": its monitor allows for other misread rates than the assumption it is stored with; build the monitor from that assumption.`);
    }
  }
  return { errorControl: control, dice: dice.map((d) => dieVerdict(control, d, options)) };
}

function dieVerdict(control: ErrorControl, die: SessionDie, options: SessionVerdictOptions): DieVerdict {
  const { monitor } = die;
  const s = monitor.state();
  const labels = die.labels ?? monitor.expected.map((_, i) => `face ${i + 1}`);
  const known = s.resolved + s.reviewed;
  const faces = faceEstimates(labels, monitor.expected, s.counts, known, s.confidenceSequence);
  const verdict: Verdict = options.rigSuspect ?? s.decision;
  const reason: DieVerdictReason = options.rigSuspect ? 'rig checks failed' : s.reason;
  const final = verdict.kind === 'UNFAIR' || verdict.kind === 'FAIR_WITHIN';
  const rollsStillNeeded = final ? 0 : verdict.kind === 'INCONCLUSIVE' ? verdict.rollsNeeded : null;
  let descriptive: DescriptiveTests | null = null;
  if (known > 0) {
    const tests = fixedSampleTests(s.counts, monitor.expected, options.seed === undefined ? {} : { seed: options.seed });
    const { statistic, df, p, logP } = tests.pearson;
    descriptive = { label: 'descriptive', note: DESCRIPTIVE_NOTE, n: known, pearson: { statistic, df, p, logP }, headline: tests.headline };
  }
  return {
    label: die.label,
    kind: verdict.kind,
    reason,
    sentence: sentenceFor(verdict, s.unresolved, s.readsToReview, sentenceNames(labels, die.names)),
    errorControl: control,
    alpha: control.alpha,
    alphaPerDie: control.alphaPerDie,
    threshold: control.threshold,
    logThreshold: control.logThreshold,
    delta: monitor.delta,
    eValue: s.eValue,
    logE: s.logE,
    maxLogE: s.maxLogE,
    anytimeP: s.anytimeP,
    logAnytimeP: s.logAnytimeP,
    adjustedAnytimeP: Math.min(1, s.anytimeP * control.dice),
    rolls: s.n,
    resolved: s.resolved,
    reviewed: s.reviewed,
    unresolved: s.unresolved,
    decidedAt: s.decidedAt,
    rollsStillNeeded,
    readsToReview: s.readsToReview,
    misreadRates: monitor.misreadRates,
    misreads: die.misreads ?? (monitor.misreadRates === null ? noMisreadMeasure() : givenMisreads(monitor.misreadRates)),
    counts: s.counts,
    faces,
    descriptive,
    verdict,
  };
}

/** Rates handed to a monitor without the counts behind them. */
function givenMisreads(rates: readonly number[]): MisreadAssumption {
  return { kind: 'measured', source: 'rates given by the caller', confidence: null, faces: null, statement: `misreads allowed for up to the given rates ${rates.map((r) => Number(r.toPrecision(3))).join(', ')}` };
}

/**
 * The sentence the die's stored DieVerdict will carry, from its monitor now: what a session announces when the die is
 * decided. `labels` and `names`: as the die's `SessionDie` gives them.
 */
export function monitorSentence(monitor: RobustMonitor, labels?: readonly string[], names?: readonly string[]): string {
  const s = monitor.state();
  return sentenceFor(s.decision, s.unresolved, s.readsToReview, labels === undefined ? undefined : sentenceNames(labels, names));
}

/** Label → name, where a name differs from its label. */
export function sentenceNames(labels: readonly string[], names: readonly string[] | undefined): ReadonlyMap<string, string> | undefined {
  if (names === undefined) return undefined;
  if (names.length !== labels.length) throw new InputError(`There are ${names.length} names for ${labels.length} labels; give one name per label.`);
  return new Map(labels.flatMap((l, i) => (names[i] !== l ? [[l, names[i] as string] as const] : [])));
}

function sentenceFor(verdict: Verdict, unresolved: number, readsToReview: number | null, names: ReadonlyMap<string, string> | undefined): string {
  // A final verdict's own unresolved rolls (when it was made); a review that could change it is said by its reason instead.
  const u = verdictUnresolved(verdict, unresolved);
  const holds = verdict.kind !== 'RIG_SUSPECT' && u > 0 && !(verdict.kind === 'INCONCLUSIVE' && readsToReview !== null);
  return describeVerdict(verdict, holds ? holdsWhatever(u) : undefined, names, u);
}

/**
 * The misread assumption each die's verdict rests on, one line per distinct
 * assumption (naming the dice when they differ), as stored with the verdicts;
 * given the session's cocked dice, followed by a warning for each assumption
 * whose cocked dice read as faces were bounded at a rate this session exceeds.
 */
export function misreadLines(dice: readonly Pick<DieVerdict, 'label' | 'misreads'>[], session?: SessionCocked): string[] {
  const byStatement = new Map<string, string[]>();
  const notes = new Set<string>();
  for (const d of dice) {
    const statement = d.misreads?.statement ?? 'misreads: not recorded with this verdict (stored before dicerig kept it)';
    byStatement.set(statement, [...(byStatement.get(statement) ?? []), d.label]);
    const note = d.misreads !== undefined && session !== undefined ? cockedShareNote(d.misreads, session) : undefined;
    if (note !== undefined) notes.add(note);
  }
  const all = byStatement.size === 1;
  return [...[...byStatement].map(([statement, labels]) => `Misreads${all ? '' : ` (${labels.join(', ')})`}: ${statement.replace(/^misreads /, '')}.`), ...notes];
}

/** One event of a die's roll sequence, as a store can replay it (reviews in the order they were made). */
export type RollEvent =
  | { readonly kind: 'roll'; readonly face: number }
  | { readonly kind: 'unresolved' }
  | { readonly kind: 'review'; readonly position: number; readonly face: number }
  /** A person looked at the unresolved roll at `position` and could not tell its face. */
  | { readonly kind: 'cannot-tell'; readonly position: number }
  /** A person corrected their answer for the roll at `position`: the right face, or null when they cannot tell it after all. */
  | { readonly kind: 'correct'; readonly position: number; readonly face: number | null };

/** Feeds a stored sequence of events to a monitor (the same calls the session made), and returns it. */
export function replay(monitor: RobustMonitor, events: Iterable<RollEvent>): RobustMonitor {
  for (const e of events) {
    if (e.kind === 'roll') monitor.observe(e.face);
    else if (e.kind === 'unresolved') monitor.observeUnresolved();
    else if (e.kind === 'cannot-tell') monitor.cannotTell(e.position);
    else if (e.kind === 'correct') monitor.correct(e.position, e.face);
    else monitor.review(e.position, e.face);
  }
  return monitor;
}
