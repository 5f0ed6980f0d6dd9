import { ChainRows } from '../store/chainRows.js';
import { genesisHash, type ChainEvent, type ChainRoll, type ChainSession, type ChainThrow } from '../store/hashChain.js';
import type { ReviewRecord } from '../store/reviews.js';
import { checkSchema, SCHEMA_VERSION } from '../store/migrations.js';
import { StoreError } from '../store/errors.js';
import { isSqliteError, openDatabase, type Database } from '../store/sqlite.js';

/**
 * What the replicator reads from a rig host's local roll store, through a
 * read-only connection of its own (WAL lets it read while `run` writes).
 * Column names as the local schema has them; values exactly as stored, so
 * the hash chains are recomputed from the very bytes that were hashed.
 */
export interface LocalSession {
  readonly id: number;
  readonly name: string | null;
  readonly origin: string;
  readonly kind: string;
  readonly configJson: string;
  readonly softwareVersion: string;
  readonly simulated: number;
  readonly rigId: number | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly state: string;
  readonly headHash: string;
  readonly throwCount: number;
  readonly chainVersion: number;
  readonly eventsHead: string;
  readonly eventCount: number;
  readonly seal: string;
}

export interface LocalRig {
  readonly id: number;
  readonly rigKey: string;
  readonly driver: string;
  readonly firmware: string;
  readonly protocol: number;
  readonly configHash: string;
  readonly calibrationHash: string;
  readonly tumbler: string;
  readonly port: string | null;
}

/** A roll as the chain hashes it, with its row id; every local roll has a resolution (schema 4 and later). */
export interface LocalRoll extends ChainRoll {
  readonly id: number;
  readonly resolution: string;
}

/** A throw as the chain hashes it, with its row id, chain hashes and rolls. */
export interface LocalThrow extends ChainThrow {
  readonly id: number;
  readonly prevHash: string;
  readonly hash: string;
  readonly rolls: LocalRoll[];
}

/** An event as the chain hashes it, with its chain hashes (null in stores from before events were chained). */
export interface LocalEvent extends ChainEvent {
  readonly prevHash: string | null;
  readonly hash: string | null;
}

/** A review as the local store keeps it; `id` is its local id (the fleet gives its own, and keeps this one: a correction's hash covers it). */
export type LocalReview = ReviewRecord;

export interface LocalDie {
  readonly id: number;
  readonly label: string;
  readonly typeId: string;
  readonly set: string | null;
  readonly notes: string | null;
}

const SESSION = `SELECT id, name, origin, kind, config_json AS configJson, software_version AS softwareVersion, simulated, rig_id AS rigId,
  started_at AS startedAt, ended_at AS endedAt, state, head_hash AS headHash, throw_count AS throwCount, chain_version AS chainVersion,
  events_head AS eventsHead, event_count AS eventCount, seal FROM sessions`;

/** A read-only view of one local roll store. */
export class LocalRows {
  readonly chain: ChainRows;
  private constructor(
    private readonly db: Database,
    readonly path: string,
  ) {
    this.chain = new ChainRows(db);
  }

  /**
   * Opens the store at `path` for reading; it must exist and be at this dicerig's schema version.
   * `besideWriter`: the replicator of a run (`run --fleet`), whose connection may be the last one open on the file
   * when the run closes the store. Only a connection that may write checkpoints the write-ahead log into the file
   * and removes it on closing; a read-only one closing last leaves every throw in the -wal file beside it, where a
   * copy of the store file alone loses them. It still never writes a row.
   */
  static open(path: string, options: { readonly besideWriter?: boolean } = {}): LocalRows {
    let db: Database;
    try {
      db = openDatabase(path, { readonly: options.besideWriter !== true, fileMustExist: true, timeout: 5000 });
      const version = checkSchema(db);
      if (version < SCHEMA_VERSION) {
        db.close();
        throw new StoreError(`${path} has schema version ${version}; open it for writing once (\`dicerig sync\` does) to bring it to version ${SCHEMA_VERSION} before syncing.`, { db: path });
      }
    } catch (e) {
      if (isSqliteError(e)) throw new StoreError(`Cannot read the roll store ${path}: ${e.message}.`, { db: path }, { cause: e });
      throw e;
    }
    return new LocalRows(db, path);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one read transaction: everything it reads is one consistent state of the store. */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Throws of every session of the store. */
  throwTotal(): number {
    return this.db.prepare<{ n: number }>('SELECT COALESCE(SUM(throw_count), 0) AS n FROM sessions').get()?.n ?? 0;
  }

  sessions(): LocalSession[] {
    return this.db.prepare<LocalSession>(`${SESSION} ORDER BY id`).all();
  }

  session(id: number): LocalSession | undefined {
    return this.db.prepare<LocalSession>(`${SESSION} WHERE id = ?`).get(id);
  }

  /** The session's chain identity as its genesis hash covers it. */
  chainSession(id: number): ChainSession | undefined {
    return this.chain.session(id);
  }

  genesis(id: number): string | undefined {
    const s = this.chain.session(id);
    return s === undefined ? undefined : genesisHash(s);
  }

  rig(id: number): LocalRig | undefined {
    return this.db
      .prepare<LocalRig>(
        'SELECT id, rig_key AS rigKey, driver, firmware, protocol, config_hash AS configHash, calibration_hash AS calibrationHash, tumbler, port FROM rigs WHERE id = ?',
      )
      .get(id);
  }

  die(id: number): LocalDie | undefined {
    return this.db.prepare<LocalDie>('SELECT id, label, type_id AS typeId, set_name AS "set", notes FROM dice WHERE id = ?').get(id);
  }

  /** Throws `from`..`to` (indices, inclusive) of a session with their rolls, in order. */
  throws(sessionId: number, from: number, to: number): LocalThrow[] {
    const throws = this.db
      .prepare<Omit<LocalThrow, 'rolls'>>(
        `SELECT id, session_id AS sessionId, idx AS "index", started_at AS startedAt, ended_at AS endedAt, status, why, prev_hash AS prevHash, hash
           FROM throws WHERE session_id = ? AND idx BETWEEN ? AND ? ORDER BY idx`,
      )
      .all(sessionId, from, to);
    if (throws.length === 0) return [];
    const rolls = this.db
      .prepare<LocalRoll & { throwId: number }>(
        `SELECT r.id, r.throw_id AS throwId, r.seq, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel, r.face_id AS faceId,
                r.symbol, r.confidence, r.cocked, r.classifier_version AS classifierVersion, r.evidence_path AS evidencePath,
                r.evidence_hash AS evidenceHash, r.simulated, r.resolution
           FROM rolls r JOIN throws t ON t.id = r.throw_id LEFT JOIN dice d ON d.id = r.die_id
          WHERE t.session_id = ? AND t.idx BETWEEN ? AND ? ORDER BY t.idx, r.seq`,
      )
      .all(sessionId, from, to);
    const byThrow = new Map<number, LocalRoll[]>();
    for (const { throwId, ...r } of rolls) byThrow.set(throwId, [...(byThrow.get(throwId) ?? []), r]);
    return throws.map((t) => ({ ...t, rolls: byThrow.get(t.id) ?? [] }));
  }

  /** The session's hash of throw `index` (undefined when there is none). */
  throwHashAt(sessionId: number, index: number): string | undefined {
    return this.db.prepare<{ hash: string }>('SELECT hash FROM throws WHERE session_id = ? AND idx = ?').get(sessionId, index)?.hash;
  }

  /** Events `offset+1`..`offset+limit` of a session, in the order they were logged. */
  events(sessionId: number, offset: number, limit: number): LocalEvent[] {
    return this.db
      .prepare<LocalEvent>(
        `SELECT session_id AS sessionId, at, kind, throw_index AS throwIndex, die_id AS dieId, detail_json AS detailJson, prev_hash AS prevHash, hash
           FROM events WHERE session_id = ? ORDER BY id LIMIT ? OFFSET ?`,
      )
      .all(sessionId, limit, offset);
  }

  eventCount(sessionId: number): number {
    return this.db.prepare<{ n: number }>('SELECT count(*) AS n FROM events WHERE session_id = ?').get(sessionId)?.n ?? 0;
  }

  reviewCount(sessionId: number): number {
    return this.db.prepare<{ n: number }>('SELECT count(*) AS n FROM reviews WHERE session_id = ?').get(sessionId)?.n ?? 0;
  }

  /** Reviews after the first `offset` of a session, in the order they were given. */
  reviews(sessionId: number, offset: number): LocalReview[] {
    return this.db
      .prepare<LocalReview>(
        `SELECT id, session_id AS sessionId, roll_id AS rollId, face_id AS faceId, symbol, reviewer, at, after_throw AS afterThrow, supersedes, prev_hash AS prevHash, hash
           FROM reviews WHERE session_id = ? ORDER BY id LIMIT -1 OFFSET ?`,
      )
      .all(sessionId, offset);
  }

  /** What changes when anything of the session the replicator copies changes (throws, events, reviews, verdicts, its row). */
  stamp(s: LocalSession): string {
    const extra = this.db
      .prepare<{ reviews: number; verdictsAt: number | null; verdicts: string | null }>(
        `SELECT (SELECT count(*) FROM reviews WHERE session_id = ?) AS reviews, v.at AS verdictsAt, v.verdicts_json AS verdicts
           FROM (SELECT 1) LEFT JOIN session_verdicts v ON v.session_id = ?`,
      )
      .get(s.id, s.id);
    // The verdicts' JSON too: they are replaced in place, possibly under the same time. A session from before chained
    // events (chain version 1) keeps no count of them in its row: they are counted.
    const events = s.chainVersion === 2 ? s.eventCount : this.eventCount(s.id);
    return JSON.stringify([s.throwCount, events, s.state, s.endedAt, s.seal, s.headHash, extra?.reviews, extra?.verdictsAt, extra?.verdicts]);
  }

  verdicts(sessionId: number): { at: number; json: string } | undefined {
    return this.db.prepare<{ at: number; json: string }>('SELECT at, verdicts_json AS json FROM session_verdicts WHERE session_id = ?').get(sessionId);
  }
}
