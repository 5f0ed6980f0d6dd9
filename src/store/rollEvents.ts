import { isCannotTell, type ReviewLog } from './reviews.js';
import type { Database } from './sqlite.js';

/** One event of a die's stored roll sequence (see `readRollEvents`). */
export type StoredRollEvent =
  | { readonly kind: 'roll'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string | null }
  | { readonly kind: 'unresolved'; readonly rollId: number }
  | { readonly kind: 'review'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string }
  /** A person looked at the unresolved roll and could not tell its face (it stays unresolved). */
  | { readonly kind: 'cannot-tell'; readonly rollId: number }
  /** A person corrected their answer for the roll: the right face, or (`faceId` null, `symbol` '') none they can tell. */
  | { readonly kind: 'correction'; readonly rollId: number; readonly faceId: string | null; readonly symbol: string };

/**
 * Each die's roll sequence as the session saw it, for rebuilding its monitor:
 * its rolls of ok throws that were not cocked (read, or declined), then each
 * review placed after the throw that was the session's last when it was given.
 * A review sorts between throws (at `afterThrow + 0.5`), so a rebuilt monitor
 * sees it exactly when the live one did.
 */
export function readRollEvents(db: Database, reviewLog: ReviewLog, sessionId: number): Map<number, StoredRollEvent[]> {
  const rolls = db
    .prepare<{ rollId: number; throwIndex: number; dieId: number; faceId: string | null; symbol: string | null; resolution: string }>(
      `SELECT r.id AS rollId, t.idx AS throwIndex, r.die_id AS dieId, r.face_id AS faceId, r.symbol, r.resolution
         FROM throws t JOIN rolls r ON r.throw_id = t.id
        WHERE t.session_id = ? AND t.status = 'ok' AND r.cocked = 0
        ORDER BY t.idx, r.seq`,
    )
    .all(sessionId);
  const dieOf = new Map(rolls.map((r) => [r.rollId, r.dieId]));
  type Keyed = { at: number; order: number; dieId: number; event: StoredRollEvent };
  const keyed: Keyed[] = rolls.map((r, i) => ({
    at: r.throwIndex,
    order: i,
    dieId: r.dieId,
    event: r.resolution === 'read' ? { kind: 'roll', rollId: r.rollId, faceId: r.faceId, symbol: r.symbol } : { kind: 'unresolved', rollId: r.rollId },
  }));
  reviewLog.reviews(sessionId).forEach((rv, i) => {
    const dieId = dieOf.get(rv.rollId);
    // "Cannot tell" gives no face: the roll stays unresolved in its place, off the review queue.
    // A correction goes in where it was given, as a label does (the earlier answer stays where it was given).
    const event: StoredRollEvent =
      rv.supersedes !== null
        ? { kind: 'correction', rollId: rv.rollId, faceId: rv.faceId, symbol: rv.symbol }
        : isCannotTell(rv)
          ? { kind: 'cannot-tell', rollId: rv.rollId }
          : { kind: 'review', rollId: rv.rollId, faceId: rv.faceId, symbol: rv.symbol };
    if (dieId !== undefined) keyed.push({ at: rv.afterThrow + 0.5, order: rolls.length + i, dieId, event });
  });
  keyed.sort((a, b) => a.at - b.at || a.order - b.order);
  const byDie = new Map<number, StoredRollEvent[]>();
  for (const k of keyed) {
    const list = byDie.get(k.dieId) ?? [];
    list.push(k.event);
    byDie.set(k.dieId, list);
  }
  return byDie;
}
