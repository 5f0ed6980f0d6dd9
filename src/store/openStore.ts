import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { StoreError } from './errors.js';
import { RollStore, type RollStoreOptions } from './rollStore.js';
import { isSqliteError, openDatabase, quickCheck, type SqliteError } from './sqlite.js';

/**
 * Opening the roll store the way each command needs it, with every way a file
 * can be unusable (missing, damaged, read-only, in a folder that cannot be
 * written) turned into one StoreError line that says what is wrong, what was
 * (not) done, and how to recover.
 *
 * Writers check the file with SQLite's integrity check before anything is
 * written, so a damaged store is never written into. Readers open read-only:
 * a store the user cannot write is still readable.
 */

const memory = (path: string): boolean => path === ':memory:' || path === '';

/** A folder given where a store file belongs: SQLite calls it a disk I/O error, which reads as a damaged store. */
function refuseFolder(path: string): void {
  if (!memory(path) && existsSync(path) && statSync(path).isDirectory()) {
    throw new StoreError(`${path} is a folder, not a roll store file: give the store file itself (e.g. --db ${join(path, 'dicerig.db')}).`, { db: path, reason: 'folder' });
  }
}

/** The recovery advice for a damaged store. */
function recovery(path: string): string {
  return `To recover: run \`dicerig verify --db ${path}\`, export what is still readable (\`dicerig export SESSION --db ${path} --allow-unverified\`), or restore a backup.`;
}

function damagedError(path: string, problem: string, written: boolean, cause?: unknown): StoreError {
  return new StoreError(
    `The roll store ${path} is damaged (${oneLine(problem)})${written ? '' : '; nothing was written'}. ${recovery(path)}`,
    { db: path, reason: 'damaged' },
    cause === undefined ? undefined : { cause },
  );
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, '; ').trim();

const CORRUPT = /^SQLITE_(CORRUPT|NOTADB|IOERR)/;
const READONLY = /^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/;

/** Why the file cannot be written by this process, or undefined when it can (as far as can be told before trying). */
function unwritable(path: string): string | undefined {
  const dir = dirname(path);
  if (existsSync(path)) {
    // Root passes every access check; a file with no write bit is still meant to be read-only.
    if ((statSync(path).mode & 0o222) === 0) return `the file is read-only (mode ${(statSync(path).mode & 0o777).toString(8)})`;
    try {
      accessSync(path, constants.W_OK);
    } catch {
      return 'the file is not writable by this user';
    }
  }
  if (existsSync(dir)) {
    // SQLite writes its journal files beside the store.
    if ((statSync(dir).mode & 0o222) === 0) return `its folder ${dir} is read-only (mode ${(statSync(dir).mode & 0o777).toString(8)})`;
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return `its folder ${dir} is not writable by this user`;
    }
  }
  return undefined;
}

/** A thrown SQLite error as the StoreError a user should see, or the error itself when it is not SQLite's. */
export function storeFailure(e: unknown, path: string, writing: boolean): unknown {
  if (!isSqliteError(e)) return e;
  const err = e as SqliteError;
  if (CORRUPT.test(err.code)) return damagedError(path, err.message, false, e);
  if (READONLY.test(err.code)) {
    return new StoreError(
      `Cannot ${writing ? 'write' : 'read'} the roll store ${path}: ${err.message}${writing ? '; nothing was written' : ''}. Check the file's and its folder's permissions.`,
      { db: path },
      { cause: e },
    );
  }
  if (err.code === 'SQLITE_BUSY') return new StoreError(`The roll store ${path} is locked by another dicerig (a session still running?); nothing was written. Try again when it ends.`, { db: path }, { cause: e });
  return new StoreError(`The roll store ${path} failed: ${err.message} (${err.code}).`, { db: path }, { cause: e });
}

/**
 * Opens the store for a command that writes (run, demo, import). `create`:
 * a missing store (and its folder) may be created; otherwise a missing store
 * is refused before anything exists on disk. A damaged or read-only store is
 * refused before anything is written.
 */
export function openStoreForWriting(path: string, options: { readonly create: boolean } & Pick<RollStoreOptions, 'synchronous' | 'busyTimeoutMs'>): RollStore {
  if (memory(path)) return RollStore.open(path, options);
  refuseFolder(path);
  const exists = existsSync(path);
  if (!exists && !options.create) throw new StoreError(`There is no roll store at ${path}; nothing was created.`, { db: path });
  const cannot = unwritable(path);
  if (cannot !== undefined && (exists || existsSync(dirname(path)))) {
    throw new StoreError(`Cannot write the roll store ${path}: ${cannot}; nothing was written. Read it with verify, export or report, or write to another --db.`, { db: path });
  }
  if (exists) {
    const problems = integrityOf(path);
    if (problems.length > 0) throw damagedError(path, problems.join('; '), false);
  }
  try {
    return RollStore.open(path, { ...options, mustExist: !options.create });
  } catch (e) {
    throw storeFailure(e, path, true);
  }
}

/** The integrity check of a file, through a read-only connection of its own (so a damaged file is not touched). */
function integrityOf(path: string): string[] {
  let db;
  try {
    db = openDatabase(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    if (isSqliteError(e) && CORRUPT.test(e.code)) return [e.message];
    throw storeFailure(e, path, true);
  }
  try {
    db.pragma('user_version'); // the first read: a file that is not SQLite fails here
    return quickCheck(db);
  } catch (e) {
    if (isSqliteError(e) && CORRUPT.test(e.code)) return [e.message];
    throw storeFailure(e, path, true);
  } finally {
    db.close();
  }
}

/** A store opened for reading, and how it was opened. */
export interface ReadableStore {
  readonly store: RollStore;
  /** Said to the user when the store was read in an unusual way (a copy of a store whose folder is read-only). */
  readonly note?: string;
}

/**
 * Runs `fn` on the store opened read-only (verify, export, report, pool).
 * A store of an older schema is brought forward first when it can be written;
 * one in a folder SQLite cannot write its journal into is read from a private
 * copy. SQLite errors in `fn` (a damaged page met while reading) become one
 * StoreError line.
 */
export async function withReadableStore<T>(path: string, fn: (opened: ReadableStore) => T | Promise<T>): Promise<T> {
  const opened = openStoreForReading(path);
  try {
    return await fn(opened);
  } catch (e) {
    throw storeFailure(e, path, false);
  } finally {
    opened.close();
  }
}

/** The store opened read-only as `withReadableStore` opens it, for callers that close it themselves (`close`, not `store.close`). */
export function openStoreForReading(path: string): ReadableStore & { close(): void } {
  const opened = openForReading(path);
  return {
    ...opened,
    close: () => {
      opened.store.close();
      opened.cleanup?.();
    },
  };
}

function openForReading(path: string): ReadableStore & { cleanup?: () => void } {
  if (!memory(path) && !existsSync(path)) throw new StoreError(`There is no roll store at ${path}.`, { db: path });
  refuseFolder(path);
  try {
    return { store: RollStore.open(path, { readonly: true }) };
  } catch (e) {
    if (e instanceof StoreError && e.where['reason'] === 'old-schema' && unwritable(path) === undefined) {
      openStoreForWriting(path, { create: false }).close(); // migrates, after the integrity check
      return { store: RollStore.open(path, { readonly: true }) };
    }
    if (isSqliteError(e) && (e.code === 'SQLITE_READONLY_DIRECTORY' || e.code === 'SQLITE_CANTOPEN')) return readCopy(path);
    throw storeFailure(e, path, false);
  }
}

/** A private copy of the store (and its write-ahead log), for a store whose folder SQLite cannot write its shared-memory file into. */
function readCopy(path: string): ReadableStore & { cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-read-'));
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const store = RollStore.open(copy, { readonly: true });
    return { store, note: `${path} is in a folder this user cannot write; read from a copy.`, cleanup };
  } catch (e) {
    cleanup();
    throw storeFailure(e, path, false);
  }
}
