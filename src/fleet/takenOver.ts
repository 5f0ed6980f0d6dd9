/**
 * Campaign sessions whose batch was taken over (`campaign run --take-over` on another host or store): the fleet
 * knows it, since the batch's claim no longer names the session. Such a session counts for nothing and will never
 * close its batch, so it is said to be taken over rather than left `running` (or `running?` once quiet) forever.
 */
import type pg from 'pg';

/** Who holds the batch a session was rolling now, and since when (ms since the epoch, the new holder's clock). */
export interface TakenOver {
  readonly batch: number;
  readonly host: string;
  readonly store: string | null;
  readonly since: number;
}

interface Candidate {
  id: number;
  campaign_id: number;
  config_json: string;
  genesis: string;
  origin_host: string;
  origin_db: string;
  started_at: number;
}

interface BatchRow {
  id: number;
  campaign_id: number;
  host: string;
  store: string | null;
  claimed_at: number;
  genesis: string | null;
}

/** The batch a session's config says it was rolled for (sessions of this version on carry it), else null. */
function batchOf(configJson: string): number | null {
  try {
    const batch = (JSON.parse(configJson) as { campaignBatch?: unknown } | null)?.campaignBatch;
    return typeof batch === 'number' && Number.isInteger(batch) ? batch : null;
  } catch {
    return null;
  }
}

/**
 * Whether the batch's claim has left the session. Bound to another session: yes. Bound to none yet (taken over, the
 * new holder's session not opened), it has left when another host or store claims it, or the same store claimed it
 * again after the session started (a store replaced by an older copy, then taken over). A batch claimed but not yet
 * bound by the session's own host and store is still the session's: it binds it on opening.
 */
function claimLeft(s: Candidate, b: BatchRow): boolean {
  if (b.genesis !== null) return b.genesis !== s.genesis;
  return b.host !== s.origin_host || (b.store !== null && b.store !== s.origin_db) || Number(b.claimed_at) > Number(s.started_at);
}

/** Fleet sessions (by fleet id) whose campaign batch was taken over, with who holds it now. `ids`: only these sessions. */
export async function takenOverSessions(db: pg.Pool | pg.ClientBase, ids?: readonly number[]): Promise<Map<number, TakenOver>> {
  // Only sessions no batch counts can have lost theirs: most sessions are not read further.
  const candidates = (
    await db.query<Candidate>(
      `SELECT s.id, s.campaign_id, s.config_json, s.genesis, s.origin_host, s.origin_db, s.started_at FROM sessions s
        WHERE s.campaign_id IS NOT NULL AND ($1::bigint[] IS NULL OR s.id = ANY($1::bigint[]))
          AND NOT EXISTS (SELECT 1 FROM campaign_batches b WHERE b.genesis = s.genesis)`,
      [ids === undefined ? null : [...ids]],
    )
  ).rows.flatMap((s) => {
    const batch = batchOf(s.config_json);
    return batch === null ? [] : [{ s, batch }];
  });
  const out = new Map<number, TakenOver>();
  if (candidates.length === 0) return out;
  const batches = await db.query<BatchRow>('SELECT id, campaign_id, host, store, claimed_at, genesis FROM campaign_batches WHERE id = ANY($1::bigint[])', [candidates.map((c) => c.batch)]);
  const byId = new Map(batches.rows.map((b) => [Number(b.id), b]));
  for (const { s, batch } of candidates) {
    const b = byId.get(batch);
    // The batch of its own campaign only: a batch id of another campaign (or fleet database) says nothing of this session.
    if (b === undefined || Number(b.campaign_id) !== Number(s.campaign_id) || !claimLeft(s, b)) continue;
    out.set(Number(s.id), { batch, host: b.host, store: b.store, since: Number(b.claimed_at) });
  }
  return out;
}
