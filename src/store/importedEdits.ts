/**
 * An imported session stored from an export changed since it was sealed (`import --allow-edited`): its config keeps
 * what differed from the seal (`imported[].edited`, see importRolls). Its rolls are the user's own, not the exported
 * session's evidence, and it has no session verdict; every place that lists or reports the session says so, in the
 * same words (`editedImportWords`), from this one reading of its config.
 */

/** One file of an import that was edited since its export: the file, the session it was exported from, what differs. */
export interface EditedImport {
  readonly file: string;
  /** The exported session's id on its store (null when its manifest did not say). */
  readonly session: number | null;
  /** What differs from the seal, as `dicerig verify FILE` said it at import (e.g. `die red-1: its rows differ ... from line 6 on`). */
  readonly differences: readonly string[];
}

/** The `imported` entries of a session's stored config, one a file (none for a session recorded on a rig, or a config that does not parse). */
export function importedEntries(configJson: string | null): unknown[] {
  if (configJson === null) return [];
  let config: unknown;
  try {
    config = JSON.parse(configJson) as unknown;
  } catch {
    return [];
  }
  const imported = (config as { imported?: unknown } | null)?.imported;
  return Array.isArray(imported) ? imported : [];
}

/** The edited files an imported session's config names (none for a session recorded on a rig, or an import of unedited files). */
export function editedImports(configJson: string | null): EditedImport[] {
  return importedEntries(configJson).flatMap((i: unknown) => {
    const entry = i as { file?: unknown; edited?: unknown; exportedSession?: { id?: unknown } | null } | null;
    if (entry === null || typeof entry !== 'object' || !Array.isArray(entry.edited)) return [];
    const differences = entry.edited.filter((d): d is string => typeof d === 'string');
    const id = entry.exportedSession?.id;
    return [{ file: typeof entry.file === 'string' ? entry.file : '?', session: typeof id === 'number' ? id : null, differences }];
  });
}

/** A difference said short, as `die X from line N` where it names a die and a line (else as it was recorded). */
function shortDifference(d: string): string {
  const die = /^(die .+?): /.exec(d);
  const line = /\blines? (\d+)/.exec(d);
  if (die !== null && line !== null) return `${die[1]} from line ${line[1]}`;
  return d;
}

/**
 * The mark an edited import carries wherever it is listed or reported: `imported from an EDITED export (s1.jsonl: die
 * red-1 from line 6): its rolls are the user's own, no session verdict`. Undefined for any other session.
 */
export function editedImportWords(edits: readonly EditedImport[]): string | undefined {
  if (edits.length === 0) return undefined;
  const what = edits.map((e) => {
    const first = e.differences[0];
    const more = e.differences.length > 1 ? ` and ${e.differences.length - 1} more` : '';
    return `${e.file}${first !== undefined ? `: ${shortDifference(first)}${more}` : ''}`;
  });
  return `imported from an EDITED export (${what.join('; ')}): its rolls are the user's own, no session verdict`;
}
