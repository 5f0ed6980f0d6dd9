import { hostname } from 'node:os';
import type { Command } from 'commander';
import { formatCount, formatCountOf } from '../../core/format.js';
import { InputError } from '../../core/errors.js';
import { fleetFailure, isFleetUrl, openFleet, redactUrl } from '../../fleet/connect.js';
import { copyNotes } from '../../fleet/copies.js';
import { checkHostName } from '../../fleet/hostName.js';
import { LocalRows } from '../../fleet/localRows.js';
import { syncStore } from '../../fleet/replicate.js';
import { bringForward } from '../../store/openStore.js';
import { SCHEMA_VERSION } from '../../store/migrations.js';
import { DB_HELP, rollStorePath } from '../dbOption.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, toJson } from '../options.js';

interface SyncFlags {
  db?: string;
  to: string;
  batch?: number;
  host?: string;
  json?: boolean;
  quiet?: boolean;
}

/** Registers `dicerig sync --to postgres://...`: copies the local roll store's committed throws into the fleet store. */
export function registerSyncCommand(program: Command, io: CliIo): void {
  program
    .command('sync')
    .summary('copy the local roll store into the fleet store (PostgreSQL)')
    .description(
      'Copies every committed throw of the local roll store, with its session, rig, dice, events, reviews and verdicts, into the fleet store: ' +
        'in batches, each one PostgreSQL transaction; a throw already there is skipped, so running it again (or after a crash on either side) ' +
        'copies only what is missing. Every hash chain is recomputed on arrival: a throw changed since it was recorded is refused, naming session and throw. ' +
        'URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DB, or postgres:///DB?host=/socket/folder for a unix socket.',
    )
    .requiredOption('--to <url>', 'the fleet store: postgres://... URL')
    .option('--db <path>', DB_HELP)
    .option('--batch <throws>', 'throws per batch (one transaction each; default 500)', positiveIntArg)
    .option('--host <name>', "this rig host's name as the fleet store records it (default: the hostname)")
    .option('--json', 'print the result as JSON')
    .option('--quiet', 'no progress on standard error')
    .action(async (flags: SyncFlags) => {
      if (!isFleetUrl(flags.to)) throw new InputError(`--to must be a postgres:// URL of the fleet store, not "${flags.to}"`);
      if (isFleetUrl(flags.db)) throw new InputError('--db is the local roll store to copy from (a file), not a postgres:// URL');
      if (flags.host !== undefined) checkHostName(flags.host);
      const path = rollStorePath(flags.db);
      // The fleet takes rows as this dicerig's schema has them: an older store is brought forward first, and told.
      const was = bringForward(path);
      if (was !== undefined) io.err(`dicerig: note: brought ${path} forward from schema version ${was} to ${SCHEMA_VERSION} to sync it; the dicerig that wrote it can no longer open it.\n`);
      const local = LocalRows.open(path);
      try {
        const fleet = await openFleet(flags.to);
        try {
          let lastLine = 0;
          const result = await syncStore(local, fleet, {
            ...(flags.batch !== undefined ? { batchThrows: flags.batch } : {}),
            ...(flags.host !== undefined ? { host: flags.host } : {}),
            keepGoing: true,
            onBatch: (p) => {
              // Progress for a long sync: at most one line a second.
              if (flags.quiet === true || Date.now() - lastLine < 1000) return;
              lastLine = Date.now();
              io.err(`sync: session ${p.localSession} -> fleet session ${p.fleetSession}: ${formatCount(p.fleetThrows)} of ${formatCount(p.localThrows)} throws\n`);
            },
          });
          for (const note of result.notes) io.err(`dicerig: note: ${note}\n`);
          // An import of an export of a session the fleet holds too (either synced first): stored, counted once.
          let copies: string[];
          try {
            copies = await copyNotes(fleet.pool, { host: flags.host ?? hostname(), db: local.path });
          } catch (e) {
            throw fleetFailure(e, fleet.where, fleet.where, 'looking for copies of the sessions it copied');
          }
          for (const note of copies) io.err(`dicerig: note: ${note}\n`);
          // Each refused session by name; the others were copied. Exit 1: the fleet store lacks what these hold.
          for (const why of result.refused) io.err(`dicerig: ${why}\n`);
          if (result.refused.length > 0) io.setExitCode(1);
          if (flags.json === true) {
            io.out(`${toJson({ db: path, to: redactUrl(flags.to), ...result, copies })}\n`);
          } else {
            io.out(
              `Copied ${formatCountOf(result.throws, 'throw')} (${formatCountOf(result.rolls, 'roll')}), ${formatCountOf(result.events, 'event')} and ${formatCountOf(result.reviews, 'review')} ` +
                `of ${formatCountOf(result.sessions, 'session')} from ${path} to ${fleet.where}` +
                `${result.duplicates > 0 ? `; ${formatCountOf(result.duplicates, 'throw')} ${result.duplicates === 1 ? 'was' : 'were'} already there` : ''}` +
                `${result.refused.length > 0 ? `; ${result.refused.length} ${result.refused.length === 1 ? 'session was' : 'sessions were'} refused (above)` : ''}.\n`,
            );
          }
        } finally {
          await fleet.close();
        }
      } finally {
        local.close();
      }
    });
}
