import { systemClock, type Clock } from '../../core/clock.js';
import { seededRandom, type RandomSource } from '../../stats/random.js';
import type { FaultKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus } from '../driver.js';
import { RigError, RigFaultError, type RigErrorContext } from '../errors.js';
import { FaultListeners } from '../faultListeners.js';
import { LinkStatsRecorder } from '../linkStats.js';
import { crcField } from '../protocol/crc16.js';
import { ErrorCode } from '../protocol/errorCodes.js';
import { PROTOCOL_VERSION } from '../protocol/pinMap.js';
import { unfinishedMotion } from '../unfinishedMotion.js';
import { DEFAULT_SIMULATED_TIMING, planHome, planTumble, type SimulatedTiming, type TumblePlan } from './timingModel.js';

/** Random faults per tumble (probabilities; default all 0). */
export interface SimulatedFaults {
  /** The tumbler jams part-way: the motion stops with `jam`. */
  readonly jamRate: number;
  /** The board resets part-way (brown-out, watchdog): the motion stops with `reset`, the light goes off. */
  readonly resetRate: number;
  /** The USB link drops part-way: the motion stops with `disconnected`; the link is back after `relinkMs`. */
  readonly dropLinkRate: number;
  /** How long a dropped link stays down. Default 1500 ms. */
  readonly relinkMs: number;
}

export const NO_FAULTS: SimulatedFaults = { jamRate: 0, resetRate: 0, dropLinkRate: 0, relinkMs: 1500 };

export interface SimulatedRigOptions {
  /** Default: the wall clock. A `SimulatedClock` runs thousands of throws in seconds. */
  readonly clock?: Clock;
  /** Default: `seededRandom(seed)`. */
  readonly random?: RandomSource;
  /** Seed for the default random source. Default 1. */
  readonly seed?: number;
  readonly rigId?: string;
  readonly tumbler?: 'servo' | 'stepper';
  readonly timing?: Partial<SimulatedTiming>;
  readonly faults?: Partial<SimulatedFaults>;
}

/** A tumble's result from the simulated rig: also when the dice come to rest, for a simulated camera. */
export interface SimulatedMotionResult extends MotionResult {
  /** Milliseconds after the motion ended until the dice are still. */
  readonly settleMs: number;
}

/** Motion stops the simulation can produce, with the firmware's error code where it has one. */
const FAULT_CODES: Partial<Record<FaultKind, number>> = {
  jam: ErrorCode.jam,
  limit: ErrorCode.limit,
  deadman: ErrorCode.deadman,
  home_timeout: ErrorCode.home_timeout,
  stopped: ErrorCode.stopped,
};

/** Longest single sleep inside a motion, so an injected fault or a close ends it promptly on the wall clock. */
const SLEEP_SLICE_MS = 50;

/**
 * An in-process rig: no serial port, no board. Motions take the time the timing
 * model draws on the injected clock, faults strike at the configured rates (or
 * when a test calls `injectFault`), and everything it reports is marked
 * simulated so its rolls can never mix with real fairness data.
 */
export class SimulatedRig implements RigDriver {
  readonly kind = 'simulated' as const;
  readonly isSimulated = true;

  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly timing: SimulatedTiming;
  private readonly faultRates: SimulatedFaults;
  private readonly stats = new LinkStatsRecorder();
  private readonly faults = new FaultListeners();
  private readonly ident: RigIdentity;

  private connected = false;
  private closed = false;
  private seq = 0;
  private light = 0;
  private state: RigStatus['state'] = 'idle';
  private bootAt: number;
  private linkDownUntil: number | undefined;
  private armed: FaultKind | undefined;
  private interrupt: FaultKind | undefined;
  private motionTail: Promise<unknown> = Promise.resolve();
  private lastTumble: TumblePlan | undefined;

  constructor(options: SimulatedRigOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? seededRandom(options.seed ?? 1);
    this.timing = { ...DEFAULT_SIMULATED_TIMING, ...options.timing };
    this.faultRates = { ...NO_FAULTS, ...options.faults };
    const rigId = options.rigId ?? 'sim-01';
    const tumbler = options.tumbler ?? 'servo';
    const t = this.timing;
    this.ident = {
      driver: 'simulated',
      firmware: 'simulated',
      protocol: PROTOCOL_VERSION,
      rigId,
      configHash: crcField(`simulated tumbler=${tumbler} flip_ms=${t.flipMs} rig=${rigId}`),
      tumbler,
    };
    this.bootAt = this.clock.now();
  }

  async connect(): Promise<RigIdentity> {
    if (this.closed) throw this.closedError('connect');
    if (!this.connected) {
      await this.clock.sleep(this.timing.connectMs);
      if (this.closed) throw this.closedError('connect');
      this.connected = true;
      this.bootAt = this.clock.now();
    }
    return this.ident;
  }

  async identify(): Promise<RigIdentity> {
    await this.command('identify');
    return this.ident;
  }

  tumble(): Promise<SimulatedMotionResult> {
    return this.inMotionLane(async () => {
      await this.ready('tumble');
      const seq = this.nextSeq();
      const plan = planTumble(this.timing, this.random);
      this.lastTumble = plan;
      const r = this.faultRates;
      const drawn: FaultKind | undefined =
        plan.faultDraw < r.jamRate
          ? 'jam'
          : plan.faultDraw < r.jamRate + r.resetRate
            ? 'reset'
            : plan.faultDraw < r.jamRate + r.resetRate + r.dropLinkRate
              ? 'disconnected'
              : undefined;
      const scheduled = this.armed ?? drawn;
      this.armed = undefined;
      const stopAt = scheduled !== undefined ? plan.durationMs * plan.faultAt : plan.durationMs;
      const ran = await this.move('tumble', seq, stopAt, scheduled);
      return { durationMs: Math.round(ran), peakMilliamps: plan.peakMilliamps, settleMs: Math.round(plan.settleMs) };
    });
  }

  home(): Promise<MotionResult> {
    return this.inMotionLane(async () => {
      await this.ready('home');
      const seq = this.nextSeq();
      const ms = planHome(this.timing, this.random);
      const scheduled = this.armed;
      this.armed = undefined;
      const ran = await this.move('home', seq, scheduled !== undefined ? ms / 2 : ms, scheduled);
      return { durationMs: Math.round(ran), peakMilliamps: Math.round(this.timing.peakMeanMa / 2) };
    });
  }

  async setLight(level: number): Promise<number> {
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`light level ${level} is not a whole number from 0 to 255`);
    await this.command('light');
    this.light = level;
    return level;
  }

  async status(): Promise<RigStatus> {
    await this.command('status');
    return {
      state: this.state,
      light: this.light,
      limitPressed: false,
      homePressed: this.state === 'idle',
      motorMilliamps: this.state === 'idle' ? 0 : Math.round(this.timing.peakMeanMa * 0.8),
      uptimeMs: Math.round(this.clock.now() - this.bootAt),
    };
  }

  linkStats(): LinkStats {
    return this.stats.snapshot();
  }

  onFault(listener: (fault: RigFault) => void): () => void {
    return this.faults.add(listener);
  }

  /**
   * Makes a fault strike: the running motion stops now; with none running, the next motion stops
   * part-way. For tests and demos of fault handling.
   */
  injectFault(kind: FaultKind): void {
    if (this.state !== 'idle') this.interrupt = kind;
    else this.armed = kind;
  }

  /** The plan of the last tumble (duration, settle time, peak current), e.g. for a simulated camera. */
  get lastTumblePlan(): TumblePlan | undefined {
    return this.lastTumble;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.connected = false;
    if (this.state !== 'idle') this.interrupt = 'disconnected';
    this.faults.clear();
  }

  // ---- internals ----------------------------------------------------------------------------------

  private ctx(command: string, seq?: number): RigErrorContext {
    return { driver: 'simulated', command, ...(seq !== undefined ? { seq } : {}) };
  }

  private closedError(command: string): RigError {
    return new RigError('The simulated rig is closed.', this.ctx(command));
  }

  private nextSeq(): number {
    this.seq = this.seq >= 65535 ? 1 : this.seq + 1;
    this.stats.command();
    return this.seq;
  }

  private inMotionLane<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.motionTail.then(fn, fn);
    this.motionTail = run.catch(() => undefined);
    return run;
  }

  /** Waits for a dropped link to come back; refuses when not connected. */
  private async ready(command: string): Promise<void> {
    if (this.closed) throw this.closedError(command);
    if (!this.connected) throw new RigError('The simulated rig is not connected: call connect() first.', this.ctx(command));
    if (this.linkDownUntil !== undefined) {
      const wait = this.linkDownUntil - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait);
      this.linkDownUntil = undefined;
      this.stats.reconnect();
      if (this.closed) throw this.closedError(command);
    }
  }

  private async command(verb: string): Promise<void> {
    await this.ready(verb);
    this.nextSeq();
    await this.clock.sleep(this.timing.commandMs);
    this.stats.roundTrip(this.timing.commandMs);
    if (this.closed) throw this.closedError(verb);
  }

  /** Runs a motion for `runMs`, then stops it with `fault` if one was scheduled; returns the time it ran. */
  private async move(verb: 'tumble' | 'home', seq: number, runMs: number, fault: FaultKind | undefined): Promise<number> {
    const start = this.clock.now();
    this.state = verb;
    this.interrupt = undefined;
    try {
      const end = start + runMs;
      // (A sub-microsecond remainder is rounding, not time still to run: sleeping it may not move the clock.)
      for (let left = runMs; left > 1e-6 && this.interrupt === undefined; left = end - this.clock.now()) {
        await this.clock.sleep(Math.min(SLEEP_SLICE_MS, left));
      }
    } finally {
      this.state = 'idle';
    }
    const stop = this.interrupt ?? fault;
    this.interrupt = undefined;
    if (stop === undefined) return this.clock.now() - start;
    throw this.fail(verb, seq, stop);
  }

  private fail(verb: string, seq: number, kind: FaultKind): RigFaultError {
    const what: Record<FaultKind, string> = {
      jam: 'the tumbler jammed (motor current stayed above the jam threshold)',
      limit: 'the limit switch closed',
      deadman: 'the host went silent, so the board stopped the motor',
      home_timeout: 'the home switch did not close in time',
      stopped: 'the motion was stopped',
      reset: 'the board reset',
      disconnected: 'the link to the rig dropped',
    };
    if (kind === 'reset') {
      this.light = 0;
      this.bootAt = this.clock.now();
    }
    if (kind === 'disconnected' && !this.closed) this.linkDownUntil = this.clock.now() + this.faultRates.relinkMs;
    const message = `The simulated ${verb} (seq ${seq}) was stopped: ${what[kind]}. ${unfinishedMotion(verb)}`;
    if (!this.closed) this.faults.emit({ kind, message, at: this.clock.now(), command: verb, seq });
    return new RigFaultError(message, kind, true, this.ctx(verb, seq), FAULT_CODES[kind]);
  }
}
