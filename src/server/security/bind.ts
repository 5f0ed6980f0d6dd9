/**
 * Where the server may listen. Loopback by default: the rig is a machine that
 * moves, and its API must not be reachable from the network by accident. A
 * non-loopback address must be asked for with --host, and needs an API token.
 */
import { isIP } from 'node:net';
import { InputError } from '../../core/errors.js';

export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** Checks the address to bind; throws an InputError saying what is needed. */
export function checkBinding(host: string, hasApiToken: boolean): void {
  if (isLoopback(host)) return;
  if (!hasApiToken) {
    throw new InputError(
      `--host ${host}: listening there makes the rig reachable from the network; that needs an API token: set DICERIG_TOKEN (or server.token in the config), then run with --host ${host} again`,
    );
  }
}
