/**
 * A dice box: the dice a campaign tests, one per line of a CSV file with the
 * columns `label,die` (the die's own label and its die type id, e.g. d6, red,
 * green). Blank lines and lines starting with # are skipped. Every problem is
 * one line naming the file, the line and what is wrong.
 */
import { InputError } from '../../core/errors.js';
import { OWN_DIE_HINT, sameDieId } from '../../dice/catalogue.js';
import { detectDelimiter, splitCsvLine } from '../../rolllog/csvLine.js';

/** Same cap as a session config's die label (a label is written on a die). */
const MAX_LABEL_LENGTH = 200;
/** A box of a few thousand dice is already months of machine time. */
export const MAX_BOX_DICE = 10_000;

export interface BoxDie {
  readonly label: string;
  /** Die type id. */
  readonly die: string;
  /** 1-based line in the box file. */
  readonly line: number;
}

export function parseBox(text: string, file: string, knownDice: readonly string[]): BoxDie[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerIndex = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (headerIndex < 0) throw new InputError('the dice box is empty; expected a header "label,die" and one line per die', { file });
  const header = lines[headerIndex] as string;
  const delimiter = detectDelimiter(header);
  const columns = splitCsvLine(header, delimiter, file, headerIndex + 1).map((c) => c.trim().toLowerCase());
  const labelAt = columns.indexOf('label');
  const dieAt = columns.findIndex((c) => c === 'die' || c === 'type');
  if (labelAt < 0 || dieAt < 0) {
    // A roll log (analyze, import) has a die column too, and a face or throw column a box never has.
    const rollLog = columns.includes('face') || columns.includes('symbol') || columns.includes('throw');
    const hint = rollLog ? ': this looks like a roll log (one row per roll), not a dice box; a box lists each die once, with its label and die type (see examples/campaign-box.csv)' : '';
    throw new InputError(`the header must name the columns "label" and "die" (found: ${columns.join(', ')})${hint}`, { file, line: headerIndex + 1 });
  }
  const out: BoxDie[] = [];
  const seen = new Map<string, number>();
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const lineNo = i + 1;
    const fields = splitCsvLine(raw, delimiter, file, lineNo);
    if (fields.length !== columns.length) {
      throw new InputError(`has ${fields.length} fields but the header has ${columns.length}`, { file, line: lineNo });
    }
    const label = (fields[labelAt] as string).trim();
    const written = (fields[dieAt] as string).trim();
    // Die ids compare without case everywhere (a log's `Red` is the red die): the box stores the catalogue's spelling.
    const die = knownDice.find((id) => sameDieId(id, written)) ?? written;
    if (label === '') throw new InputError('the die has no label', { file, line: lineNo, column: 'label' });
    if (label.length > MAX_LABEL_LENGTH) throw new InputError(`a label is at most ${MAX_LABEL_LENGTH} characters`, { file, line: lineNo, column: 'label' });
    if (!knownDice.includes(die)) {
      throw new InputError(`"${written}" is not a known die type; known dice are: ${knownDice.join(', ')} (${OWN_DIE_HINT})`, { file, line: lineNo, column: 'die' });
    }
    const earlier = seen.get(label);
    if (earlier !== undefined) throw new InputError(`"${label}" is already the label on line ${earlier}; a label names one physical die`, { file, line: lineNo, column: 'label' });
    seen.set(label, lineNo);
    out.push({ label, die, line: lineNo });
    if (out.length > MAX_BOX_DICE) throw new InputError(`a box holds at most ${MAX_BOX_DICE} dice`, { file, line: lineNo });
  }
  if (out.length === 0) throw new InputError('the dice box lists no dice', { file });
  return out;
}
