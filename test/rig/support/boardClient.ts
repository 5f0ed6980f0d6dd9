// A minimal host for tests: the real serialport package, our line codec, one request at a time.
import { SerialPort } from 'serialport';
import { decodeLine } from '../../../src/rig/protocol/decode.js';
import { encodeCommand } from '../../../src/rig/protocol/encode.js';
import { LineSplitter } from '../../../src/rig/protocol/lineSplitter.js';
import type { BoardLine, ErrReply, OkReply } from '../../../src/rig/protocol/messages.js';
import { BAUD } from '../../../src/rig/protocol/pinMap.js';
import { nextSeq } from '../../../src/rig/protocol/sequence.js';
import { patience } from './patience.js';

export class BoardClient {
  readonly lines: BoardLine[] = [];
  private readonly listeners = new Set<(l: BoardLine) => void>();
  private seq = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  private constructor(private readonly port: SerialPort) {
    const splitter = new LineSplitter(400);
    port.on('data', (chunk: Buffer) => {
      for (const { line } of splitter.push(chunk)) {
        const decoded = decodeLine(line);
        this.lines.push(decoded);
        for (const l of this.listeners) l(decoded);
      }
    });
  }

  /**
   * Opens the port (which resets the board), waits for the boot banner and, unless told not to, identifies the board,
   * as every host must before its first motion (a fresh board runs none until it has answered identify). The identify
   * goes under seq 65535, so that every seq a test sends afterwards counts as newer.
   */
  static async open(path: string, options: { identify?: boolean } = {}): Promise<{ client: BoardClient; banner: BoardLine }> {
    const port = new SerialPort({ path, baudRate: BAUD, autoOpen: false });
    const client = new BoardClient(port);
    // A wait for readiness, not a measurement: the emulator boots slower on a loaded machine, so it is given time.
    const bannerSeen = client.waitLine((l) => l.kind === 'push' && l.event === 'boot', patience(8000));
    try {
      await new Promise<void>((ok, fail) => port.open((err) => (err ? fail(err) : ok())));
      const banner = await bannerSeen;
      if (options.identify !== false) {
        await client.request('identify', [], { seq: 65535 });
        client.seq = 65535; // the next seq is 1
      }
      return { client, banner };
    } catch (err) {
      // The caller never gets a client to close: close the port here, or it stays locked and the next test's open
      // fails with "Cannot lock port"; and a banner wait left behind must not reject unheard.
      bannerSeen.catch(() => undefined);
      await client.close();
      throw err;
    }
  }

  waitLine(match: (l: BoardLine) => boolean, timeoutMs = patience(3000), since = 0): Promise<BoardLine> {
    const seen = this.lines.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((ok, fail) => {
      const on = (l: BoardLine): void => {
        if (!match(l)) return;
        clearTimeout(timer);
        this.listeners.delete(on);
        ok(l);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(on);
        fail(new Error(`no matching line within ${timeoutMs} ms; got: ${this.lines.map((x) => x.raw).join(' | ')}`));
      }, timeoutMs);
      this.listeners.add(on);
    });
  }

  write(text: string): void {
    this.port.write(text);
  }

  /** Sends a command (a fresh seq unless given) and resolves with its terminal reply. */
  async request(verb: string, args: string[] = [], opts: { seq?: number; timeoutMs?: number } = {}): Promise<OkReply | ErrReply> {
    const seq = opts.seq ?? (this.seq = nextSeq(this.seq));
    const since = this.lines.length;
    const reply = this.waitLine((l) => (l.kind === 'ok' || l.kind === 'err') && l.seq === seq, opts.timeoutMs ?? patience(3000), since);
    this.write(encodeCommand(seq, verb, args));
    return (await reply) as OkReply | ErrReply;
  }

  /** Sends a ping every `ms` without waiting for replies, as a driver does during a motion. */
  startHeartbeat(ms = 200): void {
    this.heartbeat = setInterval(() => {
      this.seq = nextSeq(this.seq);
      this.write(encodeCommand(this.seq, 'ping'));
    }, ms);
  }

  stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  async close(): Promise<void> {
    this.stopHeartbeat();
    if (!this.port.isOpen) return;
    await new Promise<void>((ok) => this.port.close(() => ok()));
  }
}
