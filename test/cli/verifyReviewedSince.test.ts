/**
 * `dicerig verify FILE --db STORE` on a session labelled after its export: a fresh export then holds the labels, so
 * its rows are not the file's. That is no sign of an edit, and verify must not say one may have happened: it names
 * the reviews made since (the manifest wrote down the review chain's head) and asks for a new export. A file changed
 * while the store holds only the export's reviews is named changed, with no "or a label was given" to hide behind.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { sealOf } from '../../src/store/exportSeal.js';
import { demoStore } from '../support/demoStore.js';
import { runCli } from './runCli.js';

describe('verifying an export against a store reviewed since', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-verify-reviewed-'));
  const db = join(dir, 'rolls.db');
  const file = join(dir, 'session.jsonl');

  beforeAll(async () => {
    const demo = await demoStore(['--declines', '6=0.95', '--budget', '150', '--seed', '4'], db);
    expect(demo.code, demo.err).toBe(0);
    expect((await runCli('export', '1', '--db', db, '--out', file)).code).toBe(0);
    // The shared demo (some 8 s of CPU) took over 120 s beside other heavy files on a loaded 2-core machine.
  }, 300_000);

  it('names a forged file changed when the store holds the export’s reviews and none since', async () => {
    const [first, ...rows] = readFileSync(file, 'utf8').split('\n');
    const manifest = JSON.parse(first as string) as Record<string, unknown> & { seal: unknown };
    const i = rows.findIndex((r) => r.includes('"face":"5"'));
    rows[i] = (rows[i] as string).replace('"face":"5","symbol":"5"', '"face":"4","symbol":"4"');
    const { seal: _old, ...rest } = manifest;
    const forged = join(dir, 'forged.jsonl');
    writeFileSync(forged, [JSON.stringify({ ...rest, seal: sealOf(rows, rest) }), ...rows].join('\n'));
    const r = await runCli('verify', forged, '--db', db);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/: ROWS DIFFER: session 1 reaches the export's head \(throw \d+\), but exported now its rows are not the file's: the store holds the export's 0 reviews and none since, so the file was changed \(its seal rewritten too, if it verified\)\.\n/);
  });

  it('names the reviews made after the export, and asks for a new export, rather than calling the rows different', async () => {
    const store = RollStore.open(db);
    try {
      const waiting = store.rollsToReview(1);
      expect(waiting.length).toBeGreaterThan(3);
      for (const roll of waiting.slice(0, 3)) store.reviewRoll(1, { rollId: roll.rollId, faceId: '6', reviewer: 'ana', at: Date.parse('2026-12-06T12:00:00Z') });
    } finally {
      store.close();
    }
    const r = await runCli('verify', file, '--db', db);
    expect(r.out).toContain(`${file}: sealed,`);
    expect(r.out).toMatch(new RegExp(`${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: REVIEWED SINCE: session 1 reaches the export's head \\(throw \\d+\\), and 3 reviews were made in the store after the export \\(labels given or corrected; the file has the first 0 of its 3\\), so its rows now are not the file's to compare\\. To have the rolls as they are now, export the session again\\.\\n`));
    expect(r.out).not.toContain('ROWS DIFFER');
    expect(r.code, r.out).toBe(0);

    // Exported again, the file holds the reviewed rolls, and the store's rows are the file's.
    const again = join(dir, 'again.jsonl');
    expect((await runCli('export', '1', '--db', db, '--out', again)).code).toBe(0);
    const now = await runCli('verify', again, '--db', db);
    expect(now.code, now.out).toBe(0);
    expect(now.out).toContain('and exports the same');
  });
});
