/**
 * The other sessions of a roll store that rolled a die (by its label: one die per label in a store), so a report
 * of one session can say where else the die was rolled and how to judge it on all of them.
 */
import type { Database } from './sqlite.js';

export interface SessionOfDie {
  readonly id: number;
  readonly name: string | null;
}

/** Sessions other than `except`, simulated as it is (simulated and real rolls never pool), that counted a roll of die `label`, oldest first. */
export function otherSessionsOfDie(db: Database, label: string, except: number, simulated: boolean): SessionOfDie[] {
  return db
    .prepare<SessionOfDie>(
      `SELECT DISTINCT s.id, s.name FROM dice d JOIN rolls r ON r.die_id = d.id JOIN throws t ON t.id = r.throw_id JOIN sessions s ON s.id = t.session_id
        WHERE d.label = ? AND s.id <> ? AND s.simulated = ? AND t.status = 'ok'
        ORDER BY s.id`,
    )
    .all(label, except, simulated ? 1 : 0);
}
