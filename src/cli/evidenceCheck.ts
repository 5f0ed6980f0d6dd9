/**
 * `verify`'s check of the evidence pictures themselves: the hash chain seals each picture's SHA-256, but the file
 * lives beside the store, where it can be overwritten (by another store writing to the same folder, before each store
 * had its own) or edited. A picture that no longer matches its sealed hash is no longer the roll's evidence; a missing
 * one was moved or deleted (to save space, often), which leaves the rolls and their chain as they were.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatCount } from '../core/format.js';
import type { EvidenceFile } from '../store/evidenceFiles.js';

export interface EvidenceReport {
  readonly checked: number;
  readonly matching: number;
  readonly missing: readonly EvidenceFile[];
  readonly changed: readonly EvidenceFile[];
}

/** Hashes every file `files` names, relative to the folder of the store at `dbPath`. */
export function checkEvidence(dbPath: string, files: readonly EvidenceFile[]): EvidenceReport {
  const base = dirname(resolve(dbPath));
  const missing: EvidenceFile[] = [];
  const changed: EvidenceFile[] = [];
  for (const f of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(base, f.path));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.push(f);
      continue;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== f.hash) changed.push(f);
  }
  return { checked: files.length, matching: files.length - missing.length - changed.length, missing, changed };
}

const SHOWN = 5;

function where(f: EvidenceFile): string {
  return `session ${f.sessionId}, throw ${formatCount(f.throwIndex)}, ${f.dieLabel}: ${f.path}`;
}

function listed(files: readonly EvidenceFile[]): string[] {
  const lines = files.slice(0, SHOWN).map((f) => `  ${where(f)}`);
  if (files.length > SHOWN) lines.push(`  and ${formatCount(files.length - SHOWN)} more`);
  return lines;
}

/** The report as lines of text; none when the store keeps no pictures. */
export function evidenceText(r: EvidenceReport): string[] {
  if (r.checked === 0) return [];
  const pictures = (n: number) => `${formatCount(n)} evidence ${n === 1 ? 'picture' : 'pictures'}`;
  const lines: string[] = [];
  if (r.changed.length > 0) {
    lines.push(`EVIDENCE CHANGED: ${pictures(r.changed.length)} no longer ${r.changed.length === 1 ? 'matches' : 'match'} the hash the chain sealed (overwritten or edited since the roll was stored):`);
    lines.push(...listed(r.changed));
  }
  if (r.missing.length > 0) {
    lines.push(`${pictures(r.missing.length)} ${r.missing.length === 1 ? 'is' : 'are'} missing (moved or deleted; the rolls and their chain are unaffected):`);
    lines.push(...listed(r.missing));
  }
  lines.push(`${formatCount(r.matching)} of ${pictures(r.checked)} ${r.matching === 1 ? 'matches' : 'match'} the hash the chain sealed.`);
  return lines;
}
