/**
 * `dicerig salvage`: every row still readable of a damaged roll store, copied into a new store file.
 *
 * The new store is made at the damaged store's own schema version, by the same migrations that made it (not the
 * current schema with the rows brought forward): the copy is then the very rows, column for column, and a store
 * that needs bringing forward is brought forward the usual way (and still opens in the dicerig that wrote it). The
 * table definitions are not copied from the damaged file's `sqlite_master`, which may be the damaged part; its
 * columns are only compared with the version's, and a table that does not match is refused.
 *
 * Rows keep their ids, so every reference between tables holds and the hash chains' rows are the very rows. Each
 * table is read by ranges of row ids (readRanges: a failing range is halved down to single rows), tables in the order
 * of their references, with foreign keys on: a row whose referenced row was lost (a roll whose throw is gone) is not
 * kept and is counted as lost, never given a made-up row to refer to.
 */
import { existsSync, linkSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeFolders } from '../core/makeFolders.js';
import { StoreError } from './errors.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, migrate } from './migrations.js';
import { copyEvidence, type SalvagedEvidence } from './salvageEvidence.js';
import { CHUNK, readRanges } from './salvageRanges.js';
import { entriesSqliteReads, readingDefinition, removeCopy, repairedCopy, wholePagesCopy } from './salvageSchema.js';
import { isSqliteError, openDatabase, type Database } from './sqlite.js';

/** What became of one table's rows. */
export interface SalvagedTable {
  readonly table: string;
  /** Rows copied into the new store. */
  readonly copied: number;
  /** Rows whose pages could not be read. */
  readonly unreadable: number;
  /** Rows read but not kept: a row they refer to was lost (or, garbled, the schema refused them). */
  readonly unkept: number;
  /**
   * The table's last rows could not be read, nor its last row id: how many rows it held past the last one read cannot
   * be told from the table (`unreadable` counts only the lost rows below that one).
   */
  readonly endLost?: boolean;
  /** The table's entry in the table of tables was found nowhere in the damaged file: none of its rows could be found. */
  readonly definitionLost?: boolean;
}

/** A table the copy leaves out on purpose, and why. */
export interface LeftOutTable {
  readonly table: string;
  readonly rows: number | null;
  readonly why: string;
}

export interface SalvageResult {
  readonly schemaVersion: number;
  readonly tables: readonly SalvagedTable[];
  readonly leftOut: readonly LeftOutTable[];
  /** Rows read but not kept, by the session they belong to (when a row says): session id -> table -> rows. */
  readonly unkeptBySession: ReadonlyMap<number, ReadonlyMap<string, number>>;
  readonly evidence: SalvagedEvidence;
  /**
   * Set when the damaged file's table of tables could not be read as it is: the tables were found by their entries
   * wherever they are in the file (`lost`: those found nowhere), read from a copy given a fresh first page.
   */
  readonly schemaRepaired?: { readonly lost: readonly string[]; readonly logApplied: boolean };
  /** The file ends inside a page: that page was not read (its missing bytes would read as zeros), as if cut before it. */
  readonly tornPage?: boolean;
}

export interface SalvageProgress {
  readonly table: string;
  readonly doneUpTo: number;
  readonly last: number;
}

/**
 * Session locks say which process writes the damaged file now; no process writes the new one, so they are not
 * copied (they are in no hash chain, and hold nothing recorded).
 */
const NOT_COPIED: Readonly<Record<string, string>> = {
  session_locks: 'a lock names the process writing the damaged file, and no process writes the new one',
};

/**
 * Copies every readable row of the store at `from` into a new store file at `to` (which must not exist: the caller
 * checks, and the file is moved into place only when complete, never over one that appeared meanwhile). `from` is
 * opened read-only and never written.
 */
export function salvageStore(from: string, to: string, progress?: (p: SalvageProgress) => void): SalvageResult {
  const temp = join(dirname(to), `.${basename(to)}.${process.pid}.partial`);
  const copy = `${temp}-schema`;
  const whole = `${temp}-whole`;
  if (!existsSync(from)) throw new StoreError(`There is no roll store at ${from}; nothing was written.`, { db: from });
  const torn = wholePagesCopy(from, whole);
  const readFrom = torn ? whole : from;
  let source: Database;
  try {
    source = openSource(readFrom, from);
  } catch (e) {
    removeCopy(whole);
    throw e;
  }
  try {
    const { version, ours } = sourceVersion(source, from);
    makeFolders(dirname(to));
    const target = openDatabase(temp);
    let result: SalvageResult;
    try {
      target.pragma('journal_mode = WAL');
      target.pragma('synchronous = NORMAL');
      target.pragma('foreign_keys = ON');
      migrate(target, MIGRATIONS.filter((m) => m.version <= version));
      let repaired: SalvageResult['schemaRepaired'];
      const order = tablesInOrder(target);
      if (!schemaReads(source, target, order)) {
        // A damaged table of tables: SQLite refuses it whole for one garbled entry, though the rows may be whole.
        if (!ours && !order.some((t) => sameColumns(source, target, t))) refuseForeign(source, target, from, version, order[0] as string);
        const expected = order.map((name) => ({ name, sql: sqlOf(target, name), readingSql: readingDefinition(target, name) }));
        const r = repairedCopy(readFrom, copy, expected, entriesSqliteReads(source), from);
        source.close();
        source = openSource(r.path, from);
        repaired = { lost: r.lost, logApplied: r.logApplied };
      }
      const tables = copyTables(source, target, order, tableNames(source, from), version, progress);
      const pictures = target.prepare<{ path: string }>('SELECT DISTINCT evidence_path AS path FROM rolls WHERE evidence_path IS NOT NULL').all().map((r) => r.path);
      target.close();
      const evidence = copyEvidence(from, to, pictures);
      try {
        // A hard link, not a rename: it fails if a file took the name meanwhile, where a rename would replace it.
        linkSync(temp, to);
      } catch (e) {
        evidence.undo();
        throw e;
      }
      const { undo: _undo, ...kept } = evidence;
      result = { ...tables, evidence: kept, ...(repaired !== undefined ? { schemaRepaired: repaired } : {}), ...(torn ? { tornPage: true } : {}) };
    } catch (e) {
      if (target.open) target.close();
      throw e;
    } finally {
      for (const f of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
    }
    return result;
  } finally {
    source.close();
    removeCopy(copy);
    removeCopy(whole);
  }
}

/**
 * The damaged file (or salvage's copy of it, `path`), read-only: nothing is created beside it but what SQLite needs
 * to read a write-ahead log.
 */
function openSource(path: string, from: string): Database {
  try {
    const db = openDatabase(path, { readonly: true, fileMustExist: true }) as Database & { unsafeMode(on: boolean): unknown };
    // A file cut short (a truncated copy) is refused whole by SQLite, its header counting pages the file no longer
    // has; with writable_schema it is read up to where it ends. Safe on this connection, which cannot write at all;
    // better-sqlite3's defensive mode, which ignores writable_schema, is lifted for it alone.
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    return db;
  } catch (e) {
    if (isSqliteError(e)) throw new StoreError(`Cannot read ${from}: ${e.message} (${e.code}); nothing was written.`, { db: from }, { cause: e });
    throw e;
  }
}

/**
 * The damaged store's schema version, after refusing a file that is not a dicerig store of a version this dicerig
 * knows; `ours` when its application id is dicerig's (older stores have none).
 */
function sourceVersion(db: Database, from: string): { version: number; ours: boolean } {
  let version: number;
  let appId: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    appId = db.pragma('application_id', { simple: true }) as number;
  } catch (e) {
    if (isSqliteError(e) && e.code === 'SQLITE_NOTADB') throw new StoreError(`${from} is not an SQLite database, so it cannot be a roll store; nothing was written.`, { db: from }, { cause: e });
    if (isSqliteError(e)) throw new StoreError(`${from}: its first page cannot be read (${e.message}), so nothing in it can be found; nothing was written. Restore a backup.`, { db: from }, { cause: e });
    throw e;
  }
  if (appId !== APPLICATION_ID || version === 0) {
    // Stores made before dicerig set its application id have one of 0; a schema version says they are dicerig's.
    if (!(appId === 0 && version > 0)) throw new StoreError(`${from} is not a dicerig roll store (${appId !== 0 && appId !== APPLICATION_ID ? `an SQLite database of another program, application id ${appId}` : 'an SQLite file with no dicerig schema version'}); nothing was written.`, { db: from });
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`${from} was written by a newer dicerig (schema version ${version}; this version knows up to ${SCHEMA_VERSION}); nothing was written. Salvage it with that dicerig.`, { db: from });
  }
  return { version, ours: appId === APPLICATION_ID };
}

/** A table's columns in the damaged file, none when its definition cannot be read. */
function sourceColumns(source: Database, table: string): string[] {
  try {
    return columnsOf(source, table);
  } catch (e) {
    if (!isSqliteError(e)) throw e;
    return [];
  }
}

/** Whether a table has the version's columns in the damaged file. */
const sameColumns = (source: Database, target: Database, table: string): boolean => sourceColumns(source, table).join(',') === columnsOf(target, table).join(',');

/**
 * Whether SQLite reads the damaged file's table of tables as the version's: every table there with its columns, and
 * its first row (or its emptiness) readable, which a garbled root page in an entry is not. (A table whose first leaf
 * is damaged fails too: its rows are then read from the copy, by the same pages.)
 */
function schemaReads(source: Database, target: Database, tables: readonly string[]): boolean {
  return tables.every((t) => {
    if (!sameColumns(source, target, t)) return false;
    try {
      source.prepare(`SELECT rowid FROM "${t}" ORDER BY rowid LIMIT 1`).get();
      return true;
    } catch (e) {
      if (!isSqliteError(e)) throw e;
      return false;
    }
  });
}

const sqlOf = (db: Database, table: string): string => db.prepare<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)?.sql ?? '';

/** Refuses a file with a dicerig schema version that has none of the version's tables (named by `table`): another program's file. */
function refuseForeign(source: Database, target: Database, from: string, version: number, table: string): never {
  const theirs = sourceColumns(source, table);
  throw new StoreError(
    `${from} says it has schema version ${version}, but its table ${table} ${theirs.length === 0 ? 'is missing' : `has the columns (${theirs.join(', ')}), not (${columnsOf(target, table).join(', ')})`}: it is not a store dicerig made; nothing was written.`,
    { db: from },
  );
}

function tableNames(db: Database, from: string): Set<string> {
  try {
    return new Set(db.prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
  } catch (e) {
    if (!isSqliteError(e)) throw e;
    throw new StoreError(`${from}: its table definitions cannot be read (${e.message}), so no table can be found in it; nothing was written. Restore a backup.`, { db: from }, { cause: e });
  }
}

/** The version's tables, each after the tables it refers to (a table referring to itself reads its rows in id order). */
function tablesInOrder(target: Database): string[] {
  const names = target.prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all().map((r) => r.name);
  const refersTo = new Map(names.map((n) => [n, target.prepare<{ table: string }>(`SELECT "table" FROM pragma_foreign_key_list(?)`).all(n).map((r) => r.table).filter((t) => t !== n)]));
  const ordered: string[] = [];
  const visit = (n: string): void => {
    if (ordered.includes(n)) return;
    for (const r of refersTo.get(n) ?? []) visit(r);
    ordered.push(n);
  };
  for (const n of names) visit(n);
  return ordered;
}

/** The row id read beside a row's columns (a name no dicerig column has). */
const ROWID = 'salvage_rowid';

const columnsOf = (db: Database, table: string): string[] => db.prepare<{ name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(table).map((r) => r.name);

function copyTables(source: Database, target: Database, order: readonly string[], sourceTables: Set<string>, version: number, progress?: (p: SalvageProgress) => void): Omit<SalvageResult, 'evidence'> {
  const tables: SalvagedTable[] = [];
  const leftOut: LeftOutTable[] = [];
  const unkeptBySession = new Map<number, Map<string, number>>();
  const sessionOfThrow = target.prepare<{ sessionId: number }>('SELECT session_id AS sessionId FROM throws WHERE id = ?');
  for (const table of order) {
    if (NOT_COPIED[table] !== undefined) {
      leftOut.push({ table, rows: countOrNull(source, table), why: NOT_COPIED[table] });
      continue;
    }
    const columns = columnsOf(target, table);
    if (!sourceTables.has(table)) {
      // Only in a copy whose table of tables was found again (schemaReads checked every table otherwise).
      tables.push({ table, copied: 0, unreadable: 0, unkept: 0, definitionLost: true });
      continue;
    }
    const list = columns.map((c) => `"${c}"`).join(', ');
    const range = source.prepare<Record<string, unknown>>(`SELECT rowid AS ${ROWID}, ${list} FROM "${table}" WHERE rowid BETWEEN ? AND ? ORDER BY rowid`);
    const exists = source.prepare<{ n: number }>(`SELECT count(*) AS n FROM "${table}" WHERE rowid BETWEEN ? AND ?`);
    const insert = target.prepare(`INSERT INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
    // Whose session a row not kept belongs to, when the row says (directly, or by its throw when that was kept).
    const sessionOf = (row: Record<string, unknown>): number | undefined =>
      typeof row['session_id'] === 'number' ? row['session_id'] : typeof row['throw_id'] === 'number' ? sessionOfThrow.get(row['throw_id'])?.sessionId : undefined;
    const end = lastRowId(source, table, exists);
    let copied = 0;
    let unkept = 0;
    const take = (rows: Record<string, unknown>[]): void => {
      for (const row of rows) {
        try {
          insert.run(...columns.map((c) => row[c]));
          copied++;
        } catch (e) {
          if (!isSqliteError(e) || !e.code.startsWith('SQLITE_CONSTRAINT')) throw e;
          unkept++;
          const session = sessionOf(row);
          if (session !== undefined) {
            const lost = unkeptBySession.get(session) ?? new Map<string, number>();
            lost.set(table, (lost.get(table) ?? 0) + 1);
            unkeptBySession.set(session, lost);
          }
        }
      }
    };
    const read = target.transaction(() =>
      readRanges(
        end.last,
        { range: (a, b) => range.all(a, b), exists: (id) => (exists.get(id, id)?.n ?? 0) > 0 },
        take,
        (doneUpTo) => progress?.({ table, doneUpTo, last: end.last }),
        { endKnown: !end.unknown, ...(end.rowsUpTo !== undefined ? { rowsUpTo: end.rowsUpTo } : {}), idOf: (row) => row[ROWID] as number },
      ),
    )();
    tables.push({ table, copied, unreadable: read.unreadable, unkept, ...(end.unknown && read.uncountedPastEnd ? { endLost: true } : {}) });
  }
  return { schemaVersion: version, tables, leftOut, unkeptBySession };
}

function countOrNull(db: Database, table: string): number | null {
  try {
    return db.prepare<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`).get()?.n ?? 0;
  } catch {
    return null;
  }
}

/** Give up looking for a table's end after this many chunks of ids in a row that cannot be read at all. */
const END_SEARCH_CHUNKS = 8;

/**
 * The table's last row id. When even that cannot be read (a damaged page on the b-tree's right edge, a file cut
 * short), ids are probed chunk by chunk: ids are given in order and rows never deleted, so the first chunk that reads
 * as empty is past the end, and the chunks that failed before it may have held rows; a run of chunks none of which
 * can be read ends the search there. Reading then tells the rows found from ids that may never have held one.
 */
function lastRowId(db: Database, table: string, exists: { get(a: number, b: number): { n: number } | undefined }): { last: number; unknown: boolean; rowsUpTo?: number } {
  try {
    return { last: db.prepare<{ id: number | null }>(`SELECT max(rowid) AS id FROM "${table}"`).get()?.id ?? 0, unknown: false };
  } catch (e) {
    if (!isSqliteError(e)) throw e;
  }
  let last = 0;
  let rowsUpTo = 0;
  let failedInARow = 0;
  for (let start = 1; failedInARow < END_SEARCH_CHUNKS; start += CHUNK) {
    try {
      if ((exists.get(start, start + CHUNK - 1)?.n ?? 0) === 0) break;
      failedInARow = 0;
      rowsUpTo = start + CHUNK - 1;
    } catch (e) {
      if (!isSqliteError(e)) throw e;
      failedInARow++;
    }
    last = start + CHUNK - 1;
  }
  return { last, unknown: true, rowsUpTo };
}
