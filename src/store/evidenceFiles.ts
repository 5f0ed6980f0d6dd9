/**
 * The evidence pictures a roll store points at: each roll's stored path (relative to the store's folder) and the
 * SHA-256 the hash chain sealed, so `verify` can check the files themselves, not only the chain that names them.
 */
import type { Database } from './sqlite.js';

export interface EvidenceFile {
  readonly sessionId: number;
  readonly throwIndex: number;
  readonly dieLabel: string;
  /** Relative to the folder of the store file. */
  readonly path: string;
  readonly hash: string;
}

/** Every roll's evidence file, in session and throw order. */
export function evidenceFiles(db: Database): EvidenceFile[] {
  return db
    .prepare<EvidenceFile>(
      `SELECT t.session_id AS sessionId, t.idx AS throwIndex, d.label AS dieLabel, r.evidence_path AS path, r.evidence_hash AS hash
         FROM rolls r JOIN throws t ON t.id = r.throw_id JOIN dice d ON d.id = r.die_id
        WHERE r.evidence_path IS NOT NULL AND r.evidence_hash IS NOT NULL
        ORDER BY t.session_id, t.idx, r.seq`,
    )
    .all();
}
