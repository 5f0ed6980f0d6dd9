import { COUNTED, REVIEWED } from './countedRolls.js';
import type { SessionCounts } from './records.js';
import type { Database } from './sqlite.js';

/** How many throws a session has (ok, void, re-tumbled), its rolls (counted, cocked) and its events. */
export function sessionCounts(db: Database, sessionId: number): SessionCounts {
  const t = db
    .prepare<{ throws: number; ok: number | null; void: number | null; rerolled: number | null }>(
      `SELECT count(*) AS throws, sum(status = 'ok') AS ok, sum(status = 'void') AS void, sum(status = 'rerolled') AS rerolled FROM throws WHERE session_id = ?`,
    )
    .get(sessionId);
  const r = db
    .prepare<{ rolls: number; counted: number | null; cocked: number | null }>(
      `SELECT count(*) AS rolls, sum(${COUNTED}) AS counted, sum(r.cocked) AS cocked FROM throws t JOIN rolls r ON r.throw_id = t.id ${REVIEWED} WHERE t.session_id = ?`,
    )
    .get(sessionId);
  const events = db.prepare<{ n: number }>('SELECT count(*) AS n FROM events WHERE session_id = ?').get(sessionId)?.n ?? 0;
  return {
    throws: t?.throws ?? 0,
    ok: t?.ok ?? 0,
    void: t?.void ?? 0,
    rerolled: t?.rerolled ?? 0,
    rolls: r?.rolls ?? 0,
    countedRolls: r?.counted ?? 0,
    cocked: r?.cocked ?? 0,
    events,
  };
}
