import type { Clock } from '../../core/clock.js';
import type { FaultKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus } from '../driver.js';
import { RigFaultError, RigTimeoutError } from '../errors.js';
import { FaultListeners } from '../faultListeners.js';
import { LinkLifecycle, type ReconnectOptions } from '../linkLifecycle.js';
import { LinkStatsRecorder } from '../linkStats.js';
import { portOpenError } from '../ports.js';
import { decodeLine } from '../protocol/decode.js';
import { LineSplitter } from '../protocol/lineSplitter.js';
import type { BoardLine, ErrReply, OkReply, PushLine } from '../protocol/messages.js';
import { settingProblems } from '../protocol/configCheck.js';
import { PROTOCOL_VERSION } from '../protocol/pinMap.js';
import { timerHostOf, type TimerHandle, type TimerHost } from '../timers.js';
import { CommandLane } from './commandLane.js';
import {
  closedError,
  closedWhileConnecting,
  configHashError,
  configRefusedError,
  identifyRefused,
  lostError,
  motionLostMessage,
  motionResetMessage,
  noFirmwareError,
  otherRigError,
  protocolError,
  serialCtx,
} from './messages.js';
import { MotionSupervisor } from './motionSupervisor.js';
import { DEFAULT_BOARD_TIMING, identityFromFields, resetCauseText, statusFromFields, timingFromConfig, type BoardTiming } from './replies.js';
import { findPortHolders, type PortHolders } from './portHolders.js';
import { openSerialPortLink, type LinkOpener, type SerialLink } from './serialLink.js';

/** Settings of the serial driver; everything but `path` has a default tuned for a USB Uno. */
export interface SerialDriverOptions extends ReconnectOptions {
  /** The serial port, e.g. /dev/ttyACM0 or a /dev/serial/by-id/... link. */
  readonly path: string;
  /** Time for timeouts and heartbeats: a Clock, or cancellable timers. Default: the wall clock. */
  readonly clock?: Clock | TimerHost;
  /** Opens the byte link; default: the serialport package. Tests wrap it to inject faults. */
  readonly openLink?: LinkOpener;
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
  /** The configuration hash a session was recorded with; connecting to a board with another one fails. */
  readonly expectedConfigHash?: string;
  /** Releases what the driver owns besides the port (the emulated board), after the port is closed. */
  readonly onClosed?: () => Promise<void>;
  /** Which other programs have a port open, asked when it never answers; default: a look through /proc. */
  readonly findPortHolders?: (path: string) => Promise<PortHolders | undefined>;
}

/**
 * The dicerig firmware over a serial port (firmware/PROTOCOL.md), a facade over three parts:
 *
 * - the link lifecycle (`../linkLifecycle.ts`, shared with the Firmata driver): connect, lose the
 *   board, find it again and restore the light, or give up; the handshake is here (`handshake`):
 *   wait for the `! boot` banner (or, on a board that did not reset, go straight to `identify`),
 *   check the protocol version, record the config hash, resync the seq, read the board's timing;
 * - the command lane (`commandLane.ts`): one command at a time, retransmits, seq resync;
 * - the motion supervisor (`motionSupervisor.ts`): a motion, its heartbeats (a `ping` whenever the
 *   host has been silent for 200 ms, a `status` when it matters), the reset probe, the deadline.
 *
 * The facade reads the board's lines and routes them, notices resets (a banner, or the board's clock
 * going back), keeps the idle heartbeat, and owns what the session set (the light level).
 */
export class SerialRigDriver implements RigDriver {
  readonly kind = 'serial' as const;
  readonly isSimulated = false;

  private readonly opts: Required<Omit<SerialDriverOptions, keyof ReconnectOptions | 'clock' | 'expectedConfigHash' | 'onClosed'>> &
    Pick<SerialDriverOptions, 'expectedConfigHash' | 'onClosed'>;
  private readonly timers: TimerHost;
  private readonly stats = new LinkStatsRecorder();
  private readonly faults = new FaultListeners();
  private readonly life: LinkLifecycle;
  private readonly lane: CommandLane;
  private readonly motions: MotionSupervisor;

  private link: SerialLink | undefined;
  private linkGen = 0;
  private readonly splitter = new LineSplitter(400);
  private currentPath: string;
  private identity: RigIdentity | undefined;
  private timing: BoardTiming = DEFAULT_BOARD_TIMING;
  /** Host time of the last sound line from the board: proof the link is alive. */
  private lastLineAt = 0;
  private idleTimer: TimerHandle | undefined;
  /** Board clock (ms since its reset) at the last reply that carried it: going back means a reset. */
  private boardMs: number | undefined;
  private lightLevel = 0;
  private banner: ((push: PushLine | undefined) => void) | undefined;
  private invalidLines = 0;
  /** Lines of ours the port sent back (see `attachLink`). */
  private echoes = 0;
  private closing: Promise<void> | undefined;

  constructor(options: SerialDriverOptions) {
    this.opts = {
      openLink: openSerialPortLink,
      bannerTimeoutMs: 3000,
      commandTimeoutMs: 250,
      maxAttemptTimeoutMs: 1000,
      retries: 3,
      heartbeatMs: 200,
      missedHeartbeats: 8,
      idleHeartbeatMs: 1000,
      findPortHolders: (p: string) => findPortHolders(p),
      ...options,
    };
    this.timers = timerHostOf(options.clock);
    this.currentPath = options.path;
    const path = (): string => this.currentPath;
    this.life = new LinkLifecycle(
      {
        open: (p, reconnecting) => (reconnecting ? this.handshake(p, true) : this.lane.run(() => this.handshake(p, false))),
        drop: () => this.dropLink(),
        lost: (why) => this.lost(why),
        up: (reconnected) => this.up(reconnected),
        path,
        ctx: (command) => serialCtx(this.currentPath, command),
      },
      this.timers,
      options,
    );
    const { timers, stats } = this;
    this.lane = new CommandLane(
      {
        timers,
        stats,
        path,
        linkUp: (command) => this.life.usable(command),
        isClosed: () => this.closed(),
        linkLost: (why) => this.linkLost(why),
        observe: (verb, reply, firstWrite) => (verb === 'ping' ? this.observeBoardClock(Number(reply.fields.t)) : this.motions.observeStatus(reply, firstWrite)),
      },
      this.opts,
    );
    this.motions = new MotionSupervisor(
      {
        timers,
        stats,
        lane: this.lane,
        path,
        timing: () => this.timing,
        lightLevel: () => this.lightLevel,
        linkUp: (command) => this.life.usable(command),
        isReady: () => this.life.ready,
        notUsable: (command) => (this.closed() ? closedError(this.currentPath, command) : lostError(this.currentPath, command)),
        emitFault: (kind, message, command, seq) => this.emitFault(kind, message, command, seq),
        linkLost: (why) => this.linkLost(why),
        boardReset: (why) => this.boardReset(why),
        observeBoardClock: (ms) => this.observeBoardClock(ms),
      },
      this.opts,
    );
  }

  /** Whether close() was called; a method, so a check after an await is not narrowed away. */
  private closed(): boolean {
    return this.life.state === 'closed';
  }

  /** The port in use now (it changes when the board comes back under another name). */
  get path(): string {
    return this.currentPath;
  }

  async connect(): Promise<RigIdentity> {
    await this.life.connect(this.opts.path);
    return this.identity as RigIdentity;
  }

  identify(): Promise<RigIdentity> {
    return this.lane.run(async () => {
      const reply = await this.lane.exchange('identify', []);
      const fields = this.lane.expectOk(reply, 'identify');
      this.identity = identityFromFields(fields, this.currentPath);
      return this.identity;
    });
  }

  tumble(): Promise<MotionResult> {
    return this.motions.run('tumble');
  }

  home(): Promise<MotionResult> {
    return this.motions.run('home');
  }

  setLight(level: number): Promise<number> {
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`light level ${level} is not a whole number from 0 to 255`);
    return this.lane.run(async () => {
      const fields = this.lane.expectOk(await this.lane.exchange('light', [String(level)]), 'light');
      this.lightLevel = Number(fields.light ?? level);
      return this.lightLevel;
    });
  }

  status(): Promise<RigStatus> {
    return this.lane.run(async () => statusFromFields(this.lane.expectOk(await this.lane.exchange('status', []), 'status')));
  }

  /** One `ping`; resolves with its round trip in ms (the benchmark's unit of link latency). */
  ping(): Promise<number> {
    return this.lane.run(async () => {
      const t0 = this.timers.now();
      this.lane.expectOk(await this.lane.exchange('ping', []), 'ping');
      return this.timers.now() - t0;
    });
  }

  /** The board's configuration (`config` without arguments): every key, and `cfg`, its hash. */
  readConfig(): Promise<Record<string, string>> {
    return this.lane.run(async () => ({ ...this.lane.expectOk(await this.lane.exchange('config', [], { timeoutMs: 1000 }), 'config') }));
  }

  /**
   * Changes board settings (kept in its EEPROM; all or nothing: see firmware/PROTOCOL.md) and
   * resolves with the new config hash. Refused with `busy` while a motion runs.
   */
  configure(settings: Readonly<Record<string, string | number>>): Promise<string> {
    const problems = settingProblems(settings);
    if (problems.length > 0) return Promise.reject(configRefusedError(this.currentPath, settings, problems));
    const args = Object.entries(settings).map(([k, v]) => `${k}=${v}`);
    return this.lane.run(async () => {
      const fields = this.lane.expectOk(await this.lane.exchange('config', args, { timeoutMs: 1000 }), 'config');
      const cfg = this.lane.expectOk(await this.lane.exchange('config', [], { timeoutMs: 1000 }), 'config');
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

  // ---- the board's lines ------------------------------------------------------------------------

  private attachLink(link: SerialLink): void {
    const gen = ++this.linkGen;
    this.link = link;
    this.lane.attach(link);
    this.currentPath = link.path;
    this.splitter.reset();
    this.invalidLines = 0;
    this.echoes = 0;
    link.onData((chunk) => {
      if (gen !== this.linkGen) return;
      const lines = this.splitter.push(chunk);
      for (let i = 0; i < lines.length; i++) {
        const { line, overlong } = lines[i] as { line: string; overlong: boolean };
        // A line we sent coming back as it was: a terminal or a loopback, not a board (and no CRC failure).
        if (this.lane.sentRecently(line)) {
          this.echoes++;
          continue;
        }
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
    this.lane.attach(undefined);
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
    this.lane.resendAll();
    this.motions.lineLost();
  }

  private route(reply: OkReply | ErrReply): void {
    // Anything neither part waits for is a duplicate (a retransmit answered twice): ignored.
    if (!this.motions.takeReply(reply)) this.lane.settleReply(reply);
  }

  private handlePush(push: PushLine): void {
    if (push.event === 'boot') {
      if (this.banner) return this.banner(push);
      return this.boardReset(`the board reset (${resetCauseText(push.fields.reset)})`, push);
    }
    if (push.event === 'fault') this.motions.faultPushed(Number(push.words[0]), Number(push.fields.seq));
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
    this.lane.marker = undefined;
    const cfg = banner?.fields.cfg;
    const cfgChanged = cfg !== undefined && this.identity !== undefined && cfg !== this.identity.configHash;
    if (cfgChanged && this.identity) this.identity = { ...this.identity, configHash: cfg };
    const note = cfgChanged ? `; its configuration hash is now ${cfg}` : '';
    if (!this.motions.boardReset((verb, seq) => motionResetMessage(this.currentPath, verb, seq, `${why}${note}`))) {
      this.emitFault('reset', `The board on ${this.currentPath} reset: ${why}${note}.`);
    }
    // Whatever was waiting may have been swallowed by the reset.
    this.lane.resendAll();
    this.resync();
    this.restoreLight();
  }

  /**
   * After a reset, `identify` before anything else is queued: a board of protocol 2 runs no motion until it has
   * answered one (a motion line sent before the host saw the banner must not run), and it says the board's config.
   */
  private resync(): void {
    if (!this.life.ready) return;
    void this.lane
      .run(() => this.lane.exchange('identify', []))
      .then((reply) => {
        if (reply.kind === 'ok' && this.identity) this.identity = { ...this.identity, configHash: reply.fields.cfg ?? this.identity.configHash };
      })
      .catch(() => undefined);
  }

  /** A reset turns the light off; the session expects the level it set. */
  private restoreLight(): void {
    if (this.lightLevel === 0 || !this.life.ready) return;
    const level = this.lightLevel;
    void this.lane.run(() => this.lane.exchange('light', [String(level)])).catch(() => undefined);
  }

  // ---- idle heartbeat ---------------------------------------------------------------------------

  private scheduleIdle(): void {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    if (this.opts.idleHeartbeatMs <= 0 || this.closed()) return;
    // Due when the board will have been silent for the period (at the earliest a tenth of it from now).
    const due = Math.max(this.opts.idleHeartbeatMs / 10, this.lastLineAt + this.opts.idleHeartbeatMs - this.timers.now());
    this.idleTimer = this.timers.after(due, () => void this.idleTick());
  }

  private async idleTick(): Promise<void> {
    this.idleTimer = undefined;
    if (!this.life.ready) return;
    const quiet = this.timers.now() - this.lastLineAt;
    if (!this.motions.running && quiet >= this.opts.idleHeartbeatMs * 0.9) {
      // A failed ping has already declared the link lost; nothing else to do here.
      await this.ping().catch(() => undefined);
    }
    if (this.life.ready) this.scheduleIdle();
  }

  // ---- connecting, losing and finding the board -------------------------------------------------

  /** Opens `path`, waits for the banner and checks the board: protocol, rig, configuration; reads its timing. */
  private async handshake(path: string, reconnecting: boolean): Promise<void> {
    const openedAt = this.timers.now();
    let link: SerialLink;
    try {
      link = await this.opts.openLink(path);
    } catch (e) {
      throw portOpenError(path, e, serialCtx(this.currentPath, 'connect'));
    }
    if (this.closed()) {
      await link.close().catch(() => undefined);
      throw closedError(this.currentPath, 'connect');
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
    if (this.closed()) throw closedError(this.currentPath, 'connect');
    if (banner && banner.fields.proto !== undefined && Number(banner.fields.proto) !== PROTOCOL_VERSION) {
      throw protocolError(path, banner.fields.proto, banner.fields.fw);
    }
    this.boardMs = banner ? 0 : undefined;
    this.lane.marker = undefined;
    // A blank line flushes any half line the board holds (harmless otherwise).
    this.lane.write('\n');
    let id;
    try {
      id = await this.lane.exchange('identify', [], { handshake: true, retries: banner ? 3 : 1 });
    } catch (e) {
      if (e instanceof RigTimeoutError) {
        const waitedMs = this.timers.now() - openedAt;
        const port = { waitedMs, invalidLines: this.invalidLines, echoes: this.echoes, holders: await this.opts.findPortHolders(path).catch(() => undefined) };
        throw noFirmwareError(path, this.lane.lastSeq, port, e);
      }
      if (e instanceof RigFaultError) throw closedWhileConnecting(path, e);
      throw e;
    }
    if (id.kind !== 'ok') throw identifyRefused(path, id);
    if (Number(id.fields.proto) !== PROTOCOL_VERSION) throw protocolError(path, id.fields.proto, id.fields.fw);
    const identity = identityFromFields(id.fields, path);
    const idSeq = id.seq ?? undefined;
    if (reconnecting && this.identity && identity.rigId !== this.identity.rigId) throw otherRigError(path, identity.rigId, this.identity.rigId, idSeq);
    const expected = this.opts.expectedConfigHash;
    if (expected !== undefined && identity.configHash !== expected) throw configHashError(path, identity.configHash, expected, idSeq);
    const last = Number(id.fields.last);
    if (Number.isInteger(last) && last >= 1) this.lane.resumeAfter(last);
    this.identity = identity;
    const cfg = await this.lane.exchange('config', [], { handshake: true, timeoutMs: 1000 });
    if (cfg.kind === 'ok') this.timing = timingFromConfig(cfg.fields);
    const ping = await this.lane.exchange('ping', [], { handshake: true });
    if (ping.kind === 'ok') {
      this.boardMs = undefined;
      this.observeBoardClock(Number(ping.fields.t));
    }
  }

  /** The link is gone (close event, or the board stopped answering). */
  private linkLost(why: string): void {
    // While connecting, the handshake's own command fails and reports it.
    if (!this.life.lose(why)) this.lane.loseAll();
  }

  /** Called by the lifecycle on a lost link, before it drops the link: void the motion, tell listeners, hold the commands. */
  private lost(why: string): void {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    if (!this.motions.interrupt('disconnected', (verb, seq) => motionLostMessage(this.currentPath, verb, seq, why))) {
      this.emitFault('disconnected', `The link to the rig on ${this.currentPath} was lost: ${why}.`);
    }
    this.lane.loseAll();
  }

  private up(reconnected: boolean): void {
    if (reconnected) this.stats.reconnect();
    this.scheduleIdle();
    if (reconnected) this.restoreLight();
  }

  private async shutdown(): Promise<void> {
    const wasLinked = this.link !== undefined;
    this.life.close();
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    this.motions.close(wasLinked);
    this.lane.loseAll();
    this.banner?.(undefined);
    await this.dropLink();
    this.faults.clear();
    if (this.opts.onClosed) await this.opts.onClosed();
  }
}
