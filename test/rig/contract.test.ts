// The RigDriver contract (contract/driverContract.ts) against every driver we have: the serial driver
// on the emulated board running our firmware, the simulated rig, and a real board when DICERIG_PORT
// names its port (without it those cases are reported as skipped, saying what to plug in).
import { beforeAll } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { EmulatedBoard } from '../../src/rig/emulator/emulatedBoard.js';
import { rigFactories } from '../../src/rig/factory.js';
import { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import { SimulatedRig } from '../../src/rig/simulated/simulatedRig.js';
import { describeRigDriverContract, pressLimitDuringTumble, releaseLimit, unplugBusDuringTumble } from './contract/driverContract.js';
import { buildFirmware } from './support/build.js';
import { FaultyLinkBus } from './support/faultyLink.js';

beforeAll(() => {
  buildFirmware();
});

describeRigDriverContract(
  'serial driver on the emulated board (the real firmware in simavr)',
  async () => {
    const board = await EmulatedBoard.start();
    board.pressSwitch('home'); // the tumbler rests at home
    // Through a "USB cable" the lifecycle case can pull and plug back in (under another path, same USB serial number).
    const bus = new FaultyLinkBus(board.path);
    const driver = new SerialRigDriver({ path: '/virtual/ttyACM0', openLink: bus.open, listPorts: bus.list, byIdDir: '/nonexistent-by-id' });
    return {
      driver,
      board,
      bus,
      cleanup: async () => {
        await driver.close();
        bus.dispose();
        await board.stop();
      },
    };
  },
  {
    expectDriver: 'serial',
    expectSimulated: false,
    hasPort: true,
    faultDuringTumble: pressLimitDuringTumble,
    clearFault: releaseLimit,
    unplugDuringTumble: unplugBusDuringTumble,
  },
);

describeRigDriverContract(
  'simulated rig on a simulated clock',
  async () => {
    const clock = new SimulatedClock();
    const driver = new SimulatedRig({ clock, seed: 7 });
    return { driver, cleanup: () => driver.close() };
  },
  {
    expectDriver: 'simulated',
    expectSimulated: true,
    faultDuringTumble: async (s) => {
      // Let the motion get going on the simulated clock, then jam it.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      (s.driver as SimulatedRig).injectFault('jam');
      return 'jam';
    },
    unplugDuringTumble: async (s) => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      (s.driver as SimulatedRig).injectFault('disconnected');
      // The simulated link comes back by itself after relinkMs on the rig's clock.
      return async () => undefined;
    },
  },
);

const realPort = process.env['DICERIG_PORT'];
describeRigDriverContract(
  realPort ? `real board on DICERIG_PORT=${realPort}` : 'real board on DICERIG_PORT',
  async () => {
    const driver = await rigFactories.create('serial', { port: realPort as string });
    return { driver, cleanup: () => driver.close() };
  },
  {
    ...(realPort ? {} : { skip: 'plug in an Arduino Uno running the dicerig firmware (make -C firmware upload PORT=/dev/ttyACM0) and set DICERIG_PORT=/dev/ttyACM0' }),
    expectDriver: 'serial',
    expectSimulated: false,
    hasPort: true,
    timeoutMs: 30_000,
  },
);
