import type { FaultKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus } from '../driver.js';
import { RigConnectError, RigError, RigFaultError, RigTimeoutError, type RigErrorContext } from '../errors.js';
import { FaultListeners } from '../faultListeners.js';
import { LinkStatsRecorder } from '../linkStats.js';
import { decodeLine } from '../protocol/decode.js';
import { encodeCommand } from '../protocol/encode.js';
import { ErrorCode, errorByCode } from '../protocol/errorCodes.js';
import { LineSplitter } from '../protocol/lineSplitter.js';
import type { BoardLine, ErrReply, OkReply, PushLine } from '../protocol/messages.js';
import { BAUD, PROTOCOL_VERSION } from '../protocol/pinMap.js';
import { nextSeq } from '../protocol/sequence.js';
import { systemTimers, type TimerHandle, type TimerHost } from '../timers.js';
import { fingerprintPort, relocatePort, type PortFingerprint, type PortLister } from './portLocator.js';
import {
  DEFAULT_BOARD_TIMING,
  expectedMotionMs,
  identityFromFields,
  motionFromFields,
  resetCauseText,
  statusFromFields,
  timingFromConfig,
  type BoardTiming,
} from './replies.js';
import { LinkOpenError, openSerialPortLink, type LinkOpener, type SerialLink } from './serialLink.js';

/** Settings of the serial driver; everything but `path` has a default tuned for a USB Uno. */
export interface SerialDriverOptions {
  /** The serial port, e.g. /dev/ttyACM0 or a /dev/serial/by-id/... link. */
  readonly path: string;
  readonly timers?: TimerHost;
  /** Opens the byte link; default: the serialport package. Tests wrap it to inject faults. */
  readonly openLink?: LinkOpener;
  /** Lists ports to find the board again after a replug; default: serialport's list. */
  readonly listPorts?: PortLister;
  /** Where udev keeps stable port links; default /dev/serial/by-id. */
  readonly byIdDir?: string;
  /** How long to wait for the boot banner after opening (an Uno resets on open). Default 3000 ms. */
  readonly bannerTimeoutMs?: number;
  /** First attempt's reply timeout; each retransmit doubles it up to `maxAttemptTimeoutMs`. Default 250 ms. */
  readonly commandTimeoutMs?: number;
  /** Default 1000 ms. */
  readonly maxAttemptTimeoutMs?: number;
  /** Retransmits of a command (same seq, same bytes) before giving up. Default 3. */
  readonly retries?: number;
  /**
   * Longest the host stays silent while a motion runs (the board's dead-man stops the motor after 1 s
   * without a line from the host): a heartbeat goes out when nothing else was sent for this long. Default 200 ms.
   */
  readonly heartbeatMs?: number;
  /** Heartbeats in a row without a reply before a motion's link is declared dead. Default 8. */
  readonly missedHeartbeats?: number;
  /**
   * When idle, a ping after this long without a line from the board, to notice an unplugged board that
   * sent no close event (any reply or push proves the link alive); 0 turns it off. Default 1000 ms.
   */
  readonly idleHeartbeatMs?: number;
  /** Whether to look for the board again when the link is lost. Default true. */
  readonly reconnect?: boolean;
  /** How long to keep looking. Default 15000 ms. */
  readonly reconnectTimeoutMs?: number;
  /** Default 250 ms. */
  readonly reconnectPollMs?: number;
  /** The configuration hash a session was recorded with; connecting to a board with another one fails. */
  readonly expectedConfigHash?: string;
  /** Releases what the driver owns besides the port (the emulated board), after the port is closed. */
  readonly onClose?: () => Promise<void>;
}

type Outcome = { kind: 'reply'; reply: OkReply | ErrReply } | { kind: 'timeout' } | { kind: 'resend' } | { kind: 'lost' };

interface Pending {
  readonly seq: number;
  readonly verb: string;
  /** Index of the write that first sent this command (over all its attempts): a status reply is placed against the motion by it. */
  readonly firstWrite: number;
  settle(outcome: Outcome): void;
}

/** A `light` command and its reply, which the board keeps in its 4-slot retransmit cache for a while. */
interface Marker {
  readonly seq: number;
  readonly line: string;
  readonly reply: string;
  /** Commands the board caches that were sent after this one (a fifth pushes it out of the cache). */
  after: number;
}

/** Commands whose replies the board caches (firmware/PROTOCOL.md): everything but identify, ping, status and a bare config. */
const isCached = (verb: string, args: readonly string[]): boolean => !(verb === 'identify' || verb === 'ping' || verb === 'status' || (verb === 'config' && args.length === 0));

interface Heartbeat {
  verb: 'ping' | 'status';
  seq: number;
  line: string;
  firstWrite: number;
}

interface Motion {
  readonly verb: 'tumble' | 'home';
  seq: number;
  line: string;
  lastWrite: number;
  /** Host time the motion line was last sent: when its reply is overdue, heartbeats ask for status. */
  lastSentAt: number;
  /** Whether a status has been asked since the motion was sent (the first heartbeat asks: did it start?). */
  checked: boolean;
  /** A line was lost or garbled: the next heartbeat asks for status. */
  wantStatus: boolean;
  /** The `light` command answered before the motion, retransmitted to probe for a reset (see `probeForReset`). */
  readonly probe: Marker;
  probing: boolean;
  resends: number;
  seqRetries: number;
  readonly startedAt: number;
  readonly resolve: (r: MotionResult) => void;
  readonly reject: (e: Error) => void;
}

type State = 'new' | 'connecting' | 'ready' | 'reconnecting' | 'failed' | 'closed';

/** Motion faults the board reports, by error code. */
const MOTION_FAULTS: Readonly<Record<number, FaultKind>> = {
  [ErrorCode.jam]: 'jam',
  [ErrorCode.limit]: 'limit',
  [ErrorCode.home_timeout]: 'home_timeout',
  [ErrorCode.deadman]: 'deadman',
  [ErrorCode.stopped]: 'stopped',
};

/** Motion resends (the board never saw it, or its reply was lost) before giving up. */
const MAX_MOTION_RESENDS = 4;

/**
 * The dicerig firmware over a serial port (firmware/PROTOCOL.md).
 *
 * - Connect: open (an Uno resets), wait for the `! boot` banner (or, on a board that did not reset,
 *   go straight to `identify`), check the protocol version, record the config hash, resync the
 *   sequence number from `identify last=`, read the board's timing, start the idle heartbeat.
 * - Commands go one at a time; each waits for its one reply, and is retransmitted with the same
 *   seq and bytes on a timeout or when the board says a line was garbled (`- err`), a bounded
 *   number of times with a growing timeout. The board answers a retransmit from its cache, so
 *   nothing runs twice.
 * - A motion (tumble, home) is answered only when it ends; meanwhile the driver sends `status`
 *   every 200 ms. That feeds the board's dead-man timer and says whether the board is running the
 *   motion: if a status sent after the motion says it is not, and no reply came, the motion line or
 *   its reply was lost, and the driver resends the motion (a lost reply then comes from the cache).
 * - A reset (a banner, or the board's clock going back) during a motion rejects it with a
 *   `RigFaultError` (`reset`, interrupted); a lost link (a close event, or heartbeats unanswered)
 *   with `disconnected`. The driver then looks for the board again: its by-id link, its USB
 *   serial number, its old path; commands wait for that, up to `reconnectTimeoutMs`.
 */
export class SerialRigDriver implements RigDriver {
  readonly kind = 'serial' as const;
  readonly isSimulated = false;

  private readonly opts: Required<Omit<SerialDriverOptions, 'listPorts' | 'byIdDir' | 'expectedConfigHash' | 'onClose'>> &
    Pick<SerialDriverOptions, 'listPorts' | 'byIdDir' | 'expectedConfigHash' | 'onClose'>;
  private readonly timers: TimerHost;
  private readonly stats = new LinkStatsRecorder();
  private readonly faults = new FaultListeners();

  private state: State = 'new';
  private link: SerialLink | undefined;
  private linkGen = 0;
  private readonly splitter = new LineSplitter(400);
  private currentPath: string;
  private fingerprint: PortFingerprint | undefined;
  private identity: RigIdentity | undefined;
  private timing: BoardTiming = DEFAULT_BOARD_TIMING;

  private seq = 0;
  private writes = 0;
  /** Host time of the last line written: any line with a sound CRC feeds the board's dead-man. */
  private lastWriteAt = 0;
  /** Host time of the last sound line from the board: proof the link is alive. */
  private lastLineAt = 0;
  private readonly pending = new Map<number, Pending>();
  private motion: Motion | undefined;
  private heartbeat: Heartbeat | undefined;
  private missed = 0;
  private heartbeatTimer: TimerHandle | undefined;
  private idleTimer: TimerHandle | undefined;
  private reconnectTimer: TimerHandle | undefined;
  private reconnectWake: (() => void) | undefined;
  private motionDeadline: TimerHandle | undefined;
  /** Board clock (ms since its reset) at the last reply that carried it: going back means a reset. */
  private boardMs: number | undefined;
  private lightLevel = 0;
  private lastFaultSeq: number | undefined;
  private marker: Marker | undefined;

  private banner: ((push: PushLine | undefined) => void) | undefined;
  private invalidLines = 0;
  private reconnectWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private laneTail: Promise<unknown> = Promise.resolve();
  private motionTail: Promise<unknown> = Promise.resolve();

  constructor(options: SerialDriverOptions) {
    this.opts = {
      timers: systemTimers,
      openLink: openSerialPortLink,
      bannerTimeoutMs: 3000,
      commandTimeoutMs: 250,
      maxAttemptTimeoutMs: 1000,
      retries: 3,
      heartbeatMs: 200,
      missedHeartbeats: 8,
      idleHeartbeatMs: 1000,
      reconnect: true,
      reconnectTimeoutMs: 15000,
      reconnectPollMs: 250,
      ...options,
    };
    this.timers = this.opts.timers;
    this.currentPath = options.path;
  }

  /** The port in use now (it changes when the board comes back under another name). */
  get path(): string {
    return this.currentPath;
  }

  async connect(): Promise<RigIdentity> {
    if (this.state === 'closed') throw this.closedError('connect');
    if (this.state === 'ready' && this.identity) return this.identity;
    if (this.state !== 'new') throw new RigError(`The rig driver for ${this.currentPath} is already ${this.state}.`, this.ctx('connect'));
    this.state = 'connecting';
    try {
      await this.inLane(() => this.openAndHandshake(this.opts.path, false));
    } catch (e) {
      await this.dropLink();
      if (this.state === 'connecting') this.state = 'new';
      throw e;
    }
    if ((this.state as State) === 'closed') throw this.closedError('connect');
    this.fingerprint = await fingerprintPort(this.currentPath, { listPorts: this.opts.listPorts, byIdDir: this.opts.byIdDir });
    this.state = 'ready';
    this.scheduleIdle();
    return this.identity as RigIdentity;
  }

  identify(): Promise<RigIdentity> {
    return this.inLane(async () => {
      const reply = await this.exchange('identify', []);
      const fields = this.expectOk(reply, 'identify');
      this.identity = identityFromFields(fields, this.currentPath);
      return this.identity;
    });
  }

  tumble(): Promise<MotionResult> {
    return this.runMotion('tumble');
  }

  home(): Promise<MotionResult> {
    return this.runMotion('home');
  }

  setLight(level: number): Promise<number> {
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`light level ${level} is not a whole number from 0 to 255`);
    return this.inLane(async () => {
      const fields = this.expectOk(await this.exchange('light', [String(level)]), 'light');
      this.lightLevel = Number(fields.light ?? level);
      return this.lightLevel;
    });
  }

  status(): Promise<RigStatus> {
    return this.inLane(async () => statusFromFields(this.expectOk(await this.exchange('status', []), 'status')));
  }

  /** One `ping`; resolves with its round trip in ms (the benchmark's unit of link latency). */
  ping(): Promise<number> {
    return this.inLane(async () => {
      const t0 = this.timers.now();
      this.expectOk(await this.exchange('ping', []), 'ping');
      return this.timers.now() - t0;
    });
  }

  /** The board's configuration (`config` without arguments): every key, and `cfg`, its hash. */
  readConfig(): Promise<Record<string, string>> {
    return this.inLane(async () => ({ ...this.expectOk(await this.exchange('config', [], { timeoutMs: 1000 }), 'config') }));
  }

  /**
   * Changes board settings (kept in its EEPROM; all or nothing: see firmware/PROTOCOL.md) and
   * resolves with the new config hash. Refused with `busy` while a motion runs.
   */
  configure(settings: Readonly<Record<string, string | number>>): Promise<string> {
    const args = Object.entries(settings).map(([k, v]) => `${k}=${v}`);
    return this.inLane(async () => {
      const fields = this.expectOk(await this.exchange('config', args, { timeoutMs: 1000 }), 'config');
      const cfg = this.expectOk(await this.exchange('config', [], { timeoutMs: 1000 }), 'config');
      this.timing = timingFromConfig(cfg);
      const hash = fields.cfg ?? cfg.cfg ?? 'unknown';
      if (this.identity) this.identity = { ...this.identity, configHash: hash, tumbler: this.timing.tumbler };
      return hash;
    });
  }

  linkStats(): LinkStats {
    return this.stats.snapshot();
  }

  onFault(listener: (fault: RigFault) => void): () => void {
    return this.faults.add(listener);
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // ---- lanes: one command in flight, one motion in flight --------------------------------------

  private inLane<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.laneTail.then(fn, fn);
    this.laneTail = run.catch(() => undefined);
    return run;
  }

  private inMotionLane<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.motionTail.then(fn, fn);
    this.motionTail = run.catch(() => undefined);
    return run;
  }

  // ---- the wire ---------------------------------------------------------------------------------

  private ctx(command?: string, seq?: number): RigErrorContext {
    return { port: this.currentPath, driver: 'serial', ...(command !== undefined ? { command } : {}), ...(seq !== undefined ? { seq } : {}) };
  }

  private takeSeq(): number {
    this.seq = nextSeq(this.seq);
    return this.seq;
  }

  private write(line: string): number {
    this.link?.write(line);
    this.lastWriteAt = this.timers.now();
    return ++this.writes;
  }

  private attachLink(link: SerialLink): void {
    const gen = ++this.linkGen;
    this.link = link;
    this.currentPath = link.path;
    this.splitter.reset();
    this.invalidLines = 0;
    link.onData((chunk) => {
      if (gen !== this.linkGen) return;
      for (const { line, overlong } of this.splitter.push(chunk)) {
        this.handleLine(overlong ? { kind: 'invalid', reason: 'too_long', raw: line } : decodeLine(line));
      }
    });
    link.onClose((err) => {
      if (gen !== this.linkGen) return;
      this.linkLost(`the port closed${err ? ` (${err.message})` : ''}: the board was unplugged or lost power`);
    });
  }

  private async dropLink(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    this.linkGen++;
    if (link) await link.close().catch(() => undefined);
  }

  private handleLine(line: BoardLine): void {
    if (line.kind !== 'invalid') this.lastLineAt = this.timers.now();
    switch (line.kind) {
      case 'invalid':
        this.stats.crcFailure();
        this.invalidLines++;
        this.suspectLoss();
        return;
      case 'push':
        this.handlePush(line);
        return;
      case 'err':
        if (line.seq === null) {
          // The board could not trust one of our lines: whichever is waiting goes again.
          this.stats.crcFailure();
          this.suspectLoss();
          return;
        }
        this.route(line);
        return;
      case 'ok':
        this.route(line);
    }
  }

  /** A line was lost or garbled in one direction or the other: resend what waits for a reply. */
  private suspectLoss(): void {
    for (const p of [...this.pending.values()]) p.settle({ kind: 'resend' });
    if (this.motion) this.heartbeatNow();
  }

  private route(reply: OkReply | ErrReply): void {
    const seq = reply.seq as number;
    if (this.motion && seq === this.motion.seq) return this.motionReply(this.motion, reply);
    if (this.motion?.probing && seq === this.motion.probe.seq) return this.probeReply(this.motion, reply);
    if (this.heartbeat && seq === this.heartbeat.seq) return this.heartbeatReply(reply);
    const p = this.pending.get(seq);
    if (!p) return;
    if (reply.kind === 'ok' && p.verb === 'ping') this.observeBoardClock(Number(reply.fields.t));
    if (reply.kind === 'ok' && p.verb === 'status') this.observeStatus(reply, p.firstWrite);
    p.settle({ kind: 'reply', reply });
    // Anything else is a duplicate (a retransmit answered twice): ignored.
  }

  private handlePush(push: PushLine): void {
    if (push.event === 'boot') {
      if (this.banner) return this.banner(push);
      return this.boardReset(`the board reset (${resetCauseText(push.fields.reset)})`, push);
    }
    if (push.event === 'fault') {
      const code = Number(push.words[0]);
      const seq = Number(push.fields.seq);
      if (this.motion && seq === this.motion.seq) return this.motionFailed(this.motion, code);
      if (seq !== this.lastFaultSeq) {
        this.lastFaultSeq = seq;
        this.emitFault(MOTION_FAULTS[code] ?? 'stopped', `The board stopped a motion (seq ${seq}): ${errorText(code)}.`, undefined, seq);
      }
    }
    // `! limit pressed|released` is informational: a limit during a motion also comes as a fault.
  }

  private emitFault(kind: FaultKind, message: string, command?: string, seq?: number): void {
    this.faults.emit({ kind, message, at: this.timers.now(), ...(command !== undefined ? { command } : {}), ...(seq !== undefined ? { seq } : {}) });
  }

  /** Checks the board clock from a ping or status reply; a clock that went back means a reset whose banner we missed. */
  private observeBoardClock(ms: number | undefined): void {
    if (ms === undefined || !Number.isFinite(ms)) return;
    if (this.boardMs !== undefined && ms < this.boardMs) {
      this.boardMs = ms;
      this.boardReset('the board reset (its clock went back; the boot banner was lost)');
      return;
    }
    this.boardMs = ms;
  }

  private boardReset(why: string, banner?: PushLine): void {
    this.boardMs = banner ? 0 : this.boardMs;
    this.marker = undefined;
    const cfg = banner?.fields.cfg;
    const cfgChanged = cfg !== undefined && this.identity !== undefined && cfg !== this.identity.configHash;
    if (cfgChanged && this.identity) this.identity = { ...this.identity, configHash: cfg };
    const note = cfgChanged ? `; its configuration hash is now ${cfg}` : '';
    const m = this.motion;
    if (m) {
      this.finishMotion(m);
      const message = `The board on ${this.currentPath} reset during the ${m.verb} (seq ${m.seq}): ${why}${note}. The motion did not finish, so this throw is void.`;
      this.lastFaultSeq = m.seq;
      this.emitFault('reset', message, m.verb, m.seq);
      m.reject(new RigFaultError(message, 'reset', true, this.ctx(m.verb, m.seq)));
    } else {
      this.emitFault('reset', `The board on ${this.currentPath} reset: ${why}${note}.`);
    }
    // Whatever was waiting may have been swallowed by the reset.
    for (const p of [...this.pending.values()]) p.settle({ kind: 'resend' });
    this.restoreLight();
  }

  /** A reset turns the light off; the session expects the level it set. */
  private restoreLight(): void {
    if (this.lightLevel === 0 || this.state !== 'ready') return;
    const level = this.lightLevel;
    void this.inLane(() => this.exchange('light', [String(level)])).catch(() => undefined);
  }

  // ---- commands ---------------------------------------------------------------------------------

  private attemptTimeout(attempt: number, base: number): number {
    return Math.min(base * 2 ** attempt, Math.max(base, this.opts.maxAttemptTimeoutMs));
  }

  /**
   * Sends one command and resolves with its terminal reply, retransmitting the same line on a
   * timeout or a garbled line. Callers hold the lane. A lost link waits for the reconnect and sends
   * the command again under a new seq (the board was reset by the replug and knows no history).
   */
  private async exchange(
    verb: string,
    args: readonly string[],
    options: { timeoutMs?: number; retries?: number; handshake?: boolean } = {},
  ): Promise<OkReply | ErrReply> {
    const base = options.timeoutMs ?? this.opts.commandTimeoutMs;
    const retries = options.retries ?? this.opts.retries;
    let resyncs = 0;
    for (;;) {
      if (!options.handshake) await this.linkUp(verb);
      const seq = this.takeSeq();
      const line = encodeCommand(seq, verb, args);
      this.stats.command();
      if (isCached(verb, args) && this.marker) this.marker.after++;
      let attempt = 0;
      let again = false;
      const first = { write: 0 };
      while (!again) {
        const sentAt = this.timers.now();
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
          if (attempt === 0) this.stats.roundTrip(this.timers.now() - sentAt);
          if (verb === 'light' && r.kind === 'ok') this.marker = { seq, line, reply: r.raw, after: 0 };
          return r;
        }
        if (outcome.kind === 'lost') {
          if (options.handshake || this.state === 'closed') throw this.lostError(verb, seq);
          again = true; // after the reconnect: a new seq
          continue;
        }
        if (outcome.kind === 'timeout') this.stats.timeout();
        attempt++;
        if (attempt > retries) {
          const err = new RigTimeoutError(
            `No reply from the rig on ${this.currentPath} to "${verb}" (seq ${seq}) after ${attempt} attempts: ` +
              `the link is dead or the board is hung (unplug and replug it, or check the cable).`,
            this.ctx(verb, seq),
          );
          if (!options.handshake) this.linkLost(`no reply to "${verb}" after ${attempt} attempts`);
          throw err;
        }
        this.stats.retransmit();
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
      const timer = this.timers.after(timeoutMs, () => entry.settle({ kind: 'timeout' }));
    });
  }

  private async resyncSeq(reply: ErrReply, handshake: boolean): Promise<void> {
    const last = Number(reply.fields.last);
    if (Number.isInteger(last) && last >= 1) {
      this.seq = last;
      return;
    }
    const id = await this.exchange('identify', [], { handshake });
    const fromId = Number(id.fields.last);
    if (id.kind === 'ok' && Number.isInteger(fromId) && fromId >= 1) this.seq = fromId;
  }

  private expectOk(reply: OkReply | ErrReply, verb: string): Readonly<Record<string, string>> {
    if (reply.kind === 'ok') return reply.fields;
    throw new RigFaultError(
      `The board on ${this.currentPath} refused "${verb}" (seq ${reply.seq}): ${reply.name} (${errorText(reply.code)}).`,
      'refused',
      false,
      this.ctx(verb, reply.seq ?? undefined),
      reply.code,
    );
  }

  // ---- motions ----------------------------------------------------------------------------------

  private runMotion(verb: 'tumble' | 'home'): Promise<MotionResult> {
    return this.inMotionLane(async () => {
      await this.linkUp(verb);
      // The reset probe needs a recent light command still in the board's cache (the motion takes a slot too).
      if (!this.marker || this.marker.after > 2) {
        const level = String(this.lightLevel);
        this.expectOk(await this.inLane(() => this.exchange('light', [level])), 'light');
      }
      const probe = { ...(this.marker as Marker) };
      await this.linkUp(verb);
      return new Promise<MotionResult>((resolve, reject) => {
        if (this.state !== 'ready' || !this.link) return reject(this.lostError(verb));
        const seq = this.takeSeq();
        const line = encodeCommand(seq, verb);
        this.stats.command();
        if (this.marker) this.marker.after++;
        const now = this.timers.now();
        const m: Motion = { verb, seq, line, lastWrite: 0, lastSentAt: now, checked: false, wantStatus: false, probe, probing: false, resends: 0, seqRetries: 0, startedAt: now, resolve, reject };
        this.motion = m;
        this.missed = 0;
        m.lastWrite = this.write(line);
        const limit = Math.ceil(expectedMotionMs(this.timing, verb) * 1.5) + 3000;
        this.motionDeadline = this.timers.after(limit, () => this.motionOverdue(m, limit));
        this.scheduleHeartbeat();
      });
    });
  }

  private finishMotion(m: Motion): void {
    if (this.motion !== m) return;
    this.motion = undefined;
    this.motionDeadline?.cancel();
    this.motionDeadline = undefined;
    this.heartbeatTimer?.cancel();
    this.heartbeatTimer = undefined;
    this.heartbeat = undefined;
  }

  private motionReply(m: Motion, reply: OkReply | ErrReply): void {
    if (reply.kind === 'ok') {
      this.finishMotion(m);
      m.resolve(motionFromFields(reply.fields));
      return;
    }
    if ((reply.code === ErrorCode.seq_stale || reply.code === ErrorCode.seq_reused) && m.seqRetries < 2) {
      // Not run: our seq was behind the board's. Take a seq after its newest and send the motion again.
      m.seqRetries++;
      const last = Number(reply.fields.last);
      // Without the board's newest seq (seq_reused), jump well ahead: anything up to half the ring is "newer".
      this.seq = Number.isInteger(last) && last >= 1 ? last : ((this.seq + 1000) % 65535) + 1;
      m.seq = this.takeSeq();
      if (this.marker) this.marker.after++;
      m.line = encodeCommand(m.seq, m.verb);
      m.lastWrite = this.write(m.line);
      m.lastSentAt = this.timers.now();
      m.checked = false;
      return;
    }
    this.motionFailed(m, reply.code, reply.name);
  }

  private motionFailed(m: Motion, code: number, name?: string): void {
    this.finishMotion(m);
    const kind = MOTION_FAULTS[code];
    if (kind === undefined) {
      m.reject(
        new RigFaultError(
          `The board on ${this.currentPath} refused the ${m.verb} (seq ${m.seq}): ${name ?? errorByCode(code)?.name ?? code} (${errorText(code)}).`,
          'refused',
          false,
          this.ctx(m.verb, m.seq),
          code,
        ),
      );
      return;
    }
    const message = `The ${m.verb} (seq ${m.seq}) on ${this.currentPath} was stopped: ${errorText(code)}. The motion did not finish, so this throw is void.`;
    this.lastFaultSeq = m.seq;
    this.emitFault(kind, message, m.verb, m.seq);
    m.reject(new RigFaultError(message, kind, true, this.ctx(m.verb, m.seq), code));
  }

  private motionOverdue(m: Motion, limit: number): void {
    if (this.motion !== m) return;
    this.finishMotion(m);
    this.write(encodeCommand(this.takeSeq(), 'stop'));
    const message = `The ${m.verb} (seq ${m.seq}) on ${this.currentPath} did not finish within ${limit} ms, so dicerig stopped it; this throw is void.`;
    this.lastFaultSeq = m.seq;
    this.emitFault('stopped', message, m.verb, m.seq);
    m.reject(new RigFaultError(message, 'stopped', true, this.ctx(m.verb, m.seq)));
  }

  private heartbeatPeriod(): number {
    // The board stops a motion after `deadman` ms without a line; stay well inside it.
    return Math.max(20, Math.min(this.opts.heartbeatMs, Math.floor(this.timing.deadmanMs / 4)));
  }

  /** Arms the next heartbeat for when the host will have been silent for a period (anything it sends feeds the dead-man). */
  private scheduleHeartbeat(): void {
    this.heartbeatTimer?.cancel();
    const due = this.lastWriteAt + this.heartbeatPeriod() - this.timers.now();
    this.heartbeatTimer = this.timers.after(Math.max(0, due), () => this.heartbeatTick());
  }

  /** A line was lost or garbled during a motion: ask the board for its status now. */
  private heartbeatNow(): void {
    if (!this.motion) return;
    this.motion.wantStatus = true;
    this.heartbeatTimer?.cancel();
    this.heartbeatTimer = this.timers.after(0, () => this.heartbeatTick(true));
  }

  /**
   * Keeps the board's dead-man fed while a motion runs, whenever the host has been silent for a heartbeat
   * period. Mostly `ping` (its reply is short: every piece a reply arrives in wakes the host);
   * `status` when it matters: once after the motion was sent (did it start?), after a lost or garbled
   * line, and once the reply is overdue.
   */
  private heartbeatTick(urgent = false): void {
    this.heartbeatTimer = undefined;
    const m = this.motion;
    if (!m || !this.link) return;
    // Another command went out since this was armed: the board has heard from us, wait a period from then.
    // (Timers can fire a fraction of a millisecond early on this clock, hence the tenth of slack.)
    if (!urgent && this.timers.now() - this.lastWriteAt < this.heartbeatPeriod() * 0.9) return this.scheduleHeartbeat();
    const hb = this.heartbeat;
    if (hb) {
      // Unanswered: send it again (an urgent tick because its reply may be the line that was garbled).
      if (!urgent) {
        this.missed++;
        if (this.missed > this.opts.missedHeartbeats) {
          this.linkLost(`no reply to ${this.missed} heartbeats during the ${m.verb}`);
          return;
        }
        this.stats.timeout();
      }
      this.stats.retransmit();
      this.write(hb.line);
    } else {
      const overdue = this.timers.now() - m.lastSentAt > expectedMotionMs(this.timing, m.verb) + 2 * this.heartbeatPeriod();
      const verb = !m.checked || m.wantStatus || overdue ? 'status' : 'ping';
      if (verb === 'status') {
        m.checked = true;
        m.wantStatus = false;
      }
      const seq = this.takeSeq();
      const line = encodeCommand(seq, verb);
      this.stats.command();
      this.heartbeat = { verb, seq, line, firstWrite: this.write(line) };
    }
    this.scheduleHeartbeat();
  }

  private heartbeatReply(reply: OkReply | ErrReply): void {
    const hb = this.heartbeat as Heartbeat;
    this.heartbeat = undefined;
    this.missed = 0;
    if (reply.kind !== 'ok') return;
    if (hb.verb === 'status') this.observeStatus(reply, hb.firstWrite);
    else this.observeBoardClock(Number(reply.fields.t));
  }

  /**
   * What a status reply says about the running motion. Replies come in order, so a status the board
   * answered after it saw our motion line either shows the motion running or comes after the
   * motion's own reply; if it shows neither, the line or the reply was lost: resend the motion.
   */
  private observeStatus(reply: OkReply, firstWrite: number): void {
    this.observeBoardClock(Number(reply.fields.up));
    const m = this.motion;
    if (!m || firstWrite <= m.lastWrite) return;
    const running = Number(reply.fields.motion);
    if (running === m.seq) return;
    if (running !== 0) return; // another motion (from before a reconnect) is still running: wait for it
    this.probeForReset(m);
  }

  /**
   * The board is not running our motion and its reply has not come. Either the motion line never
   * arrived or its reply was lost, and sending it again is safe (the board runs it once, or answers
   * from its cache), or the board reset after starting it and its banner was lost, and sending it
   * again would tumble twice. A clock reading cannot tell (a reset soon after a reading looks like
   * none), nor can sequence numbers (the heartbeats after the reset give the board a new history).
   * The cache can: retransmit the `light` command answered just before the motion. A board that
   * did not reset answers from its cache; one that reset no longer has it and refuses it as
   * `seq_stale`. (A `light` at the current level is harmless even if it ran again.)
   */
  private probeForReset(m: Motion): void {
    if (m.resends >= MAX_MOTION_RESENDS) {
      this.finishMotion(m);
      m.reject(
        new RigTimeoutError(
          `The board on ${this.currentPath} never answered the ${m.verb} (seq ${m.seq}) after ${m.resends} resends; the throw is void.`,
          this.ctx(m.verb, m.seq),
        ),
      );
      return;
    }
    m.resends++;
    m.probing = true;
    this.stats.retransmit();
    m.lastWrite = this.write(m.probe.line);
  }

  private probeReply(m: Motion, reply: OkReply | ErrReply): void {
    m.probing = false;
    if (reply.kind === 'ok' && reply.raw === m.probe.reply) {
      // Answered from the cache: no reset. Send the motion again (same seq, same bytes).
      this.stats.retransmit();
      m.lastWrite = this.write(m.line);
      m.lastSentAt = this.timers.now();
      m.checked = false;
      return;
    }
    if (reply.kind === 'err' && reply.code === ErrorCode.seq_stale) {
      this.boardReset('the board had forgotten the commands before the motion, so it reset and its boot banner was lost');
      return;
    }
    // Anything else: we cannot tell, and a second tumble is worse than a void throw.
    this.boardReset(`the board answered a reset probe unexpectedly (${reply.raw})`);
  }
  // ---- idle heartbeat ---------------------------------------------------------------------------

  private scheduleIdle(): void {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    if (this.opts.idleHeartbeatMs <= 0 || this.state === 'closed') return;
    // Due when the board will have been silent for the period (at the earliest a tenth of it from now).
    const due = Math.max(this.opts.idleHeartbeatMs / 10, this.lastLineAt + this.opts.idleHeartbeatMs - this.timers.now());
    this.idleTimer = this.timers.after(due, () => void this.idleTick());
  }

  private async idleTick(): Promise<void> {
    this.idleTimer = undefined;
    if (this.state !== 'ready') return;
    const quiet = this.timers.now() - this.lastLineAt;
    if (!this.motion && quiet >= this.opts.idleHeartbeatMs * 0.9) {
      // A failed ping has already declared the link lost; nothing else to do here.
      await this.ping().catch(() => undefined);
    }
    if (this.state === 'ready') this.scheduleIdle();
  }

  // ---- connecting, losing and finding the board -------------------------------------------------

  private async openAndHandshake(path: string, reconnecting: boolean): Promise<void> {
    let link: SerialLink;
    try {
      link = await this.opts.openLink(path);
    } catch (e) {
      throw this.openError(path, e);
    }
    if (this.state === 'closed') {
      await link.close().catch(() => undefined);
      throw this.closedError('connect');
    }
    const bannerSeen = new Promise<PushLine | undefined>((resolve) => {
      const timer = this.timers.after(this.opts.bannerTimeoutMs, () => this.banner?.(undefined));
      // Called with the banner, or undefined on the timeout or a close.
      this.banner = (push) => {
        timer.cancel();
        this.banner = undefined;
        resolve(push);
      };
    });
    this.attachLink(link);
    const banner = await bannerSeen;
    if ((this.state as State) === 'closed') throw this.closedError('connect');
    if (banner && banner.fields.proto !== undefined && Number(banner.fields.proto) !== PROTOCOL_VERSION) {
      throw this.protocolError(path, banner.fields.proto, banner.fields.fw);
    }
    this.boardMs = banner ? 0 : undefined;
    this.marker = undefined;
    // A blank line flushes any half line the board holds (harmless otherwise).
    this.write('\n');
    let id: OkReply | ErrReply;
    try {
      id = await this.exchange('identify', [], { handshake: true, retries: banner ? 3 : 1 });
    } catch (e) {
      if (e instanceof RigTimeoutError) throw this.noFirmwareError(path, e);
      if (e instanceof RigFaultError) throw new RigConnectError(`The port ${path} closed while connecting: the board was unplugged or reset by something else.`, this.ctx('identify'), { cause: e });
      throw e;
    }
    if (id.kind !== 'ok') throw new RigConnectError(`The board on ${path} answered "identify" with ${id.name}: ${errorText(id.code)}.`, this.ctx('identify', id.seq ?? undefined));
    if (Number(id.fields.proto) !== PROTOCOL_VERSION) throw this.protocolError(path, id.fields.proto, id.fields.fw);
    const identity = identityFromFields(id.fields, path);
    if (reconnecting && this.identity && identity.rigId !== this.identity.rigId) {
      throw new RigConnectError(`The board on ${path} is rig "${identity.rigId}", not "${this.identity.rigId}".`, this.ctx('identify', id.seq ?? undefined));
    }
    const expected = this.opts.expectedConfigHash;
    if (expected !== undefined && identity.configHash !== expected) {
      throw new RigConnectError(
        `The rig on ${path} has configuration hash ${identity.configHash}, but ${expected} was expected: its settings changed ` +
          `(dicerig rig check shows them); re-calibrate or restore the settings before continuing.`,
        this.ctx('identify', id.seq ?? undefined),
      );
    }
    const last = Number(id.fields.last);
    if (Number.isInteger(last) && last >= 1) this.seq = last;
    this.identity = identity;
    const cfg = await this.exchange('config', [], { handshake: true, timeoutMs: 1000 });
    if (cfg.kind === 'ok') this.timing = timingFromConfig(cfg.fields);
    const ping = await this.exchange('ping', [], { handshake: true });
    if (ping.kind === 'ok') {
      this.boardMs = undefined;
      this.observeBoardClock(Number(ping.fields.t));
    }
  }

  private openError(path: string, e: unknown): RigConnectError {
    const ctx = this.ctx('connect');
    if (!(e instanceof LinkOpenError)) return new RigConnectError(`Cannot open ${path}: ${e instanceof Error ? e.message : String(e)}.`, ctx, { cause: e });
    switch (e.reason) {
      case 'missing':
        return new RigConnectError(`No serial port at ${path}: is the board plugged in? "dicerig rig list" shows the serial ports of this machine.`, ctx, { cause: e });
      case 'busy':
        return new RigConnectError(
          `${path} is in use by another program (an Arduino IDE serial monitor, another dicerig?): close it and try again.`,
          ctx,
          { cause: e },
        );
      case 'permission':
        return new RigConnectError(
          `No permission to open ${path}: add your user to the "dialout" group (sudo usermod -aG dialout $USER, then log in again).`,
          ctx,
          { cause: e },
        );
      default:
        return new RigConnectError(`Cannot open ${path}: ${e.osMessage}.`, ctx, { cause: e });
    }
  }

  private noFirmwareError(path: string, cause: Error): RigConnectError {
    const noise = this.invalidLines > 0 ? ` It sent ${this.invalidLines} line(s) that are not dicerig protocol (another firmware, or a different baud rate).` : '';
    return new RigConnectError(
      `No boot banner and no reply to "identify" from ${path} within ${this.opts.bannerTimeoutMs} ms: no dicerig firmware on the board? ` +
        `Flash it with "make -C firmware upload PORT=${path}". Or the wrong baud rate: the firmware talks at ${BAUD} baud.${noise}`,
      this.ctx('identify', this.seq),
      { cause },
    );
  }

  private protocolError(path: string, proto: string | undefined, fw: string | undefined): RigConnectError {
    return new RigConnectError(
      `The board on ${path} runs firmware ${fw ?? 'of unknown version'} speaking protocol ${proto ?? '?'}, but this dicerig speaks protocol ${PROTOCOL_VERSION}: ` +
        `flash the firmware from this version with "make -C firmware upload PORT=${path}".`,
      this.ctx('identify'),
    );
  }

  private lostError(command: string, seq?: number): RigError {
    if (this.state === 'closed') return this.closedError(command, seq);
    return new RigFaultError(`The link to the rig on ${this.currentPath} was lost during "${command}".`, 'disconnected', false, this.ctx(command, seq));
  }

  private closedError(command: string, seq?: number): RigError {
    return new RigError(`The rig driver for ${this.currentPath} is closed.`, this.ctx(command, seq));
  }

  /** Waits until the link is usable: now, after a reconnect, or never (then throws). */
  private async linkUp(command: string): Promise<void> {
    switch (this.state) {
      case 'ready':
        return;
      case 'reconnecting':
        await new Promise<void>((resolve, reject) => this.reconnectWaiters.push({ resolve, reject }));
        return;
      case 'failed':
        throw this.failure ?? new RigConnectError(`The rig on ${this.currentPath} is gone.`, this.ctx(command));
      case 'closed':
        throw this.closedError(command);
      default:
        throw new RigError(`The rig on ${this.currentPath} is not connected: call connect() first.`, this.ctx(command));
    }
  }

  /** The link is gone (close event, or the board stopped answering). */
  private linkLost(why: string): void {
    if (this.state !== 'ready') {
      // While connecting, the handshake's own command fails and reports it.
      for (const p of [...this.pending.values()]) p.settle({ kind: 'lost' });
      return;
    }
    this.state = this.opts.reconnect ? 'reconnecting' : 'failed';
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    const dropped = this.dropLink();
    const m = this.motion;
    if (m) {
      this.finishMotion(m);
      const message = `The link to the rig on ${this.currentPath} was lost during the ${m.verb} (seq ${m.seq}): ${why}. The throw is void.`;
      this.lastFaultSeq = m.seq;
      this.emitFault('disconnected', message, m.verb, m.seq);
      m.reject(new RigFaultError(message, 'disconnected', true, this.ctx(m.verb, m.seq)));
    } else {
      this.emitFault('disconnected', `The link to the rig on ${this.currentPath} was lost: ${why}.`);
    }
    for (const p of [...this.pending.values()]) p.settle({ kind: 'lost' });
    if (!this.opts.reconnect) {
      this.failure = new RigConnectError(`The link to the rig on ${this.currentPath} was lost: ${why}.`, this.ctx('reconnect'));
      return;
    }
    const deadline = this.timers.now() + this.opts.reconnectTimeoutMs;
    void dropped.then(() => this.reconnectLoop(deadline, why));
  }

  private async reconnectLoop(deadline: number, why: string): Promise<void> {
    let lastError = 'the board did not come back';
    while (this.state === 'reconnecting') {
      const fp = this.fingerprint ?? { path: this.currentPath };
      const candidates = await relocatePort(fp, { listPorts: this.opts.listPorts, byIdDir: this.opts.byIdDir }).catch(() => [fp.path]);
      for (const path of candidates) {
        if ((this.state as State) !== 'reconnecting') return;
        try {
          await this.openAndHandshake(path, true);
          if ((this.state as State) !== 'reconnecting') return;
          this.state = 'ready';
          this.stats.reconnect();
          this.fingerprint = { ...fp, path: fp.byId ?? path };
          for (const w of this.reconnectWaiters.splice(0)) w.resolve();
          this.scheduleIdle();
          this.restoreLight();
          return;
        } catch (e) {
          lastError = e instanceof Error ? e.message : String(e);
          await this.dropLink();
        }
      }
      if (this.timers.now() >= deadline) break;
      await new Promise<void>((resolve) => {
        this.reconnectWake = resolve;
        this.reconnectTimer = this.timers.after(this.opts.reconnectPollMs, resolve);
      });
      this.reconnectTimer = undefined;
      this.reconnectWake = undefined;
    }
    if (this.state !== 'reconnecting') return;
    this.state = 'failed';
    this.failure = new RigConnectError(
      `The rig on ${this.fingerprint?.path ?? this.currentPath} went away (${why}) and did not come back within ${Math.round(this.opts.reconnectTimeoutMs / 1000)} s ` +
        `(last try: ${lastError}). Check the USB cable and the board's power, then connect again.`,
      this.ctx('reconnect'),
    );
    for (const w of this.reconnectWaiters.splice(0)) w.reject(this.failure);
  }

  private async shutdown(): Promise<void> {
    const wasLinked = this.link !== undefined;
    this.state = 'closed';
    for (const t of [this.idleTimer, this.heartbeatTimer, this.reconnectTimer, this.motionDeadline]) t?.cancel();
    this.idleTimer = this.heartbeatTimer = this.motionDeadline = undefined;
    this.reconnectWake?.(); // the reconnect loop then sees the closed state and ends
    const m = this.motion;
    if (m) {
      if (wasLinked) this.write(encodeCommand(this.takeSeq(), 'stop'));
      this.finishMotion(m);
      m.reject(new RigFaultError(`The rig driver was closed during the ${m.verb} (seq ${m.seq}); the throw is void.`, 'disconnected', true, this.ctx(m.verb, m.seq)));
    }
    for (const p of [...this.pending.values()]) p.settle({ kind: 'lost' });
    for (const w of this.reconnectWaiters.splice(0)) w.reject(this.closedError('reconnect'));
    this.banner?.(undefined);
    await this.dropLink();
    this.faults.clear();
    if (this.opts.onClose) await this.opts.onClose();
  }
}

function errorText(code: number): string {
  return errorByCode(code)?.text ?? `error ${code}`;
}
