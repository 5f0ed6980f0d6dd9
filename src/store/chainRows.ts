import type { ChainEvent, ChainRoll, ChainSeal, ChainSession, ChainThrow } from './hashChain.js';
import type { Database, Statement } from './sqlite.js';

/**
 * Reads the hashed fields back from the database. Recording a throw and
 * verifying it both hash what these statements return, so the stored hash is
 * by construction the one `verify` recomputes from the rows.
 */
export class ChainRows {
  private readonly sessionStmt: Statement<ChainSession & { rigKey: string | null; driver: string | null; firmware: string | null; protocol: number | null; configHash: string | null; calibrationHash: string | null; tumbler: string | null }>;
  private readonly throwStmt: Statement<ChainThrow>;
  private readonly rollsStmt: Statement<ChainRoll>;
  // Prepared on first use: they name columns of schema 2, and the throw chain is also read from older files.
  private sealStmt: Statement<ChainSeal & { chainVersion: number; seal: string }> | undefined;
  private eventsStmt: Statement<ChainEvent & { id: number; prevHash: string | null; hash: string | null }> | undefined;

  constructor(private readonly db: Database) {
    this.sessionStmt = db.prepare(
      `SELECT s.id, s.origin, s.config_json AS configJson, s.software_version AS softwareVersion, s.simulated,
              s.started_at AS startedAt, s.rig_id AS rigId,
              r.rig_key AS rigKey, r.driver, r.firmware, r.protocol, r.config_hash AS configHash,
              r.calibration_hash AS calibrationHash, r.tumbler
         FROM sessions s LEFT JOIN rigs r ON r.id = s.rig_id
        WHERE s.id = ?`,
    );
    this.throwStmt = db.prepare(
      `SELECT session_id AS sessionId, idx AS "index", started_at AS startedAt, ended_at AS endedAt, status, why
         FROM throws WHERE id = ?`,
    );
    this.rollsStmt = db.prepare(
      `SELECT r.seq, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel, r.face_id AS faceId,
              r.symbol, r.confidence, r.cocked, r.classifier_version AS classifierVersion,
              r.evidence_path AS evidencePath, r.evidence_hash AS evidenceHash, r.simulated
         FROM rolls r LEFT JOIN dice d ON d.id = r.die_id
        WHERE r.throw_id = ? ORDER BY r.seq`,
    );
  }

  /** The sealed fields of a session row, with its chain version and stored seal. */
  seal(id: number): (ChainSeal & { chainVersion: number; seal: string }) | undefined {
    this.sealStmt ??= this.db.prepare(
      `SELECT id, name, state, ended_at AS endedAt, head_hash AS headHash, throw_count AS throwCount, events_head AS eventsHead,
              event_count AS eventCount, chain_version AS chainVersion, seal
         FROM sessions WHERE id = ?`,
    );
    return this.sealStmt.get(id);
  }

  /** A session's events in the order they were logged, with their stored chain hashes. */
  events(sessionId: number): IterableIterator<ChainEvent & { id: number; prevHash: string | null; hash: string | null }> {
    this.eventsStmt ??= this.db.prepare(
      `SELECT id, session_id AS sessionId, at, kind, throw_index AS throwIndex, die_id AS dieId, detail_json AS detailJson,
              prev_hash AS prevHash, hash
         FROM events WHERE session_id = ? ORDER BY id`,
    );
    return this.eventsStmt.iterate(sessionId);
  }

  session(id: number): ChainSession | undefined {
    const row = this.sessionStmt.get(id);
    if (row === undefined) return undefined;
    return {
      id: row.id,
      origin: row.origin,
      configJson: row.configJson,
      softwareVersion: row.softwareVersion,
      simulated: row.simulated,
      startedAt: row.startedAt,
      rigId: row.rigId,
      rig: [row.rigKey, row.driver, row.firmware, row.protocol, row.configHash, row.calibrationHash, row.tumbler],
    };
  }

  throwFields(throwId: number): ChainThrow | undefined {
    return this.throwStmt.get(throwId);
  }

  rolls(throwId: number): ChainRoll[] {
    return this.rollsStmt.all(throwId);
  }
}
