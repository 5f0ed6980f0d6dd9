/**
 * The serial driver's command lane: sequence numbers, the wire, and commands one at a time, each
 * waiting for its one reply. A timeout or a garbled line retransmits the same seq and bytes a bounded
 * number of times with a growing timeout (the board answers a retransmit from its cache, so nothing
 * runs twice); `seq_stale`/`seq_reused` resync the seq and send again under a new one (the board did
 * not run it); a lost link waits for the reconnect and sends again under a new seq.
 */
import type { LinkStatsRecorder } from '../linkStats.js';
import { encodeCommand } from '../protocol/encode.js';
import { ErrorCode } from '../protocol/errorCodes.js';
import type { ErrReply, OkReply } from '../protocol/messages.js';
import { isNewerSeq, nextSeq } from '../protocol/sequence.js';
import type { TimerHost } from '../timers.js';
import { lostError, noReplyError, refusedError } from './messages.js';
import type { SerialLink } from './serialLink.js';

type Outcome = { kind: 'reply'; reply: OkReply | ErrReply } | { kind: 'timeout' } | { kind: 'resend' } | { kind: 'lost' };

interface Pending {
  readonly seq: number;
  readonly verb: string;
  /** Index of the write that first sent this command (over all its attempts): a status reply is placed against the motion by it. */
  readonly firstWrite: number;
  settle(outcome: Outcome): void;
}

/** A `light` command and its reply, which the board keeps in its 4-slot retransmit cache for a while. */
export interface Marker {
  readonly seq: number;
  readonly line: string;
  readonly reply: string;
  /** Commands the board caches that were sent after this one (a fifth pushes it out of the cache). */
  after: number;
}

/** Commands whose replies the board caches (firmware/PROTOCOL.md): everything but identify, ping, status and a bare config. */
const isCached = (verb: string, args: readonly string[]): boolean => !(verb === 'identify' || verb === 'ping' || verb === 'status' || (verb === 'config' && args.length === 0));

/** How many of the last lines written are remembered to recognise echoes. */
const RECENT_LINES = 8;

export interface CommandLaneSettings {
  readonly commandTimeoutMs: number;
  readonly maxAttemptTimeoutMs: number;
  readonly retries: number;
}

export interface ExchangeOptions {
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Part of connecting: no waiting for the link, and a lost link fails the command. */
  readonly handshake?: boolean;
}

/** What the lane needs from the driver around it. */
export interface LaneHost {
  readonly timers: TimerHost;
  readonly stats: LinkStatsRecorder;
  /** The port in use now, for messages. */
  path(): string;
  /** Waits until the link is usable: now, after a reconnect, or never (then throws). */
  linkUp(command: string): Promise<void>;
  isClosed(): boolean;
  /** No reply after every retry: the link is declared lost. */
  linkLost(why: string): void;
  /** A `ping` or `status` reply came (the board's clock, the motion's state are read from it). */
  observe(verb: string, reply: OkReply, firstWrite: number): void;
}

export class CommandLane {
  private seq = 0;
  private writes = 0;
  private lastWrite = 0;
  private link: SerialLink | undefined;
  private readonly pending = new Map<number, Pending>();
  /** The last lines written, to recognise a port that echoes them. */
  private readonly recent: string[] = [];
  private tail: Promise<unknown> = Promise.resolve();
  /** The last `light` command answered, for the motion supervisor's reset probe. */
  marker: Marker | undefined;

  constructor(
    private readonly host: LaneHost,
    private readonly settings: CommandLaneSettings,
  ) {}

  /** The link lines go out on (undefined while there is none). */
  attach(link: SerialLink | undefined): void {
    this.link = link;
  }

  get linked(): boolean {
    return this.link !== undefined;
  }

  /** Host time of the last line written: any line with a sound CRC feeds the board's dead-man. */
  get lastWriteAt(): number {
    return this.lastWrite;
  }

  /** How many lines have been written so far: the index of the last write. */
  get writeCount(): number {
    return this.writes;
  }

  /** Whether `line` (without its newline) is one of the last few lines written: a port that echoes sends them back. */
  sentRecently(line: string): boolean {
    return this.recent.includes(line);
  }

  /** Writes one line; returns its index among all writes. */
  write(line: string): number {
    this.link?.write(line);
    const bare = line.endsWith('\n') ? line.slice(0, -1) : line;
    if (bare !== '') {
      this.recent.push(bare);
      if (this.recent.length > RECENT_LINES) this.recent.shift();
    }
    this.lastWrite = this.host.timers.now();
    return ++this.writes;
  }

  takeSeq(): number {
    this.seq = nextSeq(this.seq);
    return this.seq;
  }

  /** Continues after the board's newest seq, from `identify last=` while connecting (nothing else is in flight then). */
  resumeAfter(last: number): void {
    this.seq = last;
  }

  /**
   * Continues after the board's newest seq (a `seq_stale last=` reply) mid-session, but never goes back:
   * a heartbeat may have taken a seq after `last` since the board answered, and a seq given to two
   * commands lets the reply of one settle the other (a status reply resolved a tumble the board never ran).
   */
  skipPast(last: number): void {
    if (isNewerSeq(last, this.seq)) this.seq = last;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Runs `fn` when the commands queued before it are done: one command in flight. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Settles the command waiting for this reply; returns false when none was (a duplicate, ignored). */
  settleReply(reply: OkReply | ErrReply): boolean {
    const p = this.pending.get(reply.seq as number);
    if (!p) return false;
    if (reply.kind === 'ok' && (p.verb === 'ping' || p.verb === 'status')) this.host.observe(p.verb, reply, p.firstWrite);
    p.settle({ kind: 'reply', reply });
    return true;
  }

  /** A line was lost or garbled, or the board reset: whatever waits for a reply goes again. */
  resendAll(): void {
    for (const p of [...this.pending.values()]) p.settle({ kind: 'resend' });
  }

  /** The link is gone: whatever waits for a reply waits for the reconnect (or fails, when closed). */
  loseAll(): void {
    for (const p of [...this.pending.values()]) p.settle({ kind: 'lost' });
  }

  expectOk(reply: OkReply | ErrReply, verb: string): Readonly<Record<string, string>> {
    if (reply.kind === 'ok') return reply.fields;
    throw refusedError(this.host.path(), verb, reply);
  }

  private attemptTimeout(attempt: number, base: number): number {
    return Math.min(base * 2 ** attempt, Math.max(base, this.settings.maxAttemptTimeoutMs));
  }

  /**
   * Sends one command and resolves with its terminal reply, retransmitting the same line on a
   * timeout or a garbled line. Callers hold the lane. A lost link waits for the reconnect and sends
   * the command again under a new seq (the board was reset by the replug and knows no history).
   */
  async exchange(verb: string, args: readonly string[], options: ExchangeOptions = {}): Promise<OkReply | ErrReply> {
    const { timers, stats } = this.host;
    const base = options.timeoutMs ?? this.settings.commandTimeoutMs;
    const retries = options.retries ?? this.settings.retries;
    let resyncs = 0;
    for (;;) {
      if (!options.handshake) await this.host.linkUp(verb);
      const seq = this.takeSeq();
      const line = encodeCommand(seq, verb, args);
      stats.command();
      if (isCached(verb, args) && this.marker) this.marker.after++;
      let attempt = 0;
      let again = false;
      const first = { write: 0 };
      while (!again) {
        const sentAt = timers.now();
        const outcome = await this.attempt(seq, verb, line, this.attemptTimeout(attempt, base), first);
        if (outcome.kind === 'reply') {
          const r = outcome.reply;
          if (r.kind === 'err' && (r.code === ErrorCode.seq_stale || r.code === ErrorCode.seq_reused) && resyncs < 2) {
            // Not executed: our seq is behind the board's (another host talked to it). Continue after its last.
            resyncs++;
            await this.resyncSeq(r, options.handshake === true);
            again = true;
            continue;
          }
          if (attempt === 0) stats.roundTrip(timers.now() - sentAt);
          if (verb === 'light' && r.kind === 'ok') this.marker = { seq, line, reply: r.raw, after: 0 };
          return r;
        }
        if (outcome.kind === 'lost') {
          if (options.handshake || this.host.isClosed()) throw lostError(this.host.path(), verb, seq);
          again = true; // after the reconnect: a new seq
          continue;
        }
        if (outcome.kind === 'timeout') stats.timeout();
        attempt++;
        if (attempt > retries) {
          const err = noReplyError(this.host.path(), verb, seq, attempt);
          if (!options.handshake) this.host.linkLost(`no reply to "${verb}" after ${attempt} attempts`);
          throw err;
        }
        stats.retransmit();
      }
    }
  }

  /** One transmission of a command; `first.write` keeps the index of its first transmission. */
  private attempt(seq: number, verb: string, line: string, timeoutMs: number, first: { write: number }): Promise<Outcome> {
    return new Promise((resolve) => {
      if (!this.link) return resolve({ kind: 'lost' });
      const index = this.write(line);
      if (first.write === 0) first.write = index;
      const entry: Pending = {
        seq,
        verb,
        firstWrite: first.write,
        settle: (outcome) => {
          if (this.pending.get(seq) !== entry) return;
          this.pending.delete(seq);
          timer.cancel();
          resolve(outcome);
        },
      };
      this.pending.set(seq, entry);
      const timer = this.host.timers.after(timeoutMs, () => entry.settle({ kind: 'timeout' }));
    });
  }

  private async resyncSeq(reply: ErrReply, handshake: boolean): Promise<void> {
    const last = Number(reply.fields.last);
    if (Number.isInteger(last) && last >= 1) {
      this.skipPast(last);
      return;
    }
    const id = await this.exchange('identify', [], { handshake });
    const fromId = Number(id.fields.last);
    if (id.kind === 'ok' && Number.isInteger(fromId) && fromId >= 1) this.skipPast(fromId);
  }
}
