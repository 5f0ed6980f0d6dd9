/**
 * A write that does not fit in the port's output buffer waits, in serialport's binding, for the poller to say
 * "writable". serialport's native poller starts libuv's poll with the events of each call alone, so the link's own
 * re-arming for "readable" must keep asking for "writable" while such a write waits, or the write stalls.
 * The port here is a FIFO opened non-blocking, which fills as a stalled port's buffer does; the poller is a recorder
 * standing in for serialport's, whose mask is the thing checked.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkOverBinding } from '../../src/rig/serial/bindingLink.js';
import { tempDir } from '../store/support/fixtures.js';

const UV_READABLE = 1;
const UV_WRITABLE = 2;

let fd: number | undefined;
afterEach(() => {
  if (fd !== undefined) closeSync(fd);
  fd = undefined;
});

function stalledPort() {
  const fifo = join(tempDir('dicerig-polled-link-'), 'port');
  execFileSync('mkfifo', [fifo]);
  fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  const masks: number[] = [];
  let onReadable: ((err: Error | null) => void) | undefined;
  let release: (() => void) | undefined;
  const writes: Buffer[] = [];
  const port = {
    fd,
    poller: {
      on: (_event: 'readable', cb: (err: Error | null) => void) => (onReadable = cb),
      once: (_event: 'readable', cb: (err: Error | null) => void) => (onReadable = cb),
      poll: (events: number) => masks.push(events),
    },
    close: async () => undefined,
    read: async () => ({ bytesRead: 0 }),
    // The binding's write of what did not fit: it waits (for "writable") until released.
    write: (bytes: Buffer) => {
      writes.push(bytes);
      return new Promise<void>((resolve) => (release = resolve));
    },
  };
  return { port, masks, writes, readable: () => onReadable?.(null), release: () => release?.() };
}

describe('the polled serial link while a write waits for room', () => {
  it('asks the poller for "writable" with "readable" while the write waits, and for "readable" alone once it is done', async () => {
    const p = stalledPort();
    const link = linkOverBinding('/dev/ttyFIFO', p.port);
    const got: Buffer[] = [];
    link.onData((chunk) => got.push(chunk));
    expect(p.masks).toEqual([UV_READABLE]);

    // More than the FIFO holds (64 KiB): the rest goes to the binding's write, which waits.
    link.write('x'.repeat(70_000));
    expect(p.writes).toHaveLength(1);
    expect(p.writes[0]?.length).toBeGreaterThan(0);
    p.readable(); // bytes come in meanwhile (the FIFO reads back what was written into it)
    expect(got.length).toBe(1);
    expect(p.masks.at(-1)).toBe(UV_READABLE | UV_WRITABLE);

    p.release();
    await new Promise((r) => setImmediate(r));
    p.readable();
    expect(p.masks.at(-1)).toBe(UV_READABLE);
    await link.close();
  });
});
