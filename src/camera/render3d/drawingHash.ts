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

/**
 * Drawing codes known to draw byte for byte what an older one drew: a change of how the page is given its inputs, not of
 * what it draws, still changes the hash of its files. Each entry maps the newer hash to the older, and says how it was
 * checked: seeds of sets the older code drew, rendered again by the newer, the JPEG files compared byte for byte.
 */
const SAME_DRAWING: Readonly<Record<string, string>> = {
  // 2026-12-02: the meshes sent to the page as float32 bytes, not as arrays (Chromium 156.0.8078.114): seeds 1-3 of
  // train-xwing and 1008200-1008201 of dev6-xwing-f3 (foreign-3 art, 30 % cocked) the same bytes.
  f82365e2665a3366821ba3e302eb9f64e73fb060ef297c4ddf13f470322f5050: '3b6f88203d506c44f1e20d96897890a01dc08e8ade299763b669d7a6cf00f422',
  // 2026-12-06: a page that resizes its renderer for another frame size instead of making a new one, and reads raw
  // pixels back (Chromium 156.0.8078.129): seeds 1-3 of train-xwing, 1008200 (foreign-3, 30 % cocked), 1000700 (random
  // art), 2500042 (d6) and tray scenes 510000-510001, drawn rig and tray in turn, the same JPEG and PNG bytes.
  '1516156b80545dc90b433a884ab7d0a726bb0be68a654823ddbee8a5a3cba46c': 'f82365e2665a3366821ba3e302eb9f64e73fb060ef297c4ddf13f470322f5050',
  // 2026-12-07: the page's canvas not shown (display: none), so not composited after each frame (Chromium
  // 156.0.8078.129): seeds 1-3 of train-xwing, 1008200 (foreign-3, 30 % cocked), 1000700 (random art), 2500042 (d6) and
  // tray scenes 510000-510001, drawn rig and tray in turn, the same JPEG, PNG and raw pixel bytes.
  ff361161c6235ebcd99c03e75fbc389dac447cbe3b2c06f4328aefe816bad243: '1516156b80545dc90b433a884ab7d0a726bb0be68a654823ddbee8a5a3cba46c',
};

/** The oldest drawing code known to draw what `drawing` draws (itself when none is). */
function earliestAlike(drawing: string): string {
  let at = drawing;
  for (let older = SAME_DRAWING[at]; older !== undefined; older = SAME_DRAWING[at]) at = older;
  return at;
}

/** Whether images drawn by drawing code `a` are those `b` draws: the same hash, or two known to draw alike (`SAME_DRAWING`). */
export function drawsAlike(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && earliestAlike(a) === earliestAlike(b);
}

/** Two identities in words, for an error that says which renderer drew what. */
export function describeRenderer(r: RendererIdentity | undefined): string {
  return r === undefined ? 'a renderer that did not record itself' : `Chromium ${r.chromium}, drawing code ${r.drawing.slice(0, 12)}`;
}
