/**
 * An export file checked against the seal its manifest carries (`checkSeal`): the whole file read again, line by
 * line, as `verify FILE`, analyze, pool and import need it.
 */
import { readFileSync } from 'node:fs';
import { checkSeal, type SealCheck } from '../store/exportSealCheck.js';
import type { ImportedManifest } from '../store/manifest.js';

export function sealCheckOf(file: string, manifest: ImportedManifest): SealCheck {
  const text = readFileSync(file, 'utf8');
  return checkSeal(lines(text), manifest);
}

/** The text's lines (a CR before the newline is the reader's to drop). */
function* lines(text: string): Generator<string> {
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    yield text.slice(pos, end);
    if (nl < 0) return;
    pos = nl + 1;
  }
}

/** The first line a check names, to point an error at it. */
export function firstDifferingLine(check: SealCheck): number | undefined {
  const lines = check.dice.flatMap((d) => (d.rows?.line !== undefined ? [d.rows.line] : []));
  return lines.length > 0 ? Math.min(...lines) : undefined;
}
