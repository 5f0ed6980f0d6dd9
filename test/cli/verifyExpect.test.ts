import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealHash } from '../../src/store/hashChain.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { ChainRows } from '../../src/store/chainRows.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** A finished simulated session of 6 throws; returns the store and what `run` printed. */
async function ranSession(): Promise<{ db: string; out: string; dir: string }> {
  const dir = tempDir('dicerig-pin-');
  const cfg = join(dir, 'sim.yaml');
  writeFileSync(cfg, 'seed: 2\ndice:\n  - { label: P1, type: d6 }\nrig:\n  driver: sim\nstopping: { budgetRolls: 6 }\n');
  const db = join(dir, 'r.db');
  const r = await runCli('run', cfg, '--db', db, '--plain');
  expect(r.code).toBe(0);
  return { db, out: r.out, dir };
}

/** Cuts the last throw off and moves the head, count and seal back to match, as someone who recomputes the hashes would. */
function cutTail(db: string): void {
  const raw = openDatabase(db);
  raw.pragma('foreign_keys = OFF');
  const last = raw.prepare<{ id: number; prevHash: string; idx: number }>('SELECT id, prev_hash AS prevHash, idx FROM throws ORDER BY idx DESC LIMIT 1').get();
  if (last === undefined) throw new Error('no throws');
  raw.prepare('DELETE FROM rolls WHERE throw_id = ?').run(last.id);
  raw.prepare('DELETE FROM throws WHERE id = ?').run(last.id);
  raw.prepare('UPDATE sessions SET head_hash = ?, throw_count = ? WHERE id = 1').run(last.prevHash, last.idx - 1);
  const seal = new ChainRows(raw).seal(1);
  if (seal === undefined) throw new Error('no session');
  raw.prepare('UPDATE sessions SET seal = ? WHERE id = 1').run(sealHash(seal));
  raw.close();
}

describe('pinning the chain outside the store', () => {
  it('run prints the head hash; verify --expect accepts it, and catches a cut-off tail that plain verify cannot see', async () => {
    const { db, out } = await ranSession();
    const head = /Chain head: ([0-9a-f]{64})/.exec(out)?.[1];
    expect(head).toBeDefined();
    const pinned = await runCli('verify', '--db', db, '--expect', head as string);
    expect(pinned.code).toBe(0);
    expect(pinned.out).toMatch(/session 1 reaches the expected head \(throw 6 of 6\)/);
    cutTail(db);
    expect((await runCli('verify', '--db', db)).code).toBe(0);
    const caught = await runCli('verify', '--db', db, '--expect', head as string);
    expect(caught.code).toBe(1);
    expect(caught.out).toMatch(/no session's chain reaches the expected head/);
  });

  it('refuses an --expect that is not a chain head at all, rather than calling the store tampered', async () => {
    const { db } = await ranSession();
    const r = await runCli('verify', '--db', db, '--expect', 'deadbeef');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/--expect deadbeef is not a chain head: a chain head is 64 hex digits/);
    expect(r.err).not.toMatch(/EXPECTED HEAD MISSING/);
  });

  it('the export manifest carries the head hash to write down', async () => {
    const { db, out } = await ranSession();
    const head = /Chain head: ([0-9a-f]{64})/.exec(out)?.[1];
    const x = await runCli('export', '1', '--db', db, '--format', 'jsonl');
    const manifest = JSON.parse(x.out.split('\n')[0] as string) as { session: { headHash: string; throwCount: number } };
    expect(manifest.session.headHash).toBe(head);
    expect(manifest.session.throwCount).toBe(6);
  });
});

describe('export and report of a store that fails verification', () => {
  it('warn and exit non-zero, unless --allow-unverified', async () => {
    const { db, dir } = await ranSession();
    const raw = openDatabase(db);
    raw.prepare("UPDATE rolls SET confidence = 0.123 WHERE id = 2").run();
    raw.close();
    const x = await runCli('export', '1', '--db', db);
    expect(x.code).toBe(1);
    expect(x.out).toBe('');
    expect(x.err).toMatch(/fails verification: throw 2 does not match its hash.*--allow-unverified/);
    const r = await runCli('report', '1', '--db', db, '--out', join(dir, 'rep'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/fails verification/);
    const allowed = await runCli('export', '1', '--db', db, '--allow-unverified');
    expect(allowed.code).toBe(0);
    expect(allowed.err).toMatch(/warning: session 1 .* fails verification/);
    expect(allowed.out).toMatch(/^1,P1,d6/m);
  });

  it('analyze and pool of its session refuse it too, unless --allow-unverified', async () => {
    const { db } = await ranSession();
    const raw = openDatabase(db);
    raw.prepare("UPDATE rolls SET face_id = '6', symbol = '6' WHERE id = 3").run();
    raw.close();
    for (const [cmd, extra, doing] of [['analyze', [], 'analyzed'], ['pool', ['--size', '1'], 'pooled']] as const) {
      const refused = await runCli(cmd, '1', '--db', db, ...extra);
      expect(refused.code, cmd).toBe(1);
      expect(refused.out, cmd).toBe('');
      expect(refused.err, cmd).toMatch(new RegExp(`session 1 in .* fails verification: throw 3 does not match its hash.*; nothing was ${doing}.*--allow-unverified`));
      const allowed = await runCli(cmd, '1', '--db', db, ...extra, '--allow-unverified');
      expect(allowed.err, cmd).toMatch(/warning: session 1 .* fails verification/);
      expect(allowed.out, cmd).toMatch(/P1/);
    }
  });
});
