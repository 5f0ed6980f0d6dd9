/**
 * An export's seal: digests, written into its manifest, of the rows it holds and of the manifest's own fields, so
 * `dicerig verify FILE` (and analyze, pool and import) can tell a file changed since it was written, and which die and
 * line. A digest catches changes and damage, not a forger who rewrites the seal as well: the strong check is against
 * the store the session is in (`verify --expect` its chain head), which nobody outside it can rewrite unseen.
 *
 * Each die's rows are hashed in order, and a short mark of the hash of its rows so far is kept every `every` rows
 * (every row for a die of up to MAX_MARKS rows), so a check finds the first changed line without keeping a hash per
 * row: the first mark that differs brackets it. (A mark is a copy of the running hash's state finished, so a long
 * die costs one hash update a row, not one hash.)
 */
import { createHash } from 'node:crypto';
import { canonicalJson, canonRows } from './exportRowCanon.js';

/** Marks kept per die at most: a die of more rows has one every `every` rows, a larger power of two. */
export const MAX_MARKS = 4096;
/** Bytes of each mark: a false match (a changed block that marks alike) has odds 2^-24, and only misplaces the line. */
export const MARK_BYTES = 3;

export interface DieSeal {
  readonly label: string;
  /** The die's rows in the file. */
  readonly rows: number;
  /** SHA-256 over the die's canonical rows, each followed by a newline, in file order. */
  readonly digest: string;
  /** A mark is kept after every `every` rows of the die. */
  readonly every: number;
  /** The marks: the first MARK_BYTES of the hash of the die's rows so far, after each `every` rows, base64. */
  readonly marks: string;
  /** Digest of the die's verdict in the manifest (its `verdicts.dice` entry), when it has one. */
  readonly verdict?: string;
}

export interface ExportSeal {
  readonly algorithm: 'sha256';
  /** The rows in the file (not its header, manifest or comment lines). */
  readonly rows: number;
  /** SHA-256 over every canonical row in file order. */
  readonly digest: string;
  /** Per field of the manifest (all but the seal, and the dice's own verdicts, sealed per die): its digest. */
  readonly fields: Readonly<Record<string, string>>;
  readonly dice: readonly DieSeal[];
}

/** A die's rows hashed so far: each row's canonical text and a newline. */
export class RowsHash {
  private readonly hash = createHash('sha256');
  add(text: string): void {
    this.hash.update(text).update('\n');
  }
  /** The mark of the rows so far (the first MARK_BYTES of their digest); more rows may follow. */
  mark(): Buffer {
    return this.hash.copy().digest().subarray(0, MARK_BYTES);
  }
  /** The digest of the rows so far, in hex; more rows may follow. */
  digest(): string {
    return this.hash.copy().digest('hex');
  }
}

function shortDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * The manifest's sealed parts: a digest per top-level field but the seal, with `verdicts` less its dice's entries,
 * and each die's verdict entry (by label) on its own, so a changed verdict is pinned to its die.
 */
export function manifestDigests(manifest: Readonly<Record<string, unknown>>): { fields: Record<string, string>; verdicts: Map<string, string> } {
  const fields: Record<string, string> = {};
  const verdicts = new Map<string, string>();
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'seal' || value === undefined) continue;
    if (key === 'verdicts' && typeof value === 'object' && value !== null && Array.isArray((value as { dice?: unknown }).dice)) {
      const dice = (value as { dice: unknown[] }).dice;
      const byLabel = new Map<string, unknown[]>();
      const unlabelled: unknown[] = [];
      for (const d of dice) {
        const label = (d as { label?: unknown } | null)?.label;
        if (typeof label === 'string') byLabel.set(label, [...(byLabel.get(label) ?? []), d]);
        else unlabelled.push(d);
      }
      for (const [label, entries] of byLabel) verdicts.set(label, shortDigest(canonicalJson(entries)));
      fields[key] = shortDigest(canonicalJson({ ...(value as object), dice: unlabelled }));
      continue;
    }
    fields[key] = shortDigest(canonicalJson(value));
  }
  return { fields, verdicts };
}

/** One die's rows hash with its marks, kept at every `every` rows (doubled, dropping every other, past MAX_MARKS). */
class DieChain {
  rows = 0;
  readonly hash = new RowsHash();
  every = 1;
  marks: Buffer[] = [];
  add(text: string): void {
    this.hash.add(text);
    this.rows++;
    if (this.rows % this.every !== 0) return;
    this.marks.push(this.hash.mark());
    if (this.marks.length > MAX_MARKS) {
      this.marks = this.marks.filter((_, i) => i % 2 === 1);
      this.every *= 2;
    }
  }
}

/** The seal of an export's lines (as written, the CSV header first; not the manifest) and of its manifest (without a seal). */
export function sealOf(lines: Iterable<string>, manifest: Readonly<Record<string, unknown>>): ExportSeal {
  const all = createHash('sha256');
  const dice = new Map<string, DieChain>();
  let rows = 0;
  for (const row of canonRows(lines)) {
    rows++;
    all.update(row.text).update('\n');
    let chain = dice.get(row.die);
    if (chain === undefined) dice.set(row.die, (chain = new DieChain()));
    chain.add(row.text);
  }
  const { fields, verdicts } = manifestDigests(manifest);
  const labels = [...dice.keys(), ...[...verdicts.keys()].filter((l) => !dice.has(l))];
  return {
    algorithm: 'sha256',
    rows,
    digest: all.digest('hex'),
    fields,
    dice: labels.map((label) => {
      const c = dice.get(label) ?? new DieChain();
      const verdict = verdicts.get(label);
      return { label, rows: c.rows, digest: c.hash.digest(), every: c.every, marks: Buffer.concat(c.marks).toString('base64'), ...(verdict !== undefined ? { verdict } : {}) };
    }),
  };
}
