/**
 * Where the server may listen. Loopback by default: the rig is a machine that
 * moves, and its API must not be reachable from the network by accident. A
 * non-loopback address must be asked for with --host, and needs an API token.
 */
import { createServer, isIP } from 'node:net';
import { InputError } from '../../core/errors.js';

/**
 * Whether only this machine can reach the server: listening on loopback, and not behind a proxy (a proxy on this
 * machine passes on requests from anywhere, each addressed to the proxy's public host name).
 */
export function onlyThisMachine(host: string, trustedProxies: readonly string[] = []): boolean {
  return isLoopback(host) && trustedProxies.length === 0;
}

export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Checks the address to bind; throws an InputError saying what is needed. Behind a proxy (`trustedProxies` given)
 * the server is reachable from the network whatever address it listens on, so it needs the token there too.
 */
export function checkBinding(host: string, hasApiToken: boolean, trustedProxies: readonly string[] = []): void {
  if (trustedProxies.length > 0 && !hasApiToken) {
    throw new InputError(
      `--trust-proxy ${trustedProxies.join(',')}: a server behind a proxy is reachable from the network; that needs an API token: set DICERIG_TOKEN (or server.token in the config), then start it again`,
    );
  }
  if (isLoopback(host)) return;
  if (!hasApiToken) {
    throw new InputError(
      `--host ${host}: listening there makes the rig reachable from the network; that needs an API token: set DICERIG_TOKEN (or server.token in the config), then run with --host ${host} again`,
    );
  }
}

/** Why a port cannot be listened on, by the error's code; `who` is what is likely there already (another dicerig review?). */
const LISTEN_PROBLEMS: Readonly<Record<string, (who: string) => string>> = {
  EADDRINUSE: (who) => `is already in use: something is listening there (another ${who}?); stop it, or give --port 0 for a free port`,
  EACCES: () => 'may not be listened on by this user (ports below 1024 need privileges); pick a port from 1024 up, or --port 0 for a free one',
  EADDRNOTAVAIL: () => 'is not an address of this machine; check --host',
};

/**
 * A listen error as the one line a user should see, or the error itself when it is not one of those. `who`: the
 * command that is likely listening there already (the same command run twice), named in the hint.
 */
export function listenFailure(e: unknown, host: string, port: number, who = 'dicerig serve'): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? LISTEN_PROBLEMS[code] : undefined;
  if (why === undefined) return e;
  const shown = host.includes(':') ? `[${host}]` : host;
  return new InputError(`--port ${port}: ${shown}:${port} ${why(who)}`);
}

/** Refuses an address that cannot be listened on before anything is opened (port 0 always can). */
export async function checkListenable(host: string, port: number, who = 'dicerig serve'): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e) => reject(listenFailure(e, host, port, who)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
