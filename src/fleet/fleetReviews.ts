import type pg from 'pg';
import { isCannotTell, reviewHash, STANDING_REVIEW } from '../store/reviews.js';
import { FleetIntegrityError } from './errors.js';
import type { LocalReview, LocalRows } from './localRows.js';

/**
 * Copying a session's reviews (first answers and corrections) into the fleet store, in the order they were given.
 * A correction's hash covers the local id of the review it supersedes, so each fleet row keeps its local id
 * (`local_id`) and a correction the local id it names (`local_supersedes`) next to the fleet's id (`supersedes`).
 */

/** The reviews that can go with this batch (their throws are in the fleet by its end), each checked against the review chain. */
export function takeReviews(reviews: readonly LocalReview[], throwCount: number, after: number, head: string, name: string): LocalReview[] {
  const out: LocalReview[] = [];
  let prev = head;
  for (const r of reviews) {
    if (r.afterThrow > throwCount) break;
    const n = after + out.length + 1;
    if (r.prevHash !== prev || reviewHash(prev, r) !== r.hash) {
      throw new FleetIntegrityError(`${name}: review ${n} (of the roll in throw up to ${r.afterThrow}) does not fit the session's review chain; nothing of this batch was copied.`, { session: name });
    }
    prev = r.hash;
    out.push(r);
  }
  return out;
}

/**
 * Appends `reviews` (reviews `after`+1.. of the local session) to the fleet session `sessionId` and marks each roll as
 * the answer that stands makes it. A correction must supersede the answer that stands in the fleet for its roll, and
 * a first answer find none, as `verify` checks locally.
 */
export async function insertReviews(client: pg.ClientBase, sessionId: number, reviews: readonly LocalReview[], after: number, local: LocalRows, localSession: number, name: string): Promise<void> {
  if (reviews.length === 0) return;
  await fillLocalIds(client, sessionId, local, localSession, name);
  const rolls = await client.query<{ id: number; local_id: number }>(
    'SELECT r.id, r.local_id FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.session_id = $1 AND r.local_id = ANY($2::int[])',
    [sessionId, reviews.map((r) => r.rollId)],
  );
  const rollOf = new Map(rolls.rows.map((r) => [r.local_id, r.id]));
  for (const [i, r] of reviews.entries()) {
    const n = after + i + 1;
    const rollId = rollOf.get(r.rollId);
    if (rollId === undefined) throw new FleetIntegrityError(`${name}: review ${n} labels roll ${r.rollId}, which is in no copied throw; nothing of this batch was copied.`, { session: name });
    const standing = (await client.query<{ id: number; local_id: number | null }>(`SELECT rv.id, rv.local_id FROM reviews rv WHERE rv.roll_id = $1 AND ${STANDING_REVIEW}`, [rollId])).rows[0];
    if ((standing?.local_id ?? null) !== r.supersedes) {
      throw new FleetIntegrityError(
        r.supersedes === null
          ? `${name}: review ${n} answers roll ${r.rollId} again without correcting the answer that stands; nothing of this batch was copied.`
          : `${name}: review ${n} corrects review ${r.supersedes} of its store, which is not the answer that stands for roll ${r.rollId}; nothing of this batch was copied.`,
        { session: name },
      );
    }
    await client.query(
      `INSERT INTO reviews (session_id, n, roll_id, local_roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash, local_id, supersedes, local_supersedes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [sessionId, n, rollId, r.rollId, r.faceId, r.symbol, r.reviewer, r.at, r.afterThrow, r.prevHash, r.hash, r.id, standing?.id ?? null, r.supersedes],
    );
    // As in the local store: a face makes the roll `reviewed`; "cannot tell" leaves it (or, corrected to it, makes it again) unresolved.
    await client.query('UPDATE rolls SET resolution = $2 WHERE id = $1', [rollId, isCannotTell(r) ? 'unresolved' : 'reviewed']);
  }
}

/**
 * Reviews copied before the fleet kept local ids (schema 3) get theirs from the local store, each matched by its place
 * in the chain and its hash, before any review follows them: a correction may supersede one of them, and a snapshot
 * gives each review its local id, so a session's reviews have local ids all or none.
 */
async function fillLocalIds(client: pg.ClientBase, sessionId: number, local: LocalRows, localSession: number, name: string): Promise<void> {
  const missing = (await client.query<{ n: number; hash: string }>('SELECT n, hash FROM reviews WHERE session_id = $1 AND local_id IS NULL ORDER BY n', [sessionId])).rows;
  if (missing.length === 0) return;
  // Reviews are append-only: those the fleet holds are the first of the local session's, in order.
  const held = local.reviews(localSession, 0);
  const ids = missing.map((m) => {
    const r = held[m.n - 1];
    if (r === undefined || r.hash !== m.hash) {
      throw new FleetIntegrityError(`${name}: review ${m.n} in the fleet store is not the local review ${m.n} (their hashes differ); nothing of this batch was copied.`, { session: name });
    }
    return r.id;
  });
  await client.query('UPDATE reviews r SET local_id = u.id FROM unnest($2::int[], $3::int[]) AS u(n, id) WHERE r.session_id = $1 AND r.n = u.n', [sessionId, missing.map((m) => m.n), ids]);
}
