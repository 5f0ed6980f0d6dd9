/**
 * A session made by `dicerig import` holds rolls read from files: no rig ran it in this store, so there is nothing to
 * roll on, and its rolls kept no crops for a person to label. Its stored config describes the import (files,
 * settings), not a run, so whatever needs a rig session's config refuses an imported one here, in words, instead of
 * failing to read that config as a run's.
 */
import { DicerigError } from '../core/errors.js';
import type { SessionRecord } from '../store/records.js';

/** What was asked of an imported session: labelling its rolls (`review`), rolling on (`resume`), or its run's config. */
export type ImportedRefusal = 'review' | 'resume' | 'config';

export class ImportedSessionError extends DicerigError {}

interface ImportedFile {
  readonly file?: unknown;
  readonly exportedSession?: { readonly id?: unknown; readonly name?: unknown };
}

/** The files the import read, and the exported session they came from when every file names the same one. */
function importedFrom(session: SessionRecord): { files: string[]; exported?: string } {
  let imported: ImportedFile[] = [];
  try {
    const parsed = (JSON.parse(session.configJson) as { imported?: unknown } | null)?.imported;
    if (Array.isArray(parsed)) imported = parsed as ImportedFile[];
  } catch {
    // A config that cannot be read names no files; the refusal still stands.
  }
  const files = imported.map((f) => f.file).filter((f): f is string => typeof f === 'string');
  const sessions = new Set(imported.map((f) => (typeof f.exportedSession?.id === 'number' ? `session ${f.exportedSession.id}${typeof f.exportedSession.name === 'string' ? ` (${f.exportedSession.name})` : ''}` : '')));
  const [only] = sessions;
  return { files, ...(sessions.size === 1 && only !== undefined && only !== '' ? { exported: only } : {}) };
}

/** Throws `ImportedSessionError` when `session` was imported: `doing` says what cannot be done with it, and what can. */
export function refuseImported(session: SessionRecord, doing: ImportedRefusal): void {
  if (session.origin !== 'import') return;
  const { files, exported } = importedFrom(session);
  const from = files.length > 0 ? ` from ${files.join(', ')}` : ' from roll logs';
  // A plain roll log came from no store: there is nothing to go back to.
  const where = exported !== undefined ? `${exported} in the store it was exported from` : 'the rolls where they were made (these logs name no session of a store)';
  const todo =
    doing === 'review'
      ? `its rolls kept no crops to label; review ${where}, or run a new session`
      : doing === 'resume'
        ? `no rig ran it here, so there is nothing to roll on; resume ${where}, or run a new session`
        : 'it has no crops to label and no rig to resume; run a new session';
  throw new ImportedSessionError(`session ${session.id} was imported${from}: ${todo}.`, { session: session.id, origin: 'import' });
}
