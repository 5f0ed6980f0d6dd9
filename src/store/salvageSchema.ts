/**
 * Salvage's own copies of a damaged file, read where the file itself would mislead SQLite (the damaged file is never
 * written): one cut at its last whole page, and one whose table of tables is written afresh, naming each table of the
 * store's schema version at the root page its entry still gives somewhere in the file.
 */
import { closeSync, copyFileSync, existsSync, fstatSync, openSync, readSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolders } from '../core/makeFolders.js';
import { StoreError } from './errors.js';
import { fileLayout, firstPage, freelistPages, isTablePage, schemaEntriesOf, type SchemaEntry } from './schemaPages.js';
import { isSqliteError, openDatabase, type Database } from './sqlite.js';

/** A table of the schema version: its CREATE statement as the migrations write it, and one for reading its rows. */
export interface ExpectedTable {
  readonly name: string;
  readonly sql: string;
  readonly readingSql: string;
}

export interface RepairedCopy {
  readonly path: string;
  /** Each table found, with the root page read from. */
  readonly found: ReadonlyMap<string, number>;
  /** Tables of the version whose entry is nowhere in the file: their rows cannot be found. */
  readonly lost: readonly string[];
  /** False when the damaged store's write-ahead log could not be applied to the copy (its last commits are then missing). */
  readonly logApplied: boolean;
}

/**
 * A definition that reads a table's rows as the version's own does, without its constraints: a UNIQUE constraint
 * would need its index's entry too, which may be lost. Defaults stay (rows older than an added column read them), and
 * an INTEGER PRIMARY KEY stays the row id it is.
 */
export function readingDefinition(target: Database, table: string): string {
  const columns = target.prepare<{ name: string; type: string; dflt: string | null; pk: number }>('SELECT name, type, dflt_value AS dflt, pk FROM pragma_table_info(?) ORDER BY cid').all(table);
  const keys = columns.filter((c) => c.pk > 0);
  const rowid = keys.length === 1 && keys[0]?.type.toUpperCase() === 'INTEGER' ? keys[0].name : undefined;
  const column = (c: (typeof columns)[number]): string => `"${c.name}"${c.name === rowid ? ' INTEGER PRIMARY KEY' : ''}${c.dflt !== null ? ` DEFAULT ${c.dflt}` : ''}`;
  return `CREATE TABLE "${table}" (${columns.map(column).join(', ')})`;
}

/**
 * Copies `from` (and its write-ahead log, applied) to `copy`, finds every table of `expected` by its entry anywhere
 * in the file, and writes a first page naming them. Throws a StoreError naming `shown` (the damaged store, where
 * `from` is salvage's own copy of it) when nothing can be found.
 */
export function repairedCopy(from: string, copy: string, expected: readonly ExpectedTable[], sqliteEntries: readonly SchemaEntry[], shown = from): RepairedCopy {
  copyFileSync(from, copy);
  const logApplied = applyLog(from, copy);
  const fd = openSync(copy, 'r+');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    const layout = fileLayout(header);
    if (layout === undefined) throw new StoreError(`${shown}: its header is damaged too, so its pages cannot be told apart; nothing was written. Restore a backup.`, { db: shown });
    const pageCount = Math.floor(fstatSync(fd).size / layout.pageSize);
    const readPage = (n: number): Uint8Array | undefined => {
      if (n < 1 || n > pageCount) return undefined;
      const page = Buffer.alloc(layout.pageSize);
      return readSync(fd, page, 0, layout.pageSize, (n - 1) * layout.pageSize) === layout.pageSize ? page : undefined;
    };
    const free = freelistPages(header, readPage, pageCount);
    const scanned: SchemaEntry[] = [];
    for (let n = 1; n <= pageCount; n++) {
      const page = free.has(n) ? undefined : readPage(n);
      if (page !== undefined) scanned.push(...schemaEntriesOf(page, n, layout));
    }
    const found = new Map<string, number>();
    const lost: string[] = [];
    for (const t of expected) {
      const root = rootOf(t, [...scanned, ...sqliteEntries], (n) => !free.has(n) && isTablePage(readPage(n) ?? new Uint8Array(0), n));
      if (root === undefined) lost.push(t.name);
      else found.set(t.name, root);
    }
    if (found.size === 0) throw new StoreError(`${shown}: no table of the store can be found in the file (its table of tables is lost); nothing was written. Restore a backup.`, { db: shown });
    const page = firstPage(header, layout, expected.filter((t) => found.has(t.name)).map((t) => ({ name: t.name, rootpage: found.get(t.name) as number, sql: t.readingSql })));
    if (page === undefined) throw new StoreError(`${shown}: its table of tables is damaged and the tables' definitions do not fit on one page of ${layout.pageSize} bytes; nothing was written. Restore a backup.`, { db: shown });
    writeSync(fd, page, 0, page.length, 0);
    return { path: copy, found, lost, logApplied };
  } finally {
    closeSync(fd);
  }
}

/**
 * The root page of a table: an entry naming it whose page is a table's (not on the freelist), one whose CREATE
 * statement is the version's own first; entries SQLite itself still read come after those found on the pages.
 */
function rootOf(t: ExpectedTable, entries: readonly SchemaEntry[], isRoot: (page: number) => boolean): number | undefined {
  const named = entries.filter((e) => e.type === 'table' && e.name === t.name && Number.isInteger(e.rootpage) && isRoot(e.rootpage));
  return (named.find((e) => e.sql === t.sql) ?? named[0])?.rootpage;
}

/** Applies the copied write-ahead log to the copy (a checkpoint), then removes it: the fresh first page must be the one read. */
function applyLog(from: string, copy: string): boolean {
  let applied = true;
  if (existsSync(`${from}-wal`)) {
    copyFileSync(`${from}-wal`, `${copy}-wal`);
    try {
      const db = openDatabase(copy, { fileMustExist: true }) as Database & { unsafeMode(on: boolean): unknown };
      try {
        db.unsafeMode(true);
        db.pragma('writable_schema = ON');
        const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
        applied = r !== undefined && r.busy === 0 && r.log === r.checkpointed;
      } finally {
        db.close();
      }
    } catch (e) {
      if (!isSqliteError(e)) throw e;
      applied = false;
    }
  }
  for (const f of [`${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  return applied;
}

/** The entries SQLite itself still reads from the table of tables (none when it cannot read it at all). */
export function entriesSqliteReads(db: Database): SchemaEntry[] {
  try {
    return db
      .prepare<{ type: unknown; name: unknown; rootpage: unknown; sql: unknown }>('SELECT type, name, rootpage, sql FROM sqlite_master')
      .all()
      .flatMap((r) => (typeof r.type === 'string' && typeof r.name === 'string' && typeof r.rootpage === 'number' ? [{ type: r.type, name: r.name, rootpage: r.rootpage, sql: typeof r.sql === 'string' ? r.sql : undefined, page: 0 }] : []));
  } catch (e) {
    if (!isSqliteError(e)) throw e;
    return [];
  }
}

/**
 * For a file cut inside a page, a copy of it (and of its write-ahead log) cut at its last whole page, and true:
 * SQLite reads a torn page's missing bytes as zeros, and a row there would be kept half zeros. False when the file
 * ends on a page's end (or its header does not say its page size: nothing is read then anyway).
 */
export function wholePagesCopy(from: string, copy: string): boolean {
  const fd = openSync(from, 'r');
  let layout: ReturnType<typeof fileLayout>;
  try {
    const header = Buffer.alloc(100);
    layout = readSync(fd, header, 0, 100, 0) === 100 ? fileLayout(header) : undefined;
  } finally {
    closeSync(fd);
  }
  const size = statSync(from).size;
  if (layout === undefined || size % layout.pageSize === 0) return false;
  makeFolders(dirname(copy)); // beside the new store, whose folder may not be made yet
  copyFileSync(from, copy);
  truncateSync(copy, size - (size % layout.pageSize));
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${copy}-wal`);
  return true;
}

/** Removes the copy and anything SQLite made beside it. */
export function removeCopy(copy: string): void {
  for (const f of [copy, `${copy}-wal`, `${copy}-shm`, `${copy}-journal`]) rmSync(f, { force: true });
}
