import { createRequire } from 'node:module';

/**
 * The part of better-sqlite3 the store uses, typed here because the package
 * ships no type declarations (and @types/better-sqlite3 is not installed).
 * Loaded through `createRequire`: it is a CommonJS native module.
 */
export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

export interface Statement<Row = Record<string, unknown>> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  iterate(...params: unknown[]): IterableIterator<Row>;
}

/** A function wrapped in BEGIN/COMMIT (a SAVEPOINT when already inside a transaction); it rolls back when `fn` throws. */
export interface Transaction<Args extends unknown[], Result> {
  (...args: Args): Result;
  immediate(...args: Args): Result;
}

export interface Database {
  readonly open: boolean;
  readonly inTransaction: boolean;
  readonly name: string;
  prepare<Row = Record<string, unknown>>(sql: string): Statement<Row>;
  exec(sql: string): Database;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): Transaction<Args, Result>;
  close(): Database;
}

export interface OpenOptions {
  readonly fileMustExist?: boolean;
  readonly readonly?: boolean;
  /** Milliseconds to wait for another connection's lock before failing. */
  readonly timeout?: number;
}

/** An error raised by SQLite; `code` is SQLite's extended result code name (e.g. `SQLITE_CONSTRAINT_FOREIGNKEY`). */
export interface SqliteError extends Error {
  readonly code: string;
}

interface BetterSqlite3 {
  new (path: string, options?: OpenOptions): Database;
  SqliteError: new (message: string, code: string) => SqliteError;
}

const require = createRequire(import.meta.url);
const BetterSqlite = require('better-sqlite3') as BetterSqlite3;

/** Opens (or creates) an SQLite database file. */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
  return new BetterSqlite(path, options);
}

export function isSqliteError(e: unknown): e is SqliteError {
  return e instanceof BetterSqlite.SqliteError;
}

/**
 * What SQLite's `quick_check` finds wrong with the file (at most `limit`
 * problems), or [] when it is sound. A damaged file can make the check itself
 * fail; that failure is then the problem reported.
 */
export function quickCheck(db: Database, limit = 5): string[] {
  try {
    const rows = db.prepare<{ quick_check: string }>(`PRAGMA quick_check(${Math.max(1, Math.floor(limit))})`).all();
    return rows
      .flatMap((r) => r.quick_check.split('\n'))
      .filter((p) => p !== 'ok' && !p.startsWith('***'))
      .slice(0, limit);
  } catch (e) {
    if (isSqliteError(e)) return [e.message];
    throw e;
  }
}
