import { existsSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { isFleetUrl } from '../fleet/connect.js';
import { rollStorePath } from './dbOption.js';
import { checkOutputFile } from './outputFile.js';

/** Where a file would be written, as the file system sees it (a link followed, a missing file by its folder). */
export function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * Refuses an export target that would destroy data: the roll store itself (or its WAL and journal files), always, and
 * any file that exists unless `force`. Checked before the store is opened, so nothing is written on a refusal.
 */
export function checkExportTarget(out: string, sidecar: string | undefined, db: string | undefined, force: boolean): void {
  const targets = [out, ...(sidecar !== undefined ? [sidecar] : [])];
  if (!isFleetUrl(db)) {
    const store = realTarget(rollStorePath(db));
    for (const t of targets) {
      const real = realTarget(t);
      if ([store, `${store}-wal`, `${store}-shm`, `${store}-journal`].includes(real)) {
        throw new InputError(`--out ${t} is the roll store being exported (or one of its files); writing the export there would destroy it. Give another file name`, { file: t });
      }
    }
  }
  for (const t of targets) checkOutputFile('--out', t);
  if (force) return;
  for (const t of targets) {
    if (!existsSync(t)) continue;
    const what = statSync(t).isDirectory() ? 'is a folder' : 'exists already';
    throw new InputError(`--out ${t} ${what}; export does not write over a file: give another --out name${what === 'is a folder' ? '' : ', or --force to replace it'}`);
  }
}

/** A file written beside its final name and moved into place when complete, so a failed export leaves no half-written file. */
export interface StagedFile {
  readonly temp: string;
  readonly final: string;
}

export function stagedFile(final: string): StagedFile {
  return { final, temp: join(dirname(final), `.${basename(final)}.${process.pid}.partial`) };
}

/** Moves every staged file into place (the manifest before the rows, so rows never stand without it), or removes them all. */
export function commitStaged(files: readonly StagedFile[]): void {
  for (const f of files) renameSync(f.temp, f.final);
}

export function discardStaged(files: readonly StagedFile[]): void {
  for (const f of files) rmSync(f.temp, { force: true });
}
