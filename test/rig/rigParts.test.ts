import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import type { RigDriver } from '../../src/rig/driver.js';
import { RigConnectError, RigError } from '../../src/rig/errors.js';
import { findRigPort, PLUG_IN_HINT, RigFactoryRegistry, rigFactories } from '../../src/rig/factory.js';
import { roundTripSummary } from '../../src/rig/linkStats.js';
import { fingerprintPort, listSerialPorts, relocatePort, type SerialPortInfo } from '../../src/rig/serial/portLocator.js';
import { DEFAULT_BOARD_TIMING, expectedMotionMs, statusFromFields, timingFromConfig } from '../../src/rig/serial/replies.js';
import { classifyOpenError } from '../../src/rig/serial/serialLink.js';
import { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import { SimulatedRig } from '../../src/rig/simulated/simulatedRig.js';
import { clockTimers } from '../../src/rig/timers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-rig-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lister = (ports: SerialPortInfo[]) => async () => ports;

describe('opening errors', () => {
  it('sorts the messages serialport gives into missing, busy and permission', () => {
    expect(classifyOpenError('Error: No such file or directory, cannot open /dev/ttyACM0')).toBe('missing');
    expect(classifyOpenError('Error Resource temporarily unavailable Cannot lock port')).toBe('busy');
    expect(classifyOpenError('Error: Permission denied, cannot open /dev/ttyACM0')).toBe('permission');
    expect(classifyOpenError('Error: Input/output error')).toBe('other');
  });
});

describe('finding the board again after a replug', () => {
  const dev = join(tmp, 'dev');
  const byId = join(tmp, 'by-id');
  mkdirSync(dev);
  mkdirSync(byId);
  const link = join(byId, 'usb-Arduino__www.arduino.cc__0043_EMU123-if00');

  it('follows the by-id link first, then a port with the same USB serial number, then the old path', async () => {
    writeFileSync(join(dev, 'ttyACM0'), '');
    symlinkSync(join(dev, 'ttyACM0'), link);
    const ports = lister([{ path: join(dev, 'ttyACM0'), serialNumber: 'EMU123', vendorId: '2341', productId: '0043' }]);
    const fp = await fingerprintPort(join(dev, 'ttyACM0'), { listPorts: ports, byIdDir: byId });
    expect(fp).toEqual({ path: join(dev, 'ttyACM0'), serialNumber: 'EMU123', byId: link, vendorId: '2341', productId: '0043' });

    // Unplugged and back as ttyACM1: udev moves the link, the listing shows the same serial number.
    unlinkSync(join(dev, 'ttyACM0'));
    unlinkSync(link);
    writeFileSync(join(dev, 'ttyACM1'), '');
    symlinkSync(join(dev, 'ttyACM1'), link);
    const after = lister([{ path: join(dev, 'ttyACM1'), serialNumber: 'EMU123' }, { path: join(dev, 'ttyUSB0'), serialNumber: 'OTHER' }]);
    expect(await relocatePort(fp, { listPorts: after, byIdDir: byId })).toEqual([link, join(dev, 'ttyACM1'), join(dev, 'ttyACM0')]);

    // No udev links (or a dangling one): the serial number still finds it.
    unlinkSync(link);
    expect(await relocatePort(fp, { listPorts: after, byIdDir: byId })).toEqual([join(dev, 'ttyACM1'), join(dev, 'ttyACM0')]);
  });

  it('lists Arduino-like ports first, with what their USB vendor is and their by-id link', async () => {
    writeFileSync(join(dev, 'ttyUSB3'), '');
    symlinkSync(join(dev, 'ttyUSB3'), join(byId, 'usb-1a86_USB_Serial-if00-port0'));
    const ports = await listSerialPorts({
      byIdDir: byId,
      listPorts: lister([{ path: '/dev/ttyS0' }, { path: join(dev, 'ttyUSB3'), vendorId: '1a86', productId: '7523' }]),
    });
    expect(ports.map((p) => p.path)).toEqual([join(dev, 'ttyUSB3'), '/dev/ttyS0']);
    expect(ports[0]).toMatchObject({ board: 'CH340 USB serial (common on Uno clones)', byId: join(byId, 'usb-1a86_USB_Serial-if00-port0') });
    expect(ports[1]?.board).toBeUndefined();
  });
});

describe('choosing a port when none is given', () => {
  it('takes the one Arduino plugged in', async () => {
    expect(await findRigPort(lister([{ path: '/dev/ttyS0' }, { path: '/dev/ttyACM0', vendorId: '2341' }]))).toBe('/dev/ttyACM0');
  });

  it('says what to plug in, or to try the emulated or simulated rig, when there is no Arduino', async () => {
    const err = await findRigPort(lister([{ path: '/dev/ttyS0' }])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RigConnectError);
    expect((err as Error).message).toContain('No rig found: no USB serial port with an Arduino is plugged in (serial ports here: /dev/ttyS0');
    expect((err as Error).message).toContain(PLUG_IN_HINT);
    expect(PLUG_IN_HINT).toMatch(/Arduino Uno running the dicerig firmware .*make -C firmware upload PORT=.*--rig emulated.*--rig sim/);
  });

  it('asks for --port when several Arduinos are plugged in', async () => {
    await expect(findRigPort(lister([{ path: '/dev/ttyACM0', vendorId: '2341' }, { path: '/dev/ttyUSB0', vendorId: '1a86' }]))).rejects.toThrow(
      /Several serial ports look like Arduinos \(\/dev\/ttyACM0, \/dev\/ttyUSB0\): choose the rig's with --port/,
    );
  });
});

describe('the rig factory registry', () => {
  it('has serial, emulated and sim, and makes a serial driver for a port without connecting', async () => {
    expect(rigFactories.names()).toEqual(expect.arrayContaining(['serial', 'emulated', 'sim']));
    const d = await rigFactories.create('serial', { port: '/dev/ttyACM7' });
    expect(d).toBeInstanceOf(SerialRigDriver);
    expect((d as SerialRigDriver).path).toBe('/dev/ttyACM7');
    await d.close();
    const s = await rigFactories.create('sim', { clock: new SimulatedClock(), seed: 3 });
    expect(s).toBeInstanceOf(SimulatedRig);
    expect(s.isSimulated).toBe(true);
  });

  it('takes new drivers by name and refuses unknown names, listing the known ones', async () => {
    const registry = new RigFactoryRegistry();
    const made: string[] = [];
    registry.register({
      name: 'bench-sim',
      description: 'test',
      create: async (o) => {
        made.push(o.port ?? '');
        return new SimulatedRig() as RigDriver;
      },
    });
    await registry.create('bench-sim', { port: 'x' });
    expect(made).toEqual(['x']);
    expect(() => registry.get('nope')).toThrow(RigError);
    expect(() => registry.get('nope')).toThrow(/no rig driver called "nope"; choose one of: bench-sim/);
    expect(() => registry.register({ name: 'Bad Name', description: '', create: async () => new SimulatedRig() })).toThrow(RangeError);
  });
});

describe('link statistics', () => {
  it('summarises round trips as median, nearest-rank 99th percentile and maximum', () => {
    const roundTripsMs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(roundTripSummary({ commands: 0, retransmits: 0, crcFailures: 0, timeouts: 0, reconnects: 0, roundTripsMs })).toEqual({
      count: 100,
      medianMs: 50.5,
      p99Ms: 99,
      maxMs: 100,
    });
    expect(roundTripSummary({ commands: 0, retransmits: 0, crcFailures: 0, timeouts: 0, reconnects: 0, roundTripsMs: [] }).count).toBe(0);
  });
});

describe('board replies and timing', () => {
  it('reads status fields and the timing keys of a config reply', () => {
    expect(statusFromFields({ state: 'tumble', motion: '4', light: '12', limit: '0', home: '1', ma: '310', up: '5000' })).toEqual({
      state: 'tumble',
      light: 12,
      limitPressed: false,
      homePressed: true,
      motorMilliamps: 310,
      uptimeMs: 5000,
    });
    const t = timingFromConfig({ cfg: 'ABCD', tumbler: 'stepper', deadman: '400', flip_ms: '500', steps: '200', step_rate: '1000', home_ms: '300' });
    expect(t).toEqual({ tumbler: 'stepper', deadmanMs: 400, flipMs: 500, steps: 200, stepRate: 1000, homeMs: 300 });
    expect(expectedMotionMs(t, 'tumble')).toBe(200);
    expect(expectedMotionMs(DEFAULT_BOARD_TIMING, 'tumble')).toBe(1200);
    expect(expectedMotionMs(t, 'home')).toBe(300);
  });
});

describe('timers on a simulated clock', () => {
  it('fire at their time on the clock, and not at all once cancelled', async () => {
    const clock = new SimulatedClock();
    const timers = clockTimers(clock);
    const fired: [string, number][] = [];
    timers.after(200, () => fired.push(['a', clock.now()]));
    const b = timers.after(100, () => fired.push(['b', clock.now()]));
    timers.after(50, () => b.cancel());
    await clock.sleep(500);
    expect(fired).toEqual([['a', 200]]);
  });
});
