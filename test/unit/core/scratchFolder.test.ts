import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { liveness, thisProcess } from '../../../src/store/processLiveness.js';
import { makeScratchFolder, removeLeftovers } from '../../support/scratchFolder.js';

const mountedAt = (path: string): string | undefined =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .find((f) => f[1] === path)?.[2];

describe('the test run\'s scratch folder', () => {
  it('is a writable folder open to every user, and is gone, mount and all, once removed', () => {
    const scratch = makeScratchFolder();
    try {
      writeFileSync(join(scratch.path, 'rolls.db'), 'x');
      expect(existsSync(join(scratch.path, 'rolls.db'))).toBe(true);
      if (scratch.kind === 'tmpfs mounted for the run') expect(mountedAt(scratch.path)).toBe('tmpfs');
    } finally {
      scratch.remove();
    }
    expect(existsSync(scratch.path)).toBe(false);
    expect(mountedAt(scratch.path)).toBeUndefined();
  });
});

describe('the scratch folders of runs that were killed', () => {
  it('are removed, mount and all, by the next run; the folder of a run still going is kept', () => {
    // A process that has ended: its pid names no run any more.
    const dead = spawnSync('true').pid as number;
    const leftover = makeScratchFolder({ ...thisProcess(), pid: dead, procStart: '' });
    const live = makeScratchFolder();
    try {
      writeFileSync(join(leftover.path, 'rolls.db'), 'x');
      // As the run decides by default, leaving out other runs' folders on this machine.
      const removed = removeLeftovers((owner) => owner.pid === dead && liveness(owner) === 'dead');
      expect(removed).toContain(leftover.path);
      expect(removed).not.toContain(live.path);
      expect(existsSync(leftover.path)).toBe(false);
      expect(mountedAt(leftover.path)).toBeUndefined();
      expect(existsSync(live.path)).toBe(true);
    } finally {
      live.remove();
      leftover.remove();
    }
  });

  it('leaves the folder of a run in another PID namespace, whose pid names no process here (a container, `unshare --pid`)', () => {
    const dead = spawnSync('true').pid as number;
    const elsewhere = makeScratchFolder({ ...thisProcess(), pid: dead, procStart: '' });
    const ownerFile = join(elsewhere.path, '.dicerig-run-pid');
    try {
      const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as { pidNs: string };
      expect(owner.pidNs).toMatch(/^pid:\[\d+\]$/);
      writeFileSync(ownerFile, JSON.stringify({ ...owner, pidNs: 'pid:[1]' }));
      const removed = removeLeftovers((o) => o.pid === dead && liveness(o) === 'dead');
      expect(removed).not.toContain(elsewhere.path);
      expect(existsSync(elsewhere.path)).toBe(true);
    } finally {
      elsewhere.remove();
    }
  });
});
