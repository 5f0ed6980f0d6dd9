/**
 * The one seam between the session and the hardware. Three implementations,
 * chosen by config through named factories: our firmware over serial, stock
 * StandardFirmata through johnny-five, and an in-process simulated rig. Every
 * call is a Promise that settles exactly once; a fault that interrupts a motion
 * rejects that motion with a `RigFaultError` whose `interrupted` is true (the
 * session then voids the throw), and is also announced through `onFault`.
 *
 * ## Lifecycle (every driver; test/rig/contract/driverContract.ts checks it)
 *
 * ```
 *   new ──connect()──> connecting ──> ready ──link lost──> reconnecting ──board back──> ready
 *    ^                     │                                    │
 *    └────── failed ───────┘                          not back within the window
 *                                                               v
 *                        lost ──connect()──> connecting ──> ready (or lost again)
 *   any state ──close()──> closed (for good)
 * ```
 *
 * - **Who reconnects: the driver itself.** When the link is lost (a close event, an unplug noticed by
 *   silence, a board that stops answering), the driver announces a `disconnected` fault and looks
 *   for its board again by itself, every `reconnectPollMs` (250 ms) for `reconnectTimeoutMs` (15 s):
 *   its by-id link, a port with its USB serial number, its old path. It re-identifies the board
 *   (the same rig) and restores the light level the session last set. The session never calls
 *   `connect()` again for this.
 * - **Commands issued meanwhile wait** for the reconnect, then run; if the board does not come back
 *   they reject with a `RigConnectError` saying what to check, and the driver is `lost` (a caller may
 *   `connect()` again by hand). With `reconnect: false` a driver goes straight to `lost`.
 * - **An in-flight motion is never re-run.** A tumble or home that the loss (or a board reset) cut
 *   rejects at once with `RigFaultError` (`disconnected` or `reset`, `interrupted: true`): the session
 *   voids that throw. After the reconnect the next `tumble()` is a new motion.
 * - A failed first `connect()` leaves the driver `new`; `close()` is idempotent and ends any reconnect.
 *
 * The simulated rig follows the same rules on its clock: a dropped link (`dropLinkRate`, or an injected
 * `disconnected`) rejects the motion as interrupted and is back after `relinkMs`, commands waiting for it.
 */
export type DriverKind = 'serial' | 'firmata' | 'simulated';

/** Where a driver's link is in the lifecycle above. */
export type LinkState = 'new' | 'connecting' | 'ready' | 'reconnecting' | 'lost' | 'closed';

export interface RigIdentity {
  readonly driver: DriverKind;
  /** Firmware version, e.g. `0.1.0`, or `StandardFirmata 2.5` for the Firmata driver. */
  readonly firmware: string;
  readonly protocol: number;
  readonly rigId: string;
  /** Hash of the board's configuration, recorded with every session. */
  readonly configHash: string;
  readonly tumbler: 'servo' | 'stepper';
  /** Serial port path, when there is one. */
  readonly port?: string;
}

/** What a finished motion (tumble or home) measured. */
export interface MotionResult {
  readonly durationMs: number;
  /** Highest motor current seen during the motion, where the rig senses it. */
  readonly peakMilliamps?: number;
}

export interface RigStatus {
  readonly state: 'idle' | 'tumble' | 'home';
  readonly light: number;
  readonly limitPressed: boolean;
  readonly homePressed: boolean;
  readonly motorMilliamps?: number;
  readonly uptimeMs?: number;
}

/** Why a motion stopped or the link failed, as announced to `onFault` listeners. */
export type FaultKind = 'jam' | 'limit' | 'deadman' | 'home_timeout' | 'stopped' | 'reset' | 'disconnected';

export interface RigFault {
  readonly kind: FaultKind;
  readonly message: string;
  /** Milliseconds on the driver's clock. */
  readonly at: number;
  /** The command the fault interrupted, if any. */
  readonly command?: string;
  readonly seq?: number;
}

/** Health of the link, printed by `dicerig rig check` and recorded with sessions. */
export interface LinkStats {
  readonly commands: number;
  readonly retransmits: number;
  readonly crcFailures: number;
  readonly timeouts: number;
  readonly reconnects: number;
  /** Round-trip times of recent commands (ms), oldest first; motions excluded. */
  readonly roundTripsMs: readonly number[];
}

export interface RigDriver {
  readonly kind: DriverKind;
  /** True for the in-process simulation: its rolls must never mix with real fairness data. */
  readonly isSimulated: boolean;
  /** Opens the link, waits for the board to be ready, checks versions and configuration. */
  connect(): Promise<RigIdentity>;
  identify(): Promise<RigIdentity>;
  /** One tumble; resolves when the dice have been thrown and the motor is at rest. */
  tumble(): Promise<MotionResult>;
  home(): Promise<MotionResult>;
  /** Sets the light level 0..255 and resolves with the level the board reports. */
  setLight(level: number): Promise<number>;
  status(): Promise<RigStatus>;
  linkStats(): LinkStats;
  /** Subscribes to faults; returns the unsubscribe function. */
  onFault(listener: (fault: RigFault) => void): () => void;
  /** Closes the link and releases every timer, port and child process. Idempotent. */
  close(): Promise<void>;
}
