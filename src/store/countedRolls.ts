/**
 * Which stored rolls count (the rolls of ok throws that are not cocked and
 * have a symbol, read or given by a review), and reading them out of a damaged
 * file: `export --allow-unverified` writes every counted roll it can still
 * read rather than nothing.
 */
import type { CountedRoll } from './records.js';
import { STANDING_REVIEW } from './reviews.js';
import { readRanges } from './salvageRanges.js';
import type { Database } from './sqlite.js';

export const COUNTED = "t.status = 'ok' AND r.cocked = 0 AND coalesce(r.symbol, rv.symbol) IS NOT NULL";
// Only a roll a person labelled with a face is `reviewed`: a "cannot tell" answer leaves it unresolved, never counted.
// Its face is the answer that stands (a correction supersedes the label it corrects).
export const REVIEWED = `LEFT JOIN reviews rv ON rv.roll_id = r.id AND r.resolution = 'reviewed' AND ${STANDING_REVIEW}`;

// A reviewed roll keeps the confidence and classifier of the guess the reader declined: not a read, so not given.
const COLUMNS = `t.idx AS throwIndex, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel,
  coalesce(r.face_id, rv.face_id) AS faceId, coalesce(r.symbol, rv.symbol) AS symbol,
  CASE WHEN rv.id IS NULL THEN r.confidence END AS confidence, CASE WHEN rv.id IS NULL THEN r.classifier_version END AS classifierVersion,
  r.simulated, CASE WHEN rv.id IS NULL THEN 'read' ELSE 'reviewed' END AS resolution, rv.reviewer`;

/** The counted rolls of a session, in throw order (the store's everyday statement). */
export const COUNTED_SQL = `SELECT ${COLUMNS}
   FROM throws t JOIN rolls r ON r.throw_id = t.id JOIN dice d ON d.id = r.die_id ${REVIEWED}
  WHERE t.session_id = ? AND ${COUNTED}
  ORDER BY t.idx, r.seq`;

type Row = Omit<CountedRoll, 'simulated'> & { simulated: number; seq: number };

/**
 * The counted rolls of a session that can still be read from a damaged file,
 * and how many rolls of the file could not be read (of any session: a damaged
 * page does not say whose rows it held). The rolls table is read by ranges of
 * row ids (readRanges: a failing range is halved down to single rows), each
 * roll's throw and die looked up by theirs (CROSS JOIN keeps SQLite on that
 * path rather than the indexes, which may be the damaged part).
 */
export function salvageCountedRolls(db: Database, sessionId: number): { rolls: CountedRoll[]; unreadable: number } {
  const last = db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM rolls').get()?.id ?? 0;
  const range = db.prepare<Row>(
    `SELECT ${COLUMNS}, r.seq FROM rolls r CROSS JOIN throws t ON t.id = r.throw_id CROSS JOIN dice d ON d.id = r.die_id ${REVIEWED}
      WHERE r.id BETWEEN ? AND ? AND t.session_id = ? AND ${COUNTED}`,
  );
  const existing = db.prepare<{ n: number }>('SELECT count(*) AS n FROM rolls WHERE id BETWEEN ? AND ?');
  const rows: Row[] = [];
  const { unreadable } = readRanges(
    last,
    { range: (from, to) => range.all(from, to, sessionId), exists: (id) => (existing.get(id, id)?.n ?? 0) > 0 },
    (read) => rows.push(...read),
  );
  rows.sort((a, b) => a.throwIndex - b.throwIndex || a.seq - b.seq);
  return { rolls: rows.map(({ seq: _seq, ...r }) => ({ ...r, simulated: r.simulated === 1 })), unreadable };
}
