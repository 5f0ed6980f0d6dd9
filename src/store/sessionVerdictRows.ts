import { createHash } from 'node:crypto';
import type { Database } from './sqlite.js';

/** The kind of the event that seals stored verdicts in the session's events chain, its detail `{ sha256 }`. */
export const VERDICTS_EVENT = 'verdicts-stored';

/** The SHA-256 (hex) of verdicts as stored: the very JSON text of their row. */
export const verdictsDigest = (json: string): string => createHash('sha256').update(json, 'utf8').digest('hex');

/**
 * The verdicts a session made, stored as JSON exactly as the session made them
 * (one row per session, replaced when it makes them again), so `report`,
 * `pool` and `export` show them unchanged instead of recomputing.
 */
export class SessionVerdictRows {
  constructor(private readonly db: Database) {}

  /** Stores them and returns their digest, which the store seals in the session's events chain. */
  save(sessionId: number, at: number, verdicts: unknown): string {
    const json = JSON.stringify(verdicts);
    this.db
      .prepare('INSERT INTO session_verdicts (session_id, at, verdicts_json) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET at = excluded.at, verdicts_json = excluded.verdicts_json')
      .run(sessionId, at, json);
    return verdictsDigest(json);
  }

  /** Null when the session stored none (e.g. an imported session). */
  stored(sessionId: number): { at: number; verdicts: unknown } | null {
    const row = this.db.prepare<{ at: number; json: string }>('SELECT at, verdicts_json AS json FROM session_verdicts WHERE session_id = ?').get(sessionId);
    return row === undefined ? null : { at: row.at, verdicts: JSON.parse(row.json) as unknown };
  }
}
