import { FIRMATA_PLUG_IN_HINT, findRigPort } from '../ports.js';
import type { RigFactory } from '../registry.js';
import { startEmulatedFirmata } from './emulatedFirmata.js';
import { FirmataRigDriver } from './firmataDriver.js';
import { firmataOptionsFromKeys } from './firmataSettings.js';

/** A board running stock StandardFirmata, driven through johnny-five. */
export const firmataFactory: RigFactory = {
  name: 'firmata',
  description: 'stock StandardFirmata on an Arduino, driven through johnny-five; safety checks run in the host (--port PATH, or the one Arduino plugged in)',
  async create(options) {
    // Checked before any port is looked for: a bad setting is the config's problem, not the board's.
    const settings = firmataOptionsFromKeys(options.firmata);
    const port = options.port ?? (await findRigPort(options.listPorts, 'firmata', FIRMATA_PLUG_IN_HINT));
    return new FirmataRigDriver({ port, ...settings });
  },
};

/**
 * StandardFirmata in the emulated Uno, driven by the Firmata driver, with the same settings as a real
 * board. As with `emulated`, the rig starts at rest (its home switch closed), and the board stops when
 * the driver closes.
 */
export const emulatedFirmataFactory: RigFactory = {
  name: 'emulated-firmata',
  description: 'stock StandardFirmata running in an emulated Uno (simavr), driven through johnny-five; no hardware needed',
  async create(options) {
    const settings = firmataOptionsFromKeys(options.firmata);
    options.log?.('starting the emulated board (StandardFirmata in simavr)');
    const { board, driver } = await startEmulatedFirmata(settings);
    board.pressSwitch('home');
    return driver;
  },
};
