import { InputError } from '../core/errors.js';
import { formatCountOf } from '../core/format.js';
import { isFleetUrl, redactUrl } from '../fleet/connect.js';
import { startContinuousSync, type ContinuousSyncStatus } from '../fleet/continuousSync.js';
import type { CliIo } from './io.js';

/** `--fleet URL` help: continuous replication beside a session. */
export const FLEET_HELP = 'also copy every committed throw to the fleet store (postgres://... URL) in the background; the session never waits for it';

/** Refuses a `--fleet` that is not a postgres:// URL (before a session opens). */
export function checkFleetUrl(url: string): void {
  if (!isFleetUrl(url)) throw new InputError(`--fleet must be a postgres:// URL of the fleet store, not "${url}"`);
}

/**
 * Continuous replication of `db` to the fleet store while a session runs
 * (`run --fleet`, `demo --fleet`): `poke` wakes it after each session
 * event (a throw was committed); `finish`, once the store is closed, makes a
 * last pass and returns the line saying where replication got (and, where it
 * fell short, `later`: what copies the rest; `dicerig sync` by default).
 */
export function attachFleetSync(io: CliIo, db: string, url: string, host?: string, later?: string): { poke: () => void; finish: () => Promise<string> } {
  checkFleetUrl(url);
  const sync = startContinuousSync(db, url, { idleMs: 1000, report: (line) => io.err(`${line}\n`), ...(host !== undefined ? { host } : {}) });
  return {
    poke: () => sync.poke(),
    finish: async () => fleetFinishLine(await sync.stop(), redactUrl(url), later ?? `run \`dicerig sync --db ${db} --to URL\` later.`),
  };
}

/** Where replication got when the session ended, and (`afterwards`) what copies any throw it left behind. */
export function fleetFinishLine(s: Pick<ContinuousSyncStatus, 'refused' | 'loginRefused' | 'error' | 'behind' | 'refusedSessions'>, where: string, afterwards: string): string {
  if (s.refused) return `Fleet store ${where}: replication stopped (${s.error}).\n`;
  // Sessions the fleet refused are said first; what follows is about the others.
  const n = s.refusedSessions.length;
  const refused = n === 0 ? '' : `${formatCountOf(n, 'session')} refused (${s.refusedSessions.join('; ')}: why above); `;
  const throws = n === 0 ? 'throw' : 'throw of the others';
  if (s.loginRefused) return `Fleet store ${where}: ${refused}nothing more was copied (${s.error}); every throw is safe in the local store: once the login works, ${afterwards}\n`;
  // After a failed last pass the count from the pass before is stale: throws committed since may be missing too.
  if (s.error !== null) return `Fleet store ${where}: ${refused}could not confirm that every ${throws} was copied (${s.error}); any not copied are safe in the local store: ${afterwards}\n`;
  if ((s.behind ?? 0) > 0) return `Fleet store ${where}: ${refused}${formatCountOf(s.behind ?? 0, 'throw')} not copied yet; ${s.behind === 1 ? 'it is' : 'they are'} safe in the local store: ${afterwards}\n`;
  return `Fleet store ${where}: ${refused}every ${throws} copied.\n`;
}
