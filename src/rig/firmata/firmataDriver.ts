/**
 * # The Firmata rig driver: a stock StandardFirmata board, driven through johnny-five
 *
 * For users who don't want to flash our firmware: flash StandardFirmata (Arduino IDE: File >
 * Examples > Firmata > StandardFirmata; tested with version 2.4, the build `avrgirl-arduino` ships),
 * wire the rig to the same pins as for our firmware (`firmware/protocol/protocol.json`: servo D9,
 * LED strip D6, limit switch D2 and home switch D3 to GND, status LED D13, motor current sense A0),
 * and choose `--rig firmata --port PATH`.
 *
 * What johnny-five drives: a `Servo` on D9, a `Led` (PWM) on D6, a `Led` on D13 lit while a motion
 * runs, `Switch`es (normally open, to GND, pull-up) on D2 and D3, and a `Sensor` on A0 for the motor
 * current. A tumble is: servo to `flipUs`, hold `flipMs`, servo to `restUs`, hold `flipMs`, release
 * the servo (no pulses, as our firmware does, so it neither hums nor shakes the settling dice).
 * `home` goes to rest and waits up to `homeMs` for the home switch. The servo is attached only for a
 * motion, so connecting never moves it; pulses are 544–2500 µs (below 544 the Servo library inside
 * StandardFirmata reads an angle). Settings have our firmware's names and defaults, kept in the host.
 *
 * **Safety lives in the host.** StandardFirmata only does what it is told: there is no dead-man
 * timer, no watchdog and no jam or limit logic on the board. This driver watches the limit switch
 * and the motor current (at or above `jamMa` for `jamMs`: jammed) and stops the servo itself, so a
 * crashed or suspended host leaves the servo where it was, pulsing. Prefer our firmware for an
 * unattended rig.
 *
 * The link: StandardFirmata talks at 57600 baud and, after the reset that opening an Uno's port
 * causes, blinks its version on D13 for about 2 s before it answers; `connect` allows 7 s and then
 * fails naming the port and the likely cause (no StandardFirmata on the board). Firmata has no
 * sequence numbers or CRC, so `linkStats` counts commands, timeouts and round trips only. The A0
 * reports (every 19 ms) double as a heartbeat: silence for `silenceMs` means the board was unplugged,
 * reset or hung. A motion resolves only when the board is proven alive and un-reset through all of it:
 * no gap between A0 reports longer than `motionGapMs` (500 ms; a reset silences StandardFirmata for
 * seconds) from the last report before it to two reports after its last hold (the first could have left
 * the board just before a reset); otherwise it is rejected as `disconnected`, interrupted. The host times
 * the motion, so without this a board that reset or stalled late in a tumble (the silence check needs a
 * whole `silenceMs`) had its tumble counted as good. An unprompted version report (StandardFirmata
 * announces itself when it boots) means the board restarted: a motion then is rejected as `reset`, and
 * the link is lost. Losing the link (that, or the port closing) follows the lifecycle in `driver.ts`, as the
 * serial driver does: a running motion is rejected as interrupted (`disconnected`) and never re-run, a
 * `disconnected` fault is announced, and the driver looks for the board again by itself (its by-id link,
 * its USB serial number, its old path; every 250 ms for 15 s), re-identifies it, sets up the pins and
 * restores the light. Queries issued meanwhile wait for that. The port is opened as the serial driver
 * opens its own (`openLink`, a `SerialLink`), so tests can unplug and replug it the same way.
 *
 * Time: motion holds, the home timeout, jam timing and link timeouts run on the injected clock
 * (`clock`, wall clock by default), through cancellable timers so `close` leaves nothing behind.
 * The connection itself (port, firmata-io, johnny-five components) is `firmataConnection.ts`.
 */
import type { Clock } from '../../core/clock.js';
import type { DriverKind, FaultKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus } from '../driver.js';
import { RigFaultError, RigTimeoutError, type RigErrorContext } from '../errors.js';
import { FaultListeners } from '../faultListeners.js';
import { LinkLifecycle, type ReconnectOptions } from '../linkLifecycle.js';
import { LinkStatsRecorder } from '../linkStats.js';
import { ErrorCode } from '../protocol/errorCodes.js';
import { CURRENT_SENSE_MV_PER_AMP } from '../protocol/pinMap.js';
import { openSerialPortLink, type LinkOpener } from '../serial/serialLink.js';
import { timerHostOf, type TimerHandle, type TimerHost } from '../timers.js';
import { describeFirmata, openConnection, releaseMotor, teardownConnection, type Connection } from './firmataConnection.js';
import { unfinishedMotion } from '../unfinishedMotion.js';
import { firmataPins, type FirmataPins } from './firmataPins.js';
import { FIRMATA_DEFAULT_BAUD, MAX_SERVO_PULSE_US, MIN_SERVO_PULSE_US, resolveFirmataSettings, type FirmataRigSettings } from './firmataSettings.js';

export interface FirmataDriverOptions extends ReconnectOptions {
  /** Serial port of the board running StandardFirmata, e.g. /dev/ttyACM0. */
  readonly port: string;
  /** Tumble timings, jam threshold and rig name; defaults are our firmware's. */
  readonly settings?: Partial<FirmataRigSettings>;
  /** Time for motions and timeouts: a Clock, or cancellable timers. Default: the wall clock. */
  readonly clock?: Clock | TimerHost;
  /** Opens the port; default: the serialport package, as for the serial driver. Tests wrap it to unplug the board. */
  readonly openLink?: LinkOpener;
  /** StandardFirmata's line speed. Default 57600. */
  readonly baudRate?: number;
  /** Longest wait from opening the port to a ready board. Default 7000 ms (StandardFirmata blinks ~2 s first). */
  readonly connectTimeoutMs?: number;
  /** Longest wait for the answer to one query. Default 1000 ms. */
  readonly replyTimeoutMs?: number;
  /** No analog report for this long means the link is lost. Default 1000 ms. */
  readonly silenceMs?: number;
  /** Longest gap between analog reports a motion may have and still count as finished. Default 500 ms: reports come every ~19 ms, a reset silences the board for seconds, and a loaded machine or emulator may delay a report. */
  readonly motionGapMs?: number;
  /** Called once by `close` after the port is closed (e.g. to stop the emulated board it runs on). */
  readonly onClosed?: () => Promise<void>;
}

/** StandardFirmata's line speed. */
export const FIRMATA_BAUD = FIRMATA_DEFAULT_BAUD;

/** A motion in progress: its fault promise rejects when a fault stops it. */
interface Motion {
  readonly kind: 'tumble' | 'home';
  readonly startedAt: number;
  peakMa: number;
  jamSince: number | undefined;
  aborted: boolean;
  /** When the last A0 report arrived (before the motion: the last one before it started), the longest gap between them, and how many came. */
  lastReportAt: number;
  longestGapMs: number;
  reports: number;
  /** Called on every A0 report while the motion waits for proof that the board outlived it. */
  onReport: (() => void) | undefined;
  readonly timers: Set<TimerHandle>;
  readonly stop: (error: RigFaultError) => void;
  readonly stopped: Promise<never>;
}

/** A query cut by a lost link: it is sent again once the board is back. */
class LinkDropped extends Error {}

/** Millivolts at the ADC to motor milliamperes, with the integer steps our firmware uses. */
export function currentSenseMilliamps(raw: number, adcMax = 1023): number {
  const mv = Math.floor((raw * 5000) / adcMax);
  return Math.floor((mv * 1000) / CURRENT_SENSE_MV_PER_AMP);
}

/**
 * A rig driven through johnny-five on a board running stock StandardFirmata. See the notes at the
 * top of this file for what it does and what it cannot do (the safety logic lives in the host).
 */
export class FirmataRigDriver implements RigDriver {
  readonly kind: DriverKind = 'firmata';
  readonly isSimulated = false;

  private readonly settings: FirmataRigSettings;
  private readonly pins: FirmataPins = firmataPins();
  private readonly timers: TimerHost;
  private readonly baudRate: number;
  private readonly connectTimeoutMs: number;
  private readonly replyTimeoutMs: number;
  private readonly silenceMs: number;
  private readonly motionGapMs: number;
  private readonly faults = new FaultListeners();
  private readonly stats = new LinkStatsRecorder();
  private readonly life: LinkLifecycle;

  private currentPath: string;
  private conn: Connection | undefined;
  private opening: Connection | undefined;
  private closing: Promise<void> | undefined;
  private identity: RigIdentity | undefined;
  private motion: Motion | undefined;
  private readonly pending = new Set<(error: Error) => void>();
  /** The level the board reports for the LED strip, and the level the session last set (restored after a reconnect). */
  private lightLevel = 0;
  private lightSet = 0;
  private lastMa: number | undefined;
  private lastAnalogAt = 0;
  private lastSilenceCheckAt = 0;

  constructor(private readonly options: FirmataDriverOptions) {
    this.settings = resolveFirmataSettings(options.settings);
    this.timers = timerHostOf(options.clock);
    this.baudRate = options.baudRate ?? FIRMATA_BAUD;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 7000;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 1000;
    this.silenceMs = options.silenceMs ?? 1000;
    this.motionGapMs = options.motionGapMs ?? 500;
    this.currentPath = options.port;
    this.life = new LinkLifecycle(
      {
        open: (path) => this.open(path),
        drop: () => this.drop(),
        lost: (why) => this.lost(why),
        up: (reconnected) => this.up(reconnected),
        path: () => this.currentPath,
        ctx: (command) => this.context(command),
      },
      this.timers,
      options,
    );
  }

  private context(command?: string): RigErrorContext {
    return { port: this.currentPath, driver: 'firmata', ...(command ? { command } : {}) };
  }

  // ---- the link -----------------------------------------------------------------------------

  /** Opens the port, waits for StandardFirmata to report, checks the pins and sets up the components. */
  async connect(): Promise<RigIdentity> {
    await this.life.connect(this.options.port);
    return this.identity as RigIdentity;
  }

  private async open(path: string): Promise<void> {
    let mine: Connection | undefined;
    const conn = await openConnection(
      {
        path,
        openLink: this.options.openLink ?? openSerialPortLink,
        baudRate: this.baudRate,
        connectTimeoutMs: this.connectTimeoutMs,
        replyTimeoutMs: this.replyTimeoutMs,
        timers: this.timers,
        pins: this.pins,
        ctx: (command) => ({ ...this.context(command), port: path }),
      },
      {
        current: (raw) => this.onCurrent(raw),
        analog: () => this.onReport(),
        rebooted: () => {
          if (mine && this.conn === mine) this.rebooted();
        },
        limitClosed: () => {
          if (this.motion) this.stopMotion('limit', 'The limit switch closed during the motion.');
        },
        opened: (c) => {
          mine = this.opening = c;
        },
        linkClosed: (why) => {
          if (mine && this.conn === mine) this.linkLost(why);
        },
        query: (command, send) => this.request(command, send),
        within: (promise, what) => this.withTimeout(promise, what),
      },
    );
    this.opening = undefined;
    if (this.life.state === 'closed') {
      await teardownConnection(conn, this.timers, this.replyTimeoutMs);
      throw this.life.closedError('connect');
    }
    this.conn = conn;
    this.currentPath = path;
    this.lightLevel = 0; // StandardFirmata writes 0 when a pin enters PWM mode
    this.identity = describeFirmata(conn.io, this.settings, path);
  }

  /** Releases the connection, and one still opening (closing must not wait for a board that never answers). */
  private async drop(): Promise<void> {
    const conns = [this.conn, this.opening];
    this.conn = this.opening = undefined;
    for (const conn of conns) if (conn) await teardownConnection(conn, this.timers, this.replyTimeoutMs);
  }

  /** The board stopped answering or the port went away. */
  private linkLost(why: string): void {
    this.life.lose(why);
  }

  /** Called by the lifecycle: void the motion, tell listeners, hold the queries for the reconnect. */
  private lost(why: string): void {
    const message = `The link to the board on ${this.currentPath} was lost: ${why}.`;
    if (this.motion) this.stopMotion('disconnected', `${message} ${unfinishedMotion(this.motion.kind)}`);
    else this.faults.emit({ kind: 'disconnected', message, at: this.timers.now() });
    this.rejectPending(new LinkDropped(message));
  }

  /** StandardFirmata announced its version unasked: it booted again and forgot every pin setting. */
  private rebooted(): void {
    const why = 'the board restarted (StandardFirmata announced its version again) and forgot every pin setting';
    if (this.motion) this.stopMotion('reset', `The board on ${this.currentPath} restarted during the ${this.motion.kind}. ${unfinishedMotion(this.motion.kind)}`);
    this.linkLost(why);
  }

  private up(reconnected: boolean): void {
    if (!reconnected) return;
    this.stats.reconnect();
    // The board forgot the light (StandardFirmata starts with every pin off): put back the session's level.
    if (this.lightSet > 0) void this.setLight(this.lightSet).catch(() => undefined);
  }

  // ---- queries -----------------------------------------------------------------------------

  /**
   * One query to the board once the link is usable (waiting for a reconnect when it is down),
   * sent again if the link drops before the answer; resolves with the connection it was answered on.
   */
  private async query(command: string, send: (conn: Connection, done: () => void) => void): Promise<Connection> {
    for (;;) {
      await this.life.usable(command);
      const conn = this.conn as Connection;
      try {
        await this.request(command, (done) => send(conn, done));
        return conn;
      } catch (error) {
        if (!(error instanceof LinkDropped)) throw error;
      }
    }
  }

  /** One query and its answer, timed; `send` calls `done` when the board has answered. */
  private request(command: string, send: (done: () => void) => void): Promise<void> {
    this.stats.command();
    const start = this.timers.now();
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        timer.cancel();
        this.pending.delete(fail);
        reject(error);
      };
      const timer = this.timers.after(this.replyTimeoutMs, () => {
        this.stats.timeout();
        fail(new RigTimeoutError(`The board on ${this.currentPath} did not answer ${command} within ${this.replyTimeoutMs} ms.`, this.context(command)));
      });
      this.pending.add(fail);
      send(() => {
        if (!this.pending.has(fail)) return;
        timer.cancel();
        this.pending.delete(fail);
        this.stats.roundTrip(this.timers.now() - start);
        resolve();
      });
    });
  }

  private withTimeout(promise: Promise<void>, what: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = this.timers.after(this.replyTimeoutMs, () => {
        this.stats.timeout();
        reject(new RigTimeoutError(`The board on ${this.currentPath} did not send ${what} within ${this.replyTimeoutMs} ms.`, this.context('connect')));
      });
      void promise.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }

  private rejectPending(error: Error): void {
    for (const fail of [...this.pending]) fail(error);
  }

  /** Asks the board for its firmware name and version again. */
  async identify(): Promise<RigIdentity> {
    const conn = await this.query('identify', (c, done) => c.io.queryFirmware(done));
    this.identity = describeFirmata(conn.io, this.settings, this.currentPath);
    return this.identity;
  }

  /** Sets the LED strip's PWM level and resolves with the level the board reports for the pin. */
  async setLight(level: number): Promise<number> {
    // A level out of range is a programming error, as for every driver.
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`light level ${level} is not a whole number from 0 to 255`);
    this.lightSet = level;
    const conn = await this.query('light', (c, done) => {
      c.light?.brightness(level);
      c.io.queryPinState(this.pins.light, done);
    });
    this.lightLevel = this.pinLight(conn);
    return this.lightLevel;
  }

  private pinLight(conn: Connection): number {
    return conn.io.pins[this.pins.light]?.state ?? this.lightLevel;
  }

  async status(): Promise<RigStatus> {
    const conn = await this.query('status', (c, done) => c.io.queryPinState(this.pins.light, done));
    this.lightLevel = this.pinLight(conn);
    return {
      state: this.motion?.kind ?? 'idle',
      light: this.lightLevel,
      limitPressed: conn.limit?.isClosed ?? false,
      homePressed: conn.home?.isClosed ?? false,
      ...(this.lastMa !== undefined ? { motorMilliamps: this.lastMa } : {}),
    };
  }

  linkStats(): LinkStats {
    return this.stats.snapshot();
  }

  onFault(listener: (fault: RigFault) => void): () => void {
    return this.faults.add(listener);
  }

  // ---- motions -----------------------------------------------------------------------------

  /** Flip and back: servo to `flipUs`, hold, to `restUs`, hold, release. */
  tumble(): Promise<MotionResult> {
    return this.runMotion('tumble', async (conn, m) => {
      this.pulse(conn, m, this.settings.flipUs);
      await this.hold(m, this.settings.flipMs);
      this.pulse(conn, m, this.settings.restUs);
      await this.hold(m, this.settings.flipMs);
    });
  }

  /** Servo to rest, then wait up to `homeMs` for the home switch to close. */
  home(): Promise<MotionResult> {
    return this.runMotion('home', async (conn, m) => {
      this.pulse(conn, m, this.settings.restUs);
      const home = conn.home;
      if (home?.isClosed) return;
      await new Promise<void>((resolve) => {
        const onClose = (): void => {
          home?.off('close', onClose);
          timer.cancel();
          m.timers.delete(timer);
          resolve();
        };
        const timer = this.timers.after(this.settings.homeMs, () => {
          home?.off('close', onClose);
          this.stopMotion('home_timeout', `The home switch did not close within ${this.settings.homeMs} ms.`);
        });
        m.timers.add(timer);
        home?.on('close', onClose);
        void m.stopped.catch(() => home?.off('close', onClose));
      });
    });
  }

  private async runMotion(kind: 'tumble' | 'home', body: (conn: Connection, m: Motion) => Promise<void>): Promise<MotionResult> {
    // Not awaited when ready: a second motion asked in the same turn must see the first and be refused.
    if (!this.life.ready) await this.life.usable(kind);
    if (this.motion) {
      throw new RigFaultError(`A ${this.motion.kind} is already running; wait for it to finish.`, 'refused', false, this.context(kind), ErrorCode.busy);
    }
    const conn = this.conn as Connection;
    let stop!: (error: RigFaultError) => void;
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    stopped.catch(() => undefined); // raced below; never an unhandled rejection
    const m: Motion = {
      kind,
      startedAt: this.timers.now(),
      peakMa: this.lastMa ?? 0,
      jamSince: undefined,
      aborted: false,
      lastReportAt: this.lastAnalogAt,
      longestGapMs: 0,
      reports: 0,
      onReport: undefined,
      timers: new Set(),
      stop,
      stopped,
    };
    this.motion = m;
    conn.statusLed?.on();
    try {
      // As our firmware: a motion started with the limit switch closed stops at once.
      if (conn.limit?.isClosed) this.stopMotion('limit', 'The limit switch is closed, so the motion stopped as soon as it started.');
      // The servo is attached for each motion (and released after it), so connecting never moves it.
      else conn.io.servoConfig(this.pins.servo, MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US);
      await Promise.race([body(conn, m), stopped]);
      await Promise.race([this.outlived(m), stopped]);
      // Whole milliseconds, as our firmware reports its motions.
      return { durationMs: Math.round(this.timers.now() - m.startedAt), peakMilliamps: m.peakMa };
    } finally {
      m.aborted = true;
      for (const t of m.timers) t.cancel();
      if (this.motion === m) this.motion = undefined;
      releaseMotor(conn, this.pins);
    }
  }

  private pulse(conn: Connection, m: Motion, us: number): void {
    if (!m.aborted) conn.servo?.to(us);
  }

  private hold(m: Motion, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.timers.after(ms, () => {
        m.timers.delete(timer);
        resolve();
      });
      m.timers.add(timer);
    });
  }

  /**
   * Resolves once the board is proven to have outlived the motion: two A0 reports after its end (the first
   * may have left just before a reset), with no gap over `motionGapMs` since the motion began; else stops it.
   */
  private async outlived(m: Motion): Promise<void> {
    const needed = m.reports + 2;
    await new Promise<void>((resolve) => {
      const timer = this.timers.after(this.motionGapMs, () => {
        m.timers.delete(timer);
        resolve();
      });
      m.timers.add(timer);
      m.onReport = () => {
        if (m.reports < needed) return;
        timer.cancel();
        m.timers.delete(timer);
        resolve();
      };
    });
    m.onReport = undefined;
    if (m.reports < needed) this.stopSilentMotion(m, this.timers.now() - m.lastReportAt);
    else if (m.longestGapMs > this.motionGapMs) this.stopSilentMotion(m, m.longestGapMs);
  }

  /** The board said nothing for `gapMs` during the motion: nothing proves the motion ran to its end. */
  private stopSilentMotion(m: Motion, gapMs: number): void {
    this.stopMotion(
      'disconnected',
      `The board on ${this.currentPath} sent no report for ${Math.round(gapMs)} ms during the ${m.kind} (StandardFirmata reports the motor current ` +
        `every ~19 ms): it reset, stalled or was unplugged, or this computer was too busy to listen, so nothing proves the ${m.kind} ran to its end. ` +
        unfinishedMotion(m.kind),
    );
  }

  /** A real A0 report arrived: the heartbeat, and the proof that the board is alive through a motion. */
  private onReport(): void {
    const now = this.timers.now();
    this.lastAnalogAt = now;
    this.lastSilenceCheckAt = now;
    const m = this.motion;
    if (!m || m.aborted) return;
    m.longestGapMs = Math.max(m.longestGapMs, now - m.lastReportAt);
    m.lastReportAt = now;
    m.reports++;
    m.onReport?.();
  }

  /** Stops the running motion with a fault: the servo is released, the motion rejects, listeners hear of it. */
  private stopMotion(kind: FaultKind, message: string): void {
    const m = this.motion;
    if (!m || m.aborted) return;
    m.aborted = true;
    for (const t of m.timers) t.cancel();
    if (this.conn) releaseMotor(this.conn, this.pins);
    const code = kind in ErrorCode ? ErrorCode[kind as keyof typeof ErrorCode] : undefined;
    m.stop(new RigFaultError(message, kind, true, this.context(m.kind), code));
    this.faults.emit({ kind, message, at: this.timers.now(), command: m.kind });
  }

  /** Every A0 report the Sensor passes on (a median of the samples in its 20 ms window). */
  private onCurrent(raw: number): void {
    const now = this.timers.now();
    this.lastMa = currentSenseMilliamps(raw);
    // A host that stalled (a long GC, a busy machine) must not mistake its own pause for the board's silence.
    const gap = now - this.lastSilenceCheckAt;
    this.lastSilenceCheckAt = now;
    if (gap < this.silenceMs / 2 && now - this.lastAnalogAt > this.silenceMs) {
      this.linkLost(`the board sent nothing for ${this.silenceMs} ms: it was unplugged, reset or hung`);
      return;
    }
    const m = this.motion;
    if (!m || m.aborted) return;
    // Not waiting for the motion's end: a board silent this long in mid-motion has reset or stalled.
    if (now - m.lastReportAt > this.motionGapMs) {
      this.stopSilentMotion(m, now - m.lastReportAt);
      return;
    }
    if (this.lastMa > m.peakMa) m.peakMa = this.lastMa;
    if (this.settings.jamMa > 0 && this.lastMa >= this.settings.jamMa) {
      m.jamSince ??= now;
      if (now - m.jamSince >= this.settings.jamMs) {
        this.stopMotion(
          'jam',
          `The motor current stayed at or above ${this.settings.jamMa} mA for ${this.settings.jamMs} ms: the tumbler is jammed or stalled.`,
        );
      }
    } else {
      m.jamSince = undefined;
    }
  }

  // ---- close -------------------------------------------------------------------------------

  /** Releases the servo, every johnny-five timer and listener, and the port. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.motion) this.stopMotion('stopped', 'The driver was closed during the motion.');
      this.life.close();
      this.rejectPending(this.life.closedError('close'));
      await this.drop();
      this.faults.clear();
      await this.options.onClosed?.();
    })();
    return this.closing;
  }
}
