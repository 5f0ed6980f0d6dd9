import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { okThrow, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** A healthy store of one finished session of 2,000 throws (about 1 MB, so the middle of the file is table pages). */
function healthyStore(dir: string): string {
  const db = join(dir, 'healthy.db');
  const { store, session, dice } = storeWithSession(db);
  store.atomically(() => {
    for (let n = 1; n <= 2000; n++) store.recordThrow(session.id, okThrow(n, dice));
  });
  store.endSession(session.id, 1_800_000_000_000, 'finished');
  store.close();
  return db;
}

function damaged(healthy: string, how: 'overwritten' | 'truncated'): string {
  const db = join(tempDir('dicerig-damaged-'), `${how}.db`);
  copyFileSync(healthy, db);
  const size = statSync(db).size;
  if (how === 'truncated') truncateSync(db, Math.floor(size / 2));
  else {
    const fd = openSync(db, 'r+');
    // From the start of the middle page (4096-byte pages): its b-tree header is garbled, as a torn or bad write would.
    writeSync(fd, Buffer.alloc(100, 0xff), 0, 100, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
  }
  return db;
}

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** One line on stderr, no stack trace, no "unexpected failure". */
function expectOneClearLine(err: string): void {
  expect(err).not.toMatch(/\n\s+at /);
  expect(err).not.toMatch(/unexpected failure/);
  expect(err.trim().split('\n')).toHaveLength(1);
}

const SIM_CONFIG = `seed: 4
dice:
  - { label: R1, type: d6 }
rig:
  driver: sim
stopping: { budgetRolls: 3 }
`;

describe('exporting what is readable of a damaged store', () => {
  it('export --allow-unverified of an overwritten store warns that it is damaged and writes every row it can read, saying how many it could not', async () => {
    const healthy = healthyStore(tempDir('dicerig-healthy-'));
    const whole = await runCli('export', '1', '--db', healthy);
    expect(whole.code).toBe(0);
    const db = damaged(healthy, 'overwritten');
    const r = await runCli('export', '1', '--db', db, '--allow-unverified');
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.err).not.toMatch(/unexpected failure/);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/damaged/);
    const lost = /(\d[\d,]*) rolls? could not be read/.exec(r.err);
    expect(lost, r.err).not.toBeNull();
    // The rows written are rows of the healthy store (none made up), in its order, and all but the lost ones.
    const rows = (text: string): string[] => text.trim().split('\n').slice(2);
    const all = rows(whole.out);
    const kept = rows(r.out);
    expect(kept.length).toBeGreaterThan(all.length / 2);
    expect(kept.length + Number(lost?.[1]?.replace(/,/g, ''))).toBe(all.length);
    const order = new Map(all.map((line, i) => [line, i]));
    const at = kept.map((line) => order.get(line) ?? -1);
    expect(at.every((i, k) => i >= 0 && (k === 0 || i > (at[k - 1] as number)))).toBe(true);
  });
});

describe.each(['overwritten', 'truncated'] as const)('a store with 100 bytes %s mid-file', (how) => {
  let healthy: string;
  beforeAll(() => {
    healthy = healthyStore(tempDir('dicerig-healthy-'));
  });

  it('refuses an import with one clear line and leaves the file as it was', async () => {
    const db = damaged(healthy, how);
    const before = digest(db);
    const log = join(tempDir(), 'rolls.csv');
    writeFileSync(log, 'die,type,face\nX1,d6,3\nX1,d6,4\n');
    const r = await runCli('import', log, '--db', db);
    expect(r.code).toBe(1);
    expectOneClearLine(r.err);
    expect(r.err).toMatch(/damaged/);
    expect(r.err).toMatch(/nothing was written/i);
    expect(r.err).toMatch(/verify/);
    expect(r.err).toMatch(/backup/);
    expect(digest(db)).toBe(before);
    expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > 0).toBe(false);
  });

  it('refuses run --resume with one clear line and commits nothing', async () => {
    const db = damaged(healthy, how);
    const before = digest(db);
    const config = join(tempDir(), 'sim.yaml');
    writeFileSync(config, SIM_CONFIG);
    const r = await runCli('run', config, '--db', db, '--resume', '1', '--plain');
    expect(r.code).toBe(1);
    expectOneClearLine(r.err);
    expect(r.err).toMatch(/damaged/);
    expect(r.err).toMatch(/nothing was written/i);
    expect(digest(db)).toBe(before);
  });

  it('verify says the store is damaged, with a non-zero exit and no stack trace', async () => {
    const db = damaged(healthy, how);
    const r = await runCli('verify', '--db', db);
    expect(r.code).toBe(1);
    expect(`${r.out}${r.err}`).toMatch(/damaged/);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.err).not.toMatch(/unexpected failure/);
  });

  it('verify of a damaged store says to salvage what is readable into a new store first, export and import second, not to run verify again', async () => {
    const db = damaged(healthy, how);
    const r = await runCli('verify', '--db', db);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`To recover: copy everything still readable into a new store (dicerig salvage ${db} --out NEW.db`);
    expect(r.out).toContain(`or export what is still readable of each session (dicerig export SESSION --db ${db} --allow-unverified --out SESSION.csv`);
    expect(r.out).toContain('import the files into a new store (dicerig import SESSION.csv --db NEW.db)');
    expect(r.out).not.toMatch(/run `?dicerig verify/);
    const json = JSON.parse((await runCli('verify', '--db', db, '--json')).out) as { recovery?: string };
    expect(json.recovery).toMatch(/^To recover: copy everything still readable into a new store \(dicerig salvage /);
  });

  it('export and report end with one clear line and a non-zero exit', async () => {
    const db = damaged(healthy, how);
    for (const args of [['export', '1', '--db', db], ['report', '1', '--db', db, '--out', join(tempDir(), 'rep')]]) {
      const r = await runCli(...args);
      expect(r.code).not.toBe(0);
      expect(r.code).not.toBe(70);
      expect(r.err).toMatch(/damaged/);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(r.err).not.toMatch(/unexpected failure/);
    }
  });
});
