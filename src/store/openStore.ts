import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { diskOf, formatBytes } from './diskOf.js';
import { StoreError } from './errors.js';
import { RollStore, type RollStoreOptions } from './rollStore.js';
import { SCHEMA_VERSION } from './migrations.js';
import { isSqliteError, openDatabase, quickCheck, type SqliteError } from './sqlite.js';

/**
 * Opening the roll store the way each command needs it, with every way a file
 * can be unusable (missing, damaged, read-only, in a folder that cannot be
 * written) turned into one StoreError line that says what is wrong, what was
 * (not) done, and how to recover.
 *
 * Writers check the file with SQLite's integrity check before anything is
 * written, so a damaged store is never written into. Readers open read-only:
 * a store the user cannot write is still readable, and a reader never changes
 * the file (a store of an older schema is read through a migrated copy).
 */

const memory = (path: string): boolean => path === ':memory:' || path === '';

/** A folder given where a store file belongs: SQLite calls it a disk I/O error, which reads as a damaged store. */
function refuseFolder(path: string): void {
  if (memory(path) || !existsSync(path)) return;
  const stats = statSync(path);
  if (stats.isDirectory()) {
    throw new StoreError(`${path} is a folder, not a roll store file: give the store file itself (e.g. --db ${join(path, 'dicerig.db')}).`, { db: path, reason: 'folder' });
  }
  // A device or pipe (--db /dev/null) was called an empty file, or a damaged store to salvage.
  if (!stats.isFile()) {
    const kind = stats.isFIFO() ? 'a named pipe' : stats.isSocket() ? 'a socket' : 'a device';
    throw new StoreError(`${path} is ${kind}, not a roll store file: give the store file itself; nothing was written.`, { db: path, reason: 'not a file' });
  }
}

/** The recovery advice for a damaged store. */
function recovery(path: string): string {
  return `To recover: copy everything still readable into a new store (\`dicerig salvage ${path} --out NEW.db\`; \`dicerig verify --db ${path}\` says what is damaged), or restore a backup.`;
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

/** The error code `access(W_OK)` gives for `target`, or undefined when it may be written. */
function writeDenied(target: string): string | undefined {
  try {
    accessSync(target, constants.W_OK);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** Where a read-only file system is mounted, for a message: ` (mounted read-only at /mnt)`, or nothing when unknown. */
function mountedAt(path: string): string {
  const disk = diskOf(path);
  return disk.mountPoint !== undefined ? ` (mounted ${disk.readOnly === true ? 'read-only ' : ''}at ${disk.mountPoint})` : '';
}

/** Why `target` (the store file, or `what` names its folder) cannot be written, or undefined. */
function writeProblem(target: string, what: string): string | undefined {
  const denied = writeDenied(target);
  // A read-only mount refuses even root, whatever the modes say: the mount is what to change, not the permissions.
  if (denied === 'EROFS') return `${what} is on a read-only file system${mountedAt(target)}`;
  // Root passes every access check; a file with no write bit is still meant to be read-only.
  const mode = statSync(target).mode;
  if ((mode & 0o222) === 0) return `${what} is read-only (mode ${(mode & 0o777).toString(8)})`;
  if (denied !== undefined) return `${what} is not writable by this user`;
  return undefined;
}

/** Why the file cannot be written by this process, or undefined when it can (as far as can be told before trying). */
function unwritable(path: string): string | undefined {
  const dir = dirname(path);
  const file = existsSync(path) ? writeProblem(path, 'the file') : undefined;
  if (file !== undefined) return file;
  // SQLite writes its journal files beside the store.
  return existsSync(dir) ? writeProblem(dir, `its folder ${dir}`) : undefined;
}

/** How to go on after a disk filled up: the resume command when a session was running, else try again. */
export interface StoreFailureHints {
  /** The command that continues the session whose throw could not be stored. */
  readonly resume?: string;
}

/** The disk holding the store is full: which file, which file system, and that what was committed is kept. */
function diskFull(path: string, hints: StoreFailureHints, cause: unknown): StoreError {
  const disk = diskOf(path);
  const where = [disk.mountPoint !== undefined ? `the file system mounted at ${disk.mountPoint}` : undefined, disk.freeBytes !== undefined ? `${formatBytes(disk.freeBytes)} free` : undefined].filter(Boolean);
  const then =
    hints.resume !== undefined
      ? `the throw being stored was not, and every throw committed before it is kept. Free some space on it, then continue with ${hints.resume}`
      : 'nothing more was written. Free some space on it and try again';
  return new StoreError(`The disk holding the roll store ${path} is full${where.length > 0 ? ` (${where.join(', ')})` : ''}: ${then}.`, { db: path, reason: 'disk-full' }, { cause });
}

/** A thrown SQLite error (or a full disk) as the StoreError a user should see, or the error itself when it is neither. */
export function storeFailure(e: unknown, path: string, writing: boolean, hints: StoreFailureHints = {}): unknown {
  // A throw's evidence pictures are written beside the store, before its transaction: their disk filling is the store's.
  if (writing && (e as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC') return diskFull(path, hints, e);
  if (!isSqliteError(e)) return e;
  const err = e as SqliteError;
  if (err.code === 'SQLITE_FULL') return diskFull(path, hints, e);
  if (CORRUPT.test(err.code)) return damagedError(path, err.message, false, e);
  if (READONLY.test(err.code)) {
    const cannot = writing ? unwritable(path) : undefined;
    return new StoreError(
      `Cannot ${writing ? 'write' : 'read'} the roll store ${path}: ${cannot ?? err.message}${writing ? '; nothing was written' : ''}. ${cannot?.includes('read-only file system') === true ? 'Mount it read-write, or write to another --db' : "Check the file's and its folder's permissions"}.`,
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
  /** Said to the user when the store was read in an unusual way (through a copy: an older schema, or a folder SQLite cannot write). */
  readonly note?: string;
}

/**
 * Runs `fn` on the store opened read-only (verify, export, report, pool, sessions).
 * The file is never changed: a store of an older schema, or one in a folder SQLite cannot write its journal into,
 * is read from a private copy (migrated when old), and `tell` is given the note that says so. SQLite errors in `fn`
 * (a damaged page met while reading) become one StoreError line.
 */
export async function withReadableStore<T>(path: string, fn: (opened: ReadableStore) => T | Promise<T>, tell?: (note: string) => void): Promise<T> {
  const opened = openStoreForReading(path);
  if (opened.note !== undefined) tell?.(opened.note);
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
  // SQLite reads an empty file as an empty database, so a store emptied by accident would "verify" with nothing in it.
  if (!memory(path) && statSync(path).size === 0 && !existsSync(`${path}-wal`)) {
    throw new StoreError(`${path} is an empty file (0 bytes), not a roll store: if it was one, its contents are gone; restore it from a backup or an export.`, { db: path });
  }
  try {
    return { store: RollStore.open(path, { readonly: true }) };
  } catch (e) {
    // Migrating in place would change a file a reader was asked to read, and lock out the dicerig that wrote it.
    if (isOldSchema(e)) return readCopy(path, 'old');
    if (isSqliteError(e) && (e.code === 'SQLITE_READONLY_DIRECTORY' || e.code === 'SQLITE_CANTOPEN')) return readCopy(path, 'folder');
    throw storeFailure(e, path, false);
  }
}

const isOldSchema = (e: unknown): boolean => e instanceof StoreError && e.where['reason'] === 'old-schema';

/** The schema version a store file says it has (its `user_version`). */
function schemaVersionOf(path: string): number {
  const db = openDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/**
 * A private copy of the store (and its write-ahead log), migrated when its schema is older: for a store of an older
 * schema, and for one whose folder SQLite cannot write its shared-memory file into.
 */
function readCopy(path: string, why: 'old' | 'folder'): ReadableStore & { cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-read-'));
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const version = schemaVersionOf(copy);
    const old = version < SCHEMA_VERSION;
    if (old) {
      const problems = integrityOf(copy);
      if (problems.length > 0) throw damagedError(path, problems.join('; '), false);
      RollStore.open(copy, { mustExist: true }).close();
    }
    const store = RollStore.open(copy, { readonly: true });
    const notes = [
      ...(why === 'folder' ? [`${path} is in a folder this user cannot write; read from a copy.`] : []),
      ...(old
        ? [
            `${path} has schema version ${version} (this dicerig's is ${SCHEMA_VERSION}): read through an up-to-date copy, and the file is left as it is, so the dicerig that wrote it still opens it. ` +
              'A command that writes to it (run, import, review, sync) brings it forward.',
          ]
        : []),
    ];
    return { store, note: notes.join(' '), cleanup };
  } catch (e) {
    cleanup();
    throw storeFailure(e, path, false);
  }
}

/**
 * Brings a store of an older schema forward in place, for a command that writes it or hands it on at this schema
 * (`sync`, which copies it as this dicerig's schema has it): the schema version it had, or undefined when it was current.
 */
export function bringForward(path: string): number | undefined {
  // Before SQLite is asked: it would call a missing file (or folder) a permissions problem, or worse, crash on it.
  if (!memory(path) && !existsSync(path)) throw new StoreError(`There is no roll store at ${path}.`, { db: path });
  refuseFolder(path);
  let version: number;
  try {
    version = schemaVersionOf(path);
  } catch (e) {
    throw storeFailure(e, path, true);
  }
  if (version >= SCHEMA_VERSION || version === 0) return undefined;
  openStoreForWriting(path, { create: false }).close(); // migrates, after the integrity check
  return version;
}
