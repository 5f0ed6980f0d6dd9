// A fault-injecting serial link for tests: the driver talks through it to the real port of an emulated
// board, and the test garbles, drops, delays or rewrites whole lines in either direction, unplugs the
// "USB cable" (with or without the close event a real unplug often fails to send), and plugs the board
// back in under another path with the same USB serial number, as Linux does with ttyACM0 -> ttyACM1.
// In 'bytes' mode (a binary protocol such as Firmata) bytes pass as they come: only the plug faults apply.
import { crcField } from '../../../src/rig/protocol/crc16.js';
import type { PortLister, SerialPortInfo } from '../../../src/rig/serial/portLocator.js';
import { LinkOpenError, openSerialPortLink, type LinkOpener, type SerialLink } from '../../../src/rig/serial/serialLink.js';

/** A rule applied to whole lines: `count` lines matching `match` get `action` (Infinity = every one). */
interface Rule {
  match: (line: string) => boolean;
  count: number;
  action: 'drop' | 'garble';
}

/** Flips one bit of the character before the CRC field, so the CRC no longer matches. */
export function garble(line: string): string {
  const star = line.lastIndexOf('*');
  const at = star > 1 ? star - 1 : Math.floor(line.length / 2);
  const c = line.charCodeAt(at) ^ 0x01;
  return line.slice(0, at) + String.fromCharCode(c) + line.slice(at + 1);
}

/** Re-seals an edited line body with a correct CRC (to forge e.g. another protocol version). */
export function seal(body: string): string {
  return `${body}*${crcField(body)}`;
}

export class FaultyLinkBus {
  /** Every line the driver wrote (as sent, before any fault), and every line the board sent. */
  readonly toBoard: string[] = [];
  readonly fromBoard: string[] = [];
  private readonly toBoardRules: Rule[] = [];
  private readonly fromBoardRules: Rule[] = [];
  private rewrite: ((line: string) => string) | undefined;
  private delayMs = 0;
  private lastDelivery = 0;
  private silent = false;
  private present: string | undefined;
  private current: { real: SerialLink; closeListeners: ((e: Error | undefined) => void)[]; alive: boolean } | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private dataListeners: ((chunk: Buffer) => void)[] = [];

  constructor(
    private readonly realPath: string,
    virtualPath = '/virtual/ttyACM0',
    readonly serialNumber = 'EMU0001',
    private readonly mode: 'lines' | 'bytes' = 'lines',
  ) {
    this.present = virtualPath;
  }

  /** The path the board is plugged in under now (undefined while unplugged). */
  get path(): string | undefined {
    return this.present;
  }

  /** Opens the board's real port under the virtual path, as the driver's `openLink`. */
  readonly open: LinkOpener = async (path, options) => {
    if (path !== this.present) throw new LinkOpenError(path, 'missing', 'No such file or directory');
    if (this.current?.alive) throw new LinkOpenError(path, 'busy', 'Cannot lock port');
    const real = await openSerialPortLink(this.realPath, options);
    const state = { real, closeListeners: [] as ((e: Error | undefined) => void)[], alive: true };
    this.current = state;
    const dataListeners: ((chunk: Buffer) => void)[] = [];
    this.dataListeners = dataListeners;
    let pending = '';
    real.onData((chunk) => {
      if (!state.alive || this.silent) return;
      if (this.mode === 'bytes') {
        for (const l of dataListeners) l(chunk);
        return;
      }
      pending += chunk.toString('latin1');
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        this.fromBoard.push(line);
        const out = this.apply(this.fromBoardRules, this.rewrite ? this.rewrite(line) : line);
        if (out === undefined) continue;
        this.deliver(() => {
          if (state.alive && !this.silent) for (const l of dataListeners) l(Buffer.from(`${out}\n`, 'latin1'));
        });
      }
    });
    real.onClose((e) => {
      if (!state.alive) return;
      state.alive = false;
      for (const l of state.closeListeners) l(e);
    });
    return {
      path,
      write: (text) => {
        if (!state.alive || this.silent) return;
        if (this.mode === 'bytes') return real.write(text);
        const line = text.endsWith('\n') ? text.slice(0, -1) : text;
        if (line.length > 0) this.toBoard.push(line);
        const out = line.length > 0 ? this.apply(this.toBoardRules, line) : line;
        if (out !== undefined) real.write(`${out}\n`);
      },
      onData: (l) => {
        dataListeners.push(l);
      },
      onClose: (l) => {
        state.closeListeners.push(l);
      },
      close: async () => {
        state.alive = false;
        await real.close();
      },
    };
  };

  /** Lists the virtual port while the board is plugged in, with its USB ids. */
  readonly list: PortLister = async () => {
    const ports: SerialPortInfo[] = [];
    if (this.present) ports.push({ path: this.present, serialNumber: this.serialNumber, vendorId: '2341', productId: '0043', manufacturer: 'Arduino (www.arduino.cc)' });
    return ports;
  };

  private apply(rules: Rule[], line: string): string | undefined {
    for (const r of rules) {
      if (r.count <= 0 || !r.match(line)) continue;
      r.count--;
      return r.action === 'drop' ? undefined : garble(line);
    }
    return line;
  }

  private deliver(fn: () => void): void {
    if (this.delayMs <= 0) return fn();
    // A slow link keeps the order of lines: each waits for the one before.
    const at = Math.max(Date.now() + this.delayMs, this.lastDelivery);
    this.lastDelivery = at;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, at - Date.now());
    this.timers.add(t);
  }

  garbleToBoard(match: (line: string) => boolean, count = 1): void {
    this.toBoardRules.push({ match, count, action: 'garble' });
  }

  dropToBoard(match: (line: string) => boolean, count = 1): void {
    this.toBoardRules.push({ match, count, action: 'drop' });
  }

  garbleFromBoard(match: (line: string) => boolean, count = 1): void {
    this.fromBoardRules.push({ match, count, action: 'garble' });
  }

  dropFromBoard(match: (line: string) => boolean, count = 1): void {
    this.fromBoardRules.push({ match, count, action: 'drop' });
  }

  /** Rewrites each board line before the rules (e.g. to forge another protocol version). */
  rewriteFromBoard(fn: ((line: string) => string) | undefined): void {
    this.rewrite = fn;
  }

  /** Delays every board line by `ms`, keeping their order (a slow or congested link). */
  delayFromBoard(ms: number): void {
    this.delayMs = ms;
  }

  /**
   * Pulls the cable. With `closeEvent` the driver's port reports a close (as some USB stacks do);
   * without, the link just goes silent (as many do). The board's port is closed either way, so
   * plugging back in resets it, as a power cycle would.
   */
  async unplug(options: { closeEvent: boolean }): Promise<void> {
    this.present = undefined;
    const cur = this.current;
    if (!cur) return;
    if (!options.closeEvent) {
      this.silent = true;
      return;
    }
    cur.alive = false;
    await cur.real.close();
    for (const l of cur.closeListeners) l(Object.assign(new Error('Disconnected'), { disconnected: true }));
  }

  /** Plugs the board back in under `path` (same USB serial number). */
  async replug(path: string): Promise<void> {
    const cur = this.current;
    if (cur?.alive) {
      // the silent link's port is still open on our side: the old handle is dead
      cur.alive = false;
      await cur.real.close();
    }
    this.silent = false;
    this.present = path;
  }

  /** Writes bytes to the board as another program on the same port would (the driver never sees them). */
  injectToBoard(text: string): void {
    if (this.current?.alive) this.current.real.write(text);
  }

  /** Hands bytes to the driver as if the board had sent them (noise on the wire). */
  injectFromBoard(bytes: Uint8Array): void {
    if (this.current?.alive) for (const l of this.dataListeners) l(Buffer.from(bytes));
  }

  /** Cancels delayed deliveries. */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
