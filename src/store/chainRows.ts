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
  // Prepared on first use: `resolution` exists from schema 4 (older files are read without migrating them).
  private rollsStmt: Statement<ChainRoll> | undefined;
  // Prepared on first use: they name columns of schema 2, and the throw chain is also read from older files.
  private sealStmt: Statement<ChainSeal & { chainVersion: number; seal: string }> | undefined;
  private eventsStmt: Statement<ChainEvent & { id: number; prevHash: string | null; hash: string | null }> | undefined;
  // Prepared on first use, null in a file from before stored verdicts.
  private verdictsStmt: Statement<{ json: string }> | null | undefined;

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
  }

  private hasColumn(table: string, column: string): boolean {
    return this.db.prepare<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().some((c) => c.name === column);
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

  /** The session's stored verdicts as their very JSON text, which their sealed digest covers (undefined when none are stored). */
  verdictsJson(sessionId: number): string | undefined {
    if (this.verdictsStmt === undefined) {
      this.verdictsStmt = this.hasColumn('session_verdicts', 'verdicts_json') ? this.db.prepare('SELECT verdicts_json AS json FROM session_verdicts WHERE session_id = ?') : null;
    }
    return this.verdictsStmt?.get(sessionId)?.json;
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
    this.rollsStmt ??= this.db.prepare(
      `SELECT r.seq, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel, r.face_id AS faceId,
              r.symbol, r.confidence, r.cocked, r.classifier_version AS classifierVersion,
              r.evidence_path AS evidencePath, r.evidence_hash AS evidenceHash, r.simulated,
              ${this.hasColumn('rolls', 'resolution') ? 'r.resolution' : "'read' AS resolution"}
         FROM rolls r LEFT JOIN dice d ON d.id = r.die_id
        WHERE r.throw_id = ? ORDER BY r.seq`,
    );
    return this.rollsStmt.all(throwId);
  }

  /**
   * Migration 5's resolution covers of the throws recorded with declined rolls
   * before resolutions were hashed (throw id -> hash); null in a file not yet
   * migrated to schema 5, where such throws have no cover at all.
   */
  legacyResolutions(): Map<number, string> | null {
    const exists = this.db.prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'legacy_resolutions'").get()?.n ?? 0;
    if (exists === 0) return null;
    const rows = this.db.prepare<{ throwId: number; hash: string }>('SELECT throw_id AS throwId, resolution_hash AS hash FROM legacy_resolutions').all();
    return new Map(rows.map((r) => [r.throwId, r.hash]));
  }
}
