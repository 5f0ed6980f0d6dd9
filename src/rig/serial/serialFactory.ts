import { EmulatedBoard } from '../emulator/emulatedBoard.js';
import { findRigPort } from '../ports.js';
import type { RigFactory } from '../registry.js';
import { SerialRigDriver } from './serialDriver.js';

/** Our firmware on a real board over a serial port. */
export const serialFactory: RigFactory = {
  name: 'serial',
  description: 'the dicerig firmware on an Arduino over USB serial (--port PATH, or the one Arduino plugged in)',
  async create(options) {
    const path = options.port ?? (await findRigPort(options.listPorts));
    return new SerialRigDriver({ ...options.serial, path });
  },
};

/**
 * The real firmware in simavr on a pseudo-terminal, driven by the serial driver. The emulated
 * rig starts at rest (its home switch closed, as on a rig whose tumbler is home), and its
 * board stops when the driver closes.
 */
export const emulatedFactory: RigFactory = {
  name: 'emulated',
  description: 'the dicerig firmware running in an emulated Uno (simavr), no hardware needed',
  async create(options) {
    options.log?.('starting the emulated board (the dicerig firmware in simavr)');
    const board = await EmulatedBoard.start();
    board.pressSwitch('home');
    return new SerialRigDriver({
      ...options.serial,
      path: board.path,
      // The pty vanishes with the board and cannot come back: no point looking for it.
      reconnect: options.serial?.reconnect ?? false,
      onClosed: async () => {
        await options.serial?.onClosed?.();
        await board.stop();
      },
    });
  },
};
