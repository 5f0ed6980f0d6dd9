import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallFinishedStore, tempDir } from '../store/support/fixtures.js';
import { runCliAsUser } from './support/asOtherUser.js';
import { runCli } from './runCli.js';

function noTrace(err: string): void {
  expect(err).not.toMatch(/\n\s+at /);
  expect(err).not.toMatch(/unexpected failure/);
}

const SIM_CONFIG = `seed: 4
dice:
  - { label: A1, type: d6 }
rig:
  driver: sim
stopping: { budgetRolls: 3 }
`;

const locked: string[] = [];
afterEach(() => {
  for (const p of locked.splice(0)) chmodSync(p, 0o755);
});

describe('a read-only roll store', () => {
  it('is read by verify, export and report, and refused for import with one line', async () => {
    const dir = tempDir('dicerig-ro-');
    const db = smallFinishedStore(dir);
    chmodSync(db, 0o444);
    locked.push(db);
    const v = await runCli('verify', '--db', db);
    expect(v.err).toBe('');
    expect(v.code).toBe(0);
    const x = await runCli('export', '1', '--db', db);
    expect(x.err).toBe('');
    expect(x.out.split('\n').length).toBeGreaterThan(20);
    const r = await runCli('report', '1', '--db', db, '--out', join(tempDir(), 'rep'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const log = join(tempDir(), 'l.csv');
    writeFileSync(log, 'die,type,face\nX1,d6,3\n');
    const i = await runCli('import', log, '--db', db);
    expect(i.code).toBe(1);
    noTrace(i.err);
    expect(i.err.trim().split('\n')).toHaveLength(1);
    expect(i.err).toMatch(/read-only.*nothing was written/);
  });

  it('in a read-only folder is read by verify, export and report as another user, with no stack trace', () => {
    const dir = tempDir('dicerig-ro-dir-');
    chmodSync(dir, 0o755);
    const db = smallFinishedStore(dir);
    chmodSync(db, 0o444);
    chmodSync(dir, 0o555);
    locked.push(dir);
    const v = runCliAsUser('verify', '--db', db);
    noTrace(v.err);
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/every hash chain verifies/);
    const x = runCliAsUser('export', '1', '--db', db);
    noTrace(x.err);
    expect(x.code).toBe(0);
    expect(x.out).toMatch(/^1,R1,red/m);
    const out = tempDir();
    chmodSync(out, 0o777);
    const p = runCliAsUser('report', '1', '--db', db, '--out', join(out, 'rep'));
    noTrace(p.err);
    expect(p.code).toBe(0);
    expect(existsSync(join(out, 'rep', 'report.html'))).toBe(true);
    const cfg = join(tempDir(), 'sim.yaml');
    chmodSync(join(cfg, '..'), 0o755);
    writeFileSync(cfg, SIM_CONFIG);
    const run = runCliAsUser('run', cfg, '--db', db, '--plain');
    noTrace(run.err);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/nothing was written/);
    // Five CLI processes, each compiling the sources with tsx: slow on a loaded machine.
  }, 180_000);
});

describe('a --db where there is no store', () => {
  it('in a folder that does not exist: reading commands say there is no store, with no stack trace', async () => {
    const db = join(tempDir(), 'no', 'such', 'folder', 'rolls.db');
    for (const args of [['verify', '--db', db], ['export', '1', '--db', db], ['report', '1', '--db', db]]) {
      const r = await runCli(...args);
      expect(r.code).toBe(1);
      noTrace(r.err);
      expect(r.err).toMatch(/There is no roll store at/);
    }
    expect(existsSync(join(db, '..'))).toBe(false);
  });

  it('a folder given as the store: every command says it is a folder, not a damaged store', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'sim.yaml');
    writeFileSync(cfg, SIM_CONFIG);
    for (const args of [['verify', '--db', dir], ['sessions', '--db', dir], ['export', '1', '--db', dir], ['run', cfg, '--db', dir, '--plain']]) {
      const r = await runCli(...args);
      expect(r.code, args[0]).toBe(1);
      noTrace(r.err);
      expect(r.err.trim(), args[0]).toBe(`dicerig: ${dir} is a folder, not a roll store file: give the store file itself (e.g. --db ${join(dir, 'dicerig.db')}).`);
    }
    expect(readdirSync(dir)).toEqual(['sim.yaml']);
  });

  it('under a file (a folder that cannot be made): run says so in one line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain-file'), 'x');
    const cfg = join(dir, 'sim.yaml');
    writeFileSync(cfg, SIM_CONFIG);
    const r = await runCli('run', cfg, '--db', join(dir, 'plain-file', 'rolls.db'), '--plain');
    expect(r.code).toBe(1);
    noTrace(r.err);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('run --resume on a path with no store creates nothing and says there is no store', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'sim.yaml');
    writeFileSync(cfg, SIM_CONFIG);
    const db = join(dir, 'rolls.db');
    const r = await runCli('run', cfg, '--db', db, '--resume', '1', '--plain');
    expect(r.code).toBe(1);
    noTrace(r.err);
    expect(r.err).toMatch(/There is no roll store at/);
    expect(readdirSync(dir)).toEqual(['sim.yaml']);
  });

  it('an unknown rig driver in the config is refused before any store is created', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'bad-rig.yaml');
    writeFileSync(cfg, SIM_CONFIG.replace('driver: sim', 'driver: warp-drive'));
    const db = join(dir, 'rolls.db');
    const r = await runCli('run', cfg, '--db', db, '--plain');
    expect(r.code).toBe(1);
    noTrace(r.err);
    expect(r.err).toMatch(/warp-drive/);
    expect(readdirSync(dir)).toEqual(['bad-rig.yaml']);
  });
});

describe('an --out where nothing can be written', () => {
  it('export and report say in one line which path they cannot write, with no stack trace', async () => {
    const dir = tempDir();
    const db = smallFinishedStore(dir);
    writeFileSync(join(dir, 'plain-file'), 'x');
    for (const args of [
      ['export', '1', '--db', db, '--out', join(dir, 'plain-file', 'rolls.csv')],
      ['report', '1', '--db', db, '--out', join(dir, 'plain-file', 'report')],
    ]) {
      const r = await runCli(...args);
      expect(r.code).toBe(1);
      noTrace(r.err);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(join(dir, 'plain-file'));
      expect(r.err).toMatch(/not a folder/);
    }
  });
});
