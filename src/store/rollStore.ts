import { dirname } from 'node:path';
import { makeFolders } from '../core/makeFolders.js';
import { findEvents, sessionEvents, type EventSearch } from './findEvents.js';
import type { RigIdentity } from '../rig/driver.js';
import { MAX_LABEL_LENGTH } from '../rolllog/dieLogs.js';
import { quoteValue } from '../rolllog/quoteValue.js';
import { VERSION } from '../core/version.js';
import { ChainRows } from './chainRows.js';
import { COUNTED_SQL, salvageCountedRolls } from './countedRolls.js';
import { StoreError } from './errors.js';
import { eventHash, genesisHash, sealHash, throwHash } from './hashChain.js';
import { checkSchema, migrate, SCHEMA_VERSION } from './migrations.js';
import { otherSessionsOfDie, type SessionOfDie } from './dieSessions.js';
import { evidenceFiles, type EvidenceFile } from './evidenceFiles.js';
import { ReviewLog, type ReviewInput, type ReviewRecord, type UnresolvedRoll } from './reviews.js';
import type {
  CountedRoll,
  DieInput,
  DieRecord,
  DieRollSeries,
  EventInput,
  EventRecord,
  RecordedThrow,
  RigRecord,
  SessionCounts,
  SessionInput,
  SessionRecord,
  SessionState,
  ThrowInput,
  ThrowTiming,
  VerifyReport,
} from './records.js';
import { isSqliteError, openDatabase, quickCheck, type Database, type Statement } from './sqlite.js';
import { checkThrowInput } from './throwInput.js';
import { sessionCounts } from './sessionCounts.js';
import { SessionLocks, type ClaimOptions, type ClaimResult } from './sessionLocks.js';
import { verifyChains } from './verify.js';
import { readRollEvents, type StoredRollEvent } from './rollEvents.js';
import { RigDiceRows } from './rigDiceRows.js';
import { SessionVerdictRows, VERDICTS_EVENT } from './sessionVerdictRows.js';

export type { StoredRollEvent } from './rollEvents.js';

export interface RollStoreOptions {
  /** Refuse to create a new database (for commands that only read one, e.g. `verify`, `export`). */
  readonly mustExist?: boolean;
  /**
   * `full` (default): every committed throw survives a power loss. `normal`
   * (faster; a power loss may lose the last few commits, never corrupt) exists
   * for the benchmark that measures what `full` costs.
   */
  readonly synchronous?: 'full' | 'normal';
  /** How long to wait for another connection's write lock (ms, default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * Open for reading only (implies `mustExist`): nothing is created, migrated
   * or written, so a read-only file can be read. The schema must be current.
   */
  readonly readonly?: boolean;
}

/** The condition for a roll to count; shared by every query that counts. */
/** A read roll, or a declined one a person has labelled since (its face and symbol from the review, `rv`). */

const SESSION_COLUMNS = `id, name, origin, kind, config_json AS configJson, software_version AS softwareVersion, simulated,
  rig_id AS rigId, started_at AS startedAt, ended_at AS endedAt, state, throw_count AS throwCount, head_hash AS headHash`;

type SessionRow = Omit<SessionRecord, 'simulated'> & { simulated: number };
type CountedRow = Omit<CountedRoll, 'simulated'> & { simulated: number };

/**
 * The roll log: SQLite in WAL mode with `synchronous=FULL` and foreign keys on.
 * Every throw is committed with all its rolls in one transaction before
 * `recordThrow` returns, so the runner can request the next tumble knowing the
 * throw is on disk. Not safe to share across threads; open one per process.
 */
export class RollStore {
  private readonly chain: ChainRows;
  /** The session's reviews (labels, "cannot tell" answers and their corrections): `ReviewLog`. */
  readonly reviewLog: ReviewLog;
  private readonly rigDice: RigDiceRows;
  private readonly verdictRows: SessionVerdictRows;
  readonly locks: SessionLocks;
  private readonly stmt: {
    sessionById: Statement<SessionRow>;
    insertThrow: Statement;
    insertRoll: Statement;
    setThrowHash: Statement;
    setHead: Statement;
    counted: Statement<CountedRow>;
  };
  private readonly recordThrowTx: (sessionId: number, input: ThrowInput) => RecordedThrow;
  private resealStmt: Statement | undefined;

  private constructor(
    private readonly db: Database,
    /** The database file. */
    readonly path: string,
    /** Opened for reading only. */
    readonly readonly = false,
  ) {
    this.chain = new ChainRows(db);
    this.reviewLog = new ReviewLog(db, path, (id) => genesisHash(this.chain.session(id) as NonNullable<ReturnType<ChainRows['session']>>));
    this.rigDice = new RigDiceRows(db, path, (fn) => this.atomically(fn));
    this.verdictRows = new SessionVerdictRows(db);
    this.locks = new SessionLocks(db, path);
    this.stmt = {
      sessionById: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
      insertThrow: db.prepare(
        'INSERT INTO throws (session_id, idx, started_at, ended_at, status, why, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertRoll: db.prepare(
        `INSERT INTO rolls (throw_id, seq, die_id, channel, face_id, symbol, confidence, cocked, classifier_version, evidence_path, evidence_hash, simulated, resolution)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      setThrowHash: db.prepare('UPDATE throws SET hash = ? WHERE id = ?'),
      setHead: db.prepare('UPDATE sessions SET head_hash = ?, throw_count = ? WHERE id = ?'),
      counted: db.prepare(COUNTED_SQL),
    };
    const tx = db.transaction((sessionId: number, input: ThrowInput) => this.writeThrow(sessionId, input));
    // IMMEDIATE takes the write lock up front, so a reader (a dashboard) can never make the commit fail halfway.
    this.recordThrowTx = (sessionId, input) => tx.immediate(sessionId, input);
  }

  /** Opens (creating it and its folder unless `mustExist` or `readonly`) and migrates a roll store. */
  static open(path: string, options: RollStoreOptions = {}): RollStore {
    const memory = path === ':memory:' || path === '';
    const readonly = options.readonly === true && !memory;
    const mustExist = options.mustExist === true || readonly;
    if (!memory && !mustExist) {
      try {
        makeFolders(dirname(path));
      } catch (e) {
        throw new StoreError(`Cannot create the folder ${dirname(path)} for the roll store: ${(e as Error).message}.`, { db: path }, { cause: e });
      }
    }
    let db: Database;
    try {
      db = openDatabase(path, { fileMustExist: mustExist, readonly, timeout: options.busyTimeoutMs ?? 5000 });
    } catch (e) {
      if (isSqliteError(e) && e.code === 'SQLITE_CANTOPEN') {
        throw new StoreError(mustExist ? `There is no roll store at ${path}.` : `Cannot open the roll store at ${path}: ${e.message}.`, { db: path }, { cause: e });
      }
      throw e;
    }
    try {
      if (readonly) {
        const version = checkSchema(db);
        if (version < SCHEMA_VERSION) throw new StoreError(`${path} has schema version ${version}; it must be opened for writing once to bring it to version ${SCHEMA_VERSION}.`, { db: path, reason: 'old-schema' });
      } else {
        db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      }
      db.pragma('foreign_keys = ON');
      if (!readonly) migrate(db);
      return new RollStore(db, path, readonly);
    } catch (e) {
      db.close();
      if (isSqliteError(e) && e.code === 'SQLITE_NOTADB') throw new StoreError(`${path} is not an SQLite database, so it cannot be a roll store.`, { db: path }, { cause: e });
      throw e;
    }
  }

  /** What SQLite's `quick_check` finds wrong with the file (at most `limit` problems), or [] when it is sound. */
  integrityProblems(limit = 5): string[] {
    return quickCheck(this.db, limit);
  }

  /** The connection's durability settings and schema version, for diagnostics. */
  settings(): { journalMode: string; synchronous: 'off' | 'normal' | 'full' | 'extra'; foreignKeys: boolean; schemaVersion: number } {
    const sync = this.db.pragma('synchronous', { simple: true }) as number;
    return {
      journalMode: String(this.db.pragma('journal_mode', { simple: true })),
      synchronous: (['off', 'normal', 'full', 'extra'] as const)[sync] ?? 'full',
      foreignKeys: this.db.pragma('foreign_keys', { simple: true }) === 1,
      schemaVersion: this.db.pragma('user_version', { simple: true }) as number,
    };
  }

  /** Closes the store; the sessions this connection claimed are free again. */
  close(): void {
    if (!this.db.open) return;
    try {
      if (!this.readonly) this.locks.releaseAll();
    } finally {
      this.db.close();
    }
  }

  /** Runs `fn` in one transaction: everything it records is committed together or not at all (nested calls join it). */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  // ---- rigs and dice (RigDiceRows) ---------------------------------------

  /** The rig row for this identity and calibration, added on first use (a firmware or calibration change makes a new row). */
  registerRig(identity: RigIdentity, calibrationHash = ''): RigRecord {
    return this.rigDice.registerRig(identity, calibrationHash);
  }

  getRig(id: number): RigRecord | undefined {
    return this.rigDice.getRig(id);
  }

  /** The die with this label, added if new. A label already stored with another type is refused: a label names one physical die. */
  registerDie(input: DieInput): DieRecord {
    return this.rigDice.registerDie(input);
  }

  getDie(id: number): DieRecord | undefined {
    return this.rigDice.getDie(id);
  }

  findDie(label: string): DieRecord | undefined {
    return this.rigDice.findDie(label);
  }

  dice(): DieRecord[] {
    return this.rigDice.dice();
  }

  /** The other sessions (simulated as `session` is) that rolled die `label`. */
  otherSessionsOfDie(label: string, session: Pick<SessionRecord, 'id' | 'simulated'>): SessionOfDie[] {
    return otherSessionsOfDie(this.db, label, session.id, session.simulated);
  }

  /** Every roll's evidence picture: its path beside the store and the hash the chain sealed. */
  evidenceFiles(): EvidenceFile[] {
    return evidenceFiles(this.db);
  }

  // ---- sessions ------------------------------------------------------------

  /** Starts a session (state `running`) and fixes its genesis hash, which covers its config, version, simulated flag and rig. */
  createSession(input: SessionInput): SessionRecord {
    const name = input.name?.trim();
    if (name !== undefined && (name === '' || /^\d+$/.test(name))) {
      throw new StoreError(`A session name must not be empty or all digits ("${input.name}"): a number names a session by its id.`, { db: this.path });
    }
    if (name !== undefined && name.length > MAX_LABEL_LENGTH) {
      throw new StoreError(`The session name ${quoteValue(name)} is too long: a name is at most ${MAX_LABEL_LENGTH} characters.`, { db: this.path });
    }
    if (!Number.isFinite(input.startedAt)) throw new StoreError('A session needs a finite start time (milliseconds since the epoch).', { db: this.path });
    let configJson: string | undefined;
    try {
      configJson = JSON.stringify(input.config ?? {});
    } catch (e) {
      throw new StoreError(`The session config cannot be stored as JSON: ${(e as Error).message}.`, { db: this.path }, { cause: e });
    }
    return this.atomically(() => {
      let id: number;
      try {
        const info = this.db
          .prepare(
            `INSERT INTO sessions (name, origin, kind, config_json, software_version, simulated, rig_id, started_at, state, head_hash, chain_version)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', '', 2)`,
          )
          .run(name ?? null, input.origin ?? 'rig', input.kind ?? 'fairness', configJson ?? '{}', input.softwareVersion ?? VERSION, input.simulated ? 1 : 0, input.rigId ?? null, input.startedAt);
        id = Number(info.lastInsertRowid);
      } catch (e) {
        if (isSqliteError(e) && e.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new StoreError(`A session named "${name}" already exists; choose another name.`, { db: this.path }, { cause: e });
        if (isSqliteError(e) && e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new StoreError(`Rig ${input.rigId} is not registered in the store.`, { db: this.path }, { cause: e });
        throw e;
      }
      const genesis = genesisHash(this.chain.session(id) as NonNullable<ReturnType<ChainRows['session']>>);
      this.stmt.setHead.run(genesis, 0, id);
      this.reseal(id);
      if ((input.origin ?? 'rig') === 'rig') this.locks.claim(id);
      return this.getSession(id) as SessionRecord;
    });
  }

  getSession(id: number): SessionRecord | undefined {
    const row = this.stmt.sessionById.get(id);
    return row === undefined ? undefined : sessionRecord(row);
  }

  /** A session by id (all digits) or name; a StoreError listing the sessions when there is none. */
  findSession(idOrName: string): SessionRecord {
    const key = idOrName.trim();
    const row = /^\d+$/.test(key) ? this.stmt.sessionById.get(Number(key)) : this.db.prepare<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE name = ?`).get(key);
    if (row !== undefined) return sessionRecord(row);
    const known = this.sessions().map((s) => (s.name === null ? String(s.id) : `${s.id} (${s.name})`));
    throw new StoreError(`There is no session "${key}" in ${this.path}${known.length > 0 ? `; sessions: ${known.join(', ')}` : ': it holds no sessions'}.`, {
      db: this.path,
      session: key,
    });
  }

  sessions(): SessionRecord[] {
    return this.db.prepare<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY id`).all().map(sessionRecord);
  }

  /**
   * Reopens a session after a crash, a power loss or a stop (`--resume`): it is
   * `running` again, a `resumed` event is logged, and the next throw continues
   * after `lastThrowIndex`. The session is claimed first (`claimSession`).
   */
  resumeSession(sessionId: number, at: number): { session: SessionRecord; lastThrowIndex: number } {
    return this.atomically(() => {
      const s = this.requireSession(sessionId);
      if (s.origin === 'import') throw new StoreError(`Session ${sessionId} was imported from roll logs; it cannot be resumed on a rig.`, { db: this.path, session: sessionId });
      this.locks.claim(sessionId);
      this.db.prepare("UPDATE sessions SET state = 'running', ended_at = NULL WHERE id = ?").run(sessionId);
      this.recordEvent(sessionId, { at, kind: 'resumed', detail: { previousState: s.state, lastThrowIndex: s.throwCount } });
      this.reseal(sessionId);
      return { session: this.requireSession(sessionId), lastThrowIndex: s.throwCount };
    });
  }

  /**
   * Claims a rig session for this connection until the store closes (`SessionLocks`): refused with a
   * `SessionLockedError` while another live process holds it; a dead holder's claim is taken over and returned.
   */
  claimSession(sessionId: number, options: ClaimOptions = {}): ClaimResult {
    this.requireSession(sessionId);
    return this.locks.claim(sessionId, options);
  }

  /** Ends a session: `finished` (done), `stopped` (by the user), `aborted` (by faults) or `never-started` (its run failed before the first throw). */
  endSession(sessionId: number, at: number, state: Exclude<SessionState, 'running'> = 'finished'): SessionRecord {
    if (!['finished', 'stopped', 'aborted', 'never-started'].includes(state)) throw new StoreError(`"${state}" is not a state a session can end in.`, { db: this.path, session: sessionId });
    return this.atomically(() => {
      this.requireSession(sessionId);
      this.db.prepare('UPDATE sessions SET state = ?, ended_at = ? WHERE id = ?').run(state, at, sessionId);
      this.reseal(sessionId);
      return this.requireSession(sessionId);
    });
  }

  // ---- throws and events ---------------------------------------------------

  /**
   * Records one throw with all its rolls in one transaction, chained to the
   * session's previous throw, and returns its 1-based index. When it returns the
   * throw is committed (durable with `synchronous=full`); when it throws, nothing
   * of the throw was written. Every roll carries the session's simulated flag.
   */
  recordThrow(sessionId: number, input: ThrowInput): RecordedThrow {
    checkThrowInput(input, { db: this.path, session: sessionId });
    return this.recordThrowTx(sessionId, input);
  }

  private writeThrow(sessionId: number, input: ThrowInput): RecordedThrow {
    const s = this.requireSession(sessionId);
    if (s.state !== 'running') {
      throw new StoreError(`Session ${sessionId} is ${s.state}; resume it before recording throws.`, { db: this.path, session: sessionId });
    }
    const index = s.throwCount + 1;
    const info = this.stmt.insertThrow.run(sessionId, index, input.startedAt, input.endedAt, input.status, input.why ?? null, s.headHash, '');
    const throwId = Number(info.lastInsertRowid);
    const simulated = s.simulated ? 1 : 0;
    input.rolls.forEach((r, seq) => {
      try {
        this.stmt.insertRoll.run(
          throwId,
          seq,
          r.dieId,
          r.channel ?? null,
          r.faceId ?? null,
          r.symbol ?? null,
          r.confidence ?? null,
          r.cocked === true ? 1 : 0,
          r.classifierVersion ?? null,
          r.evidencePath ?? null,
          r.evidenceHash ?? null,
          simulated,
          r.resolution ?? 'read',
        );
      } catch (e) {
        if (!isSqliteError(e)) throw e;
        const why =
          e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
            ? `die ${r.dieId} is not registered`
            : e.code === 'SQLITE_CONSTRAINT_UNIQUE'
              ? `die ${r.dieId} appears twice in the throw`
              : e.message;
        throw new StoreError(`Cannot record throw ${index} of session ${sessionId}: roll ${seq + 1}: ${why}. Nothing of the throw was stored.`, {
          db: this.path,
          session: sessionId,
          throwIndex: index,
        }, { cause: e });
      }
    });
    const hash = throwHash(s.headHash, this.chain.throwFields(throwId) as NonNullable<ReturnType<ChainRows['throwFields']>>, this.chain.rolls(throwId));
    this.stmt.setThrowHash.run(hash, throwId);
    this.stmt.setHead.run(hash, index, sessionId);
    this.reseal(sessionId);
    return { throwId, index, hash };
  }

  /** Recomputes a sealed (chain version 2) session's seal after its row changed; a session from before the seal keeps none. Its UPDATE is prepared once, lazily (an older file has no seal column): prepared at each throw it cost some 10 us of CPU a throw, a sixth of recordThrow's. */
  private reseal(sessionId: number): void {
    const row = this.chain.seal(sessionId);
    if (row === undefined || row.chainVersion !== 2) return;
    (this.resealStmt ??= this.db.prepare('UPDATE sessions SET seal = ? WHERE id = ?')).run(sealHash(row), sessionId);
  }

  /** Logs an event (cocked, unreadable or missing die, fault, reconnect...) for the session; returns its id. */
  recordEvent(sessionId: number, event: EventInput): number {
    let detail: string;
    try {
      detail = JSON.stringify(event.detail ?? {});
    } catch (e) {
      throw new StoreError(`The detail of a "${event.kind}" event cannot be stored as JSON: ${(e as Error).message}.`, { db: this.path, session: sessionId }, { cause: e });
    }
    try {
      return this.atomically(() => {
        const info = this.db
          .prepare('INSERT INTO events (session_id, at, kind, throw_index, die_id, detail_json) VALUES (?, ?, ?, ?, ?, ?)')
          .run(sessionId, event.at, event.kind, event.throwIndex ?? null, event.dieId ?? null, detail);
        const id = Number(info.lastInsertRowid);
        const seal = this.chain.seal(sessionId);
        if (seal !== undefined && seal.chainVersion === 2) {
          const hash = eventHash(seal.eventsHead, { sessionId, at: event.at, kind: event.kind, throwIndex: event.throwIndex ?? null, dieId: event.dieId ?? null, detailJson: detail });
          this.db.prepare('UPDATE events SET prev_hash = ?, hash = ? WHERE id = ?').run(seal.eventsHead, hash, id);
          this.db.prepare('UPDATE sessions SET events_head = ?, event_count = event_count + 1 WHERE id = ?').run(hash, sessionId);
          this.reseal(sessionId);
        }
        return id;
      });
    } catch (e) {
      if (isSqliteError(e) && e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        const what = event.dieId === undefined ? `session ${sessionId} does not exist` : `session ${sessionId} or die ${event.dieId} does not exist`;
        throw new StoreError(`Cannot log the "${event.kind}" event: ${what}.`, { db: this.path, session: sessionId }, { cause: e });
      }
      throw e;
    }
  }

  events(sessionId: number): EventRecord[] {
    return sessionEvents(this.db, sessionId);
  }

  /** Events of one kind in every session, newest first (`findEvents`): a stream roll's record by its id, say. */
  findEvents(kind: string, options: EventSearch = {}): EventRecord[] {
    return findEvents(this.db, kind, options);
  }

  // ---- queries -------------------------------------------------------------

  /** Index of the session's last committed throw (0 before the first): `--resume` continues after it. */
  lastThrowIndex(sessionId: number): number {
    return this.requireSession(sessionId).throwCount;
  }

  /** The latest time the session's rows record (its start, its throws' ends, its events, its end): a resumed run's clock must not go back before it. */
  latestTime(sessionId: number): number {
    const s = this.requireSession(sessionId);
    const row = this.db
      .prepare<{ t: number | null; e: number | null }>(
        'SELECT (SELECT max(ended_at) FROM throws WHERE session_id = ?) AS t, (SELECT max(at) FROM events WHERE session_id = ?) AS e',
      )
      .get(sessionId, sessionId);
    return Math.max(s.startedAt, s.endedAt ?? -Infinity, row?.t ?? -Infinity, row?.e ?? -Infinity);
  }

  /** Start and end of every throw of the session (ok, void or rerolled), in throw order. */
  throwTimes(sessionId: number): ThrowTiming[] {
    this.requireSession(sessionId);
    return this.db
      .prepare<ThrowTiming>('SELECT idx AS "index", started_at AS startedAt, ended_at AS endedAt FROM throws WHERE session_id = ? ORDER BY idx')
      .all(sessionId);
  }

  /** The rolls that count, in throw order (void and rerolled throws, cocked and unread dice never count). */
  *countedRolls(sessionId: number): Generator<CountedRoll> {
    for (const row of this.stmt.counted.iterate(sessionId)) yield { ...row, simulated: row.simulated === 1 };
  }

  /** The counted rolls of a session still readable from a damaged file, and how many rolls could not be read. */
  salvagedRolls(sessionId: number): { rolls: CountedRoll[]; unreadable: number } {
    return salvageCountedRolls(this.db, sessionId);
  }

  /** The counted rolls of a session per die, each in throw order; dice in order of first appearance. */
  dieRolls(sessionId: number): DieRollSeries[] {
    const byDie = new Map<number, DieRollSeries>();
    for (const r of this.stmt.counted.iterate(sessionId)) {
      let series = byDie.get(r.dieId);
      if (series === undefined) {
        series = { die: this.getDie(r.dieId) as DieRecord, throwIndices: [], channels: [], faces: [], symbols: [] };
        byDie.set(r.dieId, series);
      }
      series.throwIndices.push(r.throwIndex);
      series.channels.push(r.channel);
      series.faces.push(r.faceId);
      series.symbols.push(r.symbol);
    }
    return [...byDie.values()];
  }

  counts(sessionId: number): SessionCounts {
    return sessionCounts(this.db, sessionId);
  }

  /**
   * Where a chain head written down elsewhere (`verify --expect`) is in the
   * store: the session and throw whose hash it is (throw 0 for the genesis of a
   * session with no throws yet), or undefined when no chain reaches it.
   */
  findChainHead(hash: string): { sessionId: number; throwIndex: number; throwCount: number } | undefined {
    const t = this.db
      .prepare<{ sessionId: number; throwIndex: number; throwCount: number }>(
        'SELECT t.session_id AS sessionId, t.idx AS throwIndex, s.throw_count AS throwCount FROM throws t JOIN sessions s ON s.id = t.session_id WHERE t.hash = ?',
      )
      .get(hash);
    if (t !== undefined) return t;
    return this.db
      .prepare<{ sessionId: number; throwIndex: number; throwCount: number }>('SELECT id AS sessionId, 0 AS throwIndex, 0 AS throwCount FROM sessions WHERE head_hash = ? AND throw_count = 0')
      .get(hash);
  }

  /** Walks every session's hash chains (throws and their seal, events, then reviews); see `verifyChains` and `ReviewLog.verify`. */
  verify(): VerifyReport {
    const damage = this.integrityProblems();
    let report: VerifyReport;
    try {
      report = verifyChains(this.db, this.chain);
      const breaks = [...report.breaks];
      for (const { id, name } of this.db.prepare<{ id: number; name: string | null }>('SELECT id, name FROM sessions ORDER BY id').all()) {
        const session = this.chain.session(id);
        if (session === undefined || breaks.some((b) => b.sessionId === id)) continue;
        const problem = this.reviewLog.verify(id, genesisHash(session));
        if (problem !== null) breaks.push({ sessionId: id, sessionName: name, throwIndex: null, problem });
      }
      report = { ...report, ok: report.ok && breaks.length === report.breaks.length, breaks };
    } catch (e) {
      // A damaged page met while walking: report what the check and the failure say.
      if (!isSqliteError(e)) throw e;
      report = { ok: false, sessions: 0, throws: 0, rolls: 0, orphanRolls: 0, breaks: [] };
      damage.push(`reading the chains failed: ${e.message}`);
    }
    return damage.length === 0 ? report : { ...report, ok: false, damage: [...new Set(damage)] };
  }

  // ---- declined rolls and reviews -------------------------------------------

  /** The session's declined rolls nobody has labelled with a face, with their crops and the reader's reason (those a person could not tell too). */
  unresolvedRolls(sessionId: number): UnresolvedRoll[] {
    return this.reviewLog.unresolved(sessionId);
  }

  /** The declined rolls still waiting for a person (the review page's queue): not labelled, not said untellable. */
  rollsToReview(sessionId: number): UnresolvedRoll[] {
    return this.reviewLog.toReview(sessionId);
  }

  /** Stores a person's label for a declined roll; throws `ReviewError` for what it refuses (see `ReviewLog.review`). */
  reviewRoll(sessionId: number, input: ReviewInput): ReviewRecord {
    return this.reviewLog.review(sessionId, input);
  }

  /** Stores labels for several declined rolls at once, all or none (`ReviewLog.reviewAll`). */
  reviewRolls(sessionId: number, inputs: readonly ReviewInput[]): ReviewRecord[] {
    return this.reviewLog.reviewAll(sessionId, inputs);
  }

  /** The session's reviews in the order given (only those after review `afterId` when given). */
  reviews(sessionId: number, afterId = 0): ReviewRecord[] {
    return this.reviewLog.reviews(sessionId, afterId);
  }

  /** The id of the session's last review, 0 when none. */
  lastReviewId(sessionId: number): number {
    return this.reviewLog.lastReviewId(sessionId);
  }

  /**
   * Each die's roll sequence as the session saw it, for rebuilding its monitor:
   * its rolls of ok throws that were not cocked (read, or declined), then each
   * review placed after the throw that was the session's last when it was given.
   */
  rollEvents(sessionId: number): Map<number, StoredRollEvent[]> {
    this.requireSession(sessionId);
    return readRollEvents(this.db, this.reviewLog, sessionId);
  }

  /** Stores the session's verdicts as it made them (replacing earlier ones), their digest sealed in its events chain. */
  saveVerdicts(sessionId: number, at: number, verdicts: unknown): void {
    this.requireSession(sessionId);
    this.atomically(() => this.recordEvent(sessionId, { at, kind: VERDICTS_EVENT, detail: { sha256: this.verdictRows.save(sessionId, at, verdicts) } }));
  }

  /** The verdicts the session stored (null when it stored none, e.g. an imported session). */
  storedVerdicts(sessionId: number): { at: number; verdicts: unknown } | null {
    return this.verdictRows.stored(sessionId);
  }

  private requireSession(sessionId: number): SessionRecord {
    const s = this.getSession(sessionId);
    if (s === undefined) throw new StoreError(`There is no session ${sessionId} in ${this.path}.`, { db: this.path, session: sessionId });
    return s;
  }
}

function sessionRecord(row: SessionRow): SessionRecord {
  return { ...row, simulated: row.simulated === 1 };
}
