/**
 * Who this process is, and whether a process named that way still runs: what a session lock records and how a lock
 * left by a dead process is told from a live one. A pid alone is not enough: after a power loss (the case `--resume`
 * exists for) or a long time, the same pid belongs to another process. So the lock also records the kernel's boot id
 * and the process's start time (Linux /proc); where they cannot be read, the pid decides alone. A pid means something
 * only in its PID namespace: a process in a container that shares the host's name (`--network host` or `--uts host`)
 * and the store's folder names a pid this process cannot see, or one that is another process here, so a process of
 * another namespace is not judged from here.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** A process as a session lock names it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id ('' when unknown): a process of an earlier boot is gone. */
  readonly bootId: string;
  /** The process's start time in clock ticks since boot ('' when unknown): another start time is another process. */
  readonly procStart: string;
  /** Its PID namespace (`pid:[4026531836]`; '' when unknown): in another one its pid says nothing here. */
  readonly pidNs: string;
}

/** `alive`, `dead`, or `unknown` (another host, or another PID namespace of this one: its processes cannot be seen from here). */
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

/** This process's PID namespace, '' where it cannot be read (no /proc). */
export function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

export function thisProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), bootId: bootId(), procStart: procStart(process.pid), pidNs: pidNamespace() };
}

/** Whether `p` runs on this host but in another PID namespace than this process (a container), as far as can be told. */
export function inOtherPidNamespace(p: ProcessIdentity): boolean {
  const here = pidNamespace();
  return p.host === hostname() && p.pidNs !== '' && here !== '' && p.pidNs !== here;
}

/** Whether the process `p` still runs, as far as this host can tell. */
export function liveness(p: ProcessIdentity): Liveness {
  if (p.host !== hostname()) return 'unknown';
  const boot = bootId();
  if (p.bootId !== '' && boot !== '' && p.bootId !== boot) return 'dead';
  if (inOtherPidNamespace(p)) return 'unknown';
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
