/**
 * Reading a table of a damaged file by ranges of row ids: a range that fails is halved until the rows that fail are
 * single ones, so one bad page costs the rows it held and no more. `export --allow-unverified` reads the counted
 * rolls so (countedRolls.ts), and `salvage` every table (salvage.ts).
 */
import { isSqliteError } from './sqlite.js';

/** How a table's rows are read by id: a range of ids, and whether one id holds a row at all. */
export interface RangeReader<Row> {
  /** The rows (of those wanted) whose ids are in from..to; throws an SQLite error when a page it needs is damaged. */
  readonly range: (from: number, to: number) => Row[];
  /** Whether a row of this id exists; throws when even that cannot be read. */
  readonly exists: (id: number) => boolean;
}

export interface RangeResult {
  /** Rows whose pages could not be read (an id whose existence cannot be read counts: it may have held one). */
  readonly unreadable: number;
  /** The highest id read (0 when none was). */
  readonly highestRead: number;
  /** With the end unknown: ids past the highest one read could not be read, and whether they held rows cannot be told. */
  readonly uncountedPastEnd: boolean;
}

export const CHUNK = 512;

/**
 * Reads ids 1..last in chunks of `chunk`, handing each readable range's rows to `take` in id order, and counts the
 * rows that could not be read. `progress` is told after each chunk how far the read has come. `endKnown` false: `last`
 * is a guess past the table's end (its true last id could not be read), so ids that fail past the highest id read
 * are not counted: ids are given in order and rows never deleted, so a failing id below a read one held a row, and
 * one above may never have.
 */
export function readRanges<Row>(
  last: number,
  reader: RangeReader<Row>,
  take: (rows: Row[]) => void,
  progress?: (doneUpTo: number) => void,
  options: {
    readonly chunk?: number;
    readonly endKnown?: boolean;
    /** With the end unknown: ids up to here are known to hold rows, so reading goes on to them through chunks that fail. */
    readonly rowsUpTo?: number;
    readonly idOf?: (row: Row) => number;
  } = {},
): RangeResult {
  const chunk = options.chunk ?? CHUNK;
  const endKnown = options.endKnown ?? true;
  const failed: number[] = [];
  const pending: number[] = [];
  let highestRead = 0;
  // A row whose page is gone cannot be told from a row never written: counted unreadable when even its id cannot be read.
  const rowMayExist = (id: number): boolean => {
    try {
      return reader.exists(id);
    } catch {
      return true;
    }
  };
  const read = (from: number, to: number): void => {
    let rows: Row[];
    try {
      rows = reader.range(from, to);
    } catch (e) {
      if (!isSqliteError(e)) throw e;
      if (from === to) {
        // Past the highest id read, with the end unknown, an id is only looked at again if a later one is read.
        if (!endKnown && from > highestRead) pending.push(from);
        else if (rowMayExist(from)) failed.push(from);
        return;
      }
      const mid = Math.floor((from + to) / 2);
      read(from, mid);
      read(mid + 1, to);
      return;
    }
    if (rows.length > 0) {
      highestRead = Math.max(highestRead, options.idOf?.(rows[rows.length - 1] as Row) ?? to);
      for (const id of pending.splice(0)) if (id < highestRead && rowMayExist(id)) failed.push(id);
    }
    take(rows);
  };
  for (let from = 1; from <= last; from += chunk) {
    // With the end unknown, two chunks past every id known to hold a row with nothing read in them: the end is behind.
    if (!endKnown && from > Math.max(highestRead, options.rowsUpTo ?? 0) + 2 * chunk) break;
    const to = Math.min(last, from + chunk - 1);
    read(from, to);
    progress?.(to);
  }
  return { unreadable: failed.length, highestRead, uncountedPastEnd: pending.length > 0 };
}
