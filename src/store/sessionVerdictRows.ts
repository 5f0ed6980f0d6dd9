import type { Database } from './sqlite.js';

/**
 * The verdicts a session made, stored as JSON exactly as the session made them
 * (one row per session, replaced when it makes them again), so `report`,
 * `pool` and `export` show them unchanged instead of recomputing.
 */
export class SessionVerdictRows {
  constructor(private readonly db: Database) {}

  save(sessionId: number, at: number, verdicts: unknown): void {
    this.db
      .prepare('INSERT INTO session_verdicts (session_id, at, verdicts_json) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET at = excluded.at, verdicts_json = excluded.verdicts_json')
      .run(sessionId, at, JSON.stringify(verdicts));
  }

  /** Null when the session stored none (e.g. an imported session). */
  stored(sessionId: number): { at: number; verdicts: unknown } | null {
    const row = this.db.prepare<{ at: number; json: string }>('SELECT at, verdicts_json AS json FROM session_verdicts WHERE session_id = ?').get(sessionId);
    return row === undefined ? null : { at: row.at, verdicts: JSON.parse(row.json) as unknown };
  }
}
