/**
 * The identity of what draws a render, so a rendered set says what drew it.
 *
 * A scene's parameters travel in each image's truth file, but the drawing code
 * does not: the browser page's files (icons, materials, lens, post-processing),
 * three.js and the die meshes sent to the page. A set rendered while one of
 * those was changed (an icon drawing edited for a try, say) looks like any
 * other; and images grown into a set with `reuse` must have been drawn by the
 * same code. So the renderer hashes them when its page loads them.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What drew a render: Chromium's version and the drawing code's hash. */
export interface RendererIdentity {
  /** Chromium's version, as the browser itself gives it (e.g. 156.0.8078.108; its user agent says only 156.0.0.0). */
  readonly chromium: string;
  /** sha256 (hex) of the page's files, three.js's version and the die meshes the page was given. */
  readonly drawing: string;
}

/**
 * Hashes the page's files: each by name and bytes, in name order, never its
 * path on disk (so a clone elsewhere hashes the same). The renderer hashes them
 * before its page loads them and again after, to know they did not change.
 */
export function pageFilesHash(pageDir: string): string {
  const hash = createHash('sha256');
  const names = readdirSync(pageDir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    const bytes = readFileSync(join(pageDir, name));
    // Length-prefixed, so no two different file sets hash alike by shifting bytes between files.
    hash.update(`file ${name} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest('hex');
}

/** Hashes the drawing code: the page's files (`pageFilesHash`), three.js's version (its code is pinned by that version) and the meshes. */
export function drawingHash(pageFiles: string, threeVersion: string, meshes: unknown): string {
  return createHash('sha256').update(`page ${pageFiles}\nthree ${threeVersion}\nmeshes ${JSON.stringify(meshes)}\n`).digest('hex');
}

/** Two identities in words, for an error that says which renderer drew what. */
export function describeRenderer(r: RendererIdentity | undefined): string {
  return r === undefined ? 'a renderer that did not record itself' : `Chromium ${r.chromium}, drawing code ${r.drawing.slice(0, 12)}`;
}
