/**
 * Import's check of each export against the seal its manifest carries: an export changed since it was written is not
 * its session's evidence, so importing it is refused (naming the file, the die and the line), or with
 * `--allow-edited` it is stored as the user's own rolls, never with the session's verdicts, and the session says so.
 */
import { InputError } from '../core/errors.js';
import { sealDifferences } from '../store/exportSealCheck.js';
import type { ImportSource } from '../store/importRolls.js';
import { firstDifferingLine, sealCheckOf } from './exportSealFile.js';

export interface EditedExports {
  /** The sources, those edited since their export marked so (`edited`: what differs). */
  readonly sources: ImportSource[];
  /** Whether any is edited (allowed): the import then keeps no exported session's verdicts or settings. */
  readonly any: boolean;
  readonly notes: string[];
}

export function editedExports(sources: readonly ImportSource[], allowEdited: boolean): EditedExports {
  const notes: string[] = [];
  let any = false;
  const checked = sources.map((s) => {
    if (s.manifest === undefined) return s;
    const check = sealCheckOf(s.file, s.manifest);
    if (check.seal === 'unsealed') {
      notes.push(`${s.file}: its export carries no seal (made before exports were sealed), so its rows could not be checked against its manifest; imported as before`);
      return s;
    }
    if (check.ok) return s;
    const differences = sealDifferences(check);
    const session = s.manifest.session.id ?? '?';
    if (!allowEdited) {
      const line = firstDifferingLine(check);
      throw new InputError(
        `${differences.join('; ')}. The file is not session ${session}'s export as sealed, so its rolls are not that session's evidence. ` +
          `\`dicerig verify ${s.file}\` says what differs; --allow-edited imports it as your own rolls, without the session's verdicts or settings`,
        line !== undefined ? { file: s.file, line } : { file: s.file },
      );
    }
    any = true;
    notes.push(`${s.file}: edited since its export (${differences.join('; ')}): imported as your own rolls, without session ${session}'s verdicts or settings`);
    return { ...s, edited: differences };
  });
  return { sources: checked, any, notes };
}
