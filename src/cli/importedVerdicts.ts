/**
 * The verdicts an imported session keeps. An export carries the verdicts its session made (one verdict per die, made
 * once at the session's error control, where its monitor stopped); the session imported from it holds the same rolls,
 * so it keeps them, and `analyze`, `pool` and `report` of it show them as the export's file does, instead of a
 * fixed-sample test of rolls whose number the session's stopping rule chose. They are kept only when every die's rolls
 * are those its verdict was made on (`fileVerdicts`), and only from one file: a session imported from several is
 * judged on all its rolls.
 */
import type { DieType } from '../dice/types.js';
import type { ParsedLog } from '../rolllog/types.js';
import type { FileWithManifest } from './fileManifest.js';
import { fileVerdicts } from './fileVerdicts.js';
import { isImportedFrom, storedDieVerdicts } from './storedVerdicts.js';

export interface ImportedVerdicts {
  /** The verdicts object to store with the imported session (the exported one, with `importedFrom`), if kept. */
  readonly verdicts?: unknown;
  /** Why they were not kept, one line each (for standard error). */
  readonly notes: string[];
}

export function importedVerdicts(logs: readonly ParsedLog[], sources: readonly FileWithManifest[], dice: readonly DieType[]): ImportedVerdicts {
  const carrying = sources.filter((s) => Array.isArray((s.manifest?.['verdicts'] as { dice?: unknown } | undefined)?.dice));
  if (carrying.length === 0) return { notes: [] };
  const notKept = "is judged on its rolls, not by the exported session's verdicts";
  if (sources.length > 1) return { notes: [`the session imported from ${sources.length} files ${notKept} (import one export to keep its session's verdicts)`] };
  const source = carrying[0] as FileWithManifest;
  const manifest = source.manifest as NonNullable<FileWithManifest['manifest']>;
  const session = manifest.session.id;
  const made = manifest['verdicts'] as { dice: unknown[]; importedFrom?: unknown };
  if (typeof session !== 'number') return { notes: [`${source.file}: its manifest names no session, so the imported session ${notKept}`] };
  const taken = fileVerdicts(logs, [source], dice);
  const stored = storedDieVerdicts(made, session);
  const labels = stored.map((v) => v.label);
  const whole = stored.every((v) => v.verdict.parts !== undefined);
  const missing = labels.filter((l) => !taken.verdicts.has(l));
  if (missing.length > 0 || !whole || labels.length !== made.dice.length) {
    const why = missing.length > 0 ? `${missing.length === 1 ? 'die' : 'dice'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not as the session judged ${missing.length === 1 ? 'it' : 'them'}` : 'its manifest holds a verdict this dicerig cannot read whole';
    return { notes: [...taken.notes, `${source.file}: ${why}, so the imported session ${notKept}`] };
  }
  // A session imported from an export of an imported session keeps where its verdicts were first made.
  const from = isImportedFrom(made.importedFrom) ? made.importedFrom : { session, file: source.file };
  return { verdicts: { ...made, importedFrom: from }, notes: [] };
}

