/**
 * Which other programs have a serial port open. A program that opens the port without locking it (`cat`, `screen`,
 * a serial monitor) takes the board's lines before dicerig reads them: the board answers, and dicerig hears nothing
 * and would blame the firmware. Linux only: every process's open files are links under /proc/PID/fd. A process of
 * another user cannot be looked into without root; those are counted, so the message can say what it could not see.
 */
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';

/** A process that has the port open. */
export interface PortHolder {
  readonly pid: number;
  /** Its command line (or name), shortened. */
  readonly command: string;
}

export interface PortHolders {
  /** The device the port path leads to, e.g. /dev/ttyACM0 or /dev/pts/3. */
  readonly device: string;
  readonly holders: readonly PortHolder[];
  /** Processes whose open files could not be read (another user's, without root). */
  readonly unseen: number;
}

export interface PortHolderOptions {
  /** Default /proc. */
  readonly procDir?: string;
  /** This process, which has the port open itself. Default process.pid. */
  readonly selfPid?: number;
}

const COMMAND_CHARS = 60;

async function commandOf(proc: string): Promise<string> {
  try {
    const cmdline = (await readFile(join(proc, 'cmdline'), 'latin1')).split('\0').filter((a) => a !== '').join(' ');
    if (cmdline !== '') return cmdline.length > COMMAND_CHARS ? `${cmdline.slice(0, COMMAND_CHARS - 1)}…` : cmdline;
  } catch {
    // gone meanwhile, or hidden: try its name
  }
  return (await readFile(join(proc, 'comm'), 'latin1').catch(() => '?')).trim();
}

/** The pseudo-terminal index of a master descriptor (`tty-index:` in its fdinfo), if it is one. */
async function ptyIndex(proc: string, fd: string): Promise<number | undefined> {
  const info = await readFile(join(proc, 'fdinfo', fd), 'latin1').catch(() => '');
  const m = /^tty-index:\s*(\d+)$/m.exec(info);
  return m ? Number(m[1]) : undefined;
}

/**
 * The other processes that have the device behind `path` open; undefined where that cannot be looked up (no /proc, or
 * the path leads nowhere). On a pseudo-terminal the process holding its master side is the far end (the emulated
 * board, a logging proxy), not a rival reader, and is left out, whether or not it also holds the port itself.
 */
export async function findPortHolders(path: string, options: PortHolderOptions = {}): Promise<PortHolders | undefined> {
  const procDir = options.procDir ?? '/proc';
  const self = options.selfPid ?? process.pid;
  const device = await realpath(path).catch(() => undefined);
  if (device === undefined) return undefined;
  let pids: string[];
  try {
    pids = (await readdir(procDir)).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const pty = /^\/dev\/pts\/(\d+)$/.exec(device);
  const ptyNumber = pty ? Number(pty[1]) : undefined;
  const holders: PortHolder[] = [];
  let unseen = 0;
  for (const pid of pids) {
    if (Number(pid) === self) continue;
    const proc = join(procDir, pid);
    let fds: string[];
    try {
      fds = await readdir(join(proc, 'fd'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') unseen++; // ENOENT: it ended meanwhile
      continue;
    }
    let holds = false;
    let farEnd = false;
    for (const fd of fds) {
      const target = await readlink(join(proc, 'fd', fd)).catch(() => undefined);
      if (target === device) holds = true;
      else if (ptyNumber !== undefined && (target === '/dev/ptmx' || target === '/dev/pts/ptmx') && (await ptyIndex(proc, fd)) === ptyNumber) farEnd = true;
    }
    if (holds && !farEnd) holders.push({ pid: Number(pid), command: await commandOf(proc) });
  }
  return { device, holders, unseen };
}
