import { InputError } from '../core/errors.js';
import { quoteValue } from './quoteValue.js';

/**
 * One die's throws so far, in the order of its rows. Looked up in the sorted array while they rise (as every export
 * writes them), in a map once they do not.
 */
interface DieThrows {
  readonly throws: number[];
  readonly lines: number[];
  lineOf?: Map<number, number>;
  /** The first row whose throw came before the die's throw of the row above it. */
  backwards?: ThrowsBackwards;
}

/** Where a die's rows first go back in throw number: `line` gives `throwNo` after the row above gave `after`. */
export interface ThrowsBackwards {
  readonly line: number;
  readonly throwNo: number;
  readonly after: number;
}

/** A die whose rows are not in the order of their throws: the throw of each of its rows, in the rows' order. */
export interface DieOutOfOrder {
  readonly die: object;
  readonly throws: readonly number[];
  readonly backwards: ThrowsBackwards;
}

/**
 * The throw numbers of a log that has a throw column: each must be a positive
 * integer, and a die may roll once per throw. A (throw, die) pair seen twice is
 * the same roll written twice (a file appended to itself, say), and counting it
 * twice would narrow every interval it enters.
 */
export class ThrowsSeen {
  private readonly byDie = new Map<object, DieThrows>();

  /**
   * `rising`: each die's throws must rise, row by row, as every export writes them (`import` keeps the throws, so a
   * die's rolls must come in the order it rolled them); else a die's rows may come in any order of throws.
   */
  constructor(
    private readonly file: string,
    private readonly rising = false,
  ) {}

  /** Records that `die` (any object standing for one die, its label in errors) rolled in throw `throwNo` at `line`. */
  see(die: object, label: string, throwNo: number, line: number, column?: string): void {
    let seen = this.byDie.get(die);
    if (seen === undefined) {
      seen = { throws: [], lines: [] };
      this.byDie.set(die, seen);
    }
    if (seen.lineOf === undefined) {
      const n = seen.throws.length;
      if (n === 0 || throwNo > (seen.throws[n - 1] as number)) {
        seen.throws.push(throwNo);
        seen.lines.push(line);
        return;
      }
      const last = seen.throws[n - 1] as number;
      // A throw seen before is a copied row (the message says so) before it is a throw out of order.
      if (this.rising && throwNo < last && !seen.throws.includes(throwNo)) {
        throw new InputError(
          `die ${quoteValue(label)} rolls in throw ${throwNo} here, after throw ${last} on line ${seen.lines[n - 1] as number}: a die's throws must rise row by row (the order it rolled in), so that which rolls were thrown together is kept`,
          column !== undefined ? { file: this.file, line, column } : { file: this.file, line },
        );
      }
      // Out of order: from here on, look throws up in a map.
      seen.lineOf = new Map(seen.throws.map((t, i) => [t, seen.lines[i] as number]));
      if (throwNo < last) seen.backwards = { line, throwNo, after: last };
    }
    const earlier = seen.lineOf.get(throwNo);
    if (earlier !== undefined) {
      throw new InputError(
        `die ${quoteValue(label)} rolls in throw ${throwNo} here and on line ${earlier}: a die rolls once a throw, so one of the rows is a copy (was the log appended to itself?)`,
        { file: this.file, line },
      );
    }
    seen.lineOf.set(throwNo, line);
    seen.throws.push(throwNo);
  }

  /** The dice whose rows are not in the order of their throws (none when every die's throws rise, or rising is required). */
  outOfOrder(): DieOutOfOrder[] {
    const out: DieOutOfOrder[] = [];
    for (const [die, seen] of this.byDie) if (seen.backwards !== undefined) out.push({ die, throws: seen.throws, backwards: seen.backwards });
    return out;
  }
}

/**
 * The throw number written in `text[start, end)`, or an InputError naming the
 * file, line and value when it is not a positive integer. Reads the digits in
 * place: a throw column is on every row of logs of 600,000 rows.
 */
export function throwNumber(text: string, start: number, end: number, file: string, line: number, column?: string): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return badThrow(text.slice(start, end), file, line, column);
    n = n * 10 + digit;
  }
  if (end === start || n === 0 || !Number.isSafeInteger(n)) return badThrow(text.slice(start, end), file, line, column);
  return n;
}

/** A JSON value as a throw number: a positive integer, or text of one. */
export function jsonThrowNumber(value: unknown, file: string, line: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string') return throwNumber(value.trim(), 0, value.trim().length, file, line);
  return badThrow(value === null ? 'null' : typeof value === 'number' ? String(value) : JSON.stringify(value) ?? String(value), file, line);
}

function badThrow(value: string, file: string, line: number, column?: string): never {
  const where = column !== undefined ? { file, line, column } : { file, line };
  if (value === '') throw new InputError('the throw is empty: a row of a log with a throw column names its throw, a positive integer', where);
  throw new InputError(`the throw ${quoteValue(value)} is not a positive integer (1, 2, 3...)`, where);
}
