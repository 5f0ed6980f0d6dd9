/**
 * Scoring a reader against labelled dice: accuracy among dice read, decline
 * rate (cocked and unreadable), confusion matrix by class name, and the same
 * per photo (dice in one photo share lighting, so photos are the honest unit).
 */
import type { FaceRead } from './faceRead.js';

export interface EvalItem {
  /** Photo (or frame) the die is in. */
  readonly group: string;
  /** True class name. */
  readonly truth: string;
  readonly read: Pick<FaceRead, 'status' | 'symbol' | 'confidence'>;
}

export interface GroupScore {
  readonly group: string;
  readonly total: number;
  readonly read: number;
  readonly correct: number;
  readonly declined: number;
}

export interface EvalReport {
  readonly total: number;
  /** Dice given a face. */
  readonly read: number;
  readonly correct: number;
  /** Dice declined: unreadable plus cocked. */
  readonly declined: number;
  readonly cocked: number;
  /** correct / read (NaN when nothing was read). */
  readonly accuracyAmongRead: number;
  /** declined / total. */
  readonly declineRate: number;
  /** correct / total. */
  readonly correctRate: number;
  /** Rows: true class; columns: `columns` (each class read, then `declined`, `cocked`). */
  readonly confusion: { readonly rows: readonly string[]; readonly columns: readonly string[]; readonly counts: readonly (readonly number[])[] };
  readonly perGroup: readonly GroupScore[];
  /** Wrong reads, highest confidence first (the ones that would bias a verdict). */
  readonly errors: readonly EvalItem[];
}

export const DECLINED_COLUMN = 'declined';
export const COCKED_COLUMN = 'cocked';

/** Scores reads against truth. `classes` fixes the row/column order (others are appended as seen). */
export function evaluateReads(items: readonly EvalItem[], classes: readonly string[] = []): EvalReport {
  const classOrder = [...classes];
  const see = (c: string): void => {
    if (!classOrder.includes(c)) classOrder.push(c);
  };
  for (const it of items) {
    see(it.truth);
    if (it.read.status === 'read' && it.read.symbol !== undefined) see(it.read.symbol);
  }
  const columns = [...classOrder, DECLINED_COLUMN, COCKED_COLUMN];
  const counts = classOrder.map(() => columns.map(() => 0));
  const groups = new Map<string, { total: number; read: number; correct: number; declined: number }>();
  let read = 0;
  let correct = 0;
  let declined = 0;
  let cocked = 0;
  const errors: EvalItem[] = [];
  for (const it of items) {
    const g = groups.get(it.group) ?? { total: 0, read: 0, correct: 0, declined: 0 };
    groups.set(it.group, g);
    g.total++;
    const row = counts[classOrder.indexOf(it.truth)] as number[];
    let col: number;
    if (it.read.status === 'read' && it.read.symbol !== undefined) {
      read++;
      g.read++;
      col = classOrder.indexOf(it.read.symbol);
      if (it.read.symbol === it.truth) {
        correct++;
        g.correct++;
      } else errors.push(it);
    } else {
      declined++;
      g.declined++;
      if (it.read.status === 'cocked') cocked++;
      col = columns.indexOf(it.read.status === 'cocked' ? COCKED_COLUMN : DECLINED_COLUMN);
    }
    row[col] = (row[col] as number) + 1;
  }
  errors.sort((a, b) => b.read.confidence - a.read.confidence);
  const total = items.length;
  return {
    total,
    read,
    correct,
    declined,
    cocked,
    accuracyAmongRead: read > 0 ? correct / read : Number.NaN,
    declineRate: total > 0 ? declined / total : Number.NaN,
    correctRate: total > 0 ? correct / total : Number.NaN,
    confusion: { rows: classOrder, columns, counts },
    perGroup: [...groups.entries()].map(([group, s]) => ({ group, ...s })),
    errors,
  };
}

/** The confusion matrix as aligned text rows (for the CLI and the bench). */
export function formatConfusion(report: EvalReport): string {
  const { rows, columns, counts } = report.confusion;
  const width = Math.max(8, ...columns.map((c) => c.length + 1), ...rows.map((r) => r.length + 1));
  const pad = (s: string): string => s.padStart(width);
  const lines = [pad('truth\\read') + columns.map(pad).join('')];
  rows.forEach((r, i) => lines.push(pad(r) + (counts[i] as number[]).map((n) => pad(String(n))).join('')));
  return lines.join('\n');
}
