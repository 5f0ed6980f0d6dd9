// A port that opens but never answers as a dicerig board: what the serial driver says is the likeliest cause. On
// in-memory links and a simulated clock (the emulated board and a real rival reader are in faults.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { RigSilentError } from '../../src/rig/errors.js';
import type { PortHolders } from '../../src/rig/serial/portHolders.js';
import { SerialRigDriver, type SerialDriverOptions } from '../../src/rig/serial/serialDriver.js';
import type { LinkOpener, SerialLink } from '../../src/rig/serial/serialLink.js';
import { clockTimers } from '../../src/rig/timers.js';

let driver: SerialRigDriver | undefined;

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

/** A port whose far end sends back every byte it gets (a terminal, a loopback plug), or says nothing at all. */
function fakePort(clock: SimulatedClock, echo: boolean): LinkOpener {
  return async (path) => {
    const listeners: ((chunk: Buffer) => void)[] = [];
    const link: SerialLink = {
      path,
      write: (text) => {
        if (echo) void clock.sleep(1).then(() => listeners.forEach((l) => l(Buffer.from(text, 'latin1'))));
      },
      onData: (l) => {
        listeners.push(l);
      },
      onClose: () => undefined,
      close: async () => undefined,
    };
    return link;
  };
}

async function connectError(echo: boolean, options: Partial<SerialDriverOptions> = {}): Promise<{ err: unknown; d: SerialRigDriver }> {
  const clock = new SimulatedClock();
  const d = new SerialRigDriver({
    path: '/dev/ttyUSB7',
    clock: clockTimers(clock),
    openLink: fakePort(clock, echo),
    listPorts: async () => [],
    byIdDir: '/nonexistent-by-id',
    reconnect: false,
    findPortHolders: async () => undefined,
    ...options,
  });
  driver = d;
  const err = await d.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err, d };
}

describe('a port that never answers as a dicerig board', () => {
  it('says the port echoes what dicerig sends, and counts no CRC failure, when its own lines come back', async () => {
    const { err, d } = await connectError(true);
    expect(err).toBeInstanceOf(RigSilentError);
    expect((err as Error).message).toBe(
      'The port /dev/ttyUSB7 echoes what dicerig sends (2 of its lines came back as they were sent): it is a terminal or a loopback, not a dicerig board. ' +
        'Name the rig\'s Arduino with --port ("dicerig rig list" shows the serial ports).',
    );
    expect(d.linkStats().crcFailures).toBe(0);
  });

  it('says how long it really waited: the banner wait and every try of identify', async () => {
    // 3000 ms for the banner, then identify with one retransmit: 250 ms, then 500 ms.
    const { err } = await connectError(false);
    expect((err as Error).message).toMatch(/^No boot banner and no reply to "identify" from \/dev\/ttyUSB7 within 3750 ms: no dicerig firmware on the board\?/);
  });

  it('suggests the Firmata driver for a board that may run stock StandardFirmata', async () => {
    const { err } = await connectError(false);
    expect((err as Error).message).toMatch(/Flash it with "make -C firmware upload PORT=\/dev\/ttyUSB7", or, if it runs stock StandardFirmata, use --rig firmata instead\. Or the wrong baud rate/);
  });

  it('names another program that has the port open, by pid and command, instead of blaming the firmware', async () => {
    const holders: PortHolders = { device: '/dev/ttyUSB7', holders: [{ pid: 4242, command: 'cat /dev/ttyUSB7' }], unseen: 0 };
    const { err } = await connectError(false, { findPortHolders: async () => holders });
    expect(err).toBeInstanceOf(RigSilentError);
    expect((err as Error).message).toBe(
      'No reply to "identify" from /dev/ttyUSB7 within 3750 ms, and another program has the port open, which takes the board\'s lines before dicerig can read them: ' +
        'pid 4242 (cat /dev/ttyUSB7). Close it (or stop it: kill 4242) and try again.',
    );
    expect((err as RigSilentError).rig).toMatchObject({ port: '/dev/ttyUSB7', command: 'identify', seq: expect.any(Number) });
  });

  it('says for how many processes it could not tell whether they hold the port', async () => {
    const holders: PortHolders = { device: '/dev/ttyUSB7', holders: [], unseen: 3 };
    const { err } = await connectError(false, { findPortHolders: async () => holders });
    expect((err as Error).message).toMatch(/Flash it with .*\(Whether another program reads the port could not be seen for 3 processes of other users: "sudo fuser -v \/dev\/ttyUSB7" lists them\.\)$/);
  });
});
