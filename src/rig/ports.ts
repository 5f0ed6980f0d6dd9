/**
 * Finding a rig's serial port and explaining why one would not open, for every driver that talks
 * over a port (our firmware and StandardFirmata): the same search, the same advice.
 */
import type { DriverKind } from './driver.js';
import { RigConnectError, RigGoneError, type RigErrorContext } from './errors.js';
import { likelyRigPorts, listSerialPorts, type PortLister } from './serial/portLocator.js';
import { LinkOpenError } from './serial/serialLink.js';

/** What to tell a user who has no board plugged in (the serial driver's hint). */
export const PLUG_IN_HINT =
  'Plug in an Arduino Uno running the dicerig firmware (flash it with "make -C firmware upload PORT=/dev/ttyACM0") and name its port with --port, ' +
  'or try without hardware: --rig emulated runs the real firmware in an emulator, --rig sim a simulated rig.';

/** The same for the Firmata driver. */
export const FIRMATA_PLUG_IN_HINT =
  'Plug in an Arduino Uno running StandardFirmata (Arduino IDE: File > Examples > Firmata > StandardFirmata) and name its port with --port, ' +
  'or try without hardware: --rig emulated-firmata runs StandardFirmata in an emulated Uno.';

/**
 * The port of the one Arduino-like board plugged in (its stable by-id link when it has one); a clear
 * error naming the ports found, and `hint` (what to plug in or flash), for none or several.
 */
export async function findRigPort(listPorts?: PortLister, driver: DriverKind = 'serial', hint: string = PLUG_IN_HINT): Promise<string> {
  const ports = await listSerialPorts(listPorts ? { listPorts } : {});
  const likely = likelyRigPorts(ports);
  const only = likely[0];
  if (likely.length === 1 && only) return only.byId ?? only.path;
  const ctx = { command: 'connect', driver };
  if (likely.length > 1) {
    throw new RigConnectError(`Several serial ports look like Arduinos (${likely.map((p) => p.path).join(', ')}): choose the rig's with --port.`, ctx);
  }
  const others = ports.length > 0 ? ` (serial ports here: ${ports.map((p) => p.path).join(', ')}; none has an Arduino's USB ids)` : '';
  throw new RigConnectError(`No rig found: no USB serial port with an Arduino is plugged in${others}. ${hint}`, ctx);
}

/**
 * A port that would not open, as a `RigConnectError` that names the likely cause and what to do. A board that cannot
 * come back (RigGoneError) passes as it is: wrapped, the reconnect loop would not know to stop, and polled on to its end.
 */
export function portOpenError(path: string, e: unknown, ctx: RigErrorContext): RigConnectError {
  if (e instanceof RigGoneError) return e;
  if (!(e instanceof LinkOpenError)) return new RigConnectError(`Cannot open ${path}: ${e instanceof Error ? e.message : String(e)}.`, ctx, { cause: e });
  switch (e.reason) {
    case 'missing':
      return new RigConnectError(`No serial port at ${path}: is the board plugged in? "dicerig rig list" shows the serial ports of this machine.`, ctx, { cause: e });
    case 'busy':
      return new RigConnectError(`${path} is in use by another program (an Arduino IDE serial monitor, another dicerig?): close it and try again.`, ctx, {
        cause: e,
      });
    case 'permission':
      return new RigConnectError(
        `No permission to open ${path}: add your user to the "dialout" group (sudo usermod -aG dialout $USER, then log in again).`,
        ctx,
        { cause: e },
      );
    default:
      return new RigConnectError(`Cannot open ${path}: ${e.osMessage}.`, ctx, { cause: e });
  }
}
