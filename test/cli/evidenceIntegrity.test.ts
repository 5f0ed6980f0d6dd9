/**
 * Evidence pictures live beside the store, outside its hash chain's reach; the chain seals their hashes. Two stores
 * in one folder once wrote to the same `evidence/session-N` and overwrote each other's pictures while `verify` still
 * passed. Each store now has its own folder, a picture is never overwritten, and `verify` checks the files.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderEvidence } from '../../src/session/evidence.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

// Every roll's crop kept, so a short session leaves pictures.
const CONFIG = `seed: 3
evidence: all
dice:
  - { label: E1, type: d6 }
  - { label: E2, type: d6 }
rig:
  driver: sim
stopping: { budgetRolls: 4 }
`;

function pictures(db: string): { path: string; hash: string }[] {
  const d = openDatabase(db, { readonly: true });
  try {
    return d.prepare<{ path: string; hash: string }>('SELECT evidence_path AS path, evidence_hash AS hash FROM rolls WHERE evidence_path IS NOT NULL ORDER BY id').all();
  } finally {
    d.close();
  }
}

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function session(dir: string, db: string, seed: number): Promise<void> {
  const cfg = join(dir, `s${seed}.yaml`);
  writeFileSync(cfg, CONFIG.replace('seed: 3', `seed: ${seed}`));
  const r = await runCli('run', cfg, '--db', db, '--plain');
  expect(r.code, r.err).toBe(0);
}

describe('evidence pictures of two stores in one folder', () => {
  it('stay each store’s own: every picture still matches the hash its store sealed, and verify says so', async () => {
    const dir = tempDir('dicerig-ev-');
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    await session(dir, a, 3);
    await session(dir, b, 4);
    const [pa, pb] = [pictures(a), pictures(b)];
    expect(pa.length).toBeGreaterThanOrEqual(8);
    expect(pb.length).toBeGreaterThanOrEqual(8);
    for (const p of pa) expect(p.path.startsWith(join('evidence', 'a.db', 'session-1') + '/'), p.path).toBe(true);
    for (const [db, rows] of [[a, pa], [b, pb]] as const) {
      for (const p of rows) expect(sha(join(dir, p.path)), p.path).toBe(p.hash);
      const v = await runCli('verify', '--db', db);
      expect(v.code).toBe(0);
      expect(v.out).toMatch(new RegExp(`${rows.length} of ${rows.length} evidence pictures match the hash the chain sealed`));
    }
  });
});

describe('verify on the evidence pictures', () => {
  it('fails on a picture changed since its roll was stored, naming it, and only notes a missing one', async () => {
    const dir = tempDir('dicerig-ev-');
    const db = join(dir, 'r.db');
    await session(dir, db, 5);
    const rows = pictures(db);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const [changed, gone] = [rows[0], rows[1]] as [{ path: string }, { path: string }];
    writeFileSync(join(dir, changed.path), Buffer.concat([readFileSync(join(dir, changed.path)), Buffer.from([0])]));
    rmSync(join(dir, gone.path));
    const v = await runCli('verify', '--db', db);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(/every hash chain verifies/);
    expect(v.out).toContain('EVIDENCE CHANGED: 1 evidence picture no longer matches the hash the chain sealed');
    expect(v.out).toContain(changed.path);
    expect(v.out).toMatch(/1 evidence picture is missing \(moved or deleted; the rolls and their chain are unaffected\):\n {2}session 1, throw \d+, E\d: /);
    expect(v.out).toContain(`${rows.length - 2} of ${rows.length} evidence pictures match`);
    const j = JSON.parse((await runCli('verify', '--db', db, '--json')).out) as { evidence: { changed: { path: string }[]; missing: { path: string }[] } };
    expect(j.evidence.changed.map((c) => c.path)).toEqual([changed.path]);
    expect(j.evidence.missing.map((c) => c.path)).toEqual([gone.path]);
    rmSync(join(dir, changed.path));
    expect((await runCli('verify', '--db', db)).code).toBe(0);
  });
});

describe('a folder of evidence', () => {
  it('never has a picture overwritten: a second picture of the same name takes the next free one', async () => {
    const dir = tempDir('dicerig-ev-');
    const sink = folderEvidence(join(dir, 'evidence', 'x.db', 'session-1'), dir);
    const image = (v: number) => ({ width: 2, height: 2, data: new Uint8Array(12).fill(v) });
    const first = await sink.save(image(10), 't1-c0');
    const second = await sink.save(image(200), 't1-c0');
    expect(first.path).toBe(join('evidence', 'x.db', 'session-1', 't1-c0.png'));
    expect(second.path).toBe(join('evidence', 'x.db', 'session-1', 't1-c0-2.png'));
    expect(sha(join(dir, first.path))).toBe(first.hash);
    expect(sha(join(dir, second.path))).toBe(second.hash);
    expect(first.hash).not.toBe(second.hash);
  });
});
