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
 * reset or hung, and is announced as a `disconnected` fault; `connect` may then be called again.
 *
 * Time: motion holds, the home timeout, jam timing and link timeouts run on the injected clock
 * (`clock`, wall clock by default), through cancellable timers so `close` leaves nothing behind.
 */
import { SerialPort } from 'serialport';
import type { Clock } from '../../core/clock.js';
import type { DriverKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus, FaultKind } from '../driver.js';
import { RigConnectError, RigError, RigFaultError, RigTimeoutError, type RigErrorContext } from '../errors.js';
import { FaultListeners } from '../faultListeners.js';
import { LinkStatsRecorder } from '../linkStats.js';
import { ErrorCode } from '../protocol/errorCodes.js';
import { CURRENT_SENSE_MV_PER_AMP } from '../protocol/pinMap.js';
import { clockTimers, systemTimers, type TimerHandle, type TimerHost } from '../timers.js';
import { firmataPins, type FirmataPins } from './firmataPins.js';
import {
  MAX_SERVO_PULSE_US,
  MIN_SERVO_PULSE_US,
  firmataConfigHash,
  resolveFirmataSettings,
  type FirmataRigSettings,
} from './firmataSettings.js';
import {
  loadFirmataIo,
  loadJohnnyFive,
  type FirmataIo,
  type J5Board,
  type J5Led,
  type J5Sensor,
  type J5Servo,
  type J5ServoController,
  type J5Switch,
} from './johnnyFive.js';

export interface FirmataDriverOptions {
  /** Serial port of the board running StandardFirmata, e.g. /dev/ttyACM0. */
  readonly port: string;
  /** Tumble timings, jam threshold and rig name; defaults are our firmware's. */
  readonly settings?: Partial<FirmataRigSettings>;
  /** Time for motions and timeouts: a Clock, or cancellable timers. Default: the wall clock. */
  readonly clock?: Clock | TimerHost;
  /** StandardFirmata's line speed. Default 57600. */
  readonly baudRate?: number;
  /** Longest wait from opening the port to a ready board. Default 7000 ms (StandardFirmata blinks ~2 s first). */
  readonly connectTimeoutMs?: number;
  /** Longest wait for the answer to one query. Default 1000 ms. */
  readonly replyTimeoutMs?: number;
  /** No analog report for this long means the link is lost. Default 1000 ms. */
  readonly silenceMs?: number;
  /** Called once by `close` after the port is closed (e.g. to stop the emulated board it runs on). */
  readonly onClosed?: () => Promise<void>;
}

/** StandardFirmata's line speed. */
export const FIRMATA_BAUD = 57600;

type Phase = 'new' | 'connecting' | 'ready' | 'lost' | 'closed';

/** The johnny-five objects of one connection, released together. */
interface Connection {
  readonly serial: SerialPort;
  readonly io: FirmataIo;
  board?: J5Board;
  servo?: J5Servo;
  light?: J5Led;
  statusLed?: J5Led;
  limit?: J5Switch;
  home?: J5Switch;
  current?: J5Sensor;
  readonly detach: (() => void)[];
}

/** A motion in progress: its fault promise rejects when a fault stops it. */
interface Motion {
  readonly kind: 'tumble' | 'home';
  readonly startedAt: number;
  peakMa: number;
  jamSince: number | undefined;
  aborted: boolean;
  readonly timers: Set<TimerHandle>;
  readonly stop: (error: RigFaultError) => void;
  readonly stopped: Promise<never>;
}

const ignore = (): void => undefined;

function isTimerHost(c: Clock | TimerHost): c is TimerHost {
  return typeof (c as TimerHost).after === 'function';
}

/** Millivolts at the ADC to motor milliamperes, with the integer steps our firmware uses. */
export function currentSenseMilliamps(raw: number, adcMax = 1023): number {
  const mv = Math.floor((raw * 5000) / adcMax);
  return Math.floor((mv * 1000) / CURRENT_SENSE_MV_PER_AMP);
}

/** The likely cause of a failure to open a serial port, as advice. */
function openAdvice(message: string): string {
  if (/ENOENT|No such file|cannot find/i.test(message)) return 'Is the board plugged in? "dicerig rig list" shows the serial ports.';
  if (/EACCES|Permission denied/i.test(message)) return 'You may not use this port: on Linux, add your user to the "dialout" group and log in again.';
  if (/EBUSY|lock|busy/i.test(message)) return 'Another program (a serial monitor, the Arduino IDE) has the port open: close it.';
  return 'Check the port name ("dicerig rig list") and the cable.';
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
  private readonly faults = new FaultListeners();
  private readonly stats = new LinkStatsRecorder();

  private phase: Phase = 'new';
  private conn: Connection | undefined;
  private connecting: Promise<RigIdentity> | undefined;
  private closing: Promise<void> | undefined;
  private identity: RigIdentity | undefined;
  private motion: Motion | undefined;
  private readonly pending = new Set<(error: Error) => void>();
  private lightLevel = 0;
  private lastMa: number | undefined;
  private lastAnalogAt = 0;
  private lastSilenceCheckAt = 0;
  private lostTeardown: Promise<void> | undefined;

  constructor(private readonly options: FirmataDriverOptions) {
    this.settings = resolveFirmataSettings(options.settings);
    this.timers = options.clock === undefined ? systemTimers : isTimerHost(options.clock) ? options.clock : clockTimers(options.clock);
    this.baudRate = options.baudRate ?? FIRMATA_BAUD;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 7000;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 1000;
    this.silenceMs = options.silenceMs ?? 1000;
  }

  /** Whether close() has been called; a method, so a check after an await is not narrowed away. */
  private isClosed(): boolean {
    return this.phase === 'closed';
  }

  private context(command?: string): RigErrorContext {
    return { port: this.options.port, driver: 'firmata', ...(command ? { command } : {}) };
  }

  // ---- connect -----------------------------------------------------------------------------

  /** Opens the port, waits for StandardFirmata to report, checks the pins and sets up the components. */
  connect(): Promise<RigIdentity> {
    if (this.phase === 'closed') return Promise.reject(new RigError('This Firmata driver is closed; create a new one.', this.context('connect')));
    if (this.phase === 'ready' && this.identity) return Promise.resolve(this.identity);
    if (this.connecting) return this.connecting;
    const reconnect = this.phase === 'lost';
    this.phase = 'connecting';
    this.connecting = this.open().then(
      (identity) => {
        this.connecting = undefined;
        if (reconnect) this.stats.reconnect();
        return identity;
      },
      (error: unknown) => {
        this.connecting = undefined;
        if (this.phase === 'connecting') this.phase = 'lost';
        throw error;
      },
    );
    return this.connecting;
  }

  private async open(): Promise<RigIdentity> {
    const path = this.options.port;
    await this.lostTeardown;
    this.lostTeardown = undefined;
    if (this.isClosed()) throw new RigError(`The Firmata driver for ${path} was closed while connecting.`, this.context('connect'));
    const Firmata = loadFirmataIo();
    const serial = new SerialPort({ path, baudRate: this.baudRate, autoOpen: false });
    // firmata-io asks for the version itself if the board does not announce it (no reset on open).
    const io = new Firmata(serial, { reportVersionTimeout: Math.min(3000, Math.floor(this.connectTimeoutMs / 2)) });
    const conn: Connection = { serial, io, detach: [] };
    this.conn = conn;
    // Port errors surface through open, close and the heartbeat; an 'error' event nobody listens to would throw.
    io.on('error', ignore);

    try {
      await new Promise<void>((resolve, reject) => {
        serial.open((error) => {
          if (!error) resolve();
          else reject(new RigConnectError(`Could not open the serial port ${path}: ${error.message}. ${openAdvice(error.message)}`, this.context('connect'), { cause: error }));
        });
      });
      await this.waitForFirmata(conn);
      this.checkCapabilities(io);
      await this.setUpComponents(conn);
    } catch (error) {
      await this.teardown(conn);
      if (this.isClosed()) throw new RigError(`The Firmata driver for ${path} was closed while connecting.`, this.context('connect'));
      throw error;
    }
    if (this.isClosed()) {
      await this.teardown(conn);
      throw new RigError(`The Firmata driver for ${path} was closed while connecting.`, this.context('connect'));
    }
    this.lightLevel = 0; // StandardFirmata writes 0 when a pin enters PWM mode
    this.identity = this.describe(io);
    this.phase = 'ready';
    return this.identity;
  }

  /** Resolves when firmata-io has the version, firmware name and pin capabilities. */
  private waitForFirmata(conn: Connection): Promise<void> {
    const { io, serial } = conn;
    const path = this.options.port;
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        timer.cancel();
        io.off('ready', onReady);
        serial.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onReady = (): void => done();
      const onClose = (): void => done(new RigConnectError(`The serial port ${path} closed while waiting for StandardFirmata to answer.`, this.context('connect')));
      const timer = this.timers.after(this.connectTimeoutMs, () =>
        done(
          new RigConnectError(
            `The board on ${path} did not answer as a Firmata board within ${this.connectTimeoutMs} ms. ` +
              'Most likely it is not running StandardFirmata: flash it (Arduino IDE: File > Examples > Firmata > StandardFirmata), ' +
              `or use the serial driver if it runs dicerig's own firmware. Also check that the board talks at ${this.baudRate} baud.`,
            this.context('connect'),
          ),
        ),
      );
      io.once('ready', onReady);
      serial.once('close', onClose);
    });
  }

  /** Fails naming the pin when the firmware lacks a mode the rig needs (e.g. a Firmata build without Servo). */
  private checkCapabilities(io: FirmataIo): void {
    const need = (pin: number, mode: number, what: string): void => {
      if (!io.pins[pin]?.supportedModes.includes(mode)) {
        const name = io.firmware.name ?? 'the firmware';
        throw new RigConnectError(
          `${name} on ${this.options.port} does not offer ${what} on D${pin}, which the rig needs: flash StandardFirmata.`,
          this.context('connect'),
        );
      }
    };
    need(this.pins.servo, io.MODES.SERVO, 'servo output');
    need(this.pins.light, io.MODES.PWM, 'PWM output');
    need(this.pins.limitSwitch, io.MODES.INPUT, 'digital input');
    need(this.pins.homeSwitch, io.MODES.INPUT, 'digital input');
    need(this.pins.statusLed, io.MODES.OUTPUT, 'digital output');
    const channel = Number(this.pins.motorCurrent.slice(1));
    if (io.analogPins[channel] === undefined) {
      throw new RigConnectError(`The board on ${this.options.port} has no analog input ${this.pins.motorCurrent} for the motor current.`, this.context('connect'));
    }
  }

  private async setUpComponents(conn: Connection): Promise<void> {
    const five = loadJohnnyFive();
    const { io, serial } = conn;
    // johnny-five's defaults suit a script, not a library: no REPL, no console logging, no SIGINT handler that exits the process.
    const board = new five.Board({ io, repl: false, debug: false, sigint: false });
    conn.board = board;
    board.on('error', ignore); // johnny-five re-emits the io's errors on the board
    if (!board.isReady) await new Promise<void>((resolve) => board.once('ready', () => resolve()));

    conn.light = new five.Led({ pin: this.pins.light, board });
    conn.statusLed = new five.Led({ pin: this.pins.statusLed, board });
    conn.limit = new five.Switch({ pin: this.pins.limitSwitch, board, type: 'NO' });
    conn.home = new five.Switch({ pin: this.pins.homeSwitch, board, type: 'NO' });
    conn.current = new five.Sensor({ pin: this.pins.motorCurrent, board, freq: 20 });
    conn.servo = new five.Servo({
      pin: this.pins.servo,
      board,
      controller: pulseController,
      // The component's "degrees" are microseconds: the rig is configured in pulse widths, as our firmware is.
      range: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
      degreeRange: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
      pwmRange: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
    });

    const channel = Number(this.pins.motorCurrent.slice(1));
    const firstAnalog = new Promise<void>((resolve) => io.once(`analog-read-${channel}`, () => resolve()));
    const onAnalog = (): void => {
      this.lastAnalogAt = this.timers.now();
    };
    io.on(`analog-read-${channel}`, onAnalog);
    conn.detach.push(() => io.off(`analog-read-${channel}`, onAnalog));

    const current = conn.current;
    const onCurrent = (raw: number): void => this.onCurrent(raw);
    current.on('data', onCurrent);
    conn.detach.push(() => current.off('data', onCurrent));

    const limit = conn.limit;
    const onLimit = (): void => {
      if (this.motion) this.stopMotion('limit', 'The limit switch closed during the motion.');
    };
    limit.on('close', onLimit);
    conn.detach.push(() => limit.off('close', onLimit));

    const onSerialClose = (): void => this.linkLost(`The serial port ${this.options.port} closed: the board was unplugged or the port went away.`);
    serial.on('close', onSerialClose);
    conn.detach.push(() => serial.off('close', onSerialClose));

    // StandardFirmata reports a digital port as soon as its reporting is switched on, before it answers
    // the next query: after one round trip both switches are known. The first A0 report follows within
    // one sampling interval.
    await this.request('identify', (done) => io.queryFirmware(done), false);
    await this.withTimeout(firstAnalog, 'the first motor-current report');
    this.lastAnalogAt = this.timers.now();
    this.lastSilenceCheckAt = this.lastAnalogAt;
  }

  private describe(io: FirmataIo): RigIdentity {
    const name = (io.firmware.name ?? 'Firmata').replace(/\.ino$/i, '');
    const v = io.firmware.version;
    return {
      driver: 'firmata',
      firmware: v ? `${name} ${v.major}.${v.minor}` : name,
      // Firmata's protocol major version (2 for every current Firmata).
      protocol: io.version.major ?? 0,
      rigId: this.settings.rig,
      configHash: firmataConfigHash(this.settings),
      tumbler: 'servo',
      port: this.options.port,
    };
  }

  // ---- queries -----------------------------------------------------------------------------

  private ready(command: string): Connection {
    if (this.phase === 'ready' && this.conn) return this.conn;
    if (this.phase === 'closed') throw new RigError(`The Firmata driver for ${this.options.port} is closed.`, this.context(command));
    if (this.phase === 'lost') {
      throw new RigConnectError(`The link to the board on ${this.options.port} was lost; connect again.`, this.context(command));
    }
    throw new RigError(`The Firmata driver for ${this.options.port} is not connected: call connect() first.`, this.context(command));
  }

  /** One query and its answer, timed; `send` calls `done` when the board has answered. */
  private request(command: string, send: (done: () => void) => void, requireReady = true): Promise<void> {
    if (requireReady) this.ready(command);
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
        fail(new RigTimeoutError(`The board on ${this.options.port} did not answer ${command} within ${this.replyTimeoutMs} ms.`, this.context(command)));
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
        reject(new RigTimeoutError(`The board on ${this.options.port} did not send ${what} within ${this.replyTimeoutMs} ms.`, this.context('connect')));
      });
      void promise.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }

  /** Asks the board for its firmware name and version again. */
  async identify(): Promise<RigIdentity> {
    const conn = this.ready('identify');
    await this.request('identify', (done) => conn.io.queryFirmware(done));
    this.identity = this.describe(conn.io);
    return this.identity;
  }

  /** Sets the LED strip's PWM level and resolves with the level the board reports for the pin. */
  async setLight(level: number): Promise<number> {
    // A level out of range is a programming error, as for every driver.
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`light level ${level} is not a whole number from 0 to 255`);
    const conn = this.ready('light');
    conn.light?.brightness(level);
    this.lightLevel = await this.readLight(conn, 'light');
    return this.lightLevel;
  }

  private async readLight(conn: Connection, command: string): Promise<number> {
    await this.request(command, (done) => conn.io.queryPinState(this.pins.light, done));
    return conn.io.pins[this.pins.light]?.state ?? this.lightLevel;
  }

  async status(): Promise<RigStatus> {
    const conn = this.ready('status');
    this.lightLevel = await this.readLight(conn, 'status');
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
    const conn = this.ready(kind);
    if (this.motion) {
      throw new RigFaultError(`A ${this.motion.kind} is already running; wait for it to finish.`, 'refused', false, this.context(kind), ErrorCode.busy);
    }
    let stop!: (error: RigFaultError) => void;
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    stopped.catch(() => undefined); // raced below; never an unhandled rejection
    const m: Motion = { kind, startedAt: this.timers.now(), peakMa: this.lastMa ?? 0, jamSince: undefined, aborted: false, timers: new Set(), stop, stopped };
    this.motion = m;
    conn.statusLed?.on();
    try {
      // As our firmware: a motion started with the limit switch closed stops at once.
      if (conn.limit?.isClosed) this.stopMotion('limit', 'The limit switch is closed, so the motion stopped as soon as it started.');
      // The servo is attached for each motion (and released after it), so connecting never moves it.
      else conn.io.servoConfig(this.pins.servo, MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US);
      await Promise.race([body(conn, m), stopped]);
      // Whole milliseconds, as our firmware reports its motions.
      return { durationMs: Math.round(this.timers.now() - m.startedAt), peakMilliamps: m.peakMa };
    } finally {
      m.aborted = true;
      for (const t of m.timers) t.cancel();
      if (this.motion === m) this.motion = undefined;
      this.releaseMotor(conn);
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

  /** Servo pulses off and the status LED dark; safe on a closing port. */
  private releaseMotor(conn: Connection): void {
    if (!conn.serial.isOpen) return;
    // Leaving servo mode detaches the servo in StandardFirmata and drives the pin low.
    conn.io.pinMode(this.pins.servo, conn.io.MODES.OUTPUT);
    conn.statusLed?.off();
  }

  /** Stops the running motion with a fault: the servo is released, the motion rejects, listeners hear of it. */
  private stopMotion(kind: FaultKind, message: string): void {
    const m = this.motion;
    if (!m || m.aborted) return;
    m.aborted = true;
    for (const t of m.timers) t.cancel();
    if (this.conn) this.releaseMotor(this.conn);
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
      this.linkLost(`The board on ${this.options.port} sent nothing for ${this.silenceMs} ms: it was unplugged, reset or hung.`);
      return;
    }
    const m = this.motion;
    if (!m || m.aborted) return;
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

  /** The board stopped answering or the port went away: fail what is running, release the connection. */
  private linkLost(message: string): void {
    if (this.phase !== 'ready') return;
    this.phase = 'lost';
    const conn = this.conn;
    if (this.motion) this.stopMotion('disconnected', message);
    else this.faults.emit({ kind: 'disconnected', message, at: this.timers.now() });
    this.rejectPending(new RigConnectError(message, this.context()));
    // connect() waits for this: the port must be unlocked before it can be opened again.
    if (conn) this.lostTeardown = this.teardown(conn);
  }

  private rejectPending(error: Error): void {
    for (const fail of [...this.pending]) fail(error);
  }

  // ---- close -------------------------------------------------------------------------------

  /** Releases the servo, every johnny-five timer and listener, and the port. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const wasReady = this.phase === 'ready';
      if (this.motion) this.stopMotion('stopped', 'The driver was closed during the motion.');
      this.phase = 'closed';
      this.rejectPending(new RigError(`The Firmata driver for ${this.options.port} was closed.`, this.context()));
      const conn = this.conn;
      if (conn) {
        if (wasReady) this.releaseMotor(conn);
        await this.teardown(conn);
      }
      await this.connecting?.catch(() => undefined);
      await this.lostTeardown;
      this.faults.clear();
      await this.options.onClosed?.();
    })();
    return this.closing;
  }

  /** Stops every johnny-five timer, forgets the board and closes the port (after the last writes are out). */
  private async teardown(conn: Connection): Promise<void> {
    if (this.conn === conn) this.conn = undefined;
    for (const off of conn.detach.splice(0)) off();
    conn.current?.disable();
    conn.servo?.stop();
    conn.light?.stop();
    conn.statusLed?.stop();
    clearTimeout(conn.io.reportVersionTimeoutId);
    const five = conn.board ? loadJohnnyFive() : undefined;
    if (five && conn.board) {
      // johnny-five keeps every board in a module-level cache; a closed one must not stay reachable.
      const i = five.Board.cache.indexOf(conn.board);
      if (i >= 0) five.Board.cache.splice(i, 1);
    }
    const serial = conn.serial;
    if (serial.isOpen) {
      await this.settle((done) => serial.drain(() => done()));
      await this.settle((done) => serial.close(() => done()));
    }
  }

  /** Waits for a port callback, but never longer than a reply timeout (a dead port must not hang close). */
  private settle(start: (done: () => void) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.timers.after(this.replyTimeoutMs, resolve);
      start(() => {
        timer.cancel();
        resolve();
      });
    });
  }
}

/**
 * The Servo's controller: the "degrees" johnny-five hands it are pulse widths in µs, written as they
 * are. Unlike johnny-five's standard controller it writes a position equal to the last one, which a
 * servo re-attached for a new motion needs; and it does not attach the servo when created.
 */
const pulseController: J5ServoController = {
  initialize: { value: () => undefined },
  update: {
    writable: true,
    value(this: J5Servo, us: number) {
      this.io.servoWrite(Number(this.pin), Math.round(us));
    },
  },
};
