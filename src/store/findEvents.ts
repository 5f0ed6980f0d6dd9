/** Reading events: a session's, or those of one kind across sessions (a stream roll's record by its id). */
import type { EventRecord } from './records.js';
import type { Database } from './sqlite.js';

export interface EventSearch {
  /** Only events whose detail has this key equal to this value (a stream roll's id, say). */
  readonly match?: { readonly key: string; readonly value: string };
  readonly limit?: number;
}

const COLUMNS = 'id, session_id AS sessionId, at, kind, throw_index AS throwIndex, die_id AS dieId, detail_json AS detailJson';

/** A session's events in the order they happened. */
export function sessionEvents(db: Database, sessionId: number): EventRecord[] {
  return db
    .prepare<Omit<EventRecord, 'detail'> & { detailJson: string }>(`SELECT ${COLUMNS} FROM events WHERE session_id = ? ORDER BY at, id`)
    .all(sessionId)
    .map(({ detailJson, ...e }) => ({ ...e, detail: JSON.parse(detailJson) as unknown }));
}

/** Events of one kind in every session, newest first, as `search` narrows them. */
export function findEvents(db: Database, kind: string, search: EventSearch = {}): EventRecord[] {
  const where = search.match !== undefined ? ' AND json_extract(detail_json, ?) = ?' : '';
  const params: (string | number)[] = [kind, ...(search.match !== undefined ? [`$.${search.match.key}`, search.match.value] : []), search.limit ?? -1];
  return db
    .prepare<Omit<EventRecord, 'detail'> & { detailJson: string }>(
      `SELECT ${COLUMNS} FROM events WHERE kind = ?${where} ORDER BY id DESC LIMIT ?`,
    )
    .all(...params)
    .map(({ detailJson, ...e }) => ({ ...e, detail: JSON.parse(detailJson) as unknown }));
}
