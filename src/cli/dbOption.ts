/** The `--db <path>` option every command that opens the roll store takes: one help text, one default. */
import { resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { isFleetUrl, redactUrl } from '../fleet/connect.js';
import { defaultDatabasePath } from '../store/databasePath.js';

const DEFAULT_WHERE = '$XDG_DATA_HOME/dicerig/dicerig.db, else ~/.local/share/dicerig/dicerig.db';

/** `--db` help for commands that read or write the store. */
export const DB_HELP = `roll store file (default: ${DEFAULT_WHERE})`;

/** `--db` help for commands that read stored sessions, from a local store or the fleet store. */
export const FLEET_DB_HELP = `${DB_HELP}, or the fleet store: postgres://... URL`;

/** `--db` help for commands that run a session, whose config may name the store. */
export const SESSION_DB_HELP = `roll store file (default: the config's db, else ${DEFAULT_WHERE})`;

/**
 * The roll store a command opens: `--db`, else the session config's `db`, else the user's default
 * (`defaultDatabasePath`), always as an absolute path so messages and stored records name one file.
 */
export function rollStorePath(flag: string | undefined, configDb?: string): string {
  const chosen = flag ?? configDb;
  // Commands that read the fleet store branch before they get here; a URL taken as a file name would make a local store named "postgres:".
  if (isFleetUrl(chosen)) {
    throw new InputError(
      `${flag !== undefined ? '--db' : "the config's db"} ${redactUrl(chosen)} is the fleet store (PostgreSQL): this command needs a local roll store file. ` +
        'run and demo copy to the fleet store with --fleet URL, dicerig sync --to URL copies a store; report, export, pool, analyze, verify and sessions read it, and serve shows it.',
    );
  }
  return chosen !== undefined ? resolve(chosen) : defaultDatabasePath(process.env, process.platform);
}
