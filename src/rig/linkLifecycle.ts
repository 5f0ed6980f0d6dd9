/**
 * The life of a driver's link to a board on a serial port, the same for every such driver (our
 * firmware, StandardFirmata): connect, lose the board, look for it again, give up, close. The
 * states and who moves between them are the contract in `driver.ts`; this is its one implementation.
 */
import type { LinkState } from './driver.js';
import { RigConnectError, RigError, RigGoneError, RigSilentError, type RigErrorContext } from './errors.js';
import { fingerprintPort, relocatePort, type PortFingerprint, type PortLister } from './serial/portLocator.js';
import type { TimerHandle, TimerHost } from './timers.js';

/** How a driver looks for its board again after losing it; the same defaults for every driver. */
export interface ReconnectOptions {
  /** Whether to look for the board again when the link is lost. Default true. */
  readonly reconnect?: boolean;
  /** How long to keep looking. Default 15000 ms. */
  readonly reconnectTimeoutMs?: number;
  /** Default 250 ms. */
  readonly reconnectPollMs?: number;
  /** Lists ports to find the board again after a replug; default: serialport's list. */
  readonly listPorts?: PortLister;
  /** Where udev keeps stable port links; default /dev/serial/by-id. */
  readonly byIdDir?: string;
}

export const RECONNECT_DEFAULTS = { reconnect: true, reconnectTimeoutMs: 15_000, reconnectPollMs: 250 } as const;

/** What the lifecycle asks of its driver. */
export interface LinkHooks {
  /** Opens the board at `path` and brings it up (handshake, identify, set up pins); throws if it cannot. */
  open(path: string, reconnecting: boolean): Promise<void>;
  /** Closes the link, if there is one; must not throw. */
  drop(): Promise<void>;
  /** The link was lost while ready (it is dropped right after): interrupt the motion, tell listeners, hold what waits. */
  lost(why: string): void;
  /** The link is up (`reconnected`: after a loss): start heartbeats; after a loss also count it and restore the light. */
  up(reconnected: boolean): void;
  /** The port in use now, for messages. */
  path(): string;
  ctx(command: string): RigErrorContext;
}

export class LinkLifecycle {
  private current: LinkState = 'new';
  private failure: Error | undefined;
  private fingerprint: PortFingerprint | undefined;
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private connecting: Promise<void> | undefined;
  private dropping: Promise<void> = Promise.resolve();
  private pollTimer: TimerHandle | undefined;
  private wake: (() => void) | undefined;
  private readonly opts: Required<Omit<ReconnectOptions, 'listPorts' | 'byIdDir'>> & Pick<ReconnectOptions, 'listPorts' | 'byIdDir'>;

  constructor(
    private readonly hooks: LinkHooks,
    private readonly timers: TimerHost,
    options: ReconnectOptions = {},
  ) {
    this.opts = { ...RECONNECT_DEFAULTS, ...options };
  }

  get state(): LinkState {
    return this.current;
  }

  /** Whether commands may go out now. */
  get ready(): boolean {
    return this.current === 'ready';
  }

  closedError(command: string): RigError {
    return new RigError(`The rig driver for ${this.hooks.path()} is closed.`, this.hooks.ctx(command));
  }

  /**
   * Opens the link (from `new`, or by hand from `lost`); concurrent calls share one attempt. While
   * reconnecting it waits for that. A failed first connect leaves the driver `new`, a failed manual
   * reconnect `lost`.
   */
  connect(path: string): Promise<void> {
    switch (this.current) {
      case 'closed':
        return Promise.reject(this.closedError('connect'));
      case 'ready':
        return Promise.resolve();
      case 'reconnecting':
        return this.usable('connect');
      case 'connecting':
        if (this.connecting) return this.connecting;
    }
    const again = this.current === 'lost';
    this.current = 'connecting';
    this.connecting = (async () => {
      await this.dropping;
      try {
        if (this.isClosed()) throw this.closedError('connect');
        await this.hooks.open(again ? (this.fingerprint?.path ?? path) : path, again);
      } catch (e) {
        await this.hooks.drop();
        if (this.current === 'connecting') this.current = again ? 'lost' : 'new';
        throw e;
      }
      if (this.isClosed()) throw this.closedError('connect');
      this.fingerprint = await fingerprintPort(this.hooks.path(), { listPorts: this.opts.listPorts, byIdDir: this.opts.byIdDir });
      if (this.isClosed()) throw this.closedError('connect');
      this.current = 'ready';
      this.failure = undefined;
      this.hooks.up(again);
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Waits until the link is usable: now, after a reconnect, or never (then throws why). */
  async usable(command: string): Promise<void> {
    switch (this.current) {
      case 'ready':
        return;
      case 'reconnecting':
        await new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
        return;
      case 'lost':
        throw this.failure ?? new RigConnectError(`The rig on ${this.hooks.path()} is gone.`, this.hooks.ctx(command));
      case 'closed':
        throw this.closedError(command);
      default:
        throw new RigError(`The rig on ${this.hooks.path()} is not connected: call connect() first.`, this.hooks.ctx(command));
    }
  }

  /**
   * The link is gone (a close event, or the board stopped answering). Returns false when the driver
   * was not ready (while connecting, the handshake's own command fails and reports it).
   */
  lose(why: string): boolean {
    if (this.current !== 'ready') return false;
    this.current = this.opts.reconnect ? 'reconnecting' : 'lost';
    // The driver first (it may still release the motor on a port that is only silent), then the link.
    this.hooks.lost(why);
    this.dropping = this.hooks.drop();
    if (!this.opts.reconnect) {
      this.failure = new RigConnectError(`The link to the rig on ${this.hooks.path()} was lost: ${why}.`, this.hooks.ctx('reconnect'));
      return true;
    }
    const deadline = this.timers.now() + this.opts.reconnectTimeoutMs;
    void this.dropping.then(() => this.reconnectLoop(deadline, why));
    return true;
  }

  /** Closed for good: the reconnect loop ends, and whatever waits for it is refused. */
  close(): void {
    this.current = 'closed';
    this.pollTimer?.cancel();
    this.wake?.(); // the reconnect loop then sees the closed state and ends
    for (const w of this.waiters.splice(0)) w.reject(this.closedError('reconnect'));
  }

  private isClosed(): boolean {
    return this.current === 'closed';
  }

  /** Looks for the board every poll: its by-id link, a port with its USB serial number, its old path. */
  private async reconnectLoop(deadline: number, why: string): Promise<void> {
    let lastError: unknown = new Error('the board did not come back');
    while (this.current === 'reconnecting') {
      const fp = this.fingerprint ?? { path: this.hooks.path() };
      const candidates = await relocatePort(fp, { listPorts: this.opts.listPorts, byIdDir: this.opts.byIdDir }).catch(() => [fp.path]);
      for (const path of candidates) {
        if ((this.current as LinkState) !== 'reconnecting') return;
        try {
          await this.hooks.open(path, true);
          if ((this.current as LinkState) !== 'reconnecting') return;
          this.current = 'ready';
          this.fingerprint = { ...fp, path: fp.byId ?? path };
          for (const w of this.waiters.splice(0)) w.resolve();
          this.hooks.up(true);
          return;
        } catch (e) {
          lastError = e;
          await this.hooks.drop();
          if (e instanceof RigGoneError) break;
        }
      }
      if (lastError instanceof RigGoneError || this.timers.now() >= deadline) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.pollTimer = this.timers.after(this.opts.reconnectPollMs, resolve);
      });
      this.pollTimer = undefined;
      this.wake = undefined;
    }
    if (this.current !== 'reconnecting') return;
    this.current = 'lost';
    this.failure = this.givenUp(why, lastError);
    for (const w of this.waiters.splice(0)) w.reject(this.failure);
  }

  /** Why the board is not back: a port that still opens but says nothing is a hung board, not one without firmware. */
  private givenUp(why: string, last: unknown): RigConnectError {
    const path = this.fingerprint?.path ?? this.hooks.path();
    const within = formatSeconds(this.opts.reconnectTimeoutMs);
    const ctx = this.hooks.ctx('reconnect');
    // The board answered on this port before it went away (the fingerprint is taken once it was up), so a silent
    // port is not missing firmware or a wrong baud rate, whatever a first connect would suspect.
    if (last instanceof RigSilentError && this.fingerprint !== undefined) {
      const holders = last.rig.holders;
      if (typeof holders === 'string') {
        return new RigConnectError(
          `The rig on ${path} stopped answering (${why}), and in ${within} of trying again its port opened but no reply came, while another program has it open ` +
            `and may be taking the board's lines: ${holders}. Close that program; if the board still says nothing, power-cycle it.`,
          ctx,
          { cause: last },
        );
      }
      return new RigConnectError(
        `The rig on ${path} stopped answering (${why}), and in ${within} of trying again its port opens, but the board says nothing: ` +
          "it is hung, or its USB link stalled. Power-cycle it: unplug its USB cable (and its power supply) and plug it back in.",
        ctx,
        { cause: last },
      );
    }
    if (last instanceof RigGoneError) {
      return new RigConnectError(`The rig on ${path} went away (${why}) and cannot come back: ${last.message}`, ctx, { cause: last });
    }
    const lastTry = last instanceof Error ? last.message : String(last);
    return new RigConnectError(
      `The rig on ${path} went away (${why}) and did not come back within ${within} (last try: ${lastTry}). Check the USB cable and the board's power, then connect again.`,
      ctx,
      { cause: last },
    );
  }
}

/** "15 s", or "1.5 s" below ten seconds. */
function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 ? String(Math.round(s * 10) / 10) : String(Math.round(s))} s`;
}
