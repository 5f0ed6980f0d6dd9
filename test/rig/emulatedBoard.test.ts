// The real firmware in simavr, reached through the real serialport package over the harness's pty.
// Every test opens the port, which resets the board (like an Uno's DTR), so tests start from a fresh boot.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmulatedBoard, EmulatorNotBuiltError, firmwareDir, type BoardEvent } from '../../src/rig/emulator/emulatedBoard.js';
import { ErrorCode } from '../../src/rig/protocol/errorCodes.js';
import { encodeCommand } from '../../src/rig/protocol/encode.js';
import { FIRMWARE_VERSION, PROTOCOL_VERSION } from '../../src/rig/protocol/pinMap.js';
import { BoardClient } from './support/boardClient.js';
import { buildFirmware } from './support/build.js';
import { countFlips } from './support/flips.js';
import { patience } from './support/patience.js';

let board: EmulatedBoard;
let client: BoardClient | undefined;

beforeAll(async () => {
  buildFirmware();
  board = await EmulatedBoard.start();
});

afterAll(async () => {
  await board?.stop();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(): Promise<{ c: BoardClient; mark: number }> {
  // The previous test's close must reach the harness before this open, so the open counts as a fresh one.
  await board.waitFor((e) => e.kind === 'client' && e.count === 0, 2000, board.events.length - 1).catch(() => undefined);
  const mark = board.events.length;
  const opened = await BoardClient.open(board.path);
  client = opened.client;
  return { c: opened.client, mark };
}

/** An event's time on the emulator's clock (simulated ms). */
const simMs = (e: BoardEvent): number => ('t' in e ? e.t : Number.NaN);

const flips = countFlips;

describe('the emulated board running the dicerig firmware', () => {
  it('resets when the port is opened and announces itself with a boot banner', async () => {
    const mark = board.events.length;
    const { client: c, banner } = await BoardClient.open(board.path);
    client = c;
    expect(banner).toMatchObject({ kind: 'push', event: 'boot', fields: { fw: FIRMWARE_VERSION, proto: String(PROTOCOL_VERSION), reset: 'external' } });
    await board.waitFor((e) => e.kind === 'reset' && e.reason === 'port-open', patience(2000), mark);
  });

  it("waits as an Uno's bootloader does before the sketch starts, so the host's flush after opening cannot eat the banner", async () => {
    // serialport's open ends with tcflush: a banner sent the moment the port opened lost its start to it now and then.
    await board.waitFor((e) => e.kind === 'client' && e.count === 0, 2000, board.events.length - 1).catch(() => undefined);
    const opening = performance.now();
    const { client: c, banner } = await BoardClient.open(board.path);
    client = c;
    expect(banner).toMatchObject({ kind: 'push', event: 'boot', fields: { fw: FIRMWARE_VERSION } });
    // A lower bound only: a slow machine can only make it later.
    expect(performance.now() - opening).toBeGreaterThanOrEqual(95);
  });

  it('answers identify, light and status with one ok reply each, and the LED PWM follows', async () => {
    const { c, mark } = await connect();
    const id = await c.request('identify');
    expect(id).toMatchObject({ kind: 'ok', fields: { fw: FIRMWARE_VERSION, proto: String(PROTOCOL_VERSION), rig: 'rig-01', tumbler: 'servo' } });
    expect(id.fields.cfg).toMatch(/^[0-9A-F]{4}$/);

    expect(await c.request('light', ['128'])).toMatchObject({ kind: 'ok', fields: { light: '128' } });
    const half = await board.waitFor((e) => e.kind === 'light' && Math.abs(e.level - 128) <= 3, patience(2000), mark, 'light at half');
    expect(half.kind).toBe('light');
    await c.request('light', ['on']);
    await board.waitFor((e) => e.kind === 'light' && e.level === 255, patience(2000), mark, 'light fully on');
    await c.request('light', ['off']);
    await board.waitFor((e) => e.kind === 'light' && e.level === 0, patience(2000), board.events.length - 1, 'light off');

    const status = await c.request('status');
    expect(status).toMatchObject({ kind: 'ok', fields: { state: 'idle', light: '0', limit: '0' } });
  });

  it('tumbles once: the servo goes to the flip position, back to rest, then is released', async () => {
    const { c, mark } = await connect();
    c.startHeartbeat(200);
    const reply = await c.request('tumble', [], { timeoutMs: patience(4000) });
    c.stopHeartbeat();
    expect(reply).toMatchObject({ kind: 'ok' });
    expect(Number(reply.fields.ms)).toBeGreaterThanOrEqual(1200);
    await board.waitFor((e) => e.kind === 'servo-off', patience(2000), mark, 'the servo released');
    const servo = board.events.slice(mark).filter((e) => e.kind === 'servo');
    expect(servo.map((e) => (e.kind === 'servo' ? e.pulseUs : 0))).toEqual([2400, 600]);
  });

  it('releases the servo the moment a reset cuts a flip short, and reports the next flip though it asks the same width', async () => {
    const first = await connect();
    first.c.startHeartbeat(150);
    first.c.write(encodeCommand(31000, 'tumble'));
    await board.waitFor((e) => e.kind === 'servo' && e.pulseUs === 2400, patience(2000), first.mark, 'the first flip');
    first.c.stopHeartbeat();
    await client?.close(); // the next open resets the board mid-flip, as a replugged cable would
    client = undefined;

    const { c, mark } = await connect();
    const reset = await board.waitFor((e) => e.kind === 'reset' && e.reason === 'port-open', patience(2000), mark, 'the port-open reset');
    const off = await board.waitFor((e) => e.kind === 'servo-off', patience(2000), board.events.indexOf(reset), 'the servo released');
    // On the emulator's clock: at the reset itself, not 30 ms of missing pulses later.
    expect(simMs(off) - simMs(reset)).toBeLessThan(2);
    c.startHeartbeat(150);
    const reply = await c.request('tumble', [], { timeoutMs: patience(4000) });
    c.stopHeartbeat();
    expect(reply).toMatchObject({ kind: 'ok' });
    await board.waitFor((e) => e.kind === 'servo-off', patience(2000), board.events.indexOf(off) + 1, 'the servo released after the second tumble');
    const widths = board.events.slice(board.events.indexOf(off)).flatMap((e) => (e.kind === 'servo' ? [e.pulseUs] : []));
    expect(widths).toEqual([2400, 600]);
  });

  it('answers a retransmitted tumble from its cache and never tumbles twice', async () => {
    const { c, mark } = await connect();
    c.startHeartbeat(200);
    const line = encodeCommand(30000, 'tumble');
    const since = c.lines.length;
    c.write(line);
    await new Promise((r) => setTimeout(r, 300));
    c.write(line); // retransmit while the motion runs: no second motion, no extra reply
    const first = await c.waitLine((l) => l.kind === 'ok' && l.seq === 30000, patience(4000), since);
    c.stopHeartbeat();
    const again = await c.request('tumble', [], { seq: 30000 }); // retransmit after the reply
    expect(again.raw).toBe(first.raw);
    await new Promise((r) => setTimeout(r, 300));
    expect(c.lines.slice(since).filter((l) => l.kind !== 'invalid' && l.kind !== 'push' && l.seq === 30000)).toHaveLength(2);
    expect(flips(board.events.slice(mark))).toBe(1);
  });

  it('replies err to a garbage line or a corrupted command and does not move', async () => {
    const { c, mark } = await connect();
    const since = c.lines.length;
    c.write('tumble tumble tumble\n');
    const garbage = await c.waitLine((l) => l.kind === 'err', patience(2000), since);
    expect(garbage).toMatchObject({ kind: 'err', seq: null, code: ErrorCode.bad_syntax });
    const corrupted = encodeCommand(5, 'tumble').replace('tumble', 'tumblf');
    const since2 = c.lines.length;
    c.write(corrupted);
    expect(await c.waitLine((l) => l.kind === 'err', patience(2000), since2)).toMatchObject({ seq: null, code: ErrorCode.bad_crc });
    c.write(Buffer.from([0, 255, 13, 10]).toString('latin1'));
    expect(await c.waitLine((l) => l.kind === 'err', patience(2000), c.lines.length)).toMatchObject({ code: ErrorCode.bad_syntax });
    expect(await c.request('ping')).toMatchObject({ kind: 'ok' }); // still talking
    await new Promise((r) => setTimeout(r, 100));
    expect(board.events.slice(mark).filter((e) => e.kind === 'servo')).toHaveLength(0);
  });

  it('stops the motor with the dead-man timer when the host goes silent mid-motion', async () => {
    const { c, mark } = await connect();
    const reply = await c.request('tumble', [], { timeoutMs: patience(4000) }); // no heartbeat
    expect(reply).toMatchObject({ kind: 'err', code: ErrorCode.deadman });
    await c.waitLine((l) => l.kind === 'push' && l.event === 'fault' && l.words[1] === 'deadman', patience(1000));
    const off = await board.waitFor((e) => e.kind === 'servo-off', patience(2000), mark, 'the servo released');
    const start = board.events.slice(mark).find((e) => e.kind === 'servo');
    // Pulses stopped about the 1 s dead-man time after the start (the harness notices 30 ms after the last
    // pulse), before the 1.2 s flip-and-return would have finished.
    const ranFor = off.kind === 'servo-off' && start?.kind === 'servo' ? off.t - start.t : NaN;
    expect(ranFor).toBeGreaterThan(950);
    expect(ranFor).toBeLessThan(1100);
    expect(c.lines.some((l) => l.kind === 'ok' && l.seq === reply.seq)).toBe(false);
  });

  it('reports the limit switch and a motor over-current as faults that stop the motion', async () => {
    const { c, mark } = await connect();
    c.startHeartbeat(150);
    const limited = c.request('tumble', [], { timeoutMs: patience(4000) });
    await board.waitFor((e) => e.kind === 'servo', patience(2000), mark);
    board.pressSwitch('limit');
    expect(await limited).toMatchObject({ kind: 'err', code: ErrorCode.limit });
    await c.waitLine((l) => l.kind === 'push' && l.event === 'limit' && l.words[0] === 'pressed', patience(1000));
    board.releaseSwitch('limit');
    await c.waitLine((l) => l.kind === 'push' && l.event === 'limit' && l.words[0] === 'released', patience(1000));

    // The board's events come on another pipe than its replies and may lag them: the first motion's servo-off
    // must be in before the second motion starts, or the wait for the second one's would take the first's.
    await board.waitFor((e) => e.kind === 'servo-off', patience(2000), mark, 'the servo released after the limit');
    const mark2 = board.events.length;
    const jammed = c.request('tumble', [], { timeoutMs: patience(4000) });
    const flip2 = await board.waitFor((e) => e.kind === 'servo', patience(2000), mark2);
    board.setMotorCurrent(2500);
    expect(await jammed).toMatchObject({ kind: 'err', code: ErrorCode.jam });
    await c.waitLine((l) => l.kind === 'push' && l.event === 'fault' && l.words[1] === 'jam', patience(1000));
    board.setMotorCurrent(0);
    c.stopHeartbeat();
    await board.waitFor((e) => e.kind === 'servo-off', patience(2000), board.events.indexOf(flip2));
  });
});

describe('a board reset while the host is sending', () => {
  it('refuses a motion line that reaches it after its reset until the host has identified it again, so a tumble the host voided never runs', async () => {
    const { c, mark } = await connect();
    board.reset();
    // The harness holds what the host sends through the reset's bootloader wait, as a USB-serial chip's buffer does,
    // and hands it to the fresh firmware: this tumble was sent before the host could see the banner.
    await board.waitFor((e) => e.kind === 'reset' && e.reason === 'command', patience(1000), mark, 'the reset');
    const since = c.lines.length;
    c.write(encodeCommand(100, 'tumble'));
    const refusal = await c.waitLine((l) => l.kind === 'err' && l.seq === 100, patience(2000), since);
    expect(refusal).toMatchObject({ code: ErrorCode.unsynced, name: 'unsynced' });
    const banner = c.lines.slice(since).findIndex((l) => l.kind === 'push' && l.event === 'boot');
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(banner).toBeLessThan(c.lines.slice(since).indexOf(refusal));
    expect(await c.request('status')).toMatchObject({ fields: { state: 'idle', motion: '0' } });
    // Identified again, it tumbles.
    expect(await c.request('identify')).toMatchObject({ kind: 'ok' });
    c.startHeartbeat(150);
    expect(await c.request('tumble', [], { seq: 101, timeoutMs: patience(4000) })).toMatchObject({ kind: 'ok' });
    c.stopHeartbeat();
    expect(flips(board.events.slice(mark))).toBe(1);
  });
});

describe('a firmware that hangs', () => {
  it('is reset by its watchdog within the watchdog period, mid-tumble: the motor stops, the tumble is forgotten, the banner says "watchdog"', async () => {
    const { c, mark } = await connect();
    c.startHeartbeat(150); // the host keeps talking: only the watchdog can notice the hang
    const since = c.lines.length;
    const tumble = encodeCommand(30000, 'tumble');
    c.write(tumble);
    // Wall-time limits only bound a wait (every duration checked is the emulator's own clock): see patience.
    await board.waitFor((e) => e.kind === 'servo' && e.pulseUs === 2400, patience(5000), mark, 'the flip');
    board.hang();
    const hung = await board.waitFor((e) => e.kind === 'hang', patience(5000), mark, 'the hang');
    // Paced to real time, the watchdog needs about half a second of wall time; a loaded machine may slow the emulator.
    const reset = await board.waitFor((e) => e.kind === 'reset', patience(5000), board.events.indexOf(hung), 'a reset after the hang');
    expect(reset).toMatchObject({ reason: 'watchdog' });
    // Simulated time (t is the emulator's clock): the firmware arms a 500 ms watchdog (512 ms from its 128 kHz clock).
    const hungForMs = simMs(reset) - simMs(hung);
    expect(hungForMs).toBeGreaterThan(450);
    expect(hungForMs).toBeLessThanOrEqual(520);
    const banner = await c.waitLine((l) => l.kind === 'push' && l.event === 'boot', patience(5000), since);
    expect(banner).toMatchObject({ fields: { reset: 'watchdog', fw: FIRMWARE_VERSION } });

    // The servo pulse comes from a hardware timer, so it held the flip position through the hang; the reset stopped it.
    const off = await board.waitFor((e) => e.kind === 'servo-off', patience(5000), board.events.indexOf(hung), 'the servo released');
    expect(simMs(off)).toBeGreaterThanOrEqual(simMs(reset));
    expect(board.events.slice(mark).filter((e) => e.kind === 'servo').map((e) => (e.kind === 'servo' ? e.pulseUs : 0))).toEqual([2400]);

    // The reset forgot the tumble: no reply to it ever, no second motion, and the board talks again.
    await new Promise((r) => setTimeout(r, 300));
    c.stopHeartbeat();
    expect(c.lines.slice(since).some((l) => (l.kind === 'ok' || l.kind === 'err') && l.seq === 30000)).toBe(false);
    expect(board.events.slice(mark).filter((e) => e.kind === 'pin' && e.name === 'D13' && e.value === 1)).toHaveLength(1);
    expect(await c.request('status')).toMatchObject({ kind: 'ok', fields: { state: 'idle', motion: '0' } });
  });
});

describe('a board configured for a stepper tumbler', () => {
  // A board of its own: config lives in the emulated EEPROM and must not leak into the tests above.
  let stepperBoard: EmulatedBoard;
  beforeAll(async () => {
    stepperBoard = await EmulatedBoard.start();
  });
  afterAll(async () => {
    await stepperBoard?.stop();
  });

  it('steps the configured number of steps per tumble, homes on the home switch, and keeps its config over a reset', async () => {
    const opened = await BoardClient.open(stepperBoard.path);
    client = opened.client;
    const c = opened.client;
    const set = await c.request('config', ['tumbler=stepper', 'steps=200', 'step_rate=1000', 'home_ms=300']);
    expect(set).toMatchObject({ kind: 'ok' });
    const mark = stepperBoard.events.length;
    c.startHeartbeat(150);
    expect(await c.request('tumble', [], { timeoutMs: patience(4000) })).toMatchObject({ kind: 'ok' });
    const burst = await stepperBoard.waitFor((e) => e.kind === 'stepper', patience(2000), mark, 'a step burst');
    expect(burst).toMatchObject({ kind: 'stepper', steps: 200, dir: 1 });

    expect(await c.request('home', [], { timeoutMs: patience(2000) })).toMatchObject({ kind: 'err', code: ErrorCode.home_timeout });
    stepperBoard.pressSwitch('home');
    await stepperBoard.waitFor((e) => e.kind === 'switch' && e.name === 'home', patience(1000));
    expect(await c.request('home', [], { timeoutMs: patience(2000) })).toMatchObject({ kind: 'ok' });
    stepperBoard.releaseSwitch('home');
    c.stopHeartbeat();

    stepperBoard.reset();
    const banner = await c.waitLine((l) => l.kind === 'push' && l.event === 'boot', patience(2000), c.lines.length);
    expect(banner.kind === 'push' && banner.fields.cfg).toBe(set.fields.cfg);
    expect(await c.request('identify', [], { seq: 1 })).toMatchObject({ fields: { tumbler: 'stepper' } });
  });
});

describe('EmulatedBoard.start', () => {
  it('also runs an Intel HEX image (the form StandardFirmata ships in) and boots it', async () => {
    const hexBoard = await EmulatedBoard.start({ firmware: join(firmwareDir(), 'build', 'dicerig.hex') });
    try {
      const opened = await BoardClient.open(hexBoard.path);
      client = opened.client;
      expect(opened.banner).toMatchObject({ kind: 'push', event: 'boot', fields: { fw: FIRMWARE_VERSION } });
    } finally {
      await client?.close();
      client = undefined;
      await hexBoard.stop();
    }
  });

  it('stops at once even when frozen: a rig check on a frozen emulated board exited two seconds after its report', async () => {
    const frozen = await EmulatedBoard.start();
    frozen.freeze();
    const t0 = performance.now();
    await frozen.stop();
    // A frozen harness never reads the end of its stdin: stop() waited for its 2 s SIGKILL fallback.
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it('names what to build when the firmware is missing', async () => {
    await expect(EmulatedBoard.start({ firmware: '/nonexistent/dicerig.elf' })).rejects.toBeInstanceOf(EmulatorNotBuiltError);
    await expect(EmulatedBoard.start({ firmware: '/nonexistent/dicerig.elf' })).rejects.toThrow(/scripts\/setup\.sh/);
  });
});
