import type { Command } from 'commander';
import { formatCount } from '../../core/format.js';
import { renderTable } from '../../core/textTable.js';
import { isFleetUrl } from '../../fleet/connect.js';
import { listFleetSessions } from '../../fleet/fleetReader.js';
import { fleetStateText } from '../../fleet/quietSession.js';
import { storeFileLabels } from '../../fleet/storeFileLabels.js';
import { withReadableStore } from '../../store/openStore.js';
import { FLEET_DB_HELP, rollStorePath } from '../dbOption.js';
import type { CliIo } from '../io.js';
import { toJson } from '../options.js';
import { fleetSessionListing, localSessionListings, localStateText } from '../sessionListing.js';
import { withFleet } from '../storedSessions.js';

/** Registers `dicerig sessions`: the sessions of a roll store, or of the fleet store with the rig host and local id each came from. */
export function registerSessionsCommand(program: Command, io: CliIo): void {
  program
    .command('sessions')
    .summary('list the sessions of the roll store or the fleet store')
    .description(
      'Lists the stored sessions: id, name, state and throws. For the fleet store (--db postgres://...) also the rig, the campaign, ' +
        'and where each came from: the rig host, its store file (its file name, or as much of its path as tells it from the host\'s other store files) and the session id there. ' +
        'A running session of a local store whose process is gone (killed, crashed) is shown as "running?" with the resume command; ' +
        'one of the fleet store from which no throw has arrived for 10 minutes as "running? (no throw arrived for N min)": its rig host may be gone; ' +
        'a campaign session whose batch another host took over (campaign run --take-over) as "taken over", naming the host rolling it now (--json: takenOver): its rolls no longer count. ' +
        'An import of an export edited since it was sealed (import --allow-edited) is marked so in its state (--json: edited): its rolls are the user\'s own, with no session verdict. ' +
        '--json gives both stores one shape (see the README). ' +
        'A fleet session is named by its fleet id, its name, or HOST:ID; when one host synced several store files their sessions can share HOST:ID, and only the fleet id names one of them.',
    )
    .option('--db <path>', FLEET_DB_HELP)
    .option('--json', 'print the list as JSON')
    .action(async (flags: { db?: string; json?: boolean }) => {
      if (isFleetUrl(flags.db)) {
        await withFleet(flags.db, async (fleet) => {
          const list = await listFleetSessions(fleet);
          if (flags.json === true) {
            io.out(`${toJson(list.map(fleetSessionListing))}\n`);
            return;
          }
          const storeFile = storeFileLabels(list);
          const now = Date.now();
          const rows = list.map((s) => [String(s.id), s.name ?? '', s.rigId ?? '', s.campaign ?? '', storeFile(s), `${s.originHost}:${s.localId}`, fleetStateText(s, now), `${formatCount(s.throwCount)}${s.throwCount < s.localThrowCount ? ` of ${formatCount(s.localThrowCount)}` : ''}`]);
          io.out(list.length === 0 ? `${fleet.where} holds no sessions.\n` : renderTable(['fleet id', 'name', 'rig', 'campaign', 'store file', 'from (host:id)', 'state', 'throws'], rows, 7));
        });
        return;
      }
      const path = rollStorePath(flags.db);
      await withReadableStore(path, ({ store }) => {
        const list = localSessionListings(store);
        if (flags.json === true) {
          io.out(`${toJson(list)}\n`);
          return;
        }
        const rows = list.map((s) => [String(s.id), s.name ?? '', localStateText(s, flags.db), formatCount(s.throwCount)]);
        // The file asked for, not the copy an older store is read through.
        io.out(list.length === 0 ? `${path} holds no sessions.\n` : renderTable(['id', 'name', 'state', 'throws'], rows, 3));
      }, (note) => io.err(`dicerig: note: ${note}\n`));
    });
}
