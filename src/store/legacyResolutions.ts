/**
 * Throws recorded with declined rolls before a roll's resolution was hashed
 * (schema 4, 'dicerig-throw-v1'): their stored hashes cannot change without
 * moving every later hash and the chain heads people may have written down,
 * so migration 5 covers each one's resolutions with a hash of its own, chained
 * to the throw's stored hash (`resolutionHash`). From then on `verify` sees a
 * resolution edited in them as in any throw; an edit made before the migration
 * cannot be seen.
 */
import { resolutionHash } from './hashChain.js';
import type { Database } from './sqlite.js';

/** Migration 5: a cover for every throw that holds a roll not read. */
export function coverLegacyResolutions(db: Database): void {
  const throwsWithDeclined = db
    .prepare<{ id: number; hash: string }>(`SELECT t.id, t.hash FROM throws t WHERE EXISTS (SELECT 1 FROM rolls r WHERE r.throw_id = t.id AND r.resolution <> 'read') ORDER BY t.id`)
    .all();
  const rollsOf = db.prepare<{ seq: number; resolution: string }>('SELECT seq, resolution FROM rolls WHERE throw_id = ? ORDER BY seq');
  const insert = db.prepare('INSERT INTO legacy_resolutions (throw_id, resolution_hash) VALUES (?, ?)');
  for (const t of throwsWithDeclined) insert.run(t.id, resolutionHash(t.hash, rollsOf.all(t.id)));
}
