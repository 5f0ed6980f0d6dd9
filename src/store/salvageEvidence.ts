/**
 * The evidence pictures of a salvaged store. A roll names its picture by a path relative to the store's folder
 * (`evidence/STORE-FILE-NAME/session-N/...`, the name of the store it was taken for), and that path is sealed in its
 * throw's hash: it cannot be changed to the new store's name without breaking the chain. So the pictures go where the
 * kept rows name them, relative to the new store's folder: the damaged store's picture folder is copied beside the new
 * store under the same name (nothing to copy when both stores are in one folder: the rows name the pictures in place).
 */
import { constants, copyFileSync, cpSync, existsSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { makeFolders } from '../core/makeFolders.js';

export interface SalvagedEvidence {
  /** The folders the kept rows name their pictures in (`evidence/DAMAGED.db`), relative to the store's folder. */
  readonly folders: readonly string[];
  /** Both stores are in one folder: the new store's rows name the damaged store's pictures where they are. */
  readonly inPlace: boolean;
  /** Picture files copied beside the new store (the folder's, pictures of lost rows too: they are the damaged store's). */
  readonly copied: number;
}

const folderOf = (path: string): string => {
  const dir = dirname(resolve(path));
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

/** The evidence folder of the store `from`, relative to its folder. */
export const evidenceFolderName = (from: string): string => join('evidence', basename(resolve(from)));

/**
 * The folder beside `to` the pictures of `from` would be copied into, when it exists already (another store of the
 * damaged store's name kept its pictures there): copying into it would mix two stores' pictures.
 */
export function evidenceClash(from: string, to: string): string | undefined {
  if (folderOf(from) === folderOf(to)) return undefined;
  const target = join(dirname(resolve(to)), evidenceFolderName(from));
  return existsSync(target) ? target : undefined;
}

/** A path a row names that stays inside the store's folder (a damaged or crafted row may name anything). */
const inside = (path: string): boolean => !isAbsolute(path) && !normalize(path).split(sep).includes('..');

/**
 * Copies the damaged store's picture folder, and any other picture a kept row names (stores made before each had its
 * own folder kept them in `evidence/session-N`), to the same paths beside the new store. Never overwrites a file.
 * `undo` removes what was copied, for a salvage that fails after it.
 */
export function copyEvidence(from: string, to: string, rowPaths: readonly string[]): SalvagedEvidence & { undo: () => void } {
  const folder = evidenceFolderName(from);
  const folders = [...new Set(rowPaths.filter(inside).map((p) => normalize(p).split(sep).slice(0, -1).slice(0, 2).join(sep)))].sort();
  if (folderOf(from) === folderOf(to)) return { folders, inPlace: true, copied: 0, undo: () => undefined };
  const fromBase = dirname(resolve(from));
  const toBase = dirname(resolve(to));
  const made: string[] = [];
  const undo = (): void => {
    for (const p of made.reverse()) rmSync(p, { recursive: true, force: true });
  };
  let copied = 0;
  try {
    if (existsSync(join(fromBase, folder))) {
      makeFolders(dirname(join(toBase, folder)));
      made.push(join(toBase, folder));
      cpSync(join(fromBase, folder), join(toBase, folder), { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
      copied += readdirSync(join(toBase, folder), { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length;
    }
    for (const p of new Set(rowPaths)) {
      if (!inside(p) || normalize(p).startsWith(folder + sep) || !existsSync(join(fromBase, p)) || existsSync(join(toBase, p))) continue;
      makeFolders(dirname(join(toBase, p)));
      copyFileSync(join(fromBase, p), join(toBase, p), constants.COPYFILE_EXCL);
      made.push(join(toBase, p));
      copied++;
    }
  } catch (e) {
    undo();
    throw e;
  }
  return { folders, inPlace: false, copied, undo };
}
