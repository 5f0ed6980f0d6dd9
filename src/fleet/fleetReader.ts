import type { ChainBreak, SessionRecord, VerifyReport } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { editedImports, type EditedImport } from '../store/importedEdits.js';
import { fleetFailure, type FleetDb } from './connect.js';
import { FleetError } from './errors.js';
import { openFleetSnapshot, type FleetSnapshot } from './snapshot.js';
import { fleetCopies, type CopyOf } from './copies.js';
import { takenOverSessions, type TakenOver } from './takenOver.js';

/** A session as the fleet lists it: its fleet id, and where it came from (rig host, store file, its id there). */
export interface FleetSessionInfo {
  readonly id: number;
  readonly name: string | null;
  readonly localId: number;
  readonly originHost: string;
  readonly originDb: string;
  readonly rigId: string | null;
  readonly campaign: string | null;
  readonly state: string;
  readonly simulated: boolean;
  readonly throwCount: number;
  /** Throws of the session on its rig host at the last sync. */
  readonly localThrowCount: number;
  readonly startedAt: number;
  readonly endedAt: number | null;
  /** The chain head after `throwCount` throws. */
  readonly headHash: string;
  /** The review chain's head after the fleet's `reviewCount` reviews of the session ('' when none). */
  readonly reviewCount: number;
  readonly reviewsHead: string;
  readonly origin: string;
  readonly kind: string;
  readonly softwareVersion: string;
  /** When the fleet last took a sync of it, and received its latest throw (null before its first): ms since the epoch, the syncing host's clock. */
  readonly syncedAt: number;
  readonly lastThrowAt: number | null;
  /** For a campaign session whose batch was taken over (`--take-over`): who holds the batch now. Null otherwise. */
  readonly takenOver: TakenOver | null;
  /** For an import of an export of a session the fleet holds too (`copies.ts`): that session, and why. Its rolls count there, not here. */
  readonly copyOf: CopyOf | null;
  /** For an import of exports edited since they were sealed (`import --allow-edited`): the files and what differs; null otherwise. */
  readonly edited: readonly EditedImport[] | null;
}

/** A session row as read, before what is worked out from it (take-overs, copies, edits). */
type InfoRow = Omit<FleetSessionInfo, 'takenOver' | 'copyOf' | 'edited'> & { readonly importConfig?: string | null };

const INFO = `SELECT s.id, s.name, s.local_id AS "localId", s.origin_host AS "originHost", s.origin_db AS "originDb", s.rig_id AS "rigId", c.name AS campaign,
  s.state, s.simulated = 1 AS simulated, s.throw_count AS "throwCount", s.local_throw_count AS "localThrowCount", s.started_at AS "startedAt",
  s.ended_at AS "endedAt", s.head_hash AS "headHash", s.review_count AS "reviewCount",
  coalesce((SELECT rv.hash FROM reviews rv WHERE rv.session_id = s.id ORDER BY rv.n DESC LIMIT 1), '') AS "reviewsHead", s.origin, s.kind, s.software_version AS "softwareVersion", s.synced_at AS "syncedAt",
  (SELECT t.synced_at FROM throws t WHERE t.session_id = s.id AND t.idx = s.throw_count) AS "lastThrowAt",
  CASE WHEN s.origin = 'import' THEN s.config_json END AS "importConfig"
  FROM sessions s LEFT JOIN campaigns c ON c.id = s.campaign_id`;

/** How a fleet session is named in messages: its fleet id, name, and where it came from. */
export function describeFleetSession(s: FleetSessionInfo): string {
  return `fleet session ${s.id}${s.name !== null ? ` (${s.name})` : ''}, session ${s.localId} of ${s.originHost}:${s.originDb}`;
}

async function query<R extends object>(fleet: FleetDb, sql: string, params: unknown[], doing: string): Promise<R[]> {
  try {
    return (await fleet.pool.query<R & Record<string, unknown>>(sql, params)).rows;
  } catch (e) {
    throw fleetFailure(e, fleet.where, fleet.where, doing);
  }
}

/** The listed sessions, each with whether its campaign batch was taken over, whether it is a copy, and an import's edits. */
async function withTakeOvers(fleet: FleetDb, rows: readonly InfoRow[], doing: string, ids?: readonly number[]): Promise<FleetSessionInfo[]> {
  let taken: Map<number, TakenOver>;
  let copies: Map<number, CopyOf>;
  try {
    taken = rows.length === 0 ? new Map() : await takenOverSessions(fleet.pool, ids);
    copies = rows.length === 0 ? new Map() : await fleetCopies(fleet.pool);
  } catch (e) {
    throw fleetFailure(e, fleet.where, fleet.where, doing);
  }
  return rows.map(({ importConfig, ...r }) => {
    const edited = editedImports(importConfig ?? null);
    return { ...r, takenOver: taken.get(Number(r.id)) ?? null, copyOf: copies.get(Number(r.id)) ?? null, edited: edited.length > 0 ? edited : null };
  });
}

export async function listFleetSessions(fleet: FleetDb): Promise<FleetSessionInfo[]> {
  return withTakeOvers(fleet, await query<InfoRow>(fleet, `${INFO} ORDER BY s.id`, [], 'listing its sessions'), 'listing its sessions');
}

/**
 * A fleet session by its fleet id (all digits), its name (when one session of
 * the fleet has it), or HOST:LOCALID (its id on the rig host that ran it).
 */
export async function findFleetSession(fleet: FleetDb, key: string): Promise<FleetSessionInfo> {
  const k = key.trim();
  const byHost = /^(.+):(\d+)$/.exec(k);
  const rows = /^\d+$/.test(k)
    ? await query<InfoRow>(fleet, `${INFO} WHERE s.id = $1`, [Number(k)], 'finding a session')
    : await query<InfoRow>(fleet, `${INFO} WHERE s.name = $1 ${byHost !== null ? 'OR (s.origin_host = $2 AND s.local_id = $3)' : ''} ORDER BY s.id`, byHost !== null ? [k, byHost[1], Number(byHost[2])] : [k], 'finding a session');
  const found = await withTakeOvers(fleet, rows, 'finding a session', rows.map((r) => Number(r.id)));
  if (found.length === 1) return found[0] as FleetSessionInfo;
  if (found.length > 1) {
    throw new FleetError(`Several sessions of the fleet store ${fleet.where} are named "${k}": ${found.map(describeFleetSession).join('; ')}. Name one by its fleet id.`, { url: fleet.where, session: k });
  }
  const known = await listFleetSessions(fleet);
  const list = known.slice(0, 20).map((s) => `${s.id}${s.name !== null ? ` (${s.name})` : ''}`);
  throw new FleetError(
    `There is no session "${k}" in the fleet store ${fleet.where}${known.length > 0 ? `; sessions: ${list.join(', ')}${known.length > 20 ? ', ...' : ''} (\`dicerig sessions --db URL\` lists them with their rig hosts)` : ': it holds no sessions'}.`,
    { url: fleet.where, session: k },
  );
}

/**
 * The fleet session whose chain passes through `hash` (an export's chain head), and at which throw; undefined when
 * no session's throws do. `verify FILE --db URL` then reads that session to compare the export's rows with it.
 */
export async function findFleetChainHead(fleet: FleetDb, hash: string): Promise<{ session: FleetSessionInfo; throwIndex: number } | undefined> {
  const at = await query<{ session_id: string | number; idx: number }>(fleet, 'SELECT session_id, idx FROM throws WHERE hash = $1 ORDER BY session_id LIMIT 1', [hash.toLowerCase()], 'finding a chain head');
  const first = at[0];
  if (first === undefined) return undefined;
  return { session: await findFleetSession(fleet, String(Number(first.session_id))), throwIndex: first.idx };
}

/** One fleet session read as a local one: the snapshot store holding it, its record there (its rig host's id), and its fleet listing. */
export interface FleetSessionSource {
  readonly store: RollStore;
  readonly session: SessionRecord;
  readonly fleet: FleetSessionInfo;
}

const originKey = (s: FleetSessionInfo): string => `${s.originHost}\u0000${s.originDb}`;

/** Snapshots (one per rig host store) holding the given fleet sessions. */
async function snapshots(fleet: FleetDb, sessions: readonly FleetSessionInfo[]): Promise<{ snap: FleetSnapshot; sessions: FleetSessionInfo[] }[]> {
  const groups = new Map<string, FleetSessionInfo[]>();
  for (const s of sessions) groups.set(originKey(s), [...(groups.get(originKey(s)) ?? []), s]);
  const out: { snap: FleetSnapshot; sessions: FleetSessionInfo[] }[] = [];
  try {
    for (const group of groups.values()) {
      try {
        out.push({ snap: await openFleetSnapshot(fleet.pool, group.map((s) => s.id)), sessions: group });
      } catch (e) {
        throw fleetFailure(e, fleet.where, fleet.where, 'reading its sessions');
      }
    }
  } catch (e) {
    for (const o of out) o.snap.close();
    throw e;
  }
  return out;
}

/** Opens the named sessions of the fleet store for reading (see `openFleetSnapshot`); `close` removes the snapshots. */
export async function openFleetSessions(fleet: FleetDb, keys: readonly string[]): Promise<{ sources: FleetSessionSource[]; close(): void }> {
  const infos: FleetSessionInfo[] = [];
  for (const k of keys) infos.push(await findFleetSession(fleet, k));
  const snaps = await snapshots(fleet, [...new Map(infos.map((s) => [s.id, s])).values()]);
  const byFleetId = new Map<number, RollStore>();
  for (const { snap, sessions } of snaps) for (const s of sessions) byFleetId.set(s.id, snap.store);
  const sources = infos.map((info) => {
    const store = byFleetId.get(info.id) as RollStore;
    return { store, session: store.findSession(String(info.localId)), fleet: info };
  });
  return { sources, close: () => snaps.forEach((s) => s.snap.close()) };
}

/**
 * Re-checks every chain of the fleet store: each rig host's sessions are
 * snapshotted and verified by the local store's own `verify` (throws, events,
 * seals, reviews), breaks named by fleet session. `expect`: also where a chain
 * head written down elsewhere is.
 */
export async function verifyFleet(
  fleet: FleetDb,
  expect?: string,
): Promise<{ report: VerifyReport; head?: { fleetSession: FleetSessionInfo; throwIndex: number; throwCount: number }; reviewHead?: { fleetSession: FleetSessionInfo; reviewIndex: number; reviewCount: number } }> {
  const all = await listFleetSessions(fleet);
  const snaps = await snapshots(fleet, all);
  try {
    const breaks: ChainBreak[] = [];
    const notes: string[] = [];
    const damage: string[] = [];
    let throws = 0;
    let rolls = 0;
    let orphanRolls = 0;
    let head: { fleetSession: FleetSessionInfo; throwIndex: number; throwCount: number } | undefined;
    let reviewHead: { fleetSession: FleetSessionInfo; reviewIndex: number; reviewCount: number } | undefined;
    for (const { snap, sessions } of snaps) {
      const r = snap.store.verify();
      const info = (localId: number): FleetSessionInfo => sessions.find((s) => s.localId === localId) as FleetSessionInfo;
      throws += r.throws;
      rolls += r.rolls;
      orphanRolls += r.orphanRolls;
      damage.push(...(r.damage ?? []));
      notes.push(...(r.notes ?? []).map((n) => `${sessions[0]?.originHost}:${sessions[0]?.originDb}: ${n}`));
      for (const b of r.breaks) {
        const s = info(b.sessionId);
        breaks.push({ ...b, sessionId: s.id, sessionName: `${s.name ?? ''}${s.name !== null ? ', ' : ''}session ${s.localId} of ${s.originHost}:${s.originDb}` });
      }
      for (const [localId, p] of snap.partial) notes.push(`${describeFleetSession(info(localId))} is still being copied: the fleet holds ${p.throws} of its ${p.localThrows} throws (as of the last sync)`);
      if (expect !== undefined && head === undefined) {
        const found = snap.store.findChainHead(expect);
        if (found !== undefined) head = { fleetSession: info(found.sessionId), throwIndex: found.throwIndex, throwCount: found.throwCount };
        const review = reviewHead === undefined ? snap.store.reviewLog.findHead(expect) : undefined;
        if (review !== undefined) reviewHead = { fleetSession: info(review.sessionId), reviewIndex: review.reviewIndex, reviewCount: review.reviewCount };
      }
    }
    const report: VerifyReport = {
      ok: breaks.length === 0 && orphanRolls === 0 && damage.length === 0,
      sessions: all.length,
      throws,
      rolls,
      orphanRolls,
      breaks,
      ...(damage.length > 0 ? { damage } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    };
    return { report, ...(head !== undefined ? { head } : {}), ...(reviewHead !== undefined ? { reviewHead } : {}) };
  } finally {
    for (const s of snaps) s.snap.close();
  }
}

/**
 * What changes when a fleet session gets more of its rig host's data (throws,
 * events, reviews, its stored verdicts, its state), by fleet session id: a
 * reader that made something of a session remakes it only when this changes.
 */
export async function fleetSessionVersions(fleet: FleetDb): Promise<Map<number, string>> {
  const rows = await query<{ id: number; v: string }>(
    fleet,
    `SELECT s.id, concat_ws('|', s.throw_count, s.local_throw_count, s.event_count, s.review_count, s.state, s.seal, v.at) AS v
       FROM sessions s LEFT JOIN session_verdicts v ON v.session_id = s.id`,
    [],
    'reading its sessions',
  );
  return new Map(rows.map((r) => [r.id, r.v]));
}
