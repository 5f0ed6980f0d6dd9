import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';

/** One serial port as the OS describes it (only `path` is guaranteed). */
export interface SerialPortInfo {
  readonly path: string;
  readonly manufacturer?: string;
  readonly serialNumber?: string;
  readonly vendorId?: string;
  readonly productId?: string;
  /** The stable /dev/serial/by-id link that points at this port, when udev made one. */
  readonly byId?: string;
  /** What the USB ids say the board is, e.g. "Arduino (genuine)". */
  readonly board?: string;
}

/** Lists ports; the default asks the OS through serialport (on Linux it uses udevadm). */
export type PortLister = () => Promise<readonly SerialPortInfo[]>;

export const listSystemPorts: PortLister = async () =>
  (await (await import('serialport')).SerialPort.list()).map((p) => ({
    path: p.path,
    ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
    ...(p.serialNumber ? { serialNumber: p.serialNumber } : {}),
    ...(p.vendorId ? { vendorId: p.vendorId.toLowerCase() } : {}),
    ...(p.productId ? { productId: p.productId.toLowerCase() } : {}),
  }));

/** Where udev puts stable per-device links on Linux. */
export const BY_ID_DIR = '/dev/serial/by-id';

/** USB vendors whose serial chips sit on Unos and their clones. */
const USB_VENDORS: Readonly<Record<string, string>> = {
  '2341': 'Arduino (genuine)',
  '2a03': 'Arduino (arduino.org)',
  '1a86': 'CH340 USB serial (common on Uno clones)',
  '0403': 'FTDI USB serial',
  '10c4': 'Silicon Labs CP210x USB serial',
};

/** What a port's USB vendor id says it is, if it is a chip found on Arduino boards. */
export function describeUsbBoard(vendorId: string | undefined): string | undefined {
  return vendorId === undefined ? undefined : USB_VENDORS[vendorId.toLowerCase()];
}

/** Maps each by-id link's target (real path) to the link. A missing folder means no links. */
export async function byIdLinks(dir: string = BY_ID_DIR): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const link = join(dir, name);
    try {
      out.set(await realpath(link), link);
    } catch {
      // a dangling link: its device is gone
    }
  }
  return out;
}

async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

export interface LocatorOptions {
  readonly listPorts?: PortLister;
  readonly byIdDir?: string;
}

/** Every serial port with its by-id link and what its USB ids say, Arduino-like ports first. */
export async function listSerialPorts(options: LocatorOptions = {}): Promise<SerialPortInfo[]> {
  const ports = await (options.listPorts ?? listSystemPorts)();
  const links = await byIdLinks(options.byIdDir);
  const out: SerialPortInfo[] = [];
  for (const p of ports) {
    const real = (await realPathOf(p.path)) ?? p.path;
    const byId = p.byId ?? links.get(real);
    const board = p.board ?? describeUsbBoard(p.vendorId);
    out.push({ ...p, ...(byId ? { byId } : {}), ...(board ? { board } : {}) });
  }
  return out.sort((a, b) => Number(b.board !== undefined) - Number(a.board !== undefined) || a.path.localeCompare(b.path));
}

/** Ports that look like a USB Arduino (a known USB serial vendor). */
export function likelyRigPorts(ports: readonly SerialPortInfo[]): SerialPortInfo[] {
  return ports.filter((p) => p.board !== undefined);
}

/** What identifies the device behind a port beyond its path, so it can be found again after a replug. */
export interface PortFingerprint {
  readonly path: string;
  readonly serialNumber?: string;
  readonly byId?: string;
  readonly vendorId?: string;
  readonly productId?: string;
}

/** Records the USB serial number and by-id link of the device now at `path`. */
export async function fingerprintPort(path: string, options: LocatorOptions = {}): Promise<PortFingerprint> {
  let ports: SerialPortInfo[] = [];
  try {
    ports = await listSerialPorts(options);
  } catch {
    // Listing can fail (no udevadm); reconnecting then falls back to the path and the by-id link.
  }
  const real = (await realPathOf(path)) ?? path;
  const me = ports.find((p) => p.path === path || p.path === real || p.byId === path);
  const byId = path.startsWith(`${options.byIdDir ?? BY_ID_DIR}/`) ? path : (me?.byId ?? (await byIdLinks(options.byIdDir)).get(real));
  return {
    path,
    ...(me?.serialNumber ? { serialNumber: me.serialNumber } : {}),
    ...(byId ? { byId } : {}),
    ...(me?.vendorId ? { vendorId: me.vendorId } : {}),
    ...(me?.productId ? { productId: me.productId } : {}),
  };
}

/**
 * Where the device may be now, best first: its by-id link (stable across
 * replugs), a port with its USB serial number (it came back as ttyACM1), then
 * its old path. Paths are not checked for existence here; the caller tries to open them.
 */
export async function relocatePort(fp: PortFingerprint, options: LocatorOptions = {}): Promise<string[]> {
  const out: string[] = [];
  if (fp.byId) {
    const target = await realPathOf(fp.byId);
    if (target) out.push(fp.byId);
  }
  if (fp.serialNumber) {
    try {
      const ports = await (options.listPorts ?? listSystemPorts)();
      for (const p of ports) if (p.serialNumber === fp.serialNumber && !out.includes(p.path)) out.push(p.path);
    } catch {
      // no listing: fall through to the path
    }
  }
  if (!out.includes(fp.path)) out.push(fp.path);
  return out;
}
