/**
 * The export manifest a roll-log file carries (`dicerig export` writes one): `FILE.manifest.json` beside it, else
 * one embedded in its first lines. It names the session the rolls are of, so the same session read twice (an export
 * as CSV and as JSON Lines) can be told.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import { refuseFileOfGivenSession, refuseOneSessionTwice } from '../store/importedBefore.js';
import { checkManifest, embeddedManifest, type ImportedManifest } from '../store/manifest.js';
import { storedSessionName } from './storedLogs.js';
import type { StoredSession } from './storedSessions.js';

/** A file's export manifest: `FILE.manifest.json` beside it, else one embedded in its first lines. */
export function manifestOf(file: string): ImportedManifest | undefined {
  const sidecar = `${file}.manifest.json`;
  if (existsSync(sidecar)) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(sidecar, 'utf8')) as unknown;
    } catch (e) {
      throw new InputError(`the manifest is not valid JSON (${(e as Error).message})`, { file: sidecar }, { cause: e });
    }
    return checkManifest(value, sidecar, 1);
  }
  return embeddedManifest(readPrefix(file, 1 << 20), file);
}

/** The first `bytes` of a file as text (a manifest sits in the first lines; the log itself may be large). */
function readPrefix(file: string, bytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's manifest when it has a readable one; none when it has none or a broken one (only `import` depends on
 * it), or when the file cannot be read (the log reader then says why, naming the file).
 */
export function manifestIfAny(file: string): ImportedManifest | undefined {
  try {
    return manifestOf(file);
  } catch (e) {
    if (e instanceof InputError || typeof (e as NodeJS.ErrnoException).code === 'string') return undefined;
    throw e;
  }
}

/** Each file with the manifest it carries, if it has a readable one (read once: `manifestIfAny`). */
export function withManifestsIfAny(files: readonly string[]): FileWithManifest[] {
  return files.map((file) => {
    const manifest = manifestIfAny(file);
    return manifest === undefined ? { file } : { file, manifest };
  });
}

export interface FileWithManifest {
  readonly file: string;
  readonly manifest?: ImportedManifest;
}

/**
 * Refuses sources of analyze and pool that would count one session's rolls twice, told by the files' manifests: two
 * exports of one session (as CSV and as JSON Lines, say), or an export given beside its stored session.
 */
export function refuseSessionsCountedTwice(files: readonly FileWithManifest[], sessions: readonly StoredSession[]): void {
  refuseOneSessionTwice(files);
  refuseFileOfGivenSession(files, sessions.map((x) => ({ record: x.session, name: storedSessionName(x) })));
}
