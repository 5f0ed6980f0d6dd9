import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallFinishedStore, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('export --out', () => {
  it('refuses to write over the roll store it exports, even with --force, and the store still verifies', async () => {
    const dir = tempDir('dicerig-exp-');
    const db = smallFinishedStore(dir);
    const size = statSync(db).size;
    for (const extra of [[], ['--force']]) {
      const x = await runCli('export', '1', '--db', db, '--out', db, ...extra);
      expect(x.code).not.toBe(0);
      expect(x.err).toContain('is the roll store being exported');
    }
    expect(statSync(db).size).toBe(size);
    const v = await runCli('verify', '--db', db);
    expect(v.code).toBe(0);
    expect(v.out).toContain('20 throws');
  });

  it('does not replace an existing file or manifest unless --force is given', async () => {
    const dir = tempDir('dicerig-exp-');
    const db = smallFinishedStore(dir);
    const out = join(dir, 'precious.csv');
    writeFileSync(out, 'precious\n');
    const refused = await runCli('export', '1', '--db', db, '--out', out);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain(`${out} exists already; export does not write over a file: give another --out name, or --force to replace it`);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');

    const fresh = join(dir, 'fresh.csv');
    writeFileSync(`${fresh}.manifest.json`, '{}\n');
    const sidecar = await runCli('export', '1', '--db', db, '--out', fresh);
    expect(sidecar.err).toContain(`${fresh}.manifest.json exists already`);
    expect(readdirSync(dir)).not.toContain('fresh.csv');

    const forced = await runCli('export', '1', '--db', db, '--out', out, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^throw,die,type,channel/);
  });

  it('leaves no rows without their manifest when the manifest cannot be written', async () => {
    const dir = tempDir('dicerig-exp-');
    const db = smallFinishedStore(dir);
    const out = join(dir, 'mf.csv');
    mkdirSync(`${out}.manifest.json`);
    const x = await runCli('export', '1', '--db', db, '--out', out);
    expect(x.code).not.toBe(0);
    expect(x.err).toContain(`${out}.manifest.json is a folder`);
    expect(readdirSync(dir).filter((f) => f.startsWith('mf.csv') || f.includes('partial'))).toEqual(['mf.csv.manifest.json']);
  });
});

describe('verify', () => {
  it('refuses an empty file as a roll store instead of calling its nothing verified', async () => {
    const dir = tempDir('dicerig-exp-');
    const db = join(dir, 'emptied.db');
    writeFileSync(db, '');
    const v = await runCli('verify', '--db', db);
    expect(v.code).not.toBe(0);
    expect(v.err).toContain(`${db} is an empty file (0 bytes), not a roll store`);
  });
});
