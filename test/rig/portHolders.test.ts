// Which other programs have a serial port open, read from a /proc laid out as Linux lays it out (links under
// PID/fd, a pseudo-terminal master's index in PID/fdinfo), so every case is set up exactly.
import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPortHolders } from '../../src/rig/serial/portHolders.js';
import { tempDir } from '../store/support/fixtures.js';

interface FakeProcess {
  readonly cmdline: string[];
  /** fd number -> link target */
  readonly fds?: Record<string, string>;
  /** fd number -> the tty-index of a pseudo-terminal master */
  readonly ptyMasters?: Record<string, number>;
  /** Its fd folder cannot be read (another user's process, without root). */
  readonly hidden?: boolean;
}

function fakeProc(processes: Record<number, FakeProcess>): string {
  const root = tempDir('dicerig-proc-');
  for (const [pid, p] of Object.entries(processes)) {
    const dir = join(root, pid);
    mkdirSync(join(dir, 'fdinfo'), { recursive: true });
    writeFileSync(join(dir, 'cmdline'), `${p.cmdline.join('\0')}\0`);
    writeFileSync(join(dir, 'comm'), `${p.cmdline[0] ?? '?'}\n`);
    if (p.hidden) {
      writeFileSync(join(dir, 'fd'), ''); // not a folder: reading it fails as a forbidden one does
      continue;
    }
    mkdirSync(join(dir, 'fd'));
    for (const [fd, target] of Object.entries(p.fds ?? {})) symlinkSync(target, join(dir, 'fd', fd));
    for (const [fd, index] of Object.entries(p.ptyMasters ?? {})) {
      symlinkSync('/dev/ptmx', join(dir, 'fd', fd));
      writeFileSync(join(dir, 'fdinfo', fd), `pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t90\ntty-index:\t${index}\n`);
    }
  }
  return root;
}

describe('finding the programs that hold a serial port', () => {
  it('names each other process that has the device open, by pid and command line, leaving out this one', async () => {
    const device = '/dev/null'; // a path that exists, standing in for the port
    const procDir = fakeProc({
      100: { cmdline: ['node', 'bin/dicerig.js', 'rig', 'check'], fds: { '21': device } },
      200: { cmdline: ['cat', device], fds: { '0': '/dev/pts/9', '3': device } },
      300: { cmdline: ['screen', '/dev/ttyACM1'], fds: { '4': '/dev/ttyACM1' } },
    });
    const found = await findPortHolders(device, { procDir, selfPid: 100 });
    expect(found).toEqual({ device, holders: [{ pid: 200, command: `cat ${device}` }], unseen: 0 });
  });

  it('leaves out the far end of a pseudo-terminal (the emulated board, a logging proxy), which holds its master', async () => {
    // A real pseudo-terminal, so its slave path exists: open a master and read its index as the scan does.
    const master = openSync('/dev/ptmx', 'r+');
    try {
      const index = Number(/tty-index:\s*(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${master}`, 'latin1'))?.[1]);
      const slave = `/dev/pts/${index}`;
      const procDir = fakeProc({
        10: { cmdline: ['dicerig-sim', 'build/dicerig.elf'], fds: { '3': slave }, ptyMasters: { '4': index } },
        11: { cmdline: ['cat', slave], fds: { '3': slave } },
        12: { cmdline: ['proxy-of-another-pty'], ptyMasters: { '3': index + 1 }, fds: { '5': slave } },
      });
      const found = await findPortHolders(slave, { procDir, selfPid: 1 });
      expect(found?.holders.map((h) => h.pid)).toEqual([11, 12]);
    } finally {
      closeSync(master);
    }
  });

  it('counts the processes whose open files it could not read', async () => {
    const procDir = fakeProc({ 7: { cmdline: ['x'], hidden: true }, 8: { cmdline: ['y'], fds: { '1': '/dev/zero' } } });
    expect(await findPortHolders('/dev/null', { procDir, selfPid: 1 })).toEqual({ device: '/dev/null', holders: [], unseen: 1 });
  });

  it('gives up quietly where the port leads nowhere or there is no /proc', async () => {
    expect(await findPortHolders('/dev/no-such-port')).toBeUndefined();
    expect(await findPortHolders('/dev/null', { procDir: '/nonexistent-proc' })).toBeUndefined();
  });
});
