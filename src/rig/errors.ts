import { DicerigError } from '../core/errors.js';
import type { FaultKind } from './driver.js';

/** Where a rig error happened: which port, which command, which sequence number. */
export interface RigErrorContext {
  readonly port?: string;
  readonly command?: string;
  readonly seq?: number;
  readonly driver?: string;
  readonly [key: string]: string | number | boolean | undefined;
}

/** Any failure talking to the rig; the message names the likely cause and what to do. */
export class RigError extends DicerigError {
  constructor(
    message: string,
    readonly rig: RigErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, { ...rig }, options);
  }
}

/** The board answered a command with an error, or a fault stopped a motion. */
export class RigFaultError extends RigError {
  constructor(
    message: string,
    readonly fault: FaultKind | 'refused',
    /** True when a motion was started and did not finish: the throw must be voided. */
    readonly interrupted: boolean,
    rig: RigErrorContext = {},
    readonly code?: number,
    options?: { cause?: unknown },
  ) {
    super(message, rig, options);
  }
}

/** No reply within the command's timeout, after the allowed retries. */
export class RigTimeoutError extends RigError {}

/** The rig could not be found or opened; the message says what to plug in or flash. */
export class RigConnectError extends RigError {}

/**
 * The port opened, but nothing on it answered as the board should (no banner, no reply): no firmware, the wrong baud
 * rate, another program taking the replies, or, for a board that answered before, a hang or a stalled USB link.
 */
export class RigSilentError extends RigConnectError {}

/** Settings the firmware would refuse, caught on the host before anything was sent: nothing changed on the board. */
export class RigConfigError extends RigError {}

/**
 * The board cannot come back by itself (an emulated board whose process ended): reconnecting stops at once
 * instead of polling a port path that may by now belong to another program.
 */
export class RigGoneError extends RigConnectError {}
