import { DicerigError } from '../core/errors.js';
import { isFleetUrl, openFleet, type FleetDb } from '../fleet/connect.js';
import { FleetError } from '../fleet/errors.js';
import { describeFleetSession, openFleetSessions } from '../fleet/fleetReader.js';
import { openStoreForReading, withReadableStore } from '../store/openStore.js';
import type { SessionRecord } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { rollStorePath } from './dbOption.js';

/**
 * Reading stored sessions from either store `--db` names: a local roll store
 * file, or a fleet store (a postgres:// URL), whose sessions are read through
 * snapshots (`src/fleet/snapshot.ts`) as the rig host that ran them stored
 * them, under their id there; `note` is told which fleet session that is.
 */
export interface StoredSession {
  readonly store: RollStore;
  readonly session: SessionRecord;
  /** The fleet's id of the session, when read from the fleet store. */
  readonly fleetId?: number;
}

/** Runs `fn` on the fleet store `url`, closing it after. */
export async function withFleet<T>(url: string, fn: (fleet: FleetDb) => Promise<T>): Promise<T> {
  const fleet = await openFleet(url);
  try {
    return await fn(fleet);
  } finally {
    await fleet.close();
  }
}

/** A message about a snapshot file, told about the fleet store instead. */
function aboutFleet(e: unknown, store: RollStore, fleet: FleetDb): unknown {
  if (!(e instanceof DicerigError) || !e.message.includes(store.path)) return e;
  return new FleetError(e.message.split(store.path).join(fleet.where).replace(/`dicerig verify --db [^`]*`/g, `\`dicerig verify --db ${fleet.where}\``), { ...e.context, url: fleet.where }, { cause: e });
}

/** Runs `fn` on one session of the store `db` names (`key`: id or name; in a fleet store, see `findFleetSession`). */
export async function withStoredSession<T>(db: string | undefined, key: string, note: (line: string) => void, fn: (s: StoredSession) => T | Promise<T>): Promise<T> {
  if (!isFleetUrl(db)) return withReadableStore(rollStorePath(db), ({ store }) => fn({ store, session: store.findSession(key) }));
  return withFleet(db, async (fleet) => {
    const opened = await openFleetSessions(fleet, [key]);
    const source = opened.sources[0] as (typeof opened.sources)[number];
    try {
      note(`dicerig: ${describeFleetSession(source.fleet)} (read as session ${source.session.id}, its id there).`);
      return await fn(source);
    } catch (e) {
      throw aboutFleet(e, source.store, fleet);
    } finally {
      opened.close();
    }
  });
}

/** Opens several sessions of the store `db` names, for commands that read many (pool, analyze); `close` when done. */
export async function openStoredSessions(db: string | undefined, keys: readonly string[]): Promise<{ sessions: StoredSession[]; close(): Promise<void> }> {
  if (!isFleetUrl(db)) {
    const opened = openStoreForReading(rollStorePath(db));
    try {
      return { sessions: keys.map((k) => ({ store: opened.store, session: opened.store.findSession(k) })), close: async () => opened.close() };
    } catch (e) {
      opened.close();
      throw e;
    }
  }
  const fleet = await openFleet(db);
  try {
    const opened = await openFleetSessions(fleet, keys);
    return {
      sessions: opened.sources.map((src) => ({ store: src.store, session: src.session, fleetId: src.fleet.id })),
      close: async () => {
        opened.close();
        await fleet.close();
      },
    };
  } catch (e) {
    await fleet.close();
    throw e;
  }
}
