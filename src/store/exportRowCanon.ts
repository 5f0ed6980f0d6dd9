/**
 * An export row's canonical content: the fields `dicerig export` writes, as text, the same whether the row came from
 * CSV or JSON Lines, so one session's two exports seal alike and a file's line endings, quoting or number spelling
 * (`0.90` for `0.9`) do not count as a change. What the seal (`exportSeal.ts`) hashes, and all it hashes.
 */
import { detectDelimiter, splitCsvLine } from '../rolllog/csvLine.js';
import { normaliseHeader } from '../rolllog/columns.js';

/** The sealed fields, in the canonical row's order. A field a file does not carry is empty. */
export const SEALED_FIELDS = ['throw', 'die', 'type', 'channel', 'face', 'symbol', 'confidence', 'classifier', 'simulated', 'resolution', 'reviewer'] as const;

/**
 * The throw's time (format version 3) is sealed after them, and only where a row gives one: a row of an earlier
 * export canonicalises as it always did, so its seal still verifies, while a time changed, or removed from a file that
 * had them, changes the row.
 */
const TIME = 'time';

const NUMERIC = new Set(['throw', 'channel', 'confidence']);

/** A row's canonical text (one line of JSON), or undefined for a line that is not a row (header, comment, blank, manifest). */
export type RowCanon = (line: string, lineNo: number) => { readonly die: string; readonly text: string } | undefined;

/**
 * Reads a file's lines as canonical rows: CSV when its first line that is not blank or a `#` comment is a header,
 * JSON Lines when it is an object. Stateful (a CSV's header comes first), so one reader per file.
 */
export function rowCanon(): RowCanon {
  let csv: { delimiter: string; at: Map<string, number> } | undefined;
  let json: boolean | undefined;
  return (raw, lineNo) => {
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    const trimmed = line.replace(/^\uFEFF/, '').trim();
    if (trimmed === '') return undefined;
    if (json === undefined) {
      if (trimmed.startsWith('#')) return undefined;
      json = trimmed.startsWith('{');
      if (!json) {
        const delimiter = detectDelimiter(trimmed);
        const header = splitCsvLine(trimmed, delimiter, '', lineNo).map(normaliseHeader);
        csv = { delimiter, at: new Map(header.map((h, i) => [h, i])) };
        return undefined;
      }
    }
    if (json) return jsonRow(trimmed);
    if (trimmed.startsWith('#')) return undefined;
    const c = csv as NonNullable<typeof csv>;
    let cells: string[];
    try {
      cells = splitCsvLine(line, c.delimiter, '', lineNo);
    } catch {
      // Unreadable as CSV: sealed as its raw text, so it differs from whatever row was there.
      return { die: '', text: JSON.stringify([line]) };
    }
    const cell = (f: string): string => {
      const i = c.at.get(f);
      return i === undefined ? '' : (cells[i] ?? '');
    };
    return canonical(SEALED_FIELDS.map(cell), cell(TIME));
  };
}

function jsonRow(line: string): { die: string; text: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { die: '', text: JSON.stringify([line]) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { die: '', text: JSON.stringify([line]) };
  const obj = value as Record<string, unknown>;
  if (obj['kind'] === 'manifest') return undefined;
  return canonical(SEALED_FIELDS.map((f) => jsonText(obj[f])), jsonText(obj[TIME]));
}

function jsonText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  return JSON.stringify(v);
}

function canonical(values: string[], time: string): { die: string; text: string } {
  const out = values.map((raw, i) => {
    const field = SEALED_FIELDS[i] as string;
    const v = raw.trim();
    if (NUMERIC.has(field) && v !== '' && Number.isFinite(Number(v))) return String(Number(v));
    if (field === 'simulated') return /^(1|true)$/i.test(v) ? '1' : /^(0|false|)$/i.test(v) ? '0' : v;
    if (field === 'resolution') return v === '' ? 'read' : v.toLowerCase();
    return v;
  });
  const t = time.trim();
  if (t !== '') out.push(t);
  return { die: out[1] as string, text: JSON.stringify(out) };
}

/** JSON with every object's keys sorted, so a manifest pretty-printed, re-ordered or re-spaced reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A file's canonical rows in order, each with its line number (1-based): what the seal is made and checked over. */
export function* canonRows(lines: Iterable<string>): Generator<{ readonly die: string; readonly text: string; readonly line: number }> {
  const canon = rowCanon();
  let lineNo = 0;
  for (const line of lines) {
    const row = canon(line, ++lineNo);
    if (row !== undefined) yield { ...row, line: lineNo };
  }
}
