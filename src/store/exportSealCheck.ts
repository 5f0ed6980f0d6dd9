/**
 * Checks an export's lines and manifest against the seal its manifest carries (`exportSeal.ts`): which manifest fields
 * changed, and per die whether its rows or its verdict did, with the first line that differs (exact where the die's
 * marks are one a row, else the block of lines it lies in).
 */
import { createHash } from 'node:crypto';
import { formatCount } from '../core/format.js';
import { canonRows } from './exportRowCanon.js';
import { manifestDigests, MARK_BYTES, RowsHash, type DieSeal, type ExportSeal } from './exportSeal.js';

/** Where a die's rows first differ from the seal. */
export interface RowDifference {
  /** The rows the seal has of the die, and those the file has. */
  readonly sealed: number;
  readonly found: number;
  /** The first line that differs (exact), or the first line of the block it lies in (`to`: the block's last line). */
  readonly line?: number;
  readonly to?: number;
  /** `missing`: the file's rows of the die end after `line` (or have none), short of the seal's. */
  readonly kind: 'changed' | 'added' | 'missing' | 'unsealed-die';
}

export interface DieDifference {
  readonly label: string;
  readonly rows?: RowDifference;
  /** Its verdict in the manifest is not the one sealed (changed, added or removed). */
  readonly verdict?: boolean;
}

export interface SealCheck {
  /** No manifest seal: `unsealed` an export made before seals, `removed` a manifest of a sealing format without one. */
  readonly seal: 'sealed' | 'unsealed' | 'removed';
  readonly ok: boolean;
  /** The file's rows. */
  readonly rows: number;
  /** SHA-256 over the file's canonical rows (as a seal's `digest`), to compare with a fresh export of the session. */
  readonly digest: string;
  /** Manifest fields that differ from the seal (changed, added or removed). */
  readonly fields: readonly string[];
  readonly dice: readonly DieDifference[];
  /** Every die's rows are as sealed, but not in the sealed order across dice. */
  readonly reordered: boolean;
}

/** The first manifest format that carries a seal. */
export const SEALED_FORMAT_VERSION = 2;

/** A die's running check: its rows hash, compared with the seal's marks as rows arrive. */
class DieCheck {
  found = 0;
  private readonly hash = new RowsHash();
  blockStart = 0;
  lastLine = 0;
  firstLine = 0;
  difference: RowDifference | undefined;
  private readonly marks: Buffer;
  constructor(readonly seal: DieSeal | undefined) {
    this.marks = Buffer.from(seal?.marks ?? '', 'base64');
  }

  add(text: string, line: number): void {
    const s = this.seal;
    this.found++;
    this.lastLine = line;
    if (this.found === 1) this.firstLine = line;
    if (s === undefined || this.difference !== undefined) return;
    const every = Math.max(1, s.every);
    if ((this.found - 1) % every === 0) this.blockStart = line;
    this.hash.add(text);
    if (this.found > s.rows) {
      // Every sealed row matched (the digest below), so this is the first row the seal lacks.
      this.difference = { sealed: s.rows, found: 0, line, kind: 'added' };
      return;
    }
    const block = this.found % every === 0 ? this.found / every : 0;
    if (block > 0 && block * MARK_BYTES <= this.marks.length) {
      const sealed = this.marks.subarray((block - 1) * MARK_BYTES, block * MARK_BYTES);
      if (!this.hash.mark().equals(sealed)) {
        this.difference = this.blockDifference(line, every);
        return;
      }
    }
    if (this.found === s.rows && this.hash.digest() !== s.digest) this.difference = this.blockDifference(line, every);
  }

  private blockDifference(line: number, every: number): RowDifference {
    const s = this.seal as DieSeal;
    return every === 1 || this.blockStart === line ? { sealed: s.rows, found: 0, line, kind: 'changed' } : { sealed: s.rows, found: 0, line: this.blockStart, to: line, kind: 'changed' };
  }

  /** How the die's rows differ from the seal, once the file is read; undefined when they do not. */
  result(): RowDifference | undefined {
    const s = this.seal;
    if (s === undefined) return { sealed: 0, found: this.found, line: this.firstLine, kind: 'unsealed-die' };
    if (this.difference !== undefined) return { ...this.difference, found: this.found };
    // Its digest was compared when its rows reached the seal's count (a difference then is kept above).
    if (this.found === s.rows && (s.rows > 0 || this.hash.digest() === s.digest)) return undefined;
    // Short of the seal's rows: the rows since the last mark may be changed as well as the rest missing.
    const every = Math.max(1, s.every);
    const sinceMark = this.found % every;
    if (this.found === 0) return { sealed: s.rows, found: 0, kind: 'missing' };
    return sinceMark === 0 || every === 1
      ? { sealed: s.rows, found: this.found, line: this.lastLine, kind: 'missing' }
      : { sealed: s.rows, found: this.found, line: this.blockStart, kind: 'missing' };
  }
}

/** Checks the lines of an export file (all of them, in order) and its manifest (as read) against the manifest's seal. */
export function checkSeal(lines: Iterable<string>, manifest: Readonly<Record<string, unknown>>): SealCheck {
  const seal = manifest['seal'] as ExportSeal | undefined;
  const sealed = isSeal(seal);
  const all = createHash('sha256');
  const checks = new Map<string, DieCheck>(sealed ? seal.dice.map((d) => [d.label, new DieCheck(d)]) : []);
  let rows = 0;
  for (const row of canonRows(lines)) {
    rows++;
    all.update(row.text).update('\n');
    if (!sealed) continue;
    let check = checks.get(row.die);
    if (check === undefined) checks.set(row.die, (check = new DieCheck(undefined)));
    check.add(row.text, row.line);
  }
  const digest = all.digest('hex');
  if (!sealed) {
    const version = manifest['formatVersion'];
    const removed = seal !== undefined || (typeof version === 'number' && version >= SEALED_FORMAT_VERSION);
    return { seal: removed ? 'removed' : 'unsealed', ok: !removed, rows, digest, fields: [], dice: [], reordered: false };
  }
  const now = manifestDigests(manifest);
  const keys = new Set([...Object.keys(seal.fields), ...Object.keys(now.fields)]);
  const fields = [...keys].filter((k) => seal.fields[k] !== now.fields[k]);
  const dice: DieDifference[] = [];
  for (const [label, check] of checks) {
    const rowsDiffer = check.result();
    const verdictDiffers = (check.seal?.verdict ?? undefined) !== now.verdicts.get(label);
    if (rowsDiffer !== undefined || verdictDiffers) dice.push({ label, ...(rowsDiffer !== undefined ? { rows: rowsDiffer } : {}), ...(verdictDiffers ? { verdict: true } : {}) });
  }
  for (const label of now.verdicts.keys()) if (!checks.has(label)) dice.push({ label, verdict: true });
  const reordered = dice.length === 0 && digest !== seal.digest;
  return { seal: 'sealed', ok: fields.length === 0 && dice.length === 0 && !reordered, rows, digest, fields, dice, reordered };
}

function isSeal(x: unknown): x is ExportSeal {
  const s = x as Partial<ExportSeal> | undefined;
  return (
    typeof s === 'object' && s !== null && s.algorithm === 'sha256' && typeof s.digest === 'string' && typeof s.rows === 'number' &&
    typeof s.fields === 'object' && s.fields !== null && Array.isArray(s.dice) &&
    s.dice.every((d) => typeof d?.label === 'string' && typeof d.rows === 'number' && typeof d.digest === 'string' && typeof d.every === 'number' && typeof d.marks === 'string')
  );
}

/** How a die differs from the seal, as a clause after the file's name ("die red-1: its rows differ from line 57 on"). */
export function dieDifferenceText(d: DieDifference): string {
  const parts: string[] = [];
  const r = d.rows;
  if (r !== undefined) {
    const at = r.line === undefined ? '' : r.to !== undefined ? ` (first difference within lines ${r.line}-${r.to})` : ` (first at line ${r.line})`;
    if (r.kind === 'changed') {
      parts.push(
        r.to !== undefined
          ? `its rows differ from the sealed ones${at}`
          : `its rows differ from the sealed ones from line ${r.line} on (that row changed or added, or the die's row before it dropped)`,
      );
    }
    else if (r.kind === 'added') parts.push(`it has ${formatCount(r.found)} rows, the seal ${formatCount(r.sealed)}: rows were added${at}`);
    else if (r.kind === 'missing') parts.push(r.found === 0 ? `all its ${formatCount(r.sealed)} sealed rows are gone` : `it has ${formatCount(r.found)} rows, the seal ${formatCount(r.sealed)}: rows are missing or changed after line ${r.line}`);
    else parts.push(`it is not in the sealed export: ${formatCount(r.found)} rows were added (first at line ${r.line})`);
  }
  if (d.verdict === true) parts.push('its verdict in the manifest is not the sealed one');
  const who = d.label === '' ? 'a line that is no readable row' : `die ${d.label}`;
  return `${who}: ${parts.join('; ')}`;
}

/** Everything that differs, one clause each (for a note or an error). */
export function sealDifferences(check: SealCheck): string[] {
  if (check.seal === 'removed') return ['its manifest is of a sealed format, but its seal is gone or unreadable'];
  return [
    ...(check.fields.length > 0 ? [`its manifest's ${check.fields.join(', ')} ${check.fields.length === 1 ? 'field differs' : 'fields differ'} from the sealed ones`] : []),
    ...check.dice.map(dieDifferenceText),
    ...(check.reordered ? ["its rows are each die's sealed ones, but in another order across dice"] : []),
  ];
}
