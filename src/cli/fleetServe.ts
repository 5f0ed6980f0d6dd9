/**
 * `dicerig serve --db postgres://...` (or `--fleet`): the read-only fleet
 * dashboard instead of a rig's. It opens no rig, camera or local store, so
 * the options that choose them are refused rather than ignored.
 */
import { InputError } from '../core/errors.js';
import { serveFleet } from '../server/fleet/serveFleet.js';
import { tokensFrom } from '../server/security/auth.js';
import { wrongTokensPerMinute } from '../server/fleet/wrongTokens.js';
import type { CliIo } from './io.js';
import { loadDice } from './loadDice.js';

export interface FleetServeFlags {
  readonly config?: string;
  readonly sim?: string | boolean;
  readonly mode?: string;
  readonly seed?: string;
  readonly port: number;
  readonly host?: string;
  readonly poll?: number;
  readonly diceFile?: string;
  /** The reverse proxies in front, checked (trustedProxies.ts). */
  readonly trustProxy?: readonly string[];
}

export async function serveFleetDashboard(io: CliIo, url: string, flags: FleetServeFlags, untilStopped: (close: () => Promise<void>) => Promise<void>): Promise<void> {
  const rigOnly = (['config', 'sim', 'mode', 'seed'] as const).filter((k) => flags[k] !== undefined);
  if (rigOnly.length > 0) {
    throw new InputError(`--${rigOnly.join(' and --')} ${rigOnly.length === 1 ? 'is' : 'are'} for a rig's own dashboard: with the fleet store (postgres://...) dicerig serve only shows what the rigs stored.`);
  }
  const tokens = tokensFrom({}, process.env);
  const wrongTokens = wrongTokensPerMinute(process.env);
  const running = await serveFleet({
    url,
    dice: loadDice(flags.diceFile),
    host: flags.host ?? '127.0.0.1',
    port: flags.port,
    tokens,
    pollMs: flags.poll ?? 5000,
    wrongTokensPerMinute: wrongTokens,
    ...(flags.trustProxy ? { trustedProxies: flags.trustProxy } : {}),
    log: (line) => io.out(`${line}\n`),
  });
  io.out(
    [
      `dicerig serve: fleet dashboard of ${running.fleet.where} (read-only)`,
      `  dashboard   ${running.url}/`,
      `  API         GET ${running.url}/api/fleet   ${tokens.api ? '(API token set)' : '(loopback only without DICERIG_TOKEN)'}`,
      'Ctrl-C stops.',
      '',
    ].join('\n'),
  );
  await untilStopped(() => running.close());
}
