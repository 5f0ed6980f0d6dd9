// The RigDriver contract (contract/driverContract.ts) against the Firmata driver: stock StandardFirmata in
// the emulated board, and a real board running StandardFirmata when DICERIG_FIRMATA_PORT names its port
// (without it those cases are reported as skipped, saying what to plug in).
import { beforeAll, describe, expect, it } from 'vitest';
import { rigFactories } from '../../src/rig/factory.js';
import { EmulatedBoard } from '../../src/rig/emulator/emulatedBoard.js';
import { EMULATED_CONNECT_TIMEOUT_MS, standardFirmataHex } from '../../src/rig/firmata/emulatedFirmata.js';
import { FirmataRigDriver } from '../../src/rig/firmata/firmataDriver.js';
import { firmataConfigHash, resolveFirmataSettings } from '../../src/rig/firmata/firmataSettings.js';
import { describeRigDriverContract, pressLimitDuringTumble, releaseLimit, unplugBusDuringTumble } from './contract/driverContract.js';
import { buildFirmware } from './support/build.js';
import { FaultyLinkBus } from './support/faultyLink.js';

beforeAll(() => {
  buildFirmware(); // the harness
});

describeRigDriverContract(
  'Firmata driver on StandardFirmata in the emulated board',
  async () => {
    const board = await EmulatedBoard.start({ firmware: standardFirmataHex() });
    board.pressSwitch('home'); // the tumbler rests at home
    // Through a "USB cable" the lifecycle case can pull and plug back in; Firmata is binary, so bytes pass as they come.
    const bus = new FaultyLinkBus(board.path, '/virtual/ttyACM0', 'EMU0001', 'bytes');
    const driver = new FirmataRigDriver({
      port: '/virtual/ttyACM0',
      openLink: bus.open,
      listPorts: bus.list,
      byIdDir: '/nonexistent-by-id',
      connectTimeoutMs: EMULATED_CONNECT_TIMEOUT_MS,
      onClosed: () => board.stop(),
    });
    return {
      driver,
      board,
      bus,
      cleanup: async () => {
        await driver.close(); // stops the board too
        bus.dispose();
        await board.stop();
      },
    };
  },
  {
    expectDriver: 'firmata',
    expectSimulated: false,
    hasPort: true,
    faultDuringTumble: pressLimitDuringTumble,
    clearFault: releaseLimit,
    unplugDuringTumble: unplugBusDuringTumble,
    // Emulated StandardFirmata costs about half a core per board and can fall behind the wall clock on a busy machine.
    timeoutMs: 40_000,
  },
);

const realPort = process.env['DICERIG_FIRMATA_PORT'];
describeRigDriverContract(
  realPort ? `Firmata driver on a real board on DICERIG_FIRMATA_PORT=${realPort}` : 'Firmata driver on a real board on DICERIG_FIRMATA_PORT',
  async () => {
    const driver = await rigFactories.create('firmata', { port: realPort as string });
    return { driver, cleanup: () => driver.close() };
  },
  {
    ...(realPort
      ? {}
      : { skip: 'flash StandardFirmata onto an Arduino Uno wired as the rig (Arduino IDE: File > Examples > Firmata) and set DICERIG_FIRMATA_PORT=/dev/ttyACM0' }),
    expectDriver: 'firmata',
    expectSimulated: false,
    hasPort: true,
    timeoutMs: 30_000,
  },
);

describe('the rig factory registry', () => {
  it('makes Firmata drivers by the names firmata and emulated-firmata, and emulated-firmata’s board stops with its driver', async () => {
    expect(rigFactories.names()).toEqual(expect.arrayContaining(['firmata', 'emulated-firmata']));
    const onPort = await rigFactories.create('firmata', { port: '/dev/ttyACM9' });
    expect(onPort).toBeInstanceOf(FirmataRigDriver);
    await onPort.close();

    const children = (): number => process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap').length;
    // An exited child's handle goes a few event-loop turns after its exit (the earlier tests' boards too).
    const settled = async (target: number): Promise<number> => {
      for (let i = 0; i < 100 && children() > target; i++) await new Promise((r) => setTimeout(r, 20));
      return children();
    };
    const before = await settled(0);
    const emulated = await rigFactories.create('emulated-firmata');
    expect(emulated).toBeInstanceOf(FirmataRigDriver);
    expect(emulated.kind).toBe('firmata');
    expect(children()).toBe(before + 1);
    await emulated.close();
    expect(await settled(before)).toBe(before);
  });

  it('gives the driver it makes the rig.firmata settings: the rig id, the configuration hash and the hold of each flip', { timeout: 40_000 }, async () => {
    const driver = await rigFactories.create('emulated-firmata', { firmata: { rig: 'bench-2', flip_ms: 300, flip_us: 2300 } });
    try {
      const id = await driver.connect();
      expect(id.rigId).toBe('bench-2');
      expect(id.configHash).toBe(firmataConfigHash(resolveFirmataSettings({ rig: 'bench-2', flipMs: 300, flipUs: 2300 })));
      // Two holds of 300 ms instead of the default 600 ms.
      const { durationMs } = await driver.tumble();
      expect(durationMs).toBeGreaterThanOrEqual(600);
      expect(durationMs).toBeLessThan(1200);
    } finally {
      await driver.close();
    }
  });

  it('refuses a rig.firmata value out of range before it looks for a board, naming the key', async () => {
    await expect(rigFactories.create('firmata', { firmata: { flip_us: 2600 } })).rejects.toThrow(/rig\.firmata\.flip_us.*544 to 2500/);
    await expect(rigFactories.create('emulated-firmata', { firmata: { rest_us: 500 } })).rejects.toThrow(/rig\.firmata\.rest_us/);
  });

  it('without a port, fails naming StandardFirmata when no Arduino is plugged in', async () => {
    await expect(rigFactories.create('firmata', { listPorts: async () => [{ path: '/dev/ttyS0' }] })).rejects.toThrow(/StandardFirmata/);
  });
});
