/**
 * Typed access to the parts of johnny-five and firmata-io this driver uses. Neither package ships
 * type declarations, so the shapes below are what their sources (johnny-five 2.1.0, firmata-io 2.3.0)
 * do, limited to what we call; the modules are loaded on first use so the other drivers never pay
 * for them.
 */
import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';

/** The port object firmata-io reads and writes (a serialport@13 `SerialPort` satisfies it). */
export interface FirmataTransport extends EventEmitter {
  write(data: Buffer, callback?: (error?: Error | null) => void): unknown;
}

export interface FirmataPinState {
  supportedModes: number[];
  mode?: number;
  value?: number;
  /** Set by a pin-state query: for an output, the value last written to it. */
  state?: number;
  analogChannel: number;
}

/** A firmata-io board: the Firmata protocol over one transport. */
export interface FirmataIo extends EventEmitter {
  readonly isReady: boolean;
  readonly MODES: { readonly INPUT: number; readonly OUTPUT: number; readonly ANALOG: number; readonly PWM: number; readonly SERVO: number };
  readonly pins: FirmataPinState[];
  readonly analogPins: number[];
  /** The protocol version from REPORT_VERSION. */
  readonly version: { major?: number; minor?: number };
  /** The firmware name and version from QUERY_FIRMWARE. */
  readonly firmware: { name?: string; version?: { major: number; minor: number } };
  /** The timer firmata-io arms to ask for the version when the board does not announce it. */
  reportVersionTimeoutId?: ReturnType<typeof setTimeout>;
  queryFirmware(callback: () => void): void;
  queryPinState(pin: number, callback: () => void): void;
  servoConfig(pin: number, min: number, max: number): void;
  /** Below 544 StandardFirmata reads an angle in degrees, from 544 on a pulse width in µs. */
  servoWrite(pin: number, value: number): void;
  pinMode(pin: number, mode: number): void;
}

export interface FirmataIoOptions {
  /** How long firmata-io waits for the board to announce its version before asking for it. */
  reportVersionTimeout?: number;
  samplingInterval?: number;
}

export type FirmataIoClass = new (transport: FirmataTransport, options?: FirmataIoOptions) => FirmataIo;

export interface J5Board extends EventEmitter {
  readonly isReady: boolean;
  readonly io: FirmataIo;
  /** Every component created on this board (johnny-five never forgets one by itself). */
  readonly register: unknown[];
}

export interface J5BoardOptions {
  io: FirmataIo;
  repl: false;
  debug: false;
  sigint: false;
  timeout?: number;
}

export interface J5Component {
  readonly pin: number | string;
}

/** A johnny-five custom controller: property descriptors mixed into the component. */
export interface J5ServoController {
  initialize: { value(this: J5Servo): void };
  update: { writable: true; value(this: J5Servo, degrees: number): void };
}

export interface J5Servo extends J5Component, EventEmitter {
  readonly io: FirmataIo;
  to(degrees: number): J5Servo;
  stop(): J5Servo;
}

export interface J5Led extends J5Component {
  brightness(level: number): J5Led;
  on(): J5Led;
  off(): J5Led;
  stop(): J5Led;
}

export interface J5Switch extends J5Component, EventEmitter {
  readonly isClosed: boolean;
  readonly isOpen: boolean;
}

export interface J5Sensor extends J5Component, EventEmitter {
  /** The last raw reading, or null before the first. */
  readonly raw: number | null;
  disable(): J5Sensor;
}

export interface JohnnyFive {
  Board: (new (options: J5BoardOptions) => J5Board) & { readonly cache: J5Board[] };
  Servo: new (options: {
    pin: number;
    board: J5Board;
    controller: J5ServoController;
    range: [number, number];
    degreeRange: [number, number];
    pwmRange: [number, number];
  }) => J5Servo;
  Led: new (options: { pin: number; board: J5Board }) => J5Led;
  Switch: new (options: { pin: number; board: J5Board; type: 'NO' | 'NC' }) => J5Switch;
  Sensor: new (options: { pin: string; board: J5Board; freq: number }) => J5Sensor;
}

const require = createRequire(import.meta.url);

let five: JohnnyFive | undefined;
let firmataIo: FirmataIoClass | undefined;

/** johnny-five, loaded on first use. */
export function loadJohnnyFive(): JohnnyFive {
  five ??= require('johnny-five') as JohnnyFive;
  return five;
}

/** firmata-io's Firmata class, with no default transport: we always hand it an open-able port. */
export function loadFirmataIo(): FirmataIoClass {
  firmataIo ??= (require('firmata-io') as { Firmata: FirmataIoClass }).Firmata;
  return firmataIo;
}
