/**
 * The figures a reader is judged by (issue 11): recall and decline rate per
 * face, the spread of decline rates between faces (a reader that declines one
 * face more than another biases every verdict), confident errors (wrong reads
 * the threshold did not stop), and cocked dice read as a face. Pure: it scores
 * reads already made against their truth.
 */
import { contingencyTest } from '../stats/homogeneity.js';
import { chanceSpreadWithin } from './spreadByChance.js';
import type { DeclineCause, FaceRead } from './faceRead.js';
import { classOfRead, COCKED_LABEL, dieOfClass } from './labelledEval.js';

/** One die's truth and what the reader said (the class it named, in label terms, when it read one). */
export interface MetricItem {
  readonly truth: string;
  readonly status: 'read' | 'cocked' | 'unreadable';
  /** The class read (`red-hit`, `3`), only when status is `read`. */
  readonly readClass?: string;
  readonly confidence: number;
  readonly group?: string;
  /** Why the die was declined, when the reader said. */
  readonly cause?: DeclineCause;
}

/** A decline's cause, or `no-cause` when the reader gave none. */
export type CauseName = DeclineCause | 'no-cause';

/** The cause a decline is counted under: the reader's, or `no-cause`. */
export function causeName(cause: DeclineCause | undefined): CauseName {
  return cause ?? 'no-cause';
}

/** Declines counted by cause (only causes seen). */
export type CauseCounts = Readonly<Partial<Record<CauseName, number>>>;

export interface ClassMetrics {
  readonly className: string;
  readonly total: number;
  readonly read: number;
  readonly correct: number;
  readonly declined: number;
  /** correct / total: how many dice of this face end up counted as this face. */
  readonly recall: number;
  /** declined / total. */
  readonly declineRate: number;
  /** The declines by cause: whether a face is declined for doubt, a second opinion, tilt or light. */
  readonly causes: CauseCounts;
}

export interface ReaderMetrics {
  /** Face classes (every truth but `cocked`), in the order given then as seen. */
  readonly perClass: readonly ClassMetrics[];
  /** Highest face decline rate over the lowest (Infinity when one face is never declined and another is; 1 when none is). */
  readonly declineSpread: number;
  /**
   * Whether the faces' decline rates differ by more than chance: Pearson's chi-square on the faces x (declined, read)
   * table (scipy.stats.chi2_contingency without correction). A few dice a face make the spread a poor guide (one face
   * with no decline makes it unbounded); a small p says the reader really declines some faces more.
   */
  readonly declineTest: { readonly statistic: number; readonly df: number; readonly p: number };
  /**
   * How often a reader declining every face alike, at these dice's flat decline rate, would show a spread over the 2x
   * target on these faces' dice by chance alone (`spreadByChance.ts`). Near 1, the target cannot be judged on so few
   * dice: pool more (several folders to `vision eval --images`).
   */
  readonly spreadOverTargetByChance: number;
  /**
   * Per kind of die (`dieOfClass`: `red`, `green`; bare pip counts are `d6`), when the reads hold more than one kind:
   * its faces' decline spread and chi-square. A verdict is made on one die, so declining one kind more than another
   * biases none; declining one of a die's faces more than its others does.
   */
  readonly perDie: readonly DieDeclines[];
  /** Wrong reads at or above `confidentAt`, most confident first. */
  readonly confidentErrors: readonly MetricItem[];
  readonly confidentAt: number;
  /** Dice labelled cocked that were read as a face. */
  readonly cockedReadAsFace: number;
  readonly cockedTotal: number;
  /** How the cocked dice not read were declined, by cause. */
  readonly cockedCauses: CauseCounts;
  /** Flat dice only (cocked truth excluded): read, correct, declined. */
  readonly flatTotal: number;
  readonly flatRead: number;
  readonly flatCorrect: number;
  readonly flatDeclined: number;
}

/** One kind of die's faces: how alike they are declined. */
export interface DieDeclines {
  readonly die: string;
  /** How many of its faces have dice. */
  readonly faces: number;
  /** The decline rate of its least-declined and of its most-declined face. */
  readonly lowestRate: number;
  readonly highestRate: number;
  readonly declineSpread: number;
  readonly declineTest: { readonly statistic: number; readonly df: number; readonly p: number };
}

/** The issue's target for the decline spread: no face declined more than twice as often as another. */
export const SPREAD_TARGET = 2;

/** A wrong read at this confidence or more is a confident error (the reader was sure and wrong). */
export const DEFAULT_CONFIDENT_AT = 0.9;

/** Metric items from reads made on labelled dice (as `evaluateLabelledCrops` returns them). */
export function metricItemsOf(reads: readonly { readonly group: string; readonly truth: string; readonly read: Pick<FaceRead, 'status' | 'symbol' | 'die' | 'confidence' | 'cause'> }[]): MetricItem[] {
  return reads.map((r) => {
    const readClass = classOfRead(r.read);
    const { cause } = r.read;
    return { truth: r.truth, status: r.read.status, confidence: r.read.confidence, group: r.group, ...(readClass !== undefined ? { readClass } : {}), ...(cause !== undefined && r.read.status !== 'read' ? { cause } : {}) };
  });
}

/** The declines among `items` by cause. */
function causeCounts(items: readonly MetricItem[]): CauseCounts {
  const counts: Partial<Record<CauseName, number>> = {};
  for (const it of items) {
    if (it.status === 'read') continue;
    const cause = causeName(it.cause);
    counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}

/** The faces' decline spread (worst over best) and the chi-square test of faces x (declined, read). */
function declinesAlike(faces: readonly ClassMetrics[]): { declineSpread: number; declineTest: ReaderMetrics['declineTest']; lowestRate: number; highestRate: number } {
  const rates = faces.filter((c) => c.total > 0).map((c) => c.declineRate);
  const hi = rates.length > 0 ? Math.max(...rates) : 0;
  const lo = rates.length > 0 ? Math.min(...rates) : 0;
  const { pearson } = contingencyTest(faces.map((c) => [c.declined, c.read]));
  return {
    declineSpread: hi === 0 ? 1 : lo === 0 ? Number.POSITIVE_INFINITY : hi / lo,
    declineTest: { statistic: pearson.statistic, df: pearson.df, p: pearson.p },
    lowestRate: lo,
    highestRate: hi,
  };
}

/** `perDie`: the faces grouped by kind of die (none unless two kinds or more have two faces or more with dice). */
function perDieDeclines(perClass: readonly ClassMetrics[]): DieDeclines[] {
  const kinds = new Map<string, ClassMetrics[]>();
  for (const c of perClass) {
    if (c.total === 0) continue;
    const die = dieOfClass(c.className);
    kinds.set(die, [...(kinds.get(die) ?? []), c]);
  }
  const dice = [...kinds].filter(([, faces]) => faces.length > 1);
  if (dice.length < 2) return [];
  return dice.map(([die, faces]) => ({ die, faces: faces.length, ...declinesAlike(faces) }));
}

/** Scores the reads. */
export function readerMetrics(items: readonly MetricItem[], classes: readonly string[] = [], confidentAt = DEFAULT_CONFIDENT_AT): ReaderMetrics {
  const order = classes.filter((c) => c !== COCKED_LABEL);
  for (const it of items) if (it.truth !== COCKED_LABEL && !order.includes(it.truth)) order.push(it.truth);
  const flat = items.filter((it) => it.truth !== COCKED_LABEL);
  const perClass = order.map((className): ClassMetrics => {
    const own = flat.filter((it) => it.truth === className);
    const read = own.filter((it) => it.status === 'read').length;
    const correct = own.filter((it) => it.status === 'read' && it.readClass === className).length;
    const declined = own.length - read;
    return {
      className,
      total: own.length,
      read,
      correct,
      declined,
      recall: own.length > 0 ? correct / own.length : Number.NaN,
      declineRate: own.length > 0 ? declined / own.length : Number.NaN,
      causes: causeCounts(own),
    };
  });
  const { declineSpread, declineTest } = declinesAlike(perClass);
  const flatDeclined = flat.filter((it) => it.status !== 'read').length;
  const spreadOverTargetByChance = flat.length > 0 ? 1 - chanceSpreadWithin(perClass.map((c) => c.total), flatDeclined / flat.length, SPREAD_TARGET) : 0;
  const wrong = flat.filter((it) => it.status === 'read' && it.readClass !== it.truth);
  const cocked = items.filter((it) => it.truth === COCKED_LABEL);
  return {
    perClass,
    declineSpread,
    declineTest,
    perDie: perDieDeclines(perClass),
    spreadOverTargetByChance,
    confidentErrors: wrong.filter((it) => it.confidence >= confidentAt).sort((a, b) => b.confidence - a.confidence),
    confidentAt,
    cockedReadAsFace: cocked.filter((it) => it.status === 'read').length,
    cockedTotal: cocked.length,
    cockedCauses: causeCounts(cocked),
    flatTotal: flat.length,
    flatRead: flat.filter((it) => it.status === 'read').length,
    flatCorrect: flat.filter((it) => it.status === 'read' && it.readClass === it.truth).length,
    flatDeclined,
  };
}

/** One of the issue's targets and whether these reads meet it. */
export interface TargetCheck {
  readonly name: string;
  readonly value: number;
  readonly target: string;
  readonly met: boolean;
  /** Why the reads cannot show this target (never met then): a spread or an error count over no read says nothing. */
  readonly unmeasured?: string;
}

/** The reader targets a set of dice is held to: the least accuracy among dice read and the most declined. */
export interface ReaderTargets {
  /** Which dice these are the targets for, as the report names them. */
  readonly label: string;
  readonly minAccuracy: number;
  readonly maxDecline: number;
}

/** Renders (X-Wing and D6), calibrated on 150 labelled images of their kind: >= 99.5 % correct among read, <= 5 % declined. */
export const RENDER_TARGETS: ReaderTargets = { label: 'renders', minAccuracy: 0.995, maxDecline: 0.05 };
/** Photographs of D6s in a tray: >= 99 % correct among read, <= 5 % declined (no calibration: the default reader). */
export const D6_PHOTO_TARGETS: ReaderTargets = { label: 'D6 photos', minAccuracy: 0.99, maxDecline: 0.05 };

/** A target only reads can show: not met, and said unmeasured, when no flat die was read (every face declined alike is no evenness). */
function readTarget(m: ReaderMetrics, check: TargetCheck): TargetCheck {
  return m.flatRead > 0 ? check : { ...check, met: false, unmeasured: 'no die was read' };
}

/** The reader targets: accuracy among read, decline rate, decline spread, no confident error, no cocked die read as a face. */
export function targetChecks(m: ReaderMetrics, targets: ReaderTargets = RENDER_TARGETS): TargetCheck[] {
  const { minAccuracy, maxDecline } = targets;
  const accuracy = m.flatRead > 0 ? m.flatCorrect / m.flatRead : Number.NaN;
  const decline = m.flatTotal > 0 ? m.flatDeclined / m.flatTotal : Number.NaN;
  return [
    { name: 'correct among read', value: accuracy, target: `>= ${(minAccuracy * 100).toFixed(1)} %`, met: accuracy >= minAccuracy },
    { name: 'declined (flat dice)', value: decline, target: `<= ${(maxDecline * 100).toFixed(1)} %`, met: decline <= maxDecline },
    readTarget(m, { name: 'decline spread between faces', value: m.declineSpread, target: `<= ${SPREAD_TARGET}x`, met: m.declineSpread <= SPREAD_TARGET }),
    readTarget(m, { name: `confident errors (>= ${m.confidentAt})`, value: m.confidentErrors.length, target: '0', met: m.confidentErrors.length === 0 }),
    { name: 'cocked dice read as a face', value: m.cockedReadAsFace, target: '0', met: m.cockedReadAsFace === 0 },
  ];
}

const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)} %` : '-');

const pValue = (p: number): string => (p < 1e-4 ? p.toExponential(1) : p.toFixed(4));
const spreadText = (spread: number): string => (Number.isFinite(spread) ? `${spread.toFixed(2)}x` : 'unbounded (one face never declined, another declined)');

/** Causes in the order a user reads them: doubt first, then tilt, then light and the rest. */
const CAUSE_ORDER: readonly CauseName[] = ['unsure', 'disputed', 'tilted', 'outline', 'glare', 'touching', 'shadow', 'other-die', 'not-located', 'die-size', 'no-cause'];

/** The declines of each face by cause, as a table (none when nothing was declined). */
function formatCauses(m: ReaderMetrics): string[] {
  const rows = [...m.perClass.map((c) => ({ name: c.className, causes: c.causes })), { name: 'cocked', causes: m.cockedCauses }];
  const seen = CAUSE_ORDER.filter((cause) => rows.some((r) => (r.causes[cause] ?? 0) > 0));
  if (seen.length === 0) return [];
  const width = Math.max(6, ...rows.map((r) => r.name.length));
  const lines = [`declined by cause: ${'face'.padEnd(width)} ${seen.map((c) => c.padStart(9)).join('')}`];
  for (const r of rows) lines.push(`                   ${r.name.padEnd(width)} ${seen.map((c) => String(r.causes[c] ?? 0).padStart(9)).join('')}`);
  return lines;
}

/** The metrics as text lines (for `vision eval` and the bench). */
export function formatReaderMetrics(m: ReaderMetrics, targets: ReaderTargets = RENDER_TARGETS): string {
  const width = Math.max(6, ...m.perClass.map((c) => c.className.length));
  const lines = [`per face: ${'face'.padEnd(width)}  dice  recall  declined`];
  for (const c of m.perClass) lines.push(`          ${c.className.padEnd(width)} ${String(c.total).padStart(5)} ${pct(c.recall).padStart(7)} ${pct(c.declineRate).padStart(9)}`);
  lines.push(...formatCauses(m));
  // No die read: every face declined alike is no evenness, and no read is no error; a figure here would read as one
  // (the targets below say the same: not measured).
  if (m.flatRead === 0) lines.push(`decline spread between faces: ${UNREAD}`);
  else lines.push(...spreadLines(m));
  lines.push(`confident errors (wrong reads at confidence >= ${m.confidentAt}): ${m.flatRead === 0 ? UNREAD : m.confidentErrors.length}`);
  lines.push(`cocked dice read as a face: ${m.cockedReadAsFace} of ${m.cockedTotal}`);
  lines.push(`targets (${targets.label}):`);
  for (const t of targetChecks(m, targets)) {
    // Three decimals, so a spread just over its target does not print as the target (2.001, not 2).
    const v = t.name.startsWith('correct') ? pct(t.value, 2) : t.name.startsWith('declined') ? pct(t.value) : Number.isFinite(t.value) ? String(Number(t.value.toFixed(3))) : 'inf';
    lines.push(`  ${t.met ? 'met    ' : 'NOT met'} ${t.name}: ${t.unmeasured !== undefined ? `not measured, ${t.unmeasured}` : v} (target ${t.target})`);
  }
  return lines.join('\n');
}

const UNREAD = 'not measured, no die was read';

/** The faces' decline spread, its test, each kind of die's, and how often chance alone would miss the target. */
function spreadLines(m: ReaderMetrics): string[] {
  const lines: string[] = [];
  const { statistic, df, p } = m.declineTest;
  const test = df > 0 ? `; do the faces differ by more than chance? chi-square ${statistic.toFixed(2)} on ${df} df, p = ${pValue(p)}` : '';
  lines.push(`decline spread between faces: ${spreadText(m.declineSpread)}${test}`);
  if (m.perDie.length > 0) {
    const each = m.perDie.map((d) => `${d.die} ${pct(d.lowestRate)} to ${pct(d.highestRate)} (${spreadText(d.declineSpread)}), chi-square ${d.declineTest.statistic.toFixed(2)} on ${d.declineTest.df} df, p = ${pValue(d.declineTest.p)}`);
    lines.push(`  within each kind of die (a verdict rests on one die's faces): ${each.join('; ')}`);
  }
  if (m.perClass.filter((c) => c.total > 0).length > 1) {
    const chance = m.spreadOverTargetByChance;
    // A face-blind reader missing the target one time in five: the spread says little, the chi-square test more.
    const pooled = chance >= 0.2 ? ': on so few dice the spread is a poor guide (the test above is a better one); pool more folders with --images' : '';
    lines.push(`  a reader declining every face alike (${pct(m.flatTotal > 0 ? m.flatDeclined / m.flatTotal : 0)}) would show a spread over ${SPREAD_TARGET}x on these dice in ${pct(chance)} of sets${pooled}`);
  }
  return lines;
}
