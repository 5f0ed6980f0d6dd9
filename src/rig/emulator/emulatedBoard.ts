import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DicerigError } from '../../core/errors.js';

/** What the emulated board's motor, lights and pins did, as reported by the harness. `t` is simulated ms. */
export type BoardEvent =
  | { kind: 'servo'; pulseUs: number; t: number }
  | { kind: 'servo-off'; t: number }
  | { kind: 'light'; level: number; t: number }
  | { kind: 'stepper'; steps: number; dir: number; t: number }
  | { kind: 'pin'; name: string; value: number; t: number }
  | { kind: 'reset'; reason: string; t: number }
  | { kind: 'hang'; t: number }
  | { kind: 'client'; open: boolean; count: number }
  | { kind: 'switch'; name: string; pressed: boolean; t: number }
  | { kind: 'current'; milliamps: number; t: number }
  | { kind: 'mcu'; state: string; t: number }
  | { kind: 'other'; line: string };

/** The firmware or the harness has not been built, or the toolchain is missing. */
export class EmulatorNotBuiltError extends DicerigError {
  constructor(readonly missing: string) {
    super(
      `The emulated board needs ${missing}, which is not built. Run "bash scripts/setup.sh" ` +
        `(or "make -C firmware all sim" once gcc-avr, avr-libc, arduino-core-avr and libsimavr-dev are installed).`,
      { missing },
    );
  }
}

/** The harness did not start or stopped unexpectedly. */
export class EmulatorError extends DicerigError {}

export interface EmulatedBoardOptions {
  /** Firmware to run (.elf or .hex). Default: firmware/build/dicerig.elf */
  readonly firmware?: string;
  /** The harness binary. Default: firmware/build/dicerig-sim */
  readonly harness?: string;
  /** How long to wait for the harness to print its pty path. Default 5000 ms. */
  readonly startTimeoutMs?: number;
}

/** Finds the repository's firmware/ folder from this module's location (works from src/ and dist/). */
export function firmwareDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'firmware', 'Makefile'))) return join(dir, 'firmware');
    dir = dirname(dir);
  }
  return resolve('firmware');
}

function parseFields(words: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq > 0) out[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return out;
}

/** Parses one harness stdout line into an event (unknown lines become `other`). */
export function parseHarnessLine(line: string): BoardEvent {
  const [kind, ...rest] = line.trim().split(/\s+/);
  const f = parseFields(rest);
  const t = Number(f.t ?? NaN);
  switch (kind) {
    case 'servo':
      if (rest[0] === 'off') return { kind: 'servo-off', t };
      if (f.pulse !== undefined) return { kind: 'servo', pulseUs: Number(f.pulse), t };
      break;
    case 'light':
      if (f.level !== undefined) return { kind: 'light', level: Number(f.level), t };
      break;
    case 'stepper':
      if (f.steps !== undefined) return { kind: 'stepper', steps: Number(f.steps), dir: Number(f.dir ?? 0), t };
      break;
    case 'pin':
      if (f.name !== undefined) return { kind: 'pin', name: f.name, value: Number(f.value), t };
      break;
    case 'reset':
      return { kind: 'reset', reason: f.reason ?? 'unknown', t };
    case 'hang':
      return { kind: 'hang', t };
    case 'client':
      return { kind: 'client', open: rest[0] === 'open', count: Number(f.count ?? 0) };
    case 'switch':
      return { kind: 'switch', name: f.name ?? '', pressed: f.state === 'pressed', t };
    case 'current':
      return { kind: 'current', milliamps: Number(f.ma), t };
    case 'mcu':
      return { kind: 'mcu', state: f.state ?? 'unknown', t };
  }
  return { kind: 'other', line };
}

/**
 * The real firmware running in simavr with its UART on a pseudo-terminal: open `path` with serialport
 * exactly as a USB Arduino (opening it resets the board, like DTR). Tests drive the switches and the
 * motor current, and read what the motor and lights did from `events` or the 'event' emitter.
 */
export class EmulatedBoard extends EventEmitter<{ event: [BoardEvent]; exit: [number | null] }> {
  /** Every event reported since start, in order. */
  readonly events: BoardEvent[] = [];
  private exited = false;
  private exitCode: number | null = null;
  private readonly exitPromise: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** The serial port path (the pty slave), e.g. /dev/pts/4. */
    readonly path: string,
    lines: AsyncIterable<string>,
  ) {
    super();
    this.exitPromise = new Promise((done) => {
      child.once('exit', (code) => {
        this.exited = true;
        this.exitCode = code;
        this.emit('exit', code);
        done();
      });
    });
    void (async () => {
      for await (const line of lines) {
        const ev = parseHarnessLine(line);
        this.events.push(ev);
        this.emit('event', ev);
      }
    })();
  }

  /** Whether the harness process has ended, and with which exit code (null: killed by a signal). */
  get stopped(): { readonly exited: boolean; readonly code: number | null } {
    return { exited: this.exited, code: this.exitCode };
  }

  /** Starts the harness and resolves once it has printed its serial port path. */
  static async start(options: EmulatedBoardOptions = {}): Promise<EmulatedBoard> {
    const dir = firmwareDir();
    const harness = options.harness ?? join(dir, 'build', 'dicerig-sim');
    const firmware = options.firmware ?? join(dir, 'build', 'dicerig.elf');
    if (!existsSync(harness)) throw new EmulatorNotBuiltError(`the simavr harness (${harness})`);
    if (!existsSync(firmware)) throw new EmulatorNotBuiltError(`the firmware (${firmware})`);

    // A session of its own, so a terminal's Ctrl-C (sent to the whole foreground group) reaches the session, which
    // stops after its throw, and not the board under it. It still ends with the caller: at the end of its stdin.
    const child = spawn(harness, [firmware], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const rl = createInterface({ input: child.stdout });
    const iterator = rl[Symbol.asyncIterator]();
    const timeoutMs = options.startTimeoutMs ?? 5000;

    const first = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new EmulatorError(`The emulator harness printed no pty path within ${timeoutMs} ms.`, { harness, firmware }));
      }, timeoutMs);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new EmulatorError(`The emulator harness could not be started: ${err.message}`, { harness }, { cause: err }));
      });
      iterator.next().then(
        (r) => {
          clearTimeout(timer);
          if (r.done) reject(new EmulatorError(`The emulator harness exited before it was ready: ${stderr.trim() || 'no message'}`, { harness, firmware }));
          else resolveLine(r.value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
    const path = parseFields(first.split(/\s+/)).path;
    if (!first.startsWith('pty ') || !path) {
      child.kill();
      throw new EmulatorError(`The emulator harness printed "${first}" instead of its pty path.`, { harness });
    }
    const rest: AsyncIterable<string> = { [Symbol.asyncIterator]: () => iterator };
    return new EmulatedBoard(child, path, rest);
  }

  private command(line: string): void {
    if (this.exited) throw new EmulatorError('The emulated board has stopped; start a new one.', { path: this.path });
    this.child.stdin.write(`${line}\n`);
  }

  /** Closes a switch (pulls its pin to ground). */
  pressSwitch(name: 'limit' | 'home'): void {
    this.command(`switch ${name} press`);
  }

  /** Opens a switch (the pull-up holds its pin high). */
  releaseSwitch(name: 'limit' | 'home'): void {
    this.command(`switch ${name} release`);
  }

  /** Sets the motor current the current-sense input reports, in milliamperes. */
  setMotorCurrent(milliamps: number): void {
    if (!Number.isFinite(milliamps) || milliamps < 0) throw new RangeError(`motor current ${milliamps} mA is not a non-negative number`);
    this.command(`current ${milliamps}`);
  }

  /** Resets the MCU (as the reset button would). */
  reset(): void {
    this.command('reset');
  }

  /**
   * Hangs the firmware as a bug would: the CPU jumps into an endless loop in the firmware's own code with
   * interrupts still on, so its main loop stops (no replies, no dead-man, no watchdog feeding) while the
   * timers, and the servo pulse, keep running. Only the firmware's watchdog gets the board out of it.
   */
  hang(): void {
    this.command('hang');
  }

  /**
   * Freezes the whole board (the emulator process is stopped): its port stays and can be opened, but nothing on it
   * answers and nothing resets, as with a board whose USB link stalled or whose firmware hung past its watchdog.
   * `thaw()` lets it run on (the simulation does not race to catch up the time it was frozen).
   */
  freeze(): void {
    if (this.exited) throw new EmulatorError('The emulated board has stopped; start a new one.', { path: this.path });
    this.child.kill('SIGSTOP');
  }

  thaw(): void {
    if (!this.exited) this.child.kill('SIGCONT');
  }

  /**
   * Resolves with the first event (from `since` in the history on) that matches, waiting up to `timeoutMs`.
   * Rejects with an EmulatorError naming what was awaited if none comes.
   */
  waitFor(match: (e: BoardEvent) => boolean, timeoutMs = 3000, since = 0, what = 'an event'): Promise<BoardEvent> {
    const seen = this.events.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolveEvent, reject) => {
      const onEvent = (e: BoardEvent): void => {
        if (!match(e)) return;
        clearTimeout(timer);
        this.off('event', onEvent);
        resolveEvent(e);
      };
      const timer = setTimeout(() => {
        this.off('event', onEvent);
        reject(new EmulatorError(`The emulated board did not report ${what} within ${timeoutMs} ms.`, { path: this.path }));
      }, timeoutMs);
      this.on('event', onEvent);
    });
  }

  /** Stops the harness and waits for it to exit. Safe to call twice. */
  async stop(): Promise<void> {
    if (!this.exited) {
      this.thaw(); // a frozen harness would never read the end of its stdin
      this.child.stdin.end(); // the harness exits at end of stdin
      const killer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await this.exitPromise;
      clearTimeout(killer);
    }
  }
}
