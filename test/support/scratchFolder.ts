import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { inOtherPidNamespace, liveness, thisProcess, type ProcessIdentity } from '../../src/store/processLiveness.js';

/** The folder a test run writes its scratch files into, and how to be rid of it. */
export interface ScratchFolder {
  readonly path: string;
  /** Where its files are kept: a tmpfs mounted for the run, /dev/shm, or the temporary directory's own disk. */
  readonly kind: 'tmpfs mounted for the run' | '/dev/shm' | 'disk';
  remove(): void;
}

const GiB = 1024 ** 3;

/**
 * Makes the run's scratch folder in memory where it can. Every throw a session test stores is its own transaction,
 * synced to disk (synchronous=FULL), and so is every PostgreSQL commit: on a disk the suite waits on some thousands
 * of syncs (moreRolls.test: 98-109 s on /tmp, 75-81 s on tmpfs, 2026-12-07). In memory a sync returns at once;
 * what the tests check holds as well there (a killed process's committed writes survive in the page cache either
 * way; no test can cut the power; the disk-full and read-only tests mount small file systems of their own).
 * As root, where mounting is allowed (CI runs as root), the run mounts a tmpfs of its own, removed with it;
 * otherwise /dev/shm when it has room (a container's is often 64 MB); otherwise the temporary directory as before.
 */
export function makeScratchFolder(owner: ProcessIdentity = thisProcess()): ScratchFolder {
  const folder = makeFolder();
  // Which run it is, so a later run can tell the folder of a run that was killed (its memory with it) and remove it:
  // named as a session lock names its process, so a pid used again by another process is not taken for the run.
  writeFileSync(join(folder.path, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  return folder;
}

function makeFolder(): ScratchFolder {
  const path = mkdtempSync(join(tmpdir(), 'dicerig-tests-'));
  // Open to every user, sticky, as /tmp is: some tests run PostgreSQL and the CLI as other users, who make their own folders here.
  chmodSync(path, 0o1777);
  // A cap, not a reservation: tmpfs takes memory only for what is written (a run holds some hundreds of MB at once).
  const size = Math.floor(Math.min(8 * GiB, totalmem() / 3));
  if (process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=1777`, 'dicerig-tests', path]).status === 0) {
    return {
      path,
      kind: 'tmpfs mounted for the run',
      remove() {
        // A lazy unmount still frees it should a straggling process hold a file open there.
        spawnSync('umount', ['--lazy', path]);
        rmSync(path, { recursive: true, force: true });
      },
    };
  }
  if (roomIn('/dev/shm') >= 4 * GiB) {
    rmSync(path, { recursive: true, force: true });
    const shm = mkdtempSync(join('/dev/shm', 'dicerig-tests-'));
    chmodSync(shm, 0o1777);
    return { path: shm, kind: '/dev/shm', remove: () => rmSync(shm, { recursive: true, force: true }) };
  }
  return { path, kind: 'disk', remove: () => rmSync(path, { recursive: true, force: true }) };
}

const OWNER_FILE = '.dicerig-run-pid';
const PREFIX = 'dicerig-tests-';

/**
 * Removes the scratch folders of runs that were killed (teardown never ran): a tmpfs left mounted holds its files in
 * memory until the machine restarts. Only folders that name their run, and whose run is gone, are removed: another
 * run going on beside this one keeps its folder, and so does a run in another PID namespace, whose pid says nothing
 * here. Returns the folders removed.
 */
export function removeLeftovers(isDead: (owner: ProcessIdentity) => boolean = (owner) => liveness(owner) === 'dead'): string[] {
  const removed: string[] = [];
  for (const parent of new Set([tmpdir(), '/dev/shm'])) {
    let names: string[];
    try {
      names = readdirSync(parent).filter((n) => n.startsWith(PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(parent, name);
      let owner: ProcessIdentity;
      try {
        owner = JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8')) as ProcessIdentity;
      } catch {
        continue;
      }
      if (!Number.isInteger(owner?.pid) || owner.pid <= 0) continue;
      // A run in another PID namespace (a container sharing /tmp, a run under `unshare --pid`): judged as a session
      // lock judges it, whatever `isDead` says of its pid, which names nobody here or another process.
      if (inOtherPidNamespace({ ...owner, pidNs: owner.pidNs ?? '' })) continue;
      if (!isDead(owner)) continue;
      if (mountedHere(path)) spawnSync('umount', ['--lazy', path]);
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
  }
  return removed;
}

function mountedHere(path: string): boolean {
  try {
    return readFileSync('/proc/mounts', 'utf8').split('\n').some((l) => l.split(' ')[1] === path);
  } catch {
    return false;
  }
}

function roomIn(folder: string): number {
  try {
    const s = statfsSync(folder);
    return s.bavail * s.bsize;
  } catch {
    return 0;
  }
}
