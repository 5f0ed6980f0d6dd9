import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes a folder and the missing ones above it, one at a time from the nearest that exists. Node's
 * `mkdirSync(path, { recursive: true })` loops for ever where a file system refuses a folder with ENOENT under a
 * parent that exists (`/proc/nope`: mkdir says ENOENT, its parent says EEXIST, and it tries again); made one by one,
 * the folder that cannot be made fails with Node's own error, naming it.
 */
export function makeFolders(dir: string): void {
  const missing: string[] = [];
  let path = resolve(dir);
  for (;;) {
    try {
      statSync(path);
      break; // exists: mkdir below it says plainly if it is not a folder
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.push(path);
      const up = dirname(path);
      if (up === path) break;
      path = up;
    }
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (e) {
      // Made meanwhile by another process: fine, as long as it is a folder.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw e;
    }
  }
}
