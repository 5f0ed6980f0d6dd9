/**
 * The disk a file is on, as a message about a store that cannot be written
 * needs it: the mount point of its file system (from /proc/self/mounts on
 * Linux), whether that is mounted read-only, and the space left on it. Each
 * is absent where it cannot be told (another OS, a folder that does not exist).
 */
import { existsSync, readFileSync, realpathSync, statfsSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

export interface MountEntry {
  readonly mountPoint: string;
  readonly type: string;
  readonly options: readonly string[];
}

export interface DiskOfFile {
  readonly mountPoint?: string;
  readonly type?: string;
  readonly readOnly?: boolean;
  /** Bytes an unprivileged writer may still use. */
  readonly freeBytes?: number;
}

/** The mount table's text (`/proc/self/mounts`) as entries; a mount point's spaces and the like come octal-escaped. */
export function parseMounts(text: string): MountEntry[] {
  const unescape = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f.length >= 4)
    .map((f) => ({ mountPoint: unescape(f[1] as string), type: f[2] as string, options: (f[3] as string).split(',') }));
}

function readMounts(): MountEntry[] {
  try {
    return parseMounts(readFileSync('/proc/self/mounts', 'utf8'));
  } catch {
    return [];
  }
}

/** The nearest folder of `path` that exists, with links resolved. */
function existingFolder(path: string): string | undefined {
  let dir = resolve(path);
  while (!existsSync(dir)) {
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

/** The mount `path` lies under: the last mounted of those with the longest mount point that holds it. */
export function mountOf(path: string, mounts: readonly MountEntry[]): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const m of mounts) {
    const holds = m.mountPoint === '/' || path === m.mountPoint || path.startsWith(m.mountPoint.endsWith(sep) ? m.mountPoint : m.mountPoint + sep);
    if (holds && (best === undefined || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

/** What can be told of the disk holding `file` (see the module comment). */
export function diskOf(file: string, mounts: readonly MountEntry[] = readMounts()): DiskOfFile {
  const dir = existingFolder(existsSync(file) ? file : dirname(file));
  if (dir === undefined) return {};
  const mount = mountOf(dir, mounts);
  let freeBytes: number | undefined;
  try {
    const s = statfsSync(dir);
    freeBytes = s.bavail * s.bsize;
  } catch {
    freeBytes = undefined;
  }
  return {
    ...(mount ? { mountPoint: mount.mountPoint, type: mount.type, readOnly: mount.options.includes('ro') } : {}),
    ...(freeBytes !== undefined ? { freeBytes } : {}),
  };
}

/** `0 B`, `512 B`, `12 KiB`, `3.4 MiB`, `1.2 GiB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${Math.round(v)} B` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}
