import { DicerigError } from '../core/errors.js';
import { isFleetUrl, openFleet, type FleetDb } from '../fleet/connect.js';
import { FleetError } from '../fleet/errors.js';
import { describeFleetSession, openFleetSessions, type FleetSessionInfo } from '../fleet/fleetReader.js';
import type { CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';
import type { DieType } from '../dice/types.js';
import { readSessionCampaignFindings } from '../report/fleetCampaign.js';
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
  /** Its fleet listing (rig host, its id there, campaign), when read from the fleet store. */
  readonly fleet?: FleetSessionInfo;
  /** Its campaign's finding on it, when the campaign found the rig it ran on biased (read when asked, with the dice). */
  readonly campaign?: CampaignSessionFinding;
}

/** Runs `fn` on the fleet store `url`, closing it after; its users only read, so its schema is not brought forward (see readableFleetSchema). */
export async function withFleet<T>(url: string, fn: (fleet: FleetDb) => Promise<T>): Promise<T> {
  const fleet = await openFleet(url, { readOnly: true });
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

/**
 * Runs `fn` on one session of the store `db` names (`key`: id or name; in a fleet store, see `findFleetSession`).
 * `dice`: the die types known; given, a fleet session's campaign finding is read too (it needs them to analyse the campaign).
 */
export async function withStoredSession<T>(db: string | undefined, key: string, note: (line: string) => void, fn: (s: StoredSession) => T | Promise<T>, dice?: readonly DieType[]): Promise<T> {
  if (!isFleetUrl(db)) return withReadableStore(rollStorePath(db), ({ store }) => fn({ store, session: store.findSession(key) }), (line) => note(`dicerig: note: ${line}`));
  return withFleet(db, async (fleet) => {
    const opened = await openFleetSessions(fleet, [key]);
    const source = opened.sources[0] as (typeof opened.sources)[number];
    try {
      note(`dicerig: ${describeFleetSession(source.fleet)} (read as session ${source.session.id}, its id there).`);
      const found = dice !== undefined ? await readSessionCampaignFindings(fleet, [source.fleet], dice) : new Map<number, CampaignSessionFinding>();
      const campaign = found.get(source.fleet.id);
      return await fn({ store: source.store, session: source.session, fleetId: source.fleet.id, fleet: source.fleet, ...(campaign !== undefined ? { campaign } : {}) });
    } catch (e) {
      throw aboutFleet(e, source.store, fleet);
    } finally {
      opened.close();
    }
  });
}

/**
 * Opens several sessions of the store `db` names, for commands that read many (pool, analyze); `close` when done.
 * `dice`: as for `withStoredSession`, the fleet sessions' campaign findings are read with them.
 */
export async function openStoredSessions(
  db: string | undefined,
  keys: readonly string[],
  dice?: readonly DieType[],
): Promise<{ sessions: StoredSession[]; close(): Promise<void>; note?: string }> {
  if (!isFleetUrl(db)) {
    const opened = openStoreForReading(rollStorePath(db));
    try {
      const sessions = keys.map((k) => ({ store: opened.store, session: opened.store.findSession(k) }));
      return { sessions, close: async () => opened.close(), ...(opened.note !== undefined ? { note: opened.note } : {}) };
    } catch (e) {
      opened.close();
      throw e;
    }
  }
  const fleet = await openFleet(db, { readOnly: true });
  try {
    const opened = await openFleetSessions(fleet, keys);
    let found: Map<number, CampaignSessionFinding>;
    try {
      found = dice !== undefined ? await readSessionCampaignFindings(fleet, opened.sources.map((src) => src.fleet), dice) : new Map();
    } catch (e) {
      opened.close();
      throw e;
    }
    return {
      sessions: opened.sources.map((src) => {
        const campaign = found.get(src.fleet.id);
        return { store: src.store, session: src.session, fleetId: src.fleet.id, fleet: src.fleet, ...(campaign !== undefined ? { campaign } : {}) };
      }),
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
