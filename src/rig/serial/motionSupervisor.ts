/**
 * The serial driver's motion supervisor: one motion (tumble, home) at a time, which the board answers
 * only when it ends. Meanwhile it keeps the board's dead-man fed with heartbeats, places status
 * replies against the motion, resends a motion whose line or reply was lost, probes for a reset
 * whose banner was lost before resending, and stops a motion that overran.
 */
import type { FaultKind, MotionResult } from '../driver.js';
import { RigFaultError, type RigError } from '../errors.js';
import type { LinkStatsRecorder } from '../linkStats.js';
import { encodeCommand } from '../protocol/encode.js';
import { ErrorCode } from '../protocol/errorCodes.js';
import type { ErrReply, OkReply } from '../protocol/messages.js';
import type { TimerHandle, TimerHost } from '../timers.js';
import type { CommandLane, Marker } from './commandLane.js';
import {
  motionClosedMessage,
  motionOverdueMessage,
  motionRefusedError,
  motionStoppedMessage,
  motionUnansweredError,
  pushedFaultMessage,
  serialCtx,
} from './messages.js';
import { expectedMotionMs, motionFromFields, type BoardTiming } from './replies.js';

interface Heartbeat {
  verb: 'ping' | 'status';
  seq: number;
  line: string;
  firstWrite: number;
  /** When it first went out (host clock). */
  sentAt: number;
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
  /**
   * Set when the board reset while this motion was outstanding: the message it is rejected with. The motion is void
   * whatever happens next, but it is rejected only once the board is seen not to run it (see `boardReset`).
   */
  voided?: string;
  /** The write index when the reset became known: only a status sent after it says what the fresh firmware runs. */
  voidedAfter: number;
  /** A `stop` went out for a motion the fresh firmware ran after its reset. */
  stopSent: boolean;
  readonly resolve: (r: MotionResult) => void;
  readonly reject: (e: Error) => void;
}

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

export interface MotionSettings {
  /** Longest the host stays silent while a motion runs (see SerialDriverOptions.heartbeatMs). */
  readonly heartbeatMs: number;
  readonly missedHeartbeats: number;
  /** A reply is late after this long (the command lane's first-attempt timeout). */
  readonly commandTimeoutMs: number;
}

/** What the supervisor needs from the driver around it. */
export interface MotionHost {
  readonly timers: TimerHost;
  readonly stats: LinkStatsRecorder;
  readonly lane: CommandLane;
  path(): string;
  /** The board's timings (motion lengths, dead-man time), from its `config`. */
  timing(): BoardTiming;
  /** The light level the session set (a `light` at it is the reset probe). */
  lightLevel(): number;
  linkUp(command: string): Promise<void>;
  /** Whether commands may go out now; else `notUsable` says why. */
  isReady(): boolean;
  notUsable(command: string): RigError;
  emitFault(kind: FaultKind, message: string, command?: string, seq?: number): void;
  linkLost(why: string): void;
  boardReset(why: string): void;
  observeBoardClock(ms: number): void;
}

export class MotionSupervisor {
  private motion: Motion | undefined;
  private heartbeat: Heartbeat | undefined;
  private missed = 0;
  private heartbeatTimer: TimerHandle | undefined;
  private deadline: TimerHandle | undefined;
  private lastFaultSeq: number | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: MotionHost,
    private readonly settings: MotionSettings,
  ) {}

  get running(): boolean {
    return this.motion !== undefined;
  }

  /** One motion; motions queue behind each other. */
  run(verb: 'tumble' | 'home'): Promise<MotionResult> {
    const fn = (): Promise<MotionResult> => this.start(verb);
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async start(verb: 'tumble' | 'home'): Promise<MotionResult> {
    const { host } = this;
    const { lane } = host;
    await host.linkUp(verb);
    // The reset probe needs a recent light command still in the board's cache (the motion takes a slot too).
    if (!lane.marker || lane.marker.after > 2) {
      const level = String(host.lightLevel());
      lane.expectOk(await lane.run(() => lane.exchange('light', [level])), 'light');
    }
    const probe = { ...(lane.marker as Marker) };
    await host.linkUp(verb);
    return new Promise<MotionResult>((resolve, reject) => {
      if (!host.isReady() || !lane.linked) return reject(host.notUsable(verb));
      const seq = lane.takeSeq();
      const line = encodeCommand(seq, verb);
      host.stats.command();
      if (lane.marker) lane.marker.after++;
      const now = host.timers.now();
      const m: Motion = {
        verb,
        seq,
        line,
        lastWrite: 0,
        lastSentAt: now,
        checked: false,
        wantStatus: false,
        probe,
        probing: false,
        resends: 0,
        seqRetries: 0,
        voidedAfter: 0,
        stopSent: false,
        resolve,
        reject,
      };
      this.motion = m;
      this.missed = 0;
      m.lastWrite = lane.write(line);
      const limit = Math.ceil(expectedMotionMs(host.timing(), verb) * 1.5) + 3000;
      this.deadline = host.timers.after(limit, () => this.overdue(m, limit));
      this.scheduleHeartbeat();
    });
  }

  private finish(m: Motion): void {
    if (this.motion !== m) return;
    this.motion = undefined;
    this.deadline?.cancel();
    this.deadline = undefined;
    this.heartbeatTimer?.cancel();
    this.heartbeatTimer = undefined;
    this.heartbeat = undefined;
  }

  /**
   * Rejects the running motion as interrupted by `kind` (a reset, a lost link) and tells the
   * listeners; it is never sent again. Returns false when no motion ran.
   */
  interrupt(kind: FaultKind, message: (verb: string, seq: number) => string): boolean {
    const m = this.motion;
    if (!m) return false;
    this.finish(m);
    const text = message(m.verb, m.seq);
    this.lastFaultSeq = m.seq;
    this.host.emitFault(kind, text, m.verb, m.seq);
    m.reject(new RigFaultError(text, kind, true, serialCtx(this.host.path(), m.verb, m.seq)));
    return true;
  }

  /**
   * The board reset while a motion was outstanding: the motion is void (it may have moved the dice and did not
   * finish), and is never sent again. But the board may be running it now: a motion line still on its way when the
   * board reset (in the USB-serial chip's buffer, or the emulator's) reaches the fresh firmware, which runs it,
   * with nobody feeding its dead-man, and refuses the session's next home as busy. So the motion is rejected only
   * once the board is seen not to run it: its own reply comes (a refusal, or the end of a run), or a status asked
   * after the reset shows no motion; a status that shows one running gets a `stop` first. Heartbeats go on meanwhile.
   * Returns false when no motion ran.
   */
  boardReset(message: (verb: string, seq: number) => string): boolean {
    const m = this.motion;
    if (!m) return false;
    if (m.voided !== undefined) return true;
    m.voided = message(m.verb, m.seq);
    m.voidedAfter = this.host.lane.writeCount;
    m.probing = false;
    // A heartbeat sent before the reset may never be answered: the next one is a fresh status.
    this.heartbeat = undefined;
    this.lineLost();
    return true;
  }

  /** Rejects a motion voided by a reset, now that the board does not run it. */
  private voidAfterReset(m: Motion): void {
    this.finish(m);
    const text = m.stopSent ? `${m.voided ?? ''} Its line reached the board after the reset, so dicerig stopped it there.` : (m.voided ?? '');
    this.lastFaultSeq = m.seq;
    this.host.emitFault('reset', text, m.verb, m.seq);
    m.reject(new RigFaultError(text, 'reset', true, serialCtx(this.host.path(), m.verb, m.seq)));
  }

  /** The driver is closing: stop the motor if the link is up, reject the motion, release every timer. */
  close(linked: boolean): void {
    this.heartbeatTimer?.cancel();
    this.deadline?.cancel();
    this.heartbeatTimer = this.deadline = undefined;
    const m = this.motion;
    if (!m) return;
    if (linked) this.host.lane.write(encodeCommand(this.host.lane.takeSeq(), 'stop'));
    this.finish(m);
    m.reject(new RigFaultError(motionClosedMessage(m.verb, m.seq), 'disconnected', true, serialCtx(this.host.path(), m.verb, m.seq)));
  }

  /** Takes a reply that belongs to the motion, its reset probe or a heartbeat; false for any other. */
  takeReply(reply: OkReply | ErrReply): boolean {
    const seq = reply.seq as number;
    const m = this.motion;
    // A motion's `ok` always carries ms=: an `ok` without it under the motion's seq answered another command.
    if (m && seq === m.seq && (reply.kind === 'err' || reply.fields.ms !== undefined)) this.motionReply(m, reply);
    else if (m?.probing && seq === m.probe.seq) this.probeReply(m, reply);
    else if (this.heartbeat && seq === this.heartbeat.seq) this.heartbeatReply(reply);
    else return false;
    return true;
  }

  /** `! fault code seq=N`: the board stopped a motion. */
  faultPushed(code: number, seq: number): void {
    if (this.motion && seq === this.motion.seq) return this.motion.voided !== undefined ? this.voidAfterReset(this.motion) : this.motionFailed(this.motion, code);
    if (seq !== this.lastFaultSeq) {
      this.lastFaultSeq = seq;
      this.host.emitFault(MOTION_FAULTS[code] ?? 'stopped', pushedFaultMessage(seq, code), undefined, seq);
    }
  }

  private motionReply(m: Motion, reply: OkReply | ErrReply): void {
    // After a reset, any reply to the motion means the board no longer runs it (it refused it, or it ended).
    if (m.voided !== undefined) return this.voidAfterReset(m);
    if (reply.kind === 'err' && reply.code === ErrorCode.unsynced) {
      // Not run: the board reset since it was last identified, and its banner was lost.
      this.host.boardReset('it refused the motion as unsynced, so it reset since it was last identified and its boot banner was lost');
      return this.voidAfterReset(m);
    }
    if (reply.kind === 'ok') {
      this.finish(m);
      m.resolve(motionFromFields(reply.fields));
      return;
    }
    if ((reply.code === ErrorCode.seq_stale || reply.code === ErrorCode.seq_reused) && m.seqRetries < 2) {
      // Not run: our seq was behind the board's. Take a seq after its newest and send the motion again.
      const { lane } = this.host;
      m.seqRetries++;
      const last = Number(reply.fields.last);
      // Without the board's newest seq (seq_reused), jump well ahead: anything up to half the ring is "newer".
      lane.skipPast(Number.isInteger(last) && last >= 1 ? last : ((lane.lastSeq + 1000) % 65535) + 1);
      m.seq = lane.takeSeq();
      if (lane.marker) lane.marker.after++;
      m.line = encodeCommand(m.seq, m.verb);
      m.lastWrite = lane.write(m.line);
      m.lastSentAt = this.host.timers.now();
      m.checked = false;
      return;
    }
    this.motionFailed(m, reply.code, reply.name);
  }

  private motionFailed(m: Motion, code: number, name?: string): void {
    this.finish(m);
    const kind = MOTION_FAULTS[code];
    const path = this.host.path();
    if (kind === undefined) {
      m.reject(motionRefusedError(path, m.verb, m.seq, code, name));
      return;
    }
    const message = motionStoppedMessage(path, m.verb, m.seq, code);
    this.lastFaultSeq = m.seq;
    this.host.emitFault(kind, message, m.verb, m.seq);
    m.reject(new RigFaultError(message, kind, true, serialCtx(path, m.verb, m.seq), code));
  }

  private overdue(m: Motion, limit: number): void {
    if (this.motion !== m) return;
    const { lane } = this.host;
    if (m.voided !== undefined) {
      // The board never said whether it is idle after its reset: stop whatever it runs, and give the motion up.
      lane.write(encodeCommand(lane.takeSeq(), 'stop'));
      return this.voidAfterReset(m);
    }
    this.finish(m);
    lane.write(encodeCommand(lane.takeSeq(), 'stop'));
    const message = motionOverdueMessage(this.host.path(), m.verb, m.seq, limit);
    this.lastFaultSeq = m.seq;
    this.host.emitFault('stopped', message, m.verb, m.seq);
    m.reject(new RigFaultError(message, 'stopped', true, serialCtx(this.host.path(), m.verb, m.seq)));
  }

  // ---- heartbeats -------------------------------------------------------------------------------

  private period(): number {
    // The board stops a motion after `deadman` ms without a line; stay well inside it.
    return Math.max(20, Math.min(this.settings.heartbeatMs, Math.floor(this.host.timing().deadmanMs / 4)));
  }

  /** Arms the next heartbeat for when the host will have been silent for a period (anything it sends feeds the dead-man). */
  private scheduleHeartbeat(): void {
    this.heartbeatTimer?.cancel();
    const due = this.host.lane.lastWriteAt + this.period() - this.host.timers.now();
    this.heartbeatTimer = this.host.timers.after(Math.max(0, due), () => this.heartbeatTick());
  }

  /** A line was lost or garbled: during a motion, ask the board for its status now. */
  lineLost(): void {
    if (!this.motion) return;
    this.motion.wantStatus = true;
    this.heartbeatTimer?.cancel();
    this.heartbeatTimer = this.host.timers.after(0, () => this.heartbeatTick(true));
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
    const { lane, timers, stats } = this.host;
    if (!m || !lane.linked) return;
    // Another command went out since this was armed: the board has heard from us, wait a period from then.
    // (Timers can fire a fraction of a millisecond early on this clock, hence the tenth of slack.)
    if (!urgent && timers.now() - lane.lastWriteAt < this.period() * 0.9) return this.scheduleHeartbeat();
    const hb = this.heartbeat;
    if (hb) {
      // Unanswered: send it again (an urgent tick because its reply may be the line that was garbled).
      if (!urgent) {
        this.missed++;
        if (this.missed > this.settings.missedHeartbeats) {
          this.host.linkLost(`no reply to ${this.missed} heartbeats during the ${m.verb}`);
          return;
        }
      }
      // On a link slower than the heartbeat period the reply may still be on its way: the repeat only
      // feeds the dead-man, and counts as a timeout and a retransmit once the reply is late as any
      // command's would be (or a line was garbled).
      if (urgent || timers.now() - hb.sentAt >= this.settings.commandTimeoutMs) {
        if (!urgent) stats.timeout();
        stats.retransmit();
      }
      lane.write(hb.line);
    } else {
      const overdue = timers.now() - m.lastSentAt > expectedMotionMs(this.host.timing(), m.verb) + 2 * this.period();
      const verb = !m.checked || m.wantStatus || overdue || m.voided !== undefined ? 'status' : 'ping';
      if (verb === 'status') {
        m.checked = true;
        m.wantStatus = false;
      }
      const seq = lane.takeSeq();
      const line = encodeCommand(seq, verb);
      stats.command();
      this.heartbeat = { verb, seq, line, firstWrite: lane.write(line), sentAt: timers.now() };
    }
    this.scheduleHeartbeat();
  }

  private heartbeatReply(reply: OkReply | ErrReply): void {
    const hb = this.heartbeat as Heartbeat;
    this.heartbeat = undefined;
    this.missed = 0;
    if (reply.kind !== 'ok') return;
    if (hb.verb === 'status') this.observeStatus(reply, hb.firstWrite);
    else this.host.observeBoardClock(Number(reply.fields.t));
  }

  /**
   * What a status reply says about the running motion. Replies come in order, so a status the board
   * answered after it saw our motion line either shows the motion running or comes after the
   * motion's own reply; if it shows neither, the line or the reply was lost: resend the motion.
   */
  observeStatus(reply: OkReply, firstWrite: number): void {
    this.host.observeBoardClock(Number(reply.fields.up));
    const m = this.motion;
    if (m?.voided !== undefined) return this.afterResetStatus(m, reply, firstWrite);
    if (!m || firstWrite <= m.lastWrite) return;
    const running = Number(reply.fields.motion);
    if (running === m.seq) return;
    if (running !== 0) return; // another motion (from before a reconnect) is still running: wait for it
    this.probeForReset(m);
  }

  /** A status reply while a motion voided by a reset waits for the board to be idle (see `boardReset`). */
  private afterResetStatus(m: Motion, reply: OkReply, firstWrite: number): void {
    if (firstWrite <= m.voidedAfter) return; // asked before the reset was known: it may predate the motion line
    if (Number(reply.fields.motion) === 0) return this.voidAfterReset(m);
    // The fresh firmware runs a motion (ours, whose line reached it after the reset): stop it, and ask again.
    const { lane, stats } = this.host;
    m.stopSent = true;
    stats.command();
    lane.write(encodeCommand(lane.takeSeq(), 'stop'));
    m.wantStatus = true;
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
      this.finish(m);
      m.reject(motionUnansweredError(this.host.path(), m.verb, m.seq, m.resends));
      return;
    }
    m.resends++;
    m.probing = true;
    this.host.stats.retransmit();
    m.lastWrite = this.host.lane.write(m.probe.line);
  }

  private probeReply(m: Motion, reply: OkReply | ErrReply): void {
    m.probing = false;
    if (reply.kind === 'ok' && reply.raw === m.probe.reply) {
      // Answered from the cache: no reset. Send the motion again (same seq, same bytes).
      this.host.stats.retransmit();
      m.lastWrite = this.host.lane.write(m.line);
      m.lastSentAt = this.host.timers.now();
      m.checked = false;
      return;
    }
    if (reply.kind === 'err' && reply.code === ErrorCode.seq_stale) {
      this.host.boardReset('the board had forgotten the commands before the motion, so it reset and its boot banner was lost');
      return;
    }
    // Anything else: we cannot tell, and a second tumble is worse than a void throw.
    this.host.boardReset(`the board answered a reset probe unexpectedly (${reply.raw})`);
  }
}
