import { readSync, writeSync } from 'node:fs';
import type { SerialLink } from './link.js';

/**
 * The part of a serialport binding port (`SerialPort.binding.open()`) the links below use. On every
 * platform a port reads and writes through promises; on Linux and macOS it also exposes its file
 * descriptor and the readiness poller it waits on.
 */
export interface BindingPort {
  close(): Promise<void>;
  read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer): Promise<void>;
}

interface Poller {
  once(event: 'readable', callback: (err: Error | null) => void): unknown;
  /** serialport's poller (an EventEmitter): a listener that stays, and `poll` to wait for the next event. */
  on?(event: 'readable', callback: (err: Error | null) => void): unknown;
  poll?(events: number): void;
}

/** The poller's flags for "readable" and "writable" (libuv's UV_READABLE, UV_WRITABLE). */
const UV_READABLE = 1;
const UV_WRITABLE = 2;

/** A port whose descriptor can be read and written directly when its poller says so (Linux, macOS). */
interface PollablePort extends BindingPort {
  readonly fd: number | null;
  readonly poller: Poller;
}

function isPollable(port: BindingPort): port is PollablePort {
  const p = port as Partial<PollablePort>;
  return typeof p.fd === 'number' && typeof p.poller?.once === 'function';
}

/** Read buffer size: far more than the board sends between two reads. */
const READ_CHUNK = 4096;

/** The port is fine, it just has nothing to read (or no room to write) right now. */
function isRetryable(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINTR';
}

/** Listener bookkeeping and the close protocol both links share. */
abstract class LinkBase implements SerialLink {
  protected closed = false;
  private closing: Promise<void> | undefined;
  private reading = false;
  private readonly dataListeners: ((chunk: Buffer) => void)[] = [];
  private readonly closeListeners: ((error: Error | undefined) => void)[] = [];

  constructor(
    readonly path: string,
    protected readonly port: BindingPort,
  ) {}

  abstract write(text: string): void;

  /** Starts reading; called once, when the first listener comes (until then bytes wait in the port). */
  protected abstract startReading(): void;

  onData(listener: (chunk: Buffer) => void): void {
    this.dataListeners.push(listener);
    if (this.reading || this.closed) return;
    this.reading = true;
    this.startReading();
  }

  onClose(listener: (error: Error | undefined) => void): void {
    this.closeListeners.push(listener);
  }

  close(): Promise<void> {
    this.closed = true;
    this.closing ??= this.port.close().catch(() => undefined);
    return this.closing;
  }

  protected deliver(chunk: Buffer): void {
    const listeners = this.dataListeners;
    for (let i = 0; i < listeners.length; i++) (listeners[i] as (chunk: Buffer) => void)(chunk);
  }

  /** The port failed or hung up without being asked to close (an unplug): release it and say so. */
  protected lost(error: Error): void {
    if (this.closed) return;
    void this.close();
    for (const l of this.closeListeners) l(error);
  }
}

/**
 * Reads the descriptor on the main thread when the poller says it is readable, and writes it at once.
 * serialport's own stream reads through the libuv thread pool and reads again until the descriptor
 * says EAGAIN, which is thrown as an Error with a stack trace: per reply chunk, two pool round trips,
 * two wake-ups of the main thread and an exception. Here a chunk costs one wake-up and one read
 * (the poller is level-triggered: data left over wakes it again). A write that does not fit in the
 * port's output buffer, which only a stalled port causes, goes on through the binding's own write,
 * which waits for room.
 *
 * A reply comes in several chunks (a USB-serial bridge sends what it has every millisecond or so), each
 * a wake-up of a process that was asleep, so the work per chunk is kept small: one listener stays on
 * serialport's poller, which is only re-armed (`once` added and removed a wrapper each time).
 */
class PolledLink extends LinkBase {
  private readonly buffer = Buffer.allocUnsafe(READ_CHUNK);
  private readonly queue: Buffer[] = [];
  private flushing = false;

  constructor(
    path: string,
    private readonly polled: PollablePort,
  ) {
    super(path, polled);
  }

  protected startReading(): void {
    const { poller } = this.polled;
    if (poller.on && poller.poll) poller.on('readable', this.onReadable);
    this.arm();
  }

  private arm(): void {
    const { poller } = this.polled;
    // The native poller starts libuv's poll with the events of this call alone, not all it was asked for: while
    // a write waits for room (the binding's own wait for "writable"), asking for "readable" alone would drop that
    // wait, and the write would stall for as long as the port stayed busy reading.
    if (poller.poll && poller.on) poller.poll(UV_READABLE | (this.flushing ? UV_WRITABLE : 0));
    else poller.once('readable', this.onReadable);
  }

  private readonly onReadable = (err: Error | null): void => {
    if (this.closed) return; // closing cancels the poller with an error: expected
    const fd = this.polled.fd;
    // libuv reports a port that hung up (POLLERR) as EBADF, "bad file descriptor": say what it means.
    if (err) return this.lost(new Error(`the port hung up (${err.message})`, { cause: err }));
    if (fd === null) return this.lost(new Error('the port closed'));
    let n: number;
    try {
      n = readSync(fd, this.buffer, 0, READ_CHUNK, null);
    } catch (e) {
      if (isRetryable(e)) return this.arm();
      return this.lost(e as Error);
    }
    // A tty in raw mode (VMIN 1) that is readable but has nothing to read has hung up.
    if (n === 0) return this.lost(new Error('the port hung up'));
    const chunk = Buffer.from(this.buffer.subarray(0, n)); // a copy: the read buffer is reused
    this.arm();
    this.deliver(chunk);
  };

  write(text: string): void {
    if (this.closed) return;
    const bytes = Buffer.from(text, 'latin1');
    if (this.flushing) {
      this.queue.push(bytes);
      return;
    }
    let written = 0;
    try {
      if (this.polled.fd !== null) written = writeSync(this.polled.fd, bytes);
    } catch (e) {
      if (!isRetryable(e)) return this.lost(e as Error);
    }
    if (written < bytes.length) {
      this.queue.push(bytes.subarray(written));
      void this.flush();
    }
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0 && !this.closed) {
      const bytes = Buffer.concat(this.queue.splice(0));
      try {
        await this.polled.write(bytes);
      } catch (e) {
        this.lost(e as Error);
      }
    }
    this.flushing = false;
  }
}

/** Any other binding (Windows): its promise-based read in a loop and its writes one after another. */
class AwaitedLink extends LinkBase {
  private writeTail: Promise<void> = Promise.resolve();

  constructor(path: string, port: BindingPort) {
    super(path, port);
  }

  protected startReading(): void {
    void this.readLoop();
  }

  private async readLoop(): Promise<void> {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    while (!this.closed) {
      try {
        const { bytesRead } = await this.port.read(buffer, 0, READ_CHUNK);
        if (this.closed) return;
        if (bytesRead === 0) return this.lost(new Error('the port hung up'));
        this.deliver(Buffer.from(buffer.subarray(0, bytesRead)));
      } catch (e) {
        // A read cancelled by close() is expected; anything else is a disconnect.
        if (!this.closed) this.lost(e as Error);
        return;
      }
    }
  }

  write(text: string): void {
    if (this.closed) return;
    const bytes = Buffer.from(text, 'latin1');
    this.writeTail = this.writeTail.then(
      () => (this.closed ? undefined : this.port.write(bytes)),
    ).catch((e: unknown) => this.lost(e as Error));
  }
}

/** Wraps an open binding port as a SerialLink, the direct way where the platform allows it. */
export function linkOverBinding(path: string, port: BindingPort): SerialLink {
  return isPollable(port) ? new PolledLink(path, port) : new AwaitedLink(path, port);
}
