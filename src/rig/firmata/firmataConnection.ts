/**
 * One connection of the Firmata driver to a board running StandardFirmata: the port (a `SerialLink`
 * at 57600 baud, opened as the serial driver opens its own), firmata-io on it, and the johnny-five
 * components the rig uses. Opening waits for StandardFirmata to report, checks that it offers every
 * pin mode the rig needs and sets up the components; `teardownConnection` releases all of it.
 */
import { EventEmitter } from 'node:events';
import type { RigIdentity } from '../driver.js';
import { RigConnectError, RigSilentError, type RigErrorContext } from '../errors.js';
import { portOpenError } from '../ports.js';
import { findPortHolders, type PortHolder, type PortHolders } from '../serial/portHolders.js';
import type { LinkOpener, SerialLink } from '../serial/serialLink.js';
import type { TimerHost } from '../timers.js';
import type { FirmataPins } from './firmataPins.js';
import { MAX_SERVO_PULSE_US, MIN_SERVO_PULSE_US, firmataConfigHash, type FirmataRigSettings } from './firmataSettings.js';
import {
  loadFirmataIo,
  loadJohnnyFive,
  type FirmataIo,
  type FirmataTransport,
  type J5Board,
  type J5Led,
  type J5Sensor,
  type J5Servo,
  type J5ServoController,
  type J5Switch,
} from './johnnyFive.js';

/** The johnny-five objects of one connection, released together. */
export interface Connection {
  readonly link: SerialLink;
  readonly io: FirmataIo;
  board?: J5Board;
  servo?: J5Servo;
  light?: J5Led;
  statusLed?: J5Led;
  limit?: J5Switch;
  home?: J5Switch;
  current?: J5Sensor;
  readonly detach: (() => void)[];
  /** Set by teardown: an open still waiting for the board gives up. */
  closed: boolean;
  readonly aborted: Promise<never>;
  readonly abort: (error: Error) => void;
}

export interface ConnectionSettings {
  readonly path: string;
  readonly openLink: LinkOpener;
  readonly baudRate: number;
  readonly connectTimeoutMs: number;
  readonly replyTimeoutMs: number;
  readonly timers: TimerHost;
  readonly pins: FirmataPins;
  readonly ctx: (command?: string) => RigErrorContext;
  /** Other programs with the port open (named when the board never answers); default: read from /proc. */
  readonly findPortHolders?: (path: string) => Promise<PortHolders | undefined>;
}

/** What the driver does with what the board reports, and how it times a query. */
export interface ConnectionHooks {
  /** The connection exists (the port is open) and is being brought up: until it is, closing must tear it down. */
  opened(conn: Connection): void;
  /** Every A0 value the Sensor passes on (a median of the samples in its 20 ms window). */
  current(raw: number): void;
  /** A real A0 report arrived (the heartbeat). */
  analog(): void;
  /** StandardFirmata announced its version unasked once the connection was up: it booted again. */
  rebooted(): void;
  limitClosed(): void;
  /** The port closed without being asked to (an unplug). */
  linkClosed(why: string): void;
  /** One query and its answer, timed; `send` calls `done` when the board has answered. */
  query(command: string, send: (done: () => void) => void): Promise<void>;
  /** Waits for `promise` no longer than a reply timeout. */
  within(promise: Promise<void>, what: string): Promise<void>;
}

const ignore = (): void => undefined;

/** firmata-io's transport over a SerialLink; reading starts once firmata-io listens. */
class LinkTransport extends EventEmitter implements FirmataTransport {
  constructor(private readonly link: SerialLink) {
    super();
  }

  start(): void {
    this.link.onData((chunk) => this.emit('data', chunk));
  }

  write(data: Buffer, callback?: (error?: Error | null) => void): boolean {
    this.link.write(data.toString('latin1'));
    callback?.(null);
    return true;
  }
}

/** Opens the port, waits for StandardFirmata to report, checks the pins and sets up the components. */
export async function openConnection(s: ConnectionSettings, hooks: ConnectionHooks): Promise<Connection> {
  let link: SerialLink;
  try {
    link = await s.openLink(s.path, { baudRate: s.baudRate });
  } catch (error) {
    throw portOpenError(s.path, error, s.ctx('connect'));
  }
  const transport = new LinkTransport(link);
  const Firmata = loadFirmataIo();
  // firmata-io asks for the version itself if the board does not announce it (no reset on open).
  const io = new Firmata(transport, { reportVersionTimeout: Math.min(3000, Math.floor(s.connectTimeoutMs / 2)) });
  // Port errors surface through open, close and the heartbeat; an 'error' event nobody listens to would throw.
  io.on('error', ignore);
  let abort!: (error: Error) => void;
  const aborted = new Promise<never>((_, reject) => {
    abort = reject;
  });
  aborted.catch(ignore);
  const conn: Connection = { link, io, detach: [], closed: false, aborted, abort };
  hooks.opened(conn);
  transport.start();
  link.onClose((error) => {
    const why = `the serial port closed${error ? ` (${error.message})` : ''}: the board was unplugged or the port went away`;
    conn.abort(new RigConnectError(`The serial port ${s.path} closed while waiting for StandardFirmata to answer.`, s.ctx('connect')));
    hooks.linkClosed(why);
  });
  try {
    await Promise.race([waitForFirmata(s, io), aborted]);
    checkCapabilities(s, io);
    await Promise.race([setUpComponents(s, conn, hooks), aborted]);
  } catch (error) {
    await teardownConnection(conn, s.timers, s.replyTimeoutMs);
    throw error;
  }
  return conn;
}

/** Resolves when firmata-io has the version, firmware name and pin capabilities. */
function waitForFirmata(s: ConnectionSettings, io: FirmataIo): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      timer.cancel();
      resolve();
    };
    const timer = s.timers.after(s.connectTimeoutMs, () => {
      io.off('ready', onReady);
      void (s.findPortHolders ?? findPortHolders)(s.path)
        .catch(() => undefined)
        .then((found) => reject(noFirmataError(s, found?.holders ?? [])));
    });
    io.once('ready', onReady);
  });
}

/** A board that never answered as Firmata, with the likeliest cause first: a program holding the port, else the firmware. */
function noFirmataError(s: ConnectionSettings, holders: readonly PortHolder[]): RigSilentError {
  const waited = `within ${s.connectTimeoutMs} ms`;
  if (holders.length > 0) {
    const named = holders.map((h) => `pid ${h.pid} (${h.command})`).join(', ');
    return new RigSilentError(
      `The board on ${s.path} did not answer as a Firmata board ${waited}, and another program has the port open, which takes the board's bytes before dicerig can read them: ` +
        `${named}. Close it (or stop it: kill ${holders.map((h) => h.pid).join(' ')}) and try again.`,
      { ...s.ctx('connect'), holders: named },
    );
  }
  return new RigSilentError(
    `The board on ${s.path} did not answer as a Firmata board ${waited}. ` +
      'Most likely it is not running StandardFirmata: flash it (Arduino IDE: File > Examples > Firmata > StandardFirmata), ' +
      `or use --rig serial if it runs dicerig's own firmware. Also check that the board talks at ${s.baudRate} baud ` +
      '(StandardFirmata\'s 57600 unless the sketch was changed: rig.firmata.baud).',
    s.ctx('connect'),
  );
}

/** Fails naming the pin when the firmware lacks a mode the rig needs (e.g. a Firmata build without Servo). */
function checkCapabilities(s: ConnectionSettings, io: FirmataIo): void {
  const need = (pin: number, mode: number, what: string): void => {
    if (!io.pins[pin]?.supportedModes.includes(mode)) {
      const name = io.firmware.name ?? 'the firmware';
      throw new RigConnectError(`${name} on ${s.path} does not offer ${what} on D${pin}, which the rig needs: flash StandardFirmata.`, s.ctx('connect'));
    }
  };
  need(s.pins.servo, io.MODES.SERVO, 'servo output');
  need(s.pins.light, io.MODES.PWM, 'PWM output');
  need(s.pins.limitSwitch, io.MODES.INPUT, 'digital input');
  need(s.pins.homeSwitch, io.MODES.INPUT, 'digital input');
  need(s.pins.statusLed, io.MODES.OUTPUT, 'digital output');
  const channel = Number(s.pins.motorCurrent.slice(1));
  if (io.analogPins[channel] === undefined) {
    throw new RigConnectError(`The board on ${s.path} has no analog input ${s.pins.motorCurrent} for the motor current.`, s.ctx('connect'));
  }
}

async function setUpComponents(s: ConnectionSettings, conn: Connection, hooks: ConnectionHooks): Promise<void> {
  const five = loadJohnnyFive();
  const { io } = conn;
  const { pins } = s;
  // johnny-five's defaults suit a script, not a library: no REPL, no console logging, no SIGINT handler that exits the process.
  const board = new five.Board({ io, repl: false, debug: false, sigint: false });
  conn.board = board;
  board.on('error', ignore); // johnny-five re-emits the io's errors on the board
  if (!board.isReady) await new Promise<void>((resolve) => board.once('ready', () => resolve()));

  conn.light = new five.Led({ pin: pins.light, board });
  conn.statusLed = new five.Led({ pin: pins.statusLed, board });
  conn.limit = new five.Switch({ pin: pins.limitSwitch, board, type: 'NO' });
  conn.home = new five.Switch({ pin: pins.homeSwitch, board, type: 'NO' });
  conn.current = new five.Sensor({ pin: pins.motorCurrent, board, freq: 20 });
  conn.servo = new five.Servo({
    pin: pins.servo,
    board,
    controller: pulseController,
    // The component's "degrees" are microseconds: the rig is configured in pulse widths, as our firmware is.
    range: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
    degreeRange: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
    pwmRange: [MIN_SERVO_PULSE_US, MAX_SERVO_PULSE_US],
  });

  const channel = Number(pins.motorCurrent.slice(1));
  const firstAnalog = new Promise<void>((resolve) => io.once(`analog-read-${channel}`, () => resolve()));
  const onAnalog = (): void => hooks.analog();
  io.on(`analog-read-${channel}`, onAnalog);
  conn.detach.push(() => io.off(`analog-read-${channel}`, onAnalog));

  const current = conn.current;
  const onCurrent = (raw: number): void => hooks.current(raw);
  current.on('data', onCurrent);
  conn.detach.push(() => current.off('data', onCurrent));

  const limit = conn.limit;
  const onLimit = (): void => hooks.limitClosed();
  limit.on('close', onLimit);
  conn.detach.push(() => limit.off('close', onLimit));

  // StandardFirmata reports a digital port as soon as its reporting is switched on, before it answers
  // the next query: after one round trip both switches are known. The first A0 report follows within
  // one sampling interval.
  await hooks.query('identify', (done) => io.queryFirmware(done));
  await hooks.within(firstAnalog, 'the first motor-current report');
  hooks.analog();

  // StandardFirmata sends its version by itself only when it boots; the driver never asks for it again.
  const onVersion = (): void => hooks.rebooted();
  io.on('reportversion', onVersion);
  conn.detach.push(() => io.off('reportversion', onVersion));
}

/** The identity of the board on this connection; the rig id and configuration hash are the host's settings. */
export function describeFirmata(io: FirmataIo, settings: FirmataRigSettings, port: string): RigIdentity {
  const name = (io.firmware.name ?? 'Firmata').replace(/\.ino$/i, '');
  const v = io.firmware.version;
  return {
    driver: 'firmata',
    firmware: v ? `${name} ${v.major}.${v.minor}` : name,
    // Firmata's protocol major version (2 for every current Firmata).
    protocol: io.version.major ?? 0,
    rigId: settings.rig,
    configHash: firmataConfigHash(settings),
    tumbler: 'servo',
    port,
  };
}

/** Servo pulses off and the status LED dark; safe on a closing port. */
export function releaseMotor(conn: Connection, pins: FirmataPins): void {
  if (conn.closed) return;
  // Leaving servo mode detaches the servo in StandardFirmata and drives the pin low.
  conn.io.pinMode(pins.servo, conn.io.MODES.OUTPUT);
  conn.statusLed?.off();
}

/** Stops every johnny-five timer, forgets the board and closes the port (after the last writes are out). */
export async function teardownConnection(conn: Connection, timers: TimerHost, waitMs: number): Promise<void> {
  if (conn.closed) return;
  conn.closed = true;
  conn.abort(new RigConnectError(`The connection to ${conn.link.path} was closed while connecting.`, { port: conn.link.path, driver: 'firmata', command: 'connect' }));
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
  // The link writes at once; a dead port must not hang close, so never wait longer than a reply timeout.
  await new Promise<void>((resolve) => {
    const timer = timers.after(waitMs, resolve);
    void conn.link.close().then(() => {
      timer.cancel();
      resolve();
    });
  });
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
