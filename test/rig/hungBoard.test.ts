// A board that answered, then stopped answering while its port still opens: the driver looks for it again, and when
// it gives up says what a user can do about a hung board (the emulated board's case is in faults.test.ts). On a
// scripted board and a simulated clock, with the look for other programs on the port injected.
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { RigConnectError } from '../../src/rig/errors.js';
import type { PortHolders } from '../../src/rig/serial/portHolders.js';
import { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import { clockTimers } from '../../src/rig/timers.js';
import { ScriptedBoard } from './support/scriptedBoard.js';

let driver: SerialRigDriver | undefined;

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

async function hungAfterConnect(holders: PortHolders | undefined): Promise<unknown> {
  const clock = new SimulatedClock();
  const board = new ScriptedBoard(clock);
  driver = new SerialRigDriver({
    path: '/dev/ttyACM0',
    clock: clockTimers(clock),
    openLink: board.openLink,
    listPorts: async () => [],
    byIdDir: '/nonexistent-by-id',
    idleHeartbeatMs: 0,
    reconnectTimeoutMs: 5000,
    findPortHolders: async () => holders,
  });
  await driver.connect();
  board.hang();
  await driver.setLight(5).catch(() => undefined); // no reply: the link is declared lost, and looked for again
  return driver.status().then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('a board that stops answering', () => {
  it('is called hung, with power-cycling as the fix, and no advice to flash firmware that answered a moment ago', async () => {
    const err = await hungAfterConnect(undefined);
    expect(err).toBeInstanceOf(RigConnectError);
    expect((err as Error).message).toBe(
      'The rig on /dev/ttyACM0 stopped answering (no reply to "light" after 4 attempts), and in 5 s of trying again its port opens, but the board says nothing: ' +
        'it is hung, or its USB link stalled. Power-cycle it: unplug its USB cable (and its power supply) and plug it back in.',
    );
  });

  it('names another program that has the port open meanwhile, which may be taking the board\'s lines', async () => {
    const err = await hungAfterConnect({ device: '/dev/ttyACM0', holders: [{ pid: 4242, command: 'screen /dev/ttyACM0 115200' }], unseen: 0 });
    expect((err as Error).message).toMatch(
      /while another program has it open and may be taking the board's lines: pid 4242 \(screen \/dev\/ttyACM0 115200\)\. Close that program; if the board still says nothing, power-cycle it\.$/,
    );
  });
});
