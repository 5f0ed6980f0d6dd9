/**
 * The files calibration and the vision commands write (profiles, D6 checks, heads): their path checked before the
 * minutes of work that make them, and each written whole or not at all. Missing folders on the path are made, for
 * every such file alike; a path through a plain file, or into a folder that cannot be written, is refused up front.
 * A file is written beside itself under a temporary name and renamed over the old one, so an interrupted write
 * leaves the old profile as it was, never half of a new one.
 */
import { constants, existsSync, statSync } from 'node:fs';
import { access, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { makeFolders } from '../core/makeFolders.js';

/**
 * Refuses, before any work, a path the file could not be written to: a folder, a path through a plain file, or a
 * folder (the nearest one that exists) this process may not write. `option` names the option that gave it.
 */
export async function checkOutputPath(file: string, option: string): Promise<void> {
  const full = resolve(file);
  if (existsSync(full) && statSync(full).isDirectory()) throw new InputError(`${option} names a folder; give a file name (e.g. ${join(file, 'profile.json')}).`, { file });
  let dir = dirname(full);
  while (!existsSync(dir)) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) throw new InputError(`${option} cannot be written: ${dir} is a file, not a folder.`, { file });
  try {
    await access(dir, constants.W_OK);
  } catch (e) {
    throw new InputError(`${option} cannot be written: the folder ${dir} is not writable (${(e as NodeJS.ErrnoException).code ?? 'denied'}).`, { file }, { cause: e });
  }
}

/** Writes `text` to `file` whole or not at all (a temporary file in the same folder, renamed over it), making missing folders. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(resolve(file));
  makeFolders(dir);
  const temporary = join(dir, `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
}
