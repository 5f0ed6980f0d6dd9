/**
 * Who this process is, and whether a process named that way still runs: what a session lock records and how a lock
 * left by a dead process is told from a live one. A pid alone is not enough: after a power loss (the case `--resume`
 * exists for) or a long time, the same pid belongs to another process. So the lock also records the kernel's boot id
 * and the process's start time (Linux /proc); where they cannot be read, the pid decides alone.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** A process as a session lock names it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id ('' when unknown): a process of an earlier boot is gone. */
  readonly bootId: string;
  /** The process's start time in clock ticks since boot ('' when unknown): another start time is another process. */
  readonly procStart: string;
}

/** `alive`, `dead`, or `unknown` (another host: its processes cannot be seen from here). */
export type Liveness = 'alive' | 'dead' | 'unknown';

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function bootId(): string {
  return readOrEmpty('/proc/sys/kernel/random/boot_id');
}

/** Field 22 of /proc/PID/stat (starttime), counted after the command name, which may hold spaces and parentheses. */
function procStart(pid: number): string {
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return rest[19] ?? '';
}

export function thisProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), bootId: bootId(), procStart: procStart(process.pid) };
}

/** Whether the process `p` still runs, as far as this host can tell. */
export function liveness(p: ProcessIdentity): Liveness {
  if (p.host !== hostname()) return 'unknown';
  const boot = bootId();
  if (p.bootId !== '' && boot !== '' && p.bootId !== boot) return 'dead';
  try {
    process.kill(p.pid, 0);
  } catch (e) {
    // EPERM: it runs, as another user.
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return 'dead';
  }
  const start = procStart(p.pid);
  if (p.procStart !== '' && start !== '' && start !== p.procStart) return 'dead';
  return 'alive';
}
