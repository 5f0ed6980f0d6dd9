// The Firmata driver against stock StandardFirmata (the Uno build avrgirl-arduino ships) running in the
// emulated board: real johnny-five, real firmata-io, real serialport, and the harness reporting what the
// servo, the LED strip and the status LED really did. Opening the port resets the board and StandardFirmata
// blinks for ~2 s before it answers, so one connection serves most tests.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RigFault } from '../../src/rig/driver.js';
import { EmulatedBoard, type BoardEvent } from '../../src/rig/emulator/emulatedBoard.js';
import { RigConnectError, RigFaultError, RigSilentError } from '../../src/rig/errors.js';
import { FirmataRigDriver } from '../../src/rig/firmata/firmataDriver.js';
import { startEmulatedFirmata, standardFirmataHex } from '../../src/rig/firmata/emulatedFirmata.js';
import { DEFAULT_FIRMATA_SETTINGS } from '../../src/rig/firmata/firmataSettings.js';
import { loadJohnnyFive } from '../../src/rig/firmata/johnnyFive.js';
import { openSerialPortLink } from '../../src/rig/serial/serialLink.js';
import { crcField } from '../../src/rig/protocol/crc16.js';
import { findPortHolders } from '../../src/rig/serial/portHolders.js';
import { buildFirmware } from './support/build.js';
import { patience } from './support/patience.js';

const FLIP = DEFAULT_FIRMATA_SETTINGS.flipUs;
const REST = DEFAULT_FIRMATA_SETTINGS.restUs;
// The Servo library pulses from a timer interrupt; other interrupts (the UART) delay the falling edge a little.
const near = (us: number, target: number): boolean => Math.abs(us - target) <= 8;

let board: EmulatedBoard;
let driver: FirmataRigDriver;
const faults: RigFault[] = [];

/** The servo pulses `on` (default: the shared board) reported since `mark`, near the flip or rest widths, with repeats collapsed. */
function servoMoves(mark: number, on: EmulatedBoard = board): number[] {
  const moves: number[] = [];
  for (const e of on.events.slice(mark)) {
    if (e.kind !== 'servo') continue;
    const at = near(e.pulseUs, FLIP) ? FLIP : near(e.pulseUs, REST) ? REST : undefined;
    if (at !== undefined && moves[moves.length - 1] !== at) moves.push(at);
  }
  return moves;
}

const isServoOff = (e: BoardEvent): boolean => e.kind === 'servo-off';
/** Simulated board time of an event (ms). */
const at = (e: BoardEvent | undefined): number => (e && 't' in e ? e.t : Number.NaN);

describe('the Firmata driver on StandardFirmata in the emulated board', () => {
  // The shared board is stopped when this block ends: an emulated StandardFirmata board costs a good part of a core
  // while it runs, idle or not, and the cases below run boards of their own.
  beforeAll(async () => {
    buildFirmware(); // the harness
    // Without reconnecting by itself, so the last case can show the manual path (connect() again); the contract
    // suite (firmataContract.test.ts) shows the driver reconnecting by itself after an unplug.
    const started = await startEmulatedFirmata({ settings: { homeMs: 400 }, reconnect: false });
    board = started.board;
    driver = started.driver;
    driver.onFault((f) => faults.push(f));
    await driver.connect();
  }, 40_000);

  afterAll(async () => {
    await driver?.close(); // also stops the emulated board
    await board?.stop();
  });

  it('connects and identifies the firmware from the Firmata report', async () => {
    const id = await driver.identify();
    expect(id).toEqual({
      driver: 'firmata',
      firmware: 'StandardFirmata 2.4',
      protocol: 2,
      rigId: 'rig-01',
      // The host-side configuration, hashed as our firmware hashes its own (CRC-16 of the canonical text).
      configHash: crcField('driver=firmata tumbler=servo jam_ma=1500 jam_ms=100 flip_ms=600 rest_us=600 flip_us=2400 home_ms=400 rig=rig-01'),
      tumbler: 'servo',
      port: board.path,
    });
    expect(driver.kind).toBe('firmata');
    expect(driver.isSimulated).toBe(false);
    const stats = driver.linkStats();
    expect(stats.commands).toBeGreaterThanOrEqual(2);
    expect(stats.roundTripsMs.length).toBe(stats.commands);
    expect(stats.timeouts).toBe(0);
  });

  it('tumbles: the servo goes to the flip position, holds, comes back to rest, holds, and is released', async () => {
    const mark = board.events.length;
    board.setMotorCurrent(300);
    const result = await driver.tumble();
    const off = await board.waitFor(isServoOff, patience(2000), mark, 'the servo released');
    expect(servoMoves(mark)).toEqual([FLIP, REST]);
    const flip = board.events.slice(mark).find((e) => e.kind === 'servo' && near(e.pulseUs, FLIP));
    const rest = board.events.slice(mark).find((e) => e.kind === 'servo' && near(e.pulseUs, REST));
    // The host times both holds (flipMs, 600 ms each; with Firmata there is no other way). The emulation
    // never runs ahead of the wall clock, but on a busy machine it may fall behind it, so in board time
    // each hold is at most a little over 600 ms, and the two holds are about equal.
    const flipHold = at(rest) - at(flip);
    const restHold = at(off) - at(rest); // the harness reports "off" 30 ms after the last pulse
    expect(flipHold).toBeLessThan(850);
    expect(restHold).toBeLessThan(900);
    expect(flipHold / (flipHold + restHold)).toBeGreaterThan(0.35);
    expect(flipHold / (flipHold + restHold)).toBeLessThan(0.65);
    expect(result.durationMs).toBeGreaterThanOrEqual(1200);
    expect(result.durationMs).toBeLessThan(2500);
    // 300 mA at 1000 mV/A is 300 mV, ADC 61 of 1023, 298 mA after the firmware's integer steps.
    expect(result.peakMilliamps).toBe(298);
    // The status LED (D13) is lit while the motion runs. The harness calls the servo released 30 ms after its last
    // pulse, whatever the host has sent; the LED's "off", written after the servo is detached, can reach a board the
    // machine's load holds back later than that (it did once in a full run): wait for it, then check the sequence.
    await board.waitFor((e) => e.kind === 'pin' && e.name === 'D13' && e.value === 0, patience(2000), mark, 'the status LED off');
    const d13 = board.events.slice(mark).filter((e) => e.kind === 'pin' && e.name === 'D13').map((e) => (e.kind === 'pin' ? e.value : -1));
    expect(d13).toEqual([1, 0]);
    board.setMotorCurrent(0);
  });

  it('sets the light level and reads back the level the board holds', async () => {
    const mark = board.events.length;
    expect(await driver.setLight(128)).toBe(128);
    await board.waitFor((e) => e.kind === 'light' && Math.abs(e.level - 128) <= 3, patience(2000), mark, 'the LED strip at half');
    expect((await driver.status()).light).toBe(128);
    expect(await driver.setLight(255)).toBe(255);
    await board.waitFor((e) => e.kind === 'light' && e.level === 255, patience(2000), mark, 'the LED strip fully on');
    expect(await driver.setLight(0)).toBe(0);
    await board.waitFor((e) => e.kind === 'light' && e.level === 0, patience(2000), board.events.length - 1, 'the LED strip off');
    await expect(driver.setLight(256)).rejects.toBeInstanceOf(RangeError);
    await expect(driver.setLight(1.5)).rejects.toBeInstanceOf(RangeError);
  });

  it('stops a tumble when the limit switch closes: the servo is released and the tumble is reported interrupted', async () => {
    const mark = board.events.length;
    const before = faults.length;
    const tumbling = driver.tumble();
    const flip = await board.waitFor((e) => e.kind === 'servo' && near(e.pulseUs, FLIP), patience(2000), mark, 'the flip');
    board.pressSwitch('limit');
    const error = await tumbling.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RigFaultError);
    expect(error).toMatchObject({ fault: 'limit', interrupted: true });
    expect(faults.slice(before)).toMatchObject([{ kind: 'limit', command: 'tumble' }]);
    const off = await board.waitFor(isServoOff, patience(2000), mark, 'the servo released');
    expect(at(off) - at(flip)).toBeLessThan(500); // well before the 600 ms hold would have ended
    expect(servoMoves(mark)).toEqual([FLIP]); // it never went on to the rest position
    expect((await driver.status()).limitPressed).toBe(true);

    // A motion started while the limit switch is closed stops at once, as with our firmware.
    await expect(driver.tumble()).rejects.toMatchObject({ fault: 'limit', interrupted: true });
    board.releaseSwitch('limit');
    await board.waitFor((e) => e.kind === 'switch' && e.name === 'limit' && !e.pressed, patience(1000), mark);
    await new Promise((r) => setTimeout(r, 50));
    expect((await driver.status()).limitPressed).toBe(false);
  });

  it('stops a tumble when the motor current stays over the jam threshold (jam detection in the host)', async () => {
    const mark = board.events.length;
    const tumbling = driver.tumble();
    await board.waitFor((e) => e.kind === 'servo' && near(e.pulseUs, FLIP), patience(2000), mark, 'the flip');
    board.setMotorCurrent(2000);
    await expect(tumbling).rejects.toMatchObject({ fault: 'jam', interrupted: true });
    expect(faults[faults.length - 1]).toMatchObject({ kind: 'jam' });
    board.setMotorCurrent(0);
    await board.waitFor(isServoOff, patience(2000), mark, 'the servo released');
    expect(servoMoves(mark)).toEqual([FLIP]);
  });

  it('refuses a second motion while one runs, without disturbing the first', async () => {
    const mark = board.events.length;
    const first = driver.tumble();
    await expect(driver.tumble()).rejects.toMatchObject({ fault: 'refused', interrupted: false });
    await expect(driver.home()).rejects.toMatchObject({ fault: 'refused', interrupted: false });
    expect((await driver.status()).state).toBe('tumble');
    await first;
    expect(servoMoves(mark)).toEqual([FLIP, REST]);
  });

  it('homes on the home switch, and fails with home_timeout when it never closes', async () => {
    await expect(driver.home()).rejects.toMatchObject({ fault: 'home_timeout', interrupted: true });
    board.pressSwitch('home');
    await board.waitFor((e) => e.kind === 'switch' && e.name === 'home' && e.pressed, patience(1000));
    await new Promise((r) => setTimeout(r, 50));
    const homed = await driver.home();
    expect(homed.durationMs).toBeLessThan(400); // the switch was already closed
    expect((await driver.status()).homePressed).toBe(true);
    board.releaseSwitch('home');
  });

  it('notices a board reset mid-tumble by the silence of its reports, fails the tumble, and can connect again', async () => {
    const mark = board.events.length;
    const before = faults.length;
    const tumbling = driver.tumble().then(
      () => undefined,
      (e: unknown) => e,
    );
    await board.waitFor((e) => e.kind === 'servo' && near(e.pulseUs, FLIP), patience(2000), mark, 'the flip');
    board.reset(); // StandardFirmata forgets every pin mode and blinks for ~2 s: no more A0 reports
    expect(await tumbling).toMatchObject({ fault: 'disconnected', interrupted: true });
    expect(faults.slice(before)).toMatchObject([{ kind: 'disconnected', command: 'tumble' }]);
    await expect(driver.status()).rejects.toBeInstanceOf(RigConnectError);

    const id = await driver.connect();
    expect(id.firmware).toBe('StandardFirmata 2.4');
    expect(driver.linkStats().reconnects).toBe(1);
    const mark2 = board.events.length;
    await driver.tumble();
    expect(servoMoves(mark2)).toEqual([FLIP, REST]);
  }, 40_000);
});

describe('reconnecting by itself', () => {
  it('after a board reset mid-tumble: voids that tumble, opens the board again without being asked, restores the light, and a waiting status gets its answer', async () => {
    const started = await startEmulatedFirmata();
    const d = started.driver;
    const b = started.board;
    try {
      b.pressSwitch('home');
      await d.connect();
      expect(await d.setLight(70)).toBe(70);
      const seen: RigFault[] = [];
      d.onFault((f) => seen.push(f));
      const mark = b.events.length;
      const tumbling = d.tumble().then(
        () => undefined,
        (e: unknown) => e,
      );
      await b.waitFor((e) => e.kind === 'servo' && near(e.pulseUs, FLIP), patience(2000), mark, 'the flip');
      b.reset(); // silent: StandardFirmata forgets every pin mode and its A0 reports stop
      expect(await tumbling).toMatchObject({ fault: 'disconnected', interrupted: true });
      expect(seen).toMatchObject([{ kind: 'disconnected', command: 'tumble' }]);
      // No connect() here: the status waits for the driver to find the board again.
      expect(await d.status()).toMatchObject({ state: 'idle' });
      expect(d.linkStats().reconnects).toBe(1);
      const mark2 = b.events.length;
      await d.tumble();
      await b.waitFor(isServoOff, patience(5000), mark2, 'the servo released');
      expect(servoMoves(mark2, b)).toEqual([FLIP, REST]);
      // The cut tumble never ran again: since the reset, the servo made only the new tumble's moves.
      const reset = b.events.findIndex((e, i) => i >= mark && e.kind === 'reset');
      expect(reset).toBeGreaterThanOrEqual(mark);
      expect(servoMoves(reset, b)).toEqual([FLIP, REST]);
      await b.waitFor((e) => e.kind === 'light' && Math.abs(e.level - 70) <= 3, patience(3000), reset, 'the LED strip back at 70');
      expect((await d.status()).light).toBe(70);
    } finally {
      await d.close();
      await b.stop();
    }
  }, 60_000);
});

describe('an emulated board that ended', () => {
  it('is not looked for again on its old pty path, which another program may now hold, and the driver says why it gave up', async () => {
    // Whether the board's process had ended, for every open the driver asked for.
    const opensAfterEnd: boolean[] = [];
    const the: { board?: EmulatedBoard } = {};
    const started = await startEmulatedFirmata({
      reconnectTimeoutMs: 3000,
      openLink: (path, options) => {
        opensAfterEnd.push(the.board?.stopped.exited ?? false);
        return openSerialPortLink(path, options);
      },
    });
    const d = started.driver;
    const b = started.board;
    the.board = b;
    try {
      b.pressSwitch('home');
      await d.connect();
      await b.stop(); // the emulator process ends, as when simavr crashes or is killed
      const error = await d.status().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RigConnectError);
      // Given up at once, not after polling the whole reconnect timeout for a board that cannot come back.
      expect((error as Error).message).toMatch(/went away \(.*\) and cannot come back: /);
      expect((error as Error).message).toContain('the emulated StandardFirmata board (simavr) has ended');
      expect((error as Error).message).toContain(`${b.path} is no longer its port and is not opened again`);
      // One try may come before the process's end is known (the pty closes first); none after it.
      expect(opensAfterEnd.length).toBeGreaterThan(0);
      expect(opensAfterEnd.filter((ended) => ended)).toEqual([]);
    } finally {
      await d.close();
    }
  }, 60_000);
});

describe('connecting', () => {
  it('fails naming the port and StandardFirmata when the board runs other firmware', async () => {
    // Our own firmware talks ASCII lines at 115200: no Firmata version report ever comes.
    const other = await EmulatedBoard.start();
    const d = new FirmataRigDriver({ port: other.path, connectTimeoutMs: 500 });
    try {
      const error = await d.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RigConnectError);
      expect((error as Error).message).toContain(other.path);
      expect((error as Error).message).toContain('StandardFirmata');
      await other.waitFor((e) => e.kind === 'client' && !e.open, patience(2000), 0, 'the port released');
    } finally {
      await d.close();
      await other.stop();
    }
  });

  it('names another program that has the port open (pid and command) when no Firmata answer comes, rather than blaming the firmware', async () => {
    const other = await EmulatedBoard.start();
    // Frozen, the board answers nobody, so what dicerig hears does not depend on which reader wins the board's bytes.
    other.freeze();
    const rival = spawn('cat', [other.path], { stdio: 'ignore' });
    const d = new FirmataRigDriver({ port: other.path, connectTimeoutMs: 500, reconnect: false });
    try {
      const pid = rival.pid as number;
      await expect.poll(async () => (await findPortHolders(other.path))?.holders.map((h) => h.pid), { timeout: 3000, interval: 50 }).toContain(pid);
      const error = await d.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RigSilentError);
      expect((error as Error).message).toContain(
        `did not answer as a Firmata board within 500 ms, and another program has the port open, which takes the board's bytes before dicerig can read them: pid ${pid} (cat ${other.path}).`,
      );
      expect((error as Error).message).not.toMatch(/[Ff]lash/);
    } finally {
      await d.close();
      other.thaw();
      rival.kill();
      await new Promise((r) => (rival.exitCode !== null || rival.signalCode !== null ? r(undefined) : rival.once('exit', r)));
      await other.stop();
    }
  });

  it('fails naming the port when it does not exist', async () => {
    const d = new FirmataRigDriver({ port: '/dev/does-not-exist-dicerig' });
    await expect(d.connect()).rejects.toThrow(/\/dev\/does-not-exist-dicerig.*plugged in/);
    await d.close();
  });

  it('finds the StandardFirmata build avrgirl-arduino ships', () => {
    expect(standardFirmataHex()).toMatch(/StandardFirmata\.cpp\.hex$/);
  });
});

describe('closing', () => {
  it('lets the process exit by itself once closed, even in mid-tumble: no timer, port or child process is left', async () => {
    // A process of its own: a forgotten interval or port would keep it alive, as it would hang a test runner or the CLI.
    const module = fileURLToPath(new URL('../../src/rig/firmata/emulatedFirmata.ts', import.meta.url));
    const script = `
      import { startEmulatedFirmata } from ${JSON.stringify(module)};
      const { driver } = await startEmulatedFirmata();
      await driver.connect();
      await driver.setLight(40);
      await driver.tumble();
      const stopped = driver.tumble().catch((e) => e.fault);
      await new Promise((r) => setTimeout(r, 200));
      await driver.close();
      console.log('closed ' + (await stopped));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let closedAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!closedAt && out.includes('closed')) closedAt = performance.now();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 35_000);
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    clearTimeout(killer);
    expect({ code, signal, out: out.trim(), err: err.trim() }).toEqual({ code: 0, signal: null, out: 'closed stopped', err: '' });
    expect(performance.now() - closedAt).toBeLessThan(3000);
  }, 40_000);

  it('rejects a running tumble as stopped, forgets johnny-five’s cached board, and closes only once', async () => {
    const started = await startEmulatedFirmata();
    const d = started.driver;
    await d.connect();
    const five = loadJohnnyFive();
    const cached = five.Board.cache.length;
    const outcome = d.tumble().then(
      () => undefined,
      (e: unknown) => e,
    );
    await started.board.waitFor((e) => e.kind === 'servo', patience(2000), 0, 'the flip');
    await Promise.all([d.close(), d.close()]);
    await d.close();
    expect(await outcome).toMatchObject({ fault: 'stopped', interrupted: true });
    expect(five.Board.cache.length).toBe(cached - 1);
    await expect(d.status()).rejects.toThrow(/closed/);
    await expect(d.connect()).rejects.toThrow(/closed/);
  }, 40_000);
});
