import { beforeAll, describe, expect, it } from 'vitest';
import { buildFirmware } from '../rig/support/build.js';
import { runCli } from './runCli.js';

interface CheckJson {
  rig: string;
  ok: boolean;
  simulated: boolean;
  identity?: { driver: string; rigId: string; configHash: string; protocol: number };
  steps: { step: string; ok: boolean; detail: string }[];
  link?: { commands: number; retransmits: number; crcFailures: number; roundTrip: { count: number; medianMs: number; p99Ms: number } };
  error?: string;
}

describe('dicerig rig list', () => {
  it('prints the serial ports as JSON, each with its path and whether it looks like an Arduino', async () => {
    const { code, out } = await runCli('rig', 'list', '--json');
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { ports: { path: string; likelyRig: boolean; vendorId?: string }[] };
    expect(Array.isArray(parsed.ports)).toBe(true);
    for (const p of parsed.ports) {
      expect(p.path).toMatch(/^\/|^COM/);
      expect(p.likelyRig).toBe(p.vendorId !== undefined && ['2341', '2a03', '1a86', '0403', '10c4'].includes(p.vendorId));
    }
  });

  it('prints a table of ports, or says what to plug in when there are none', async () => {
    const { code, out } = await runCli('rig', 'list');
    expect(code).toBe(0);
    expect(out).toMatch(/^port\s+usb id\s+serial number\s+board\s+by-id link$|No serial ports found/m);
  });
});

describe('dicerig rig check', () => {
  beforeAll(() => {
    buildFirmware();
  });

  it('checks the simulated rig end to end and marks it simulated', async () => {
    const { code, out } = await runCli('rig', 'check', '--rig', 'sim', '--json');
    expect(code).toBe(0);
    const r = JSON.parse(out) as CheckJson;
    expect(r).toMatchObject({ rig: 'sim', ok: true, simulated: true, identity: { driver: 'simulated' } });
    expect(r.steps.map((s) => [s.step, s.ok])).toEqual([
      ['connect', true],
      ['home', true],
      ['tumble', true],
      ['lights', true],
      ['status', true],
    ]);
    expect(r.link?.roundTrip.count).toBeGreaterThan(0);
  });

  it('checks the real firmware on the emulated board: identity, one tumble, lights, and link statistics', { timeout: 20_000 }, async () => {
    const { code, out } = await runCli('rig', 'check', '--rig', 'emulated');
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}ok {4}connect {2}rig rig-01, firmware 0\.2\.0, protocol 2, config [0-9A-F]{4}, servo tumbler, port \/dev\/pts\/\d+/m);
    expect(out).toMatch(/^ {2}ok {4}tumble {3}1\d{3} ms motion, peak \d+ mA/m);
    expect(out).toMatch(/^ {2}ok {4}lights {3}255 -> 255, 128 -> 128, 0 -> 0/m);
    expect(out).toMatch(/^link: \d+ commands, round trip median \d+\.\d ms, p99 \d+\.\d ms over \d+; 0 retransmits, 0 CRC failures, 0 timeouts, 0 reconnects$/m);
    expect(out).toMatch(/^result: OK$/m);
    expect(out).not.toMatch(/simulated/);
  });

  it('fails with exit status 1 and names the problem when the port does not exist', async () => {
    const { code, out } = await runCli('rig', 'check', '--port', '/dev/no-such-dicerig-port', '--json');
    expect(code).toBe(1);
    const r = JSON.parse(out) as CheckJson;
    expect(r.ok).toBe(false);
    expect(r.steps).toHaveLength(1);
    expect(r.error).toMatch(/No serial port at \/dev\/no-such-dicerig-port: is the board plugged in\?/);
  });

  it('checks a Firmata rig with the settings --set gives, as rig.firmata would: its rig id and the holds of its tumble', { timeout: 40_000 }, async () => {
    const { code, out } = await runCli('rig', 'check', '--rig', 'emulated-firmata', '--set', 'rig=bench-2', '--set', 'flip_ms=300', '--json');
    expect(code).toBe(0);
    const r = JSON.parse(out) as CheckJson;
    expect(r.identity).toMatchObject({ driver: 'firmata', rigId: 'bench-2' });
    const tumble = r.steps.find((s) => s.step === 'tumble');
    expect(tumble?.detail).toMatch(/^\d+ ms motion/);
    expect(Number(/^(\d+)/.exec(tumble?.detail ?? '')?.[1])).toBeLessThan(1200); // two 300 ms holds, not 600 ms
  });

  it('checks a Firmata rig in text: no retransmit or CRC counts (Firmata has neither), and a note that it moves the servo build only', { timeout: 40_000 }, async () => {
    const { code, out } = await runCli('rig', 'check', '--rig', 'emulated-firmata');
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}ok {4}connect {2}rig rig-01, firmware StandardFirmata 2\.4, protocol 2, config [0-9A-F]{4}, servo tumbler/m);
    // Firmata has no retransmits or CRC: the link line leaves them out.
    expect(out).toMatch(/^link: \d+ commands, round trip median \d+\.\d ms, p99 \d+\.\d ms over \d+; 0 timeouts, 0 reconnects$/m);
    expect(out).toMatch(/^note: the Firmata driver drives the servo build only \(servo on D9\); with a stepper nothing moves, whatever the tumble step says\.$/m);
    expect(out).toMatch(/^result: OK$/m);
  });

  it('refuses --set before opening a board: on a rig that keeps its settings in its board, and for a value out of range', async () => {
    const serial = await runCli('rig', 'check', '--rig', 'serial', '--port', '/dev/no-such-dicerig-port', '--set', 'flip_us=2350');
    expect(serial.code).toBe(1);
    expect(serial.err).toMatch(/--set applies to the firmata and emulated-firmata rigs; the "serial" rig's settings live in its board .*rigConfig\.ts/);
    const range = await runCli('rig', 'check', '--rig', 'firmata', '--port', '/dev/no-such-dicerig-port', '--set', 'flip_us=2600');
    expect(range.code).toBe(1);
    expect(range.err).toMatch(/config key "rig\.firmata\.flip_us": 2600 is not a whole number from 544 to 2500/);
    expect(range.out).toBe('');
    const twice = await runCli('rig', 'check', '--rig', 'emulated-firmata', '--set', 'flip_us=900', '--set', 'flip_us=2000');
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/--set flip_us= is given twice; give each setting once\./);
    const sim = await runCli('rig', 'check', '--rig', 'sim', '--set', 'flip_us=1500');
    expect(sim.err).toMatch(/the simulated rig has no board and no settings to set/);
  });

  it('refuses --port for a rig that opens no port of the user\'s, instead of ignoring it', async () => {
    for (const rig of ['emulated-firmata', 'emulated', 'sim']) {
      const { code, out, err } = await runCli('rig', 'check', '--rig', rig, '--port', '/dev/ttyACM0');
      expect({ rig, code, out }).toEqual({ rig, code: 1, out: '' });
      expect(err).toMatch(new RegExp(`--port is for a board on a serial port; the "${rig}" rig does not use one`));
    }
  });

  it('refuses an unknown rig driver, listing the ones there are', async () => {
    const { code, err } = await runCli('rig', 'check', '--rig', 'carrier-pigeon');
    expect(code).toBe(1);
    expect(err).toMatch(/no rig driver called "carrier-pigeon"; choose one of: serial, emulated, sim/);
  });
});
