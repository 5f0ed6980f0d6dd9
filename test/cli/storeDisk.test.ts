/**
 * A roll store on a disk that fills up or is mounted read-only, on a real
 * file system: a small tmpfs mounted for the test (as root; skipped where
 * mounting is not allowed).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

const SIM = `seed: 4
dice:
  - { label: A1, type: d6 }
  - { label: A2, type: d6 }
rig:
  driver: sim
evidence: none
stopping: { budgetRolls: 150 }
`;

const base = tempDir('dicerig-disk-');
const mnt = join(base, 'mnt');
const mount = (...args: string[]): boolean => spawnSync('mount', args, { encoding: 'utf8' }).status === 0;
let mounted = false;

beforeAll(() => {
  mkdirSync(mnt);
  mounted = process.getuid?.() === 0 && mount('-t', 'tmpfs', '-o', 'size=640k', 'tmpfs', mnt);
});
afterAll(() => {
  if (mounted) spawnSync('umount', [mnt]);
  rmSync(base, { recursive: true, force: true });
});

describe('a roll store on a small disk of its own', () => {
  it.skipIf(process.getuid?.() !== 0)('fills up: the run names the store file and its disk, keeps every committed throw, and --resume finishes once there is space', async (ctx) => {
    if (!mounted) ctx.skip();
    const cfg = join(base, 'sim.yaml');
    writeFileSync(cfg, SIM);
    const db = join(mnt, 'rolls.db');
    const full = await runCli('run', cfg, '--db', db, '--plain');
    expect(full.code).toBe(1);
    expect(full.err.trim()).toBe(
      `dicerig: The disk holding the roll store ${db} is full (the file system mounted at ${mnt}, 0 B free): the throw being stored was not, and every throw committed before it is kept. Free some space on it, then continue with dicerig run ${cfg} --resume 1 --db ${db}.`,
    );
    // Every throw committed before the disk filled is there, and the resumed run goes on after the last of them.
    // Its run is gone, so sessions says the session waits to be resumed.
    const stored = Number(/^1 .*running\? \(no process holds it: resume it with dicerig run --resume 1 --db \S+\) +(\d+)$/m.exec((await runCli('sessions', '--db', db)).out)?.[1]);
    expect(stored).toBeGreaterThan(0);
    expect(mount('-o', 'remount,size=8m', mnt)).toBe(true);
    const resumed = await runCli('run', '--resume', '1', '--db', db, '--plain');
    expect(resumed.err).toBe('');
    expect(resumed.out).toMatch(new RegExp(`^Resuming session 1 after throw ${stored} `, 'm'));
    expect(resumed.out).toMatch(/^Session 1 finished: /m);
    const verify = await runCli('verify', '--db', db);
    expect(verify.code).toBe(0);
    expect(verify.out).toMatch(/every hash chain verifies/);
  });

  it.skipIf(process.getuid?.() !== 0)('mounted read-only: even root is told the file system is read-only, not that the file is not writable', async (ctx) => {
    if (!mounted) ctx.skip();
    const cfg = join(base, 'sim.yaml');
    writeFileSync(cfg, SIM);
    expect(mount('-o', 'remount,ro', mnt)).toBe(true);
    try {
      const run = await runCli('run', cfg, '--db', join(mnt, 'new.db'), '--plain');
      expect(run.code).toBe(1);
      expect(run.err.trim()).toBe(
        `dicerig: Cannot write the roll store ${join(mnt, 'new.db')}: its folder ${mnt} is on a read-only file system (mounted read-only at ${mnt}); nothing was written. Read it with verify, export or report, or write to another --db.`,
      );
    } finally {
      mount('-o', 'remount,rw', mnt);
    }
  });
});
