/**
 * An output file the user named (--out), checked before anything is read or written: export and salvage stage their
 * files beside it under a hidden temporary name, so a folder that is missing, not a folder or read-only failed on
 * that temporary name (".x.csv.manifest.json.123.partial"), a file the user never gave, or as a bare SQLite
 * "unable to open database file".
 */
import { accessSync, constants, existsSync, lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { fileSystemProblem } from './fileSystemError.js';

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function kindOf(s: Stats): string | undefined {
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  return undefined;
}

/**
 * Refuses an --out that is a device, pipe, socket or symbolic link, and one whose folder is missing (unless
 * `makesFolders`), not a folder or not writable.
 */
export function checkOutputFile(flag: string, given: string, options: { readonly makesFolders?: boolean } = {}): void {
  let target: Stats | undefined;
  try {
    target = statSync(given);
  } catch {
    target = undefined;
  }
  const kind = target !== undefined ? kindOf(target) : undefined;
  // Written beside it and renamed over it, a device (/dev/full, /dev/stdout) would be replaced by a plain file, even with --force.
  if (kind !== undefined) throw new InputError(`${flag} ${given} is ${kind}, not a file: a new file would replace it: give the name of a file; nothing was written`);
  // The new file is renamed into place, which replaces a link and leaves the file it points to as it was.
  if (isLink(given)) throw new InputError(`${flag} ${given} is a symbolic link (to ${resolve(dirname(given), readlinkSync(given))}): the new file would replace the link, not write where it points: give that file's own name or another one; nothing was written`);
  checkFolderTakes(flag, given, dirname(resolve(given)), options.makesFolders === true);
}

/** Refuses an output folder (report --out, vision simulate --out) that is a file, or whose nearest existing folder is not a folder or not writable. */
export function checkOutputFolder(flag: string, given: string): void {
  if (existsSync(given) && !statSync(given).isDirectory()) throw new InputError(`${flag} ${given} is a file, not a folder: give a folder (a missing one is made); nothing was written`);
  checkFolderTakes(flag, given, resolve(given), true);
}

function checkFolderTakes(flag: string, given: string, wanted: string, makesFolders: boolean): void {
  let folder = wanted;
  // A command that makes the missing folders needs the nearest one that exists to be a folder it may write in.
  if (makesFolders) while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  let where: Stats;
  try {
    where = statSync(folder);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is under a file, not a folder' : (fileSystemProblem(e) ?? String(e));
    throw new InputError(`${flag} ${given}: its folder ${folder} ${why}; nothing was written`);
  }
  if (!where.isDirectory()) throw new InputError(`${flag} ${given}: ${folder} is a file, not a folder; nothing was written`);
  try {
    // Root passes a permission check, but not a read-only file system (EROFS).
    accessSync(folder, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EROFS' ? 'the file system is read-only' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : String(e);
    throw new InputError(`${flag} ${given}: cannot write in the folder ${folder}: ${why} (${code ?? 'unknown'}); nothing was written`);
  }
}
