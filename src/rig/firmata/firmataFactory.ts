import { RigConnectError } from '../errors.js';
import type { RigFactory } from '../factory.js';
import { likelyRigPorts, listSerialPorts, type PortLister } from '../serial/portLocator.js';
import { startEmulatedFirmata } from './emulatedFirmata.js';
import { FirmataRigDriver } from './firmataDriver.js';

const FLASH_HINT =
  'Plug in an Arduino Uno running StandardFirmata (Arduino IDE: File > Examples > Firmata > StandardFirmata) and name its port with --port, ' +
  'or try without hardware: --rig emulated-firmata runs StandardFirmata in an emulated Uno.';

/** The port of the one Arduino-like board plugged in, for the Firmata driver; a clear error for none or several. */
async function findFirmataPort(listPorts?: PortLister): Promise<string> {
  const likely = likelyRigPorts(await listSerialPorts(listPorts ? { listPorts } : {}));
  const only = likely[0];
  if (likely.length === 1 && only) return only.byId ?? only.path;
  if (likely.length > 1) {
    throw new RigConnectError(`Several serial ports look like Arduinos (${likely.map((p) => p.path).join(', ')}): choose the rig's with --port.`, {
      command: 'connect',
      driver: 'firmata',
    });
  }
  throw new RigConnectError(`No rig found: no USB serial port with an Arduino is plugged in. ${FLASH_HINT}`, { command: 'connect', driver: 'firmata' });
}

/** A board running stock StandardFirmata, driven through johnny-five. */
export const firmataFactory: RigFactory = {
  name: 'firmata',
  description: 'stock StandardFirmata on an Arduino, driven through johnny-five; safety checks run in the host (--port PATH, or the one Arduino plugged in)',
  async create(options) {
    const port = options.port ?? (await findFirmataPort(options.listPorts));
    return new FirmataRigDriver({ port });
  },
};

/**
 * StandardFirmata in the emulated Uno, driven by the Firmata driver. As with `emulated`, the rig
 * starts at rest (its home switch closed), and the board stops when the driver closes.
 */
export const emulatedFirmataFactory: RigFactory = {
  name: 'emulated-firmata',
  description: 'stock StandardFirmata running in an emulated Uno (simavr), driven through johnny-five; no hardware needed',
  async create(options) {
    options.log?.('starting the emulated board (StandardFirmata in simavr)');
    const { board, driver } = await startEmulatedFirmata();
    board.pressSwitch('home');
    return driver;
  },
};
