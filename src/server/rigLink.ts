/**
 * The link to the rig as the server sees it. A driver that loses its board and does not get it back (the serial
 * drivers by default do not look for it) stays `lost`: every command fails at once. Serve runs for hours, so it
 * notes the loss (console, rig health, the pages), refuses to throw while the rig is gone, and connects again by
 * hand before the next roll, or when Start is pressed: a board plugged back in is used again without a restart.
 */
import { DicerigError } from '../core/errors.js';
import type { RigDriver, RigFault } from '../rig/driver.js';
import { RigSilentError } from '../rig/errors.js';

/** What to do about a lost rig, said with every message about it. */
export const RIG_LOST_ADVICE = "check the rig's USB cable and power; serve connects to it again at the next roll, or when Start is pressed on the dashboard";

/** The rig is disconnected and connecting again failed (or was not tried yet): nothing was thrown. */
export class RigDisconnectedError extends DicerigError {
  constructor(
    message: string,
    readonly rigId: string,
  ) {
    super(message, { rig: rigId });
  }
}

export interface RigLinkOptions {
  readonly rig: RigDriver;
  readonly rigId: string;
  readonly now: () => number;
  readonly log: (line: string) => void;
  /** A fault the driver announced (jam, reset, lost link...), for the pages. */
  readonly onFault: (fault: RigFault) => void;
  /** The link went down or came back: the rig's health changed. */
  readonly changed: () => void;
}

export class RigLink {
  private down: { why: string; at: number; lastTry?: string } | undefined;
  private connecting: Promise<void> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly o: RigLinkOptions) {
    this.unsubscribe = o.rig.onFault((f) => {
      o.onFault(f);
      if (f.kind === 'disconnected') this.lost(f.message);
    });
  }

  /** The link is gone (the driver said so, or a command failed for it); told once per loss. */
  lost(why: string): void {
    if (this.down !== undefined) {
      // The driver's later account (why commands now fail) replaces the one about the throw the loss cut.
      this.down.why = why;
      return;
    }
    this.down = { why, at: this.o.now() };
    this.o.log(`Rig ${this.o.rigId} disconnected: ${why} Rolls fail until it is back: ${RIG_LOST_ADVICE}.`);
    this.o.changed();
  }

  /** Why a roll cannot be thrown now (the words its caller gets), or undefined while the link is up. */
  failure(): string | undefined {
    if (this.down === undefined) return undefined;
    const tried = this.down.lastTry !== undefined ? ` Connecting again failed: ${this.down.lastTry}` : '';
    return `rig disconnected: ${this.down.why}${tried} No throw is started while it is gone: ${RIG_LOST_ADVICE}.`;
  }

  /** Connects again when the link is down (one attempt at a time); throws a RigDisconnectedError when the rig is still gone. */
  async ensure(): Promise<void> {
    if (this.down === undefined) return;
    await (this.connecting ??= this.reconnect().finally(() => (this.connecting = undefined)));
  }

  /** The rig's health while the link is down (merged over the fairness run's own). */
  health(): Record<string, unknown> {
    if (this.down === undefined) return {};
    return { state: 'lost', lastFault: this.failure(), lastFaultAt: this.down.at };
  }

  close(): void {
    this.unsubscribe();
  }

  private async reconnect(): Promise<void> {
    const down = this.down;
    if (down === undefined) return;
    try {
      const identity = await this.o.rig.connect();
      this.down = undefined;
      this.o.log(`Rig ${identity.rigId} connected again (firmware ${identity.firmware}).`);
    } catch (e) {
      // The board answered on this port before, so silence is a hang, not the missing firmware a first connect suspects.
      down.lastTry =
        e instanceof RigSilentError
          ? 'its port opens but the board says nothing: it is hung or its USB link stalled; power-cycle it (unplug its USB cable and power, plug them back in).'
          : (e as Error).message;
      this.o.log(`Rig ${this.o.rigId} is still disconnected: connecting again failed: ${down.lastTry}`);
      throw new RigDisconnectedError(this.failure() ?? down.why, this.o.rigId);
    } finally {
      this.o.changed();
    }
  }
}
