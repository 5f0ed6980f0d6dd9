/**
 * Scoring any reader on labelled crops, per die type: accuracy among dice read,
 * decline rate (cocked and unreadable), wrong reads, and the confusion matrix.
 * X-Wing class names carry the die's colour (`red-hit`, `green-evade`), so the
 * die type of a box is its class prefix; D6 classes are pip counts.
 */
import { COCKED_COLUMN, evaluateReads, formatConfusion } from './evaluate.js';
import type { EvalItem, EvalReport } from './evaluate.js';
import type { DieCrop, FaceRead, FaceReader } from './faceRead.js';

/** The shared class of dice not lying flat. */
export const COCKED_LABEL = 'cocked';

/** Die type of a class: the prefix before `-` (`red-hit` -> `red`), `d6` for a bare pip count, `cocked` for cocked. */
export function dieOfClass(className: string): string {
  if (className === COCKED_LABEL) return COCKED_LABEL;
  const i = className.indexOf('-');
  return i > 0 ? className.slice(0, i) : 'd6';
}

/** The class a read names, in label terms (`red-hit`; a bare symbol when the reader names no die). */
export function classOfRead(read: Pick<FaceRead, 'status' | 'symbol' | 'die'>): string | undefined {
  if (read.status !== 'read' || read.symbol === undefined) return undefined;
  return read.die !== undefined ? `${read.die}-${read.symbol}` : read.symbol;
}

/**
 * Whether a die labelled `truth`, read as class `named`, is a flat die read as another face: the misread a reader's
 * threshold is set above. A die declined or called cocked was not read as a face; a cocked die read as a face is the
 * cocked checks' to catch, so neither sets a threshold.
 */
export function isFlatFaceMisread(truth: string, named: string | undefined): named is string {
  return truth !== COCKED_LABEL && named !== undefined && named !== COCKED_LABEL && named !== truth;
}

export interface DieScore {
  readonly die: string;
  readonly total: number;
  readonly read: number;
  readonly correct: number;
  /** Reads naming the wrong class (for `cocked`: cocked dice read as a face). */
  readonly wrong: number;
  readonly declined: number;
  readonly cocked: number;
  readonly unreadable: number;
  /** correct / read (NaN when nothing was read). */
  readonly accuracyAmongRead: number;
  /** declined / total. */
  readonly declineRate: number;
}

export interface LabelledItem {
  readonly crop: DieCrop;
  readonly label: string;
  /** Image the die is in. */
  readonly group: string;
}

export interface LabelledEvaluation {
  readonly report: EvalReport;
  readonly perDie: readonly DieScore[];
  /** Every read with its truth, in input order. */
  readonly reads: readonly { readonly group: string; readonly truth: string; readonly read: FaceRead }[];
  /** The confusion matrix with the `cocked` class and the `cocked` status merged into one column. */
  readonly confusion: EvalReport['confusion'];
  /** Median milliseconds per read, when a clock was given. */
  readonly msPerRead?: number;
}

/** Scores per die type. */
export function scoreByDie(items: readonly EvalItem[]): DieScore[] {
  const dice = [...new Set(items.map((i) => dieOfClass(i.truth)))].sort((a, b) => (a === COCKED_LABEL ? 1 : b === COCKED_LABEL ? -1 : a < b ? -1 : 1));
  return dice.map((die) => {
    const own = items.filter((i) => dieOfClass(i.truth) === die);
    const read = own.filter((i) => i.read.status === 'read');
    const correct = read.filter((i) => i.read.symbol === i.truth).length;
    const cocked = own.filter((i) => i.read.status === 'cocked').length;
    const unreadable = own.filter((i) => i.read.status === 'unreadable').length;
    return {
      die,
      total: own.length,
      read: read.length,
      correct,
      wrong: read.length - correct,
      declined: cocked + unreadable,
      cocked,
      unreadable,
      accuracyAmongRead: read.length > 0 ? correct / read.length : Number.NaN,
      declineRate: own.length > 0 ? (cocked + unreadable) / own.length : Number.NaN,
    };
  });
}

/**
 * The confusion matrix with a single `cocked` column: `evaluateReads` lists the
 * `cocked` class (a truth) as a read column too, beside its `cocked` status column.
 */
export function mergeCockedColumn(confusion: EvalReport['confusion']): EvalReport['confusion'] {
  const classCol = confusion.columns.indexOf(COCKED_LABEL);
  const statusCol = confusion.columns.lastIndexOf(COCKED_COLUMN);
  if (classCol < 0 || classCol === statusCol) return confusion;
  const keep = confusion.columns.map((_, j) => j).filter((j) => j !== classCol);
  return {
    rows: confusion.rows,
    columns: keep.map((j) => confusion.columns[j] as string),
    counts: confusion.counts.map((row) => keep.map((j) => (row[j] as number) + (j === statusCol ? (row[classCol] as number) : 0))),
  };
}

/** Reads every crop and scores the reads. `clock` (milliseconds) times the reads when given. */
export function evaluateLabelledCrops(items: readonly LabelledItem[], reader: FaceReader, classes: readonly string[], clock?: () => number): LabelledEvaluation {
  const times: number[] = [];
  const reads = items.map((it) => {
    const t0 = clock?.();
    const read = reader.read(it.crop);
    if (clock && t0 !== undefined) times.push(clock() - t0);
    return { group: it.group, truth: it.label, read };
  });
  times.sort((a, b) => a - b);
  return { ...scoreLabelledReads(reads, classes), ...(times.length > 0 ? { msPerRead: times[times.length >> 1] as number } : {}) };
}

/** Scores reads already made, each with its truth (e.g. whole frames read as a session reads them). */
export function scoreLabelledReads(reads: LabelledEvaluation['reads'], classes: readonly string[]): LabelledEvaluation {
  const evalItems: EvalItem[] = reads.map((r) => {
    const symbol = classOfRead(r.read);
    return { group: r.group, truth: r.truth, read: { status: r.read.status, confidence: r.read.confidence, ...(symbol !== undefined ? { symbol } : {}) } };
  });
  const report = evaluateReads(evalItems, classes);
  return { report, perDie: scoreByDie(evalItems), reads, confusion: mergeCockedColumn(report.confusion) };
}

/** A confusion matrix (e.g. a profile's validation) as aligned text rows. */
export function formatConfusionMatrix(confusion: EvalReport['confusion']): string {
  // `formatConfusion` reads nothing of the report but its matrix.
  return formatConfusion({ confusion } as Pick<EvalReport, 'confusion'> as EvalReport);
}
