// The byte link under the serial driver: the real port of an emulated board (the pty the harness offers, read
// and written directly where the poller allows it), and the fallback for bindings without a poller (Windows),
// over a stand-in binding port.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatedBoard } from '../../src/rig/emulator/emulatedBoard.js';
import { decodeLine } from '../../src/rig/protocol/decode.js';
import { encodeCommand } from '../../src/rig/protocol/encode.js';
import { LineSplitter } from '../../src/rig/protocol/lineSplitter.js';
import { linkOverBinding, type BindingPort } from '../../src/rig/serial/bindingLink.js';
import { LinkOpenError, openSerialPortLink, type SerialLink } from '../../src/rig/serial/serialLink.js';
import { buildFirmware } from './support/build.js';

/** Collects a link's lines and waits for one. */
function lineReader(link: SerialLink): (match: (line: string) => boolean, timeoutMs?: number) => Promise<string> {
  const splitter = new LineSplitter(400);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  link.onData((chunk) => {
    for (const { line } of splitter.push(chunk)) lines.push(line);
    for (const w of waiters) w();
  });
  return (match, timeoutMs = 3000) =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = lines.find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching line within ${timeoutMs} ms; got: ${lines.join(' | ')}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
}

describe('the serial port link on the emulated board', () => {
  let board: EmulatedBoard;
  beforeAll(async () => {
    buildFirmware();
    board = await EmulatedBoard.start();
  });
  afterAll(async () => {
    await board?.stop();
  });

  it('reads the boot banner and a reply, whatever chunks they come in, and writes commands', async () => {
    const link = await openSerialPortLink(board.path);
    try {
      const next = lineReader(link);
      expect(decodeLine(await next((l) => l.startsWith('! boot')))).toMatchObject({ kind: 'push', event: 'boot' });
      link.write(encodeCommand(7, 'status'));
      // The status reply is longer than the emulated USB bridge's packets: it arrives in several reads.
      expect(decodeLine(await next((l) => l.startsWith('7 ')))).toMatchObject({ kind: 'ok', seq: 7, fields: { state: 'idle' } });
    } finally {
      await link.close();
    }
  });

  it('refuses a second opener of the same port as busy, and names a missing port as missing', async () => {
    await board.waitFor((e) => e.kind === 'client' && e.count === 0, 2000, board.events.length - 1).catch(() => undefined);
    const link = await openSerialPortLink(board.path);
    try {
      await expect(openSerialPortLink(board.path)).rejects.toMatchObject({ reason: 'busy' });
    } finally {
      await link.close();
    }
    const missing = await openSerialPortLink('/dev/dicerig-no-such-port').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LinkOpenError);
    expect(missing).toMatchObject({ reason: 'missing' });
  });

  it('reports a port that hangs up (the board gone) as a close with its error, once; closing afterwards is harmless', async () => {
    const own = await EmulatedBoard.start();
    const link = await openSerialPortLink(own.path);
    const closes: (Error | undefined)[] = [];
    link.onClose((e) => closes.push(e));
    const next = lineReader(link);
    await next((l) => l.startsWith('! boot'));
    await own.stop(); // the pty's other end goes away, as a USB port does when the board is unplugged
    await expect.poll(() => closes.length, { timeout: 3000 }).toBe(1);
    expect(closes[0]?.message).toMatch(/hung up/);
    link.write(encodeCommand(1, 'ping')); // ignored, not thrown
    await link.close();
    expect(closes).toHaveLength(1);
  });
});

/** A binding port with no poller: reads wait for `feed`, close cancels them, as serialport's bindings do. */
class StandInPort implements BindingPort {
  readonly written: string[] = [];
  closed = false;
  private pending: { resolve: (r: { bytesRead: number }) => void; reject: (e: Error) => void; buffer: Buffer } | undefined;
  private queued: Buffer[] = [];

  feed(text: string): void {
    this.queued.push(Buffer.from(text, 'latin1'));
    this.serve();
  }

  fail(error: Error): void {
    const p = this.pending;
    this.pending = undefined;
    p?.reject(error);
  }

  read(buffer: Buffer): Promise<{ bytesRead: number }> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, buffer };
      this.serve();
    });
  }

  async write(buffer: Buffer): Promise<void> {
    await new Promise((r) => setImmediate(r)); // the OS takes a moment
    this.written.push(buffer.toString('latin1'));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fail(Object.assign(new Error('Canceled'), { canceled: true }));
  }

  private serve(): void {
    const p = this.pending;
    const chunk = this.queued.shift();
    if (!p || !chunk) {
      if (chunk) this.queued.unshift(chunk);
      return;
    }
    this.pending = undefined;
    const n = chunk.copy(p.buffer);
    p.resolve({ bytesRead: n });
  }
}

describe('the link over a binding without a poller', () => {
  it('delivers what the port reads, writes in order, and stops reading when closed without calling it a loss', async () => {
    const port = new StandInPort();
    const link = linkOverBinding('COM3', port);
    const chunks: string[] = [];
    const closes: (Error | undefined)[] = [];
    link.onData((c) => chunks.push(c.toString('latin1')));
    link.onClose((e) => closes.push(e));
    port.feed('1 ok t=');
    port.feed('5*ABCD\n');
    link.write('2 ping*0000\n');
    link.write('3 ping*0000\n');
    await expect.poll(() => port.written.length).toBe(2);
    expect(chunks.join('')).toBe('1 ok t=5*ABCD\n');
    expect(port.written).toEqual(['2 ping*0000\n', '3 ping*0000\n']);
    await link.close();
    expect(port.closed).toBe(true);
    expect(closes).toHaveLength(0);
  });

  it('reports a failed read (an unplug) as a close with its error and closes the port', async () => {
    const port = new StandInPort();
    const link = linkOverBinding('COM3', port);
    const closes: (Error | undefined)[] = [];
    link.onData(() => undefined);
    link.onClose((e) => closes.push(e));
    await new Promise((r) => setImmediate(r));
    port.fail(Object.assign(new Error('Reading from COM port (ReadIOCompletion): Access denied'), { disconnect: true }));
    await expect.poll(() => closes.length).toBe(1);
    expect(closes[0]?.message).toMatch(/Access denied/);
    expect(port.closed).toBe(true);
  });
});

describe('the direct link when the port cannot take more', () => {
  /** Reads whatever is waiting on a non-blocking descriptor. */
  function drain(fd: number): string {
    const buf = Buffer.alloc(65536);
    let out = '';
    for (;;) {
      try {
        const n = readSync(fd, buf, 0, buf.length, null);
        if (n <= 0) return out;
        out += buf.toString('latin1', 0, n);
      } catch {
        return out; // EAGAIN: empty
      }
    }
  }

  // A FIFO stands in for the port's descriptor: its 64 KiB buffer fills as a stalled serial port's would.
  it.skipIf(process.platform !== 'linux')(
    "hands what the port cannot take to the binding's own write, keeps the order, and writes directly again afterwards",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dicerig-link-'));
      const fifo = join(dir, 'port');
      execFileSync('mkfifo', [fifo]);
      const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
      const handedOver: string[] = [];
      const port = {
        fd,
        poller: { once: () => undefined },
        read: () => new Promise<{ bytesRead: number }>(() => undefined),
        write: async (b: Buffer) => {
          await new Promise((r) => setTimeout(r, 5)); // the port drains slowly
          handedOver.push(b.toString('latin1'));
        },
        close: async () => closeSync(fd),
      };
      try {
        const link = linkOverBinding('/dev/ttyFAKE0', port);
        const lines = Array.from({ length: 100 }, (_, i) => `${i + 1} ${'x'.repeat(1000)}\n`);
        for (const l of lines) link.write(l);
        await expect.poll(() => handedOver.length).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 50)); // lines written meanwhile wait for the handed-over ones
        const direct = drain(fd);
        expect(direct.length).toBeGreaterThan(0);
        expect(direct + handedOver.join('')).toBe(lines.join(''));
        link.write('101 ping\n');
        expect(drain(fd)).toBe('101 ping\n');
        await link.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
