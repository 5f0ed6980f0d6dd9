import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { sealHash } from '../store/hashChain.js';
import { migrate } from '../store/migrations.js';
import { RollStore } from '../store/rollStore.js';
import { openDatabase, type Database } from '../store/sqlite.js';
import { checkout } from './connect.js';

/**
 * Reading the fleet store as a roll store: the chosen sessions of ONE origin
 * store are written into a fresh SQLite roll store in a temporary folder with
 * the ids they had on their rig host (session, die, rig and roll ids) and their
 * stored hashes, then opened read-only as a RollStore.
 *
 * Why a snapshot: `report`, `export`, `pool`, `verify` and `analyze` read a
 * RollStore, and a snapshot lets them read the fleet with the very code they
 * read a local store with, including `verify`, which recomputes every chain
 * from the copied rows (the hashes cover the local ids, which is why sessions
 * of different rig hosts go into different snapshots). It is faithful: every
 * hashed field is copied as stored, so a session's report from the fleet is
 * the report from its rig host. A session still being copied has no seal of
 * its own yet: the snapshot seals what the fleet holds (`partial` says so).
 */
export interface FleetSnapshot {
  readonly store: RollStore;
  /** Fleet session id by the local id the snapshot gives it. */
  readonly fleetIdOf: ReadonlyMap<number, number>;
  /** Local ids of sessions the fleet does not hold all of yet, with how many throws it holds of how many. */
  readonly partial: ReadonlyMap<number, { readonly throws: number; readonly localThrows: number }>;
  close(): void;
}

interface SessionRow {
  id: number;
  local_id: number;
  local_rig_id: number | null;
  name: string | null;
  origin: string;
  kind: string;
  config_json: string;
  software_version: string;
  simulated: number;
  started_at: number;
  ended_at: number | null;
  state: string;
  chain_version: number;
  head_hash: string;
  throw_count: number;
  events_head: string;
  event_count: number;
  seal: string;
  local_throw_count: number;
  review_count: number;
  rig_key: string | null;
  driver: string | null;
  firmware: string | null;
  protocol: number | null;
  config_hash: string | null;
  calibration_hash: string | null;
  tumbler: string | null;
  port: string | null;
}

/** Writes fleet sessions `ids` (all of one origin store) into a new roll store and opens it read-only. */
export async function openFleetSnapshot(pool: pg.Pool, ids: readonly number[]): Promise<FleetSnapshot> {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-fleet-'));
  const path = join(dir, 'fleet-snapshot.db');
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const { client, release } = await checkout(pool);
    const db = openDatabase(path);
    let result: Omit<FleetSnapshot, 'store' | 'close'>;
    try {
      // One consistent state of the fleet store for the whole snapshot.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      migrate(db);
      result = await copySessions(client, db, ids);
      await client.query('COMMIT');
    } finally {
      release();
      db.close();
    }
    const store = RollStore.open(path, { readonly: true });
    return {
      ...result,
      store,
      close: () => {
        store.close();
        cleanup();
      },
    };
  } catch (e) {
    cleanup();
    throw e;
  }
}

async function copySessions(client: pg.ClientBase, db: Database, ids: readonly number[]): Promise<Omit<FleetSnapshot, 'store' | 'close'>> {
  const sessions = (
    await client.query<SessionRow>(
      `SELECT s.*, rs.rig_id AS rig_key, rs.driver, rs.firmware, rs.protocol, rs.config_hash, rs.calibration_hash, rs.tumbler, rs.port
         FROM sessions s LEFT JOIN rig_setups rs ON rs.id = s.rig_setup_id WHERE s.id = ANY($1::bigint[]) ORDER BY s.local_id`,
      [ids],
    )
  ).rows;
  const fleetIdOf = new Map<number, number>();
  const partial = new Map<number, { throws: number; localThrows: number }>();
  const insert = (sql: string) => db.prepare(sql);
  const rigIns = insert('INSERT OR IGNORE INTO rigs (id, rig_key, driver, firmware, protocol, config_hash, calibration_hash, tumbler, port) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const sessionIns = insert(
    `INSERT INTO sessions (id, name, origin, kind, config_json, software_version, simulated, rig_id, started_at, ended_at, state, head_hash, throw_count, chain_version, events_head, event_count, seal)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of sessions) {
    fleetIdOf.set(s.local_id, s.id);
    if (s.local_rig_id !== null) rigIns.run(s.local_rig_id, s.rig_key, s.driver, s.firmware, s.protocol, s.config_hash, s.calibration_hash, s.tumbler, s.port);
    let seal = s.seal;
    if (s.chain_version === 2 && seal === '') {
      partial.set(s.local_id, { throws: s.throw_count, localThrows: s.local_throw_count });
      seal = sealHash({ id: s.local_id, name: s.name, state: s.state, endedAt: s.ended_at, headHash: s.head_hash, throwCount: s.throw_count, eventsHead: s.events_head, eventCount: s.event_count });
    }
    sessionIns.run(s.local_id, s.name, s.origin, s.kind, s.config_json, s.software_version, s.simulated, s.local_rig_id, s.started_at, s.ended_at, s.state, s.head_hash, s.throw_count, s.chain_version, s.events_head, s.event_count, seal);
  }
  const localSession = new Map(sessions.map((s) => [s.id, s.local_id]));
  const q = async <R extends pg.QueryResultRow>(sql: string): Promise<R[]> => (await client.query<R>(sql, [ids])).rows;

  const dice = await q<{ local_die_id: number; label: string; type_id: string; set_name: string | null; notes: string | null }>(
    `SELECT DISTINCT x.local_die_id, d.label, d.type_id, d.set_name, d.notes FROM (
       SELECT r.local_die_id, r.die_id FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.session_id = ANY($1::bigint[])
       UNION SELECT e.local_die_id, e.die_id FROM events e WHERE e.session_id = ANY($1::bigint[]) AND e.die_id IS NOT NULL) x
     JOIN dice d ON d.id = x.die_id`,
  );
  const dieIns = insert('INSERT INTO dice (id, label, type_id, set_name, notes) VALUES (?, ?, ?, ?, ?)');
  for (const d of dice) dieIns.run(d.local_die_id, d.label, d.type_id, d.set_name, d.notes);

  const throws = await q<{ id: number; session_id: number; idx: number; started_at: number; ended_at: number; status: string; why: string | null; prev_hash: string; hash: string }>(
    'SELECT id, session_id, idx, started_at, ended_at, status, why, prev_hash, hash FROM throws WHERE session_id = ANY($1::bigint[]) ORDER BY session_id, idx',
  );
  const throwIns = insert('INSERT INTO throws (id, session_id, idx, started_at, ended_at, status, why, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const rolls = await q<{ throw_id: number; local_id: number; seq: number; local_die_id: number; channel: number | null; face_id: string | null; symbol: string | null; confidence: number | null; cocked: number; classifier_version: string | null; evidence_path: string | null; evidence_hash: string | null; simulated: number; resolution: string }>(
    `SELECT r.throw_id, r.local_id, r.seq, r.local_die_id, r.channel, r.face_id, r.symbol, r.confidence, r.cocked, r.classifier_version, r.evidence_path, r.evidence_hash, r.simulated, r.resolution
       FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.session_id = ANY($1::bigint[]) ORDER BY r.throw_id, r.seq`,
  );
  const rollIns = insert(
    `INSERT INTO rolls (id, throw_id, seq, die_id, channel, face_id, symbol, confidence, cocked, classifier_version, evidence_path, evidence_hash, simulated, resolution)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const events = await q<{ session_id: number; at: number; kind: string; throw_index: number | null; local_die_id: number | null; detail_json: string; prev_hash: string | null; hash: string | null }>(
    'SELECT session_id, at, kind, throw_index, local_die_id, detail_json, prev_hash, hash FROM events WHERE session_id = ANY($1::bigint[]) ORDER BY session_id, n',
  );
  const eventIns = insert('INSERT INTO events (session_id, at, kind, throw_index, die_id, detail_json, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const reviews = await q<{ session_id: number; local_id: number | null; local_roll_id: number; face_id: string | null; symbol: string; reviewer: string; at: number; after_throw: number; local_supersedes: number | null; prev_hash: string; hash: string }>(
    `SELECT session_id, local_id, local_roll_id, face_id, symbol, reviewer, at, after_throw, local_supersedes, prev_hash, hash FROM reviews WHERE session_id = ANY($1::bigint[])
      ORDER BY local_id IS NULL, local_id, session_id, n`,
  );
  // A review gets its local id, which a correction's hash names as the one it supersedes (so, in id order, each before
  // its correction); a session's reviews copied before the fleet kept local ids (none corrected) get the next ids, in order.
  const reviewIns = insert('INSERT INTO reviews (id, session_id, roll_id, face_id, symbol, reviewer, at, after_throw, supersedes, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  // The review chain's head as the fleet keeps it: its count, kept with each copied review (a row deleted since is seen).
  const reviewHeads = await q<{ session_id: number; hash: string }>('SELECT DISTINCT ON (session_id) session_id, hash FROM reviews WHERE session_id = ANY($1::bigint[]) ORDER BY session_id, n DESC');
  const headOf = new Map(reviewHeads.map((r) => [Number(r.session_id), r.hash]));
  const reviewHeadIns = insert('UPDATE sessions SET review_count = ?, reviews_head = ? WHERE id = ?');
  const verdicts = await q<{ session_id: number; at: number; verdicts_json: string }>('SELECT session_id, at, verdicts_json FROM session_verdicts WHERE session_id = ANY($1::bigint[])');
  const verdictIns = insert('INSERT INTO session_verdicts (session_id, at, verdicts_json) VALUES (?, ?, ?)');
  const local = (fleetId: number): number => localSession.get(fleetId) as number;
  db.transaction(() => {
    for (const t of throws) throwIns.run(t.id, local(t.session_id), t.idx, t.started_at, t.ended_at, t.status, t.why, t.prev_hash, t.hash);
    for (const r of rolls) {
      rollIns.run(r.local_id, r.throw_id, r.seq, r.local_die_id, r.channel, r.face_id, r.symbol, r.confidence, r.cocked, r.classifier_version, r.evidence_path, r.evidence_hash, r.simulated, r.resolution);
    }
    for (const e of events) eventIns.run(local(e.session_id), e.at, e.kind, e.throw_index, e.local_die_id, e.detail_json, e.prev_hash, e.hash);
    for (const r of reviews) reviewIns.run(r.local_id, local(r.session_id), r.local_roll_id, r.face_id, r.symbol, r.reviewer, r.at, r.after_throw, r.local_supersedes, r.prev_hash, r.hash);
    for (const v of verdicts) verdictIns.run(local(v.session_id), v.at, v.verdicts_json);
    for (const s of sessions) reviewHeadIns.run(s.review_count, headOf.get(Number(s.id)) ?? '', s.local_id);
  })();
  return { fleetIdOf, partial };
}
