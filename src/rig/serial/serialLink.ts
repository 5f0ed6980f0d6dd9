import { BAUD } from '../protocol/pinMap.js';
import { linkOverBinding, type BindingPort } from './bindingLink.js';

export type { SerialLink } from './link.js';
import type { SerialLink } from './link.js';

/** How to open a link; the default line speed is our firmware's (115200), StandardFirmata's is 57600. */
export interface LinkOpenOptions {
  readonly baudRate?: number;
}

/** Opens a link by path. */
export type LinkOpener = (path: string, options?: LinkOpenOptions) => Promise<SerialLink>;

/** Why a port would not open, as far as the OS error tells. */
export type OpenFailure = 'missing' | 'busy' | 'permission' | 'other';

/** A port could not be opened; `reason` sorts the OS message into the causes a user can act on. */
export class LinkOpenError extends Error {
  constructor(
    readonly path: string,
    readonly reason: OpenFailure,
    readonly osMessage: string,
  ) {
    super(`cannot open ${path}: ${osMessage}`);
    this.name = 'LinkOpenError';
  }
}

/** Sorts an OS open error (serialport gives messages, not codes) into a cause. */
export function classifyOpenError(message: string): OpenFailure {
  if (/ENOENT|No such file|cannot find|not found/i.test(message)) return 'missing';
  if (/EBUSY|Cannot lock port|Resource temporarily unavailable|Resource busy|Access denied.*in use/i.test(message)) return 'busy';
  if (/EACCES|Permission denied|Operation not permitted/i.test(message)) return 'permission';
  return 'other';
}

/**
 * Opens `path` with the serialport package's binding at 8N1 (default 115200 baud, our protocol's), locked
 * against other programs. The link reads and writes the port itself rather than through serialport's stream, which
 * costs the host two to three times the CPU per reply (see bindingLink.ts).
 */
export const openSerialPortLink: LinkOpener = async (path, options = {}) => {
  // Each platform's binding takes these options; the union type of the three cannot be called directly.
  // Loaded here, not at the top: every dicerig command that imports the rig layer paid ~30 ms for it.
  const { SerialPort } = await import('serialport');
  const binding = SerialPort.binding as { open(options: PortOpenOptions): Promise<BindingPort> };
  let port: BindingPort;
  try {
    port = await binding.open({ path, baudRate: options.baudRate ?? BAUD, dataBits: 8, parity: 'none', stopBits: 1, lock: true });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new LinkOpenError(path, classifyOpenError(message), message);
  }
  return linkOverBinding(path, port);
};

interface PortOpenOptions {
  path: string;
  baudRate: number;
  dataBits: 8;
  parity: 'none';
  stopBits: 1;
  lock: boolean;
}
