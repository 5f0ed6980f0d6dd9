/**
 * readRanges: a table of a damaged file read by ranges of row ids, a failing range halved down to single rows, so
 * one bad page costs only its rows; with the table's end unknown, ids past the last row read are not counted lost.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readRanges, type RangeReader } from '../../../src/store/salvageRanges.js';

const { SqliteError } = createRequire(import.meta.url)('better-sqlite3') as { SqliteError: new (message: string, code: string) => Error };

/** A table of rows 1..rows whose ids in `bad` sit on a damaged page: any read that needs one fails as SQLite fails. */
function table(rows: number, bad: ReadonlySet<number>, existsFails = true): RangeReader<number> & { reads: number } {
  const reader = {
    reads: 0,
    range: (from: number, to: number): number[] => {
      reader.reads++;
      const ids = Array.from({ length: Math.max(0, Math.min(to, rows) - from + 1) }, (_, i) => from + i);
      if (ids.some((id) => bad.has(id)) || (from > rows && bad.has(from))) throw new SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
      return ids;
    },
    exists: (id: number): boolean => {
      if (existsFails && bad.has(id)) throw new SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
      return id <= rows;
    },
  };
  return reader;
}

describe('reading a damaged table by ranges of row ids', () => {
  it('hands on every readable row in id order and counts exactly the rows on the damaged page', () => {
    const bad = new Set([700, 701, 702, 1500]);
    const got: number[] = [];
    const r = readRanges(2000, table(2000, bad), (rows) => got.push(...rows));
    expect(r.unreadable).toBe(4);
    expect(got).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1).filter((id) => !bad.has(id)));
  });

  it('reads a sound table in whole chunks, never halving', () => {
    const t = table(2000, new Set());
    readRanges(2000, t, () => undefined);
    expect(t.reads).toBe(4);
  });

  it('does not count an id that, read alone, says it holds no row', () => {
    // The ids fail in a range (a page on their path is damaged) but their own look-up finds no row: never written.
    const r = readRanges(10, table(8, new Set([9, 10]), false), () => undefined, undefined, { chunk: 4 });
    expect(r.unreadable).toBe(0);
  });

  it('with the end unknown, counts the failing ids below the last row read and not those past it', () => {
    const bad = new Set([5, 6, ...Array.from({ length: 30 }, (_, i) => 21 + i)]);
    const got: number[] = [];
    const r = readRanges(60, table(20, bad), (rows) => got.push(...rows), undefined, { chunk: 4, endKnown: false });
    expect(r.unreadable).toBe(2);
    expect(r.highestRead).toBe(20);
    expect(r.uncountedPastEnd).toBe(true);
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => i + 1).filter((id) => !bad.has(id)));
  });

  it('passes on an error that is not SQLite\'s', () => {
    const reader: RangeReader<number> = { range: () => { throw new Error('a bug'); }, exists: () => true };
    expect(() => readRanges(10, reader, () => undefined)).toThrow('a bug');
  });
});
