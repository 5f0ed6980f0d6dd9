/**
 * What each session of a salvaged store kept: the rows it holds beside the counts its session row recorded (throws
 * always; events since schema 2, reviews since schema 8), so a session's loss is said in its own numbers even where
 * the damaged table's end could not be read.
 */
import { openDatabase, type Database } from './sqlite.js';

export interface KeptSession {
  readonly id: number;
  readonly name: string | null;
  readonly throws: { readonly kept: number; readonly recorded: number };
  readonly rolls: number;
  readonly events: { readonly kept: number; readonly recorded: number | null };
  readonly reviews: { readonly kept: number; readonly recorded: number | null };
  readonly verdicts: boolean;
}

const hasColumn = (db: Database, table: string, column: string): boolean =>
  db.prepare<{ n: number }>('SELECT count(*) AS n FROM pragma_table_info(?) WHERE name = ?').get(table, column)?.n === 1;

/** Every session of the store at `path` with what it holds, read-only. */
export function keptSessions(path: string): KeptSession[] {
  const db = openDatabase(path, { readonly: true, fileMustExist: true });
  try {
    const events = hasColumn(db, 'sessions', 'event_count') ? 's.event_count' : 'NULL';
    const reviews = hasColumn(db, 'sessions', 'review_count') ? 's.review_count' : 'NULL';
    const reviewTable = hasColumn(db, 'reviews', 'id');
    const verdictTable = hasColumn(db, 'session_verdicts', 'session_id');
    return db
      .prepare<{ id: number; name: string | null; throwsKept: number; throwCount: number; rolls: number; eventsKept: number; eventCount: number | null; reviewsKept: number; reviewCount: number | null; verdicts: number }>(
        `SELECT s.id, s.name, s.throw_count AS throwCount, ${events} AS eventCount, ${reviews} AS reviewCount,
                (SELECT count(*) FROM throws t WHERE t.session_id = s.id) AS throwsKept,
                (SELECT count(*) FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.session_id = s.id) AS rolls,
                (SELECT count(*) FROM events e WHERE e.session_id = s.id) AS eventsKept,
                ${reviewTable ? '(SELECT count(*) FROM reviews rv WHERE rv.session_id = s.id)' : '0'} AS reviewsKept,
                ${verdictTable ? '(SELECT count(*) FROM session_verdicts v WHERE v.session_id = s.id)' : '0'} AS verdicts
           FROM sessions s ORDER BY s.id`,
      )
      .all()
      .map((r) => ({
        id: r.id,
        name: r.name,
        throws: { kept: r.throwsKept, recorded: r.throwCount },
        rolls: r.rolls,
        events: { kept: r.eventsKept, recorded: r.eventCount },
        reviews: { kept: r.reviewsKept, recorded: r.reviewCount },
        verdicts: r.verdicts > 0,
      }));
  } finally {
    db.close();
  }
}
