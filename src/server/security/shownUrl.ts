/**
 * The address a server says it is at. Bound to every interface (`--host 0.0.0.0` or `::`), it printed
 * http://0.0.0.0:8080, which is no address to type into a phone or OBS on another machine: it now names one of this
 * machine's network addresses, and the loopback one for this machine.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '::0']);

/** Whether `host` binds every interface rather than one address. */
export function isWildcard(host: string): boolean {
  return WILDCARDS.has(host);
}

const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * The URL to show for a server on `host`:`port`, and for a wildcard host the loopback URL for this machine too.
 * The first non-internal address is preferred as IPv4 (an IPv4-only listener, `0.0.0.0`, cannot take IPv6).
 */
export function shownUrl(host: string, port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): { url: string; local?: string } {
  if (!isWildcard(host)) return { url: `http://${bracketed(host)}:${port}` };
  const all = Object.values(interfaces).flatMap((list) => list ?? []).filter((a) => !a.internal);
  const v4 = all.find((a) => a.family === 'IPv4');
  const v6 = host === '0.0.0.0' ? undefined : all.find((a) => a.family === 'IPv6' && !a.address.startsWith('fe80'));
  const local = host === '0.0.0.0' ? '127.0.0.1' : 'localhost';
  const lan = v4?.address ?? v6?.address;
  return lan === undefined ? { url: `http://${local}:${port}` } : { url: `http://${bracketed(lan)}:${port}`, local: `http://${local}:${port}` };
}
