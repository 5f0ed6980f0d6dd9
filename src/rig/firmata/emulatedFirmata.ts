import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EmulatedBoard, type EmulatedBoardOptions } from '../emulator/emulatedBoard.js';
import { RigConnectError, RigGoneError } from '../errors.js';
import { openSerialPortLink } from '../serial/serialLink.js';
import { FirmataRigDriver, type FirmataDriverOptions } from './firmataDriver.js';

/**
 * The prebuilt StandardFirmata (2.4) for the Uno that the npm package avrgirl-arduino ships (a
 * development dependency: the emulated board is a development tool). Throws naming what to install.
 */
export function standardFirmataHex(): string {
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('avrgirl-arduino/package.json'));
  } catch (error) {
    throw new RigConnectError(
      'The emulated StandardFirmata board needs the StandardFirmata build that the npm package avrgirl-arduino ships, ' +
        'which is not installed: run "npm install" in a checkout of dicerig (it is a development dependency).',
      { driver: 'firmata' },
      { cause: error },
    );
  }
  const hex = join(dir, 'junk', 'hex', 'uno', 'StandardFirmata.cpp.hex');
  if (!existsSync(hex)) {
    throw new RigConnectError(`avrgirl-arduino is installed but has no StandardFirmata build for the Uno at ${hex}.`, { driver: 'firmata' });
  }
  return hex;
}

export interface EmulatedFirmataOptions extends Omit<FirmataDriverOptions, 'port' | 'onClosed'> {
  /** The simavr harness binary; default firmware/build/dicerig-sim. */
  readonly harness?: EmulatedBoardOptions['harness'];
}

/**
 * How long the driver waits for the emulated board to answer. StandardFirmata never sleeps, so simavr
 * simulates every cycle (about half a core per board); on a busy machine the emulation falls behind
 * the wall clock and the ~2 s start-up blink can take several times as long.
 */
export const EMULATED_CONNECT_TIMEOUT_MS = 20_000;

/**
 * Starts the emulated Uno running stock StandardFirmata and a Firmata driver on its port (not yet
 * connected). Closing the driver stops the emulated board.
 */
export async function startEmulatedFirmata(options: EmulatedFirmataOptions = {}): Promise<{ board: EmulatedBoard; driver: FirmataRigDriver }> {
  const { harness, ...driverOptions } = options;
  const board = await EmulatedBoard.start({ firmware: standardFirmataHex(), ...(harness ? { harness } : {}) });
  const openLink = driverOptions.openLink ?? openSerialPortLink;
  const driver = new FirmataRigDriver({
    connectTimeoutMs: EMULATED_CONNECT_TIMEOUT_MS,
    ...driverOptions,
    // Once the emulator has ended, its pty number is free for the system to give to another program:
    // the driver must not open that path again when it tries to reconnect.
    openLink: (path, linkOptions) => {
      const { exited, code } = board.stopped;
      if (exited) {
        return Promise.reject(
          new RigGoneError(
            `the emulated StandardFirmata board (simavr) has ended (${code === null ? 'killed by a signal' : `exit code ${code}`}), ` +
              `so ${path} is no longer its port and is not opened again; run the command again to start a new emulated board.`,
            { port: path, driver: 'firmata' },
          ),
        );
      }
      return openLink(path, linkOptions);
    },
    port: board.path,
    onClosed: () => board.stop(),
  });
  return { board, driver };
}
