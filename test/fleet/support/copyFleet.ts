import { join } from 'node:path';
import { runCliOk as ok } from '../../cli/runCli.js';
import { startScratchPostgres, type ScratchPostgres } from '../../support/postgres.js';
import { loadedSessionStore } from './loadedSession.js';

/** A fleet holding a session and a copy of it: fleet session 1 the session (rig:1), 2 an import of its export (other:1). */
export interface CopyFleet {
  readonly pg: ScratchPostgres;
  /** The fleet store's URL. */
  readonly url: string;
  /** The rig's store, holding the session, and the other host's, holding the import of its export. */
  readonly rigDb: string;
  readonly otherDb: string;
}

/**
 * Puts a loaded D6's session (seed 5, 120 rolls: loadedSessionStore) in `dir`/rig.db, exports it as JSON Lines, imports the export into
 * `dir`/other.db, and syncs both to a scratch PostgreSQL fleet store, in that order (so the ids above).
 */
export async function copyFleet(dir: string): Promise<CopyFleet> {
  const pg = await startScratchPostgres();
  const url = await pg.createDatabase('fleet');
  const rigDb = join(dir, 'rig.db');
  const otherDb = join(dir, 'other.db');
  await loadedSessionStore(dir, rigDb);
  await ok('export', '1', '--db', rigDb, '--format', 'jsonl', '--out', join(dir, 's1.jsonl'));
  await ok('import', join(dir, 's1.jsonl'), '--db', otherDb);
  await ok('sync', '--db', rigDb, '--to', url, '--host', 'rig', '--quiet');
  await ok('sync', '--db', otherDb, '--to', url, '--host', 'other', '--quiet');
  return { pg, url, rigDb, otherDb };
}
