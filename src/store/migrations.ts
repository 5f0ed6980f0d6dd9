import { StoreError } from './errors.js';
import { coverLegacyResolutions } from './legacyResolutions.js';
import type { Database } from './sqlite.js';

/** `PRAGMA application_id` of a dicerig database ("DICE"), so a foreign SQLite file is refused rather than written into. */
export const APPLICATION_ID = 0x44494345;

export interface Migration {
  /** The `user_version` the database has once this migration is applied. */
  readonly version: number;
  readonly description: string;
  readonly sql: string;
  /** Work SQL cannot do (hashing), run after `sql` in the same transaction. */
  readonly run?: (db: Database) => void;
}

/**
 * Every schema change, in order. Published migrations are never edited: a
 * change is a new entry, so a database written by any earlier version can be
 * brought forward. Times are milliseconds since the Unix epoch; flags are 0/1.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'rigs, dice, sessions, throws (hash-chained), rolls and events',
    sql: `
      CREATE TABLE rigs (
        id               INTEGER PRIMARY KEY,
        rig_key          TEXT    NOT NULL,
        driver           TEXT    NOT NULL,
        firmware         TEXT    NOT NULL,
        protocol         INTEGER NOT NULL,
        config_hash      TEXT    NOT NULL,
        calibration_hash TEXT    NOT NULL DEFAULT '',
        tumbler          TEXT    NOT NULL,
        port             TEXT,
        UNIQUE (rig_key, driver, firmware, protocol, config_hash, calibration_hash, tumbler)
      );
      CREATE TABLE dice (
        id       INTEGER PRIMARY KEY,
        label    TEXT NOT NULL UNIQUE,
        type_id  TEXT NOT NULL,
        set_name TEXT,
        notes    TEXT
      );
      CREATE TABLE sessions (
        id               INTEGER PRIMARY KEY,
        name             TEXT UNIQUE,
        origin           TEXT    NOT NULL CHECK (origin IN ('rig', 'import')),
        config_json      TEXT    NOT NULL,
        software_version TEXT    NOT NULL,
        simulated        INTEGER NOT NULL CHECK (simulated IN (0, 1)),
        rig_id           INTEGER REFERENCES rigs(id),
        started_at       INTEGER NOT NULL,
        ended_at         INTEGER,
        state            TEXT    NOT NULL CHECK (state IN ('running', 'finished', 'stopped', 'aborted')),
        head_hash        TEXT    NOT NULL,
        throw_count      INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE throws (
        id         INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        idx        INTEGER NOT NULL CHECK (idx >= 1),
        started_at INTEGER NOT NULL,
        ended_at   INTEGER NOT NULL,
        status     TEXT    NOT NULL CHECK (status IN ('ok', 'void', 'rerolled')),
        why        TEXT,
        prev_hash  TEXT    NOT NULL,
        hash       TEXT    NOT NULL,
        UNIQUE (session_id, idx)
      );
      CREATE TABLE rolls (
        id                 INTEGER PRIMARY KEY,
        throw_id           INTEGER NOT NULL REFERENCES throws(id),
        seq                INTEGER NOT NULL,
        die_id             INTEGER NOT NULL REFERENCES dice(id),
        channel            INTEGER,
        face_id            TEXT,
        symbol             TEXT,
        confidence         REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
        cocked             INTEGER NOT NULL CHECK (cocked IN (0, 1)),
        classifier_version TEXT,
        evidence_path      TEXT,
        evidence_hash      TEXT,
        simulated          INTEGER NOT NULL CHECK (simulated IN (0, 1)),
        UNIQUE (throw_id, seq),
        UNIQUE (throw_id, die_id)
      );
      CREATE INDEX rolls_by_die ON rolls(die_id);
      CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER NOT NULL REFERENCES sessions(id),
        at          INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        throw_index INTEGER,
        die_id      INTEGER REFERENCES dice(id),
        detail_json TEXT    NOT NULL DEFAULT '{}'
      );
      CREATE INDEX events_by_session ON events(session_id, at);
    `,
  },
  {
    version: 2,
    description:
      "sessions sealed (chain_version 2: a seal over name, state, end time and the heads of the throw and event chains), events hash-chained, state 'never-started'",
    // SQLite cannot change a CHECK constraint in place: the sessions table is rebuilt (migrate turns foreign keys off around it).
    sql: `
      CREATE TABLE sessions_v2 (
        id               INTEGER PRIMARY KEY,
        name             TEXT UNIQUE,
        origin           TEXT    NOT NULL CHECK (origin IN ('rig', 'import')),
        config_json      TEXT    NOT NULL,
        software_version TEXT    NOT NULL,
        simulated        INTEGER NOT NULL CHECK (simulated IN (0, 1)),
        rig_id           INTEGER REFERENCES rigs(id),
        started_at       INTEGER NOT NULL,
        ended_at         INTEGER,
        state            TEXT    NOT NULL CHECK (state IN ('running', 'finished', 'stopped', 'aborted', 'never-started')),
        head_hash        TEXT    NOT NULL,
        throw_count      INTEGER NOT NULL DEFAULT 0,
        chain_version    INTEGER NOT NULL DEFAULT 1 CHECK (chain_version IN (1, 2)),
        events_head      TEXT    NOT NULL DEFAULT '',
        event_count      INTEGER NOT NULL DEFAULT 0,
        seal             TEXT    NOT NULL DEFAULT ''
      );
      INSERT INTO sessions_v2 (id, name, origin, config_json, software_version, simulated, rig_id, started_at, ended_at, state, head_hash, throw_count)
        SELECT id, name, origin, config_json, software_version, simulated, rig_id, started_at, ended_at, state, head_hash, throw_count FROM sessions;
      DROP TABLE sessions;
      ALTER TABLE sessions_v2 RENAME TO sessions;
      ALTER TABLE events ADD COLUMN prev_hash TEXT;
      ALTER TABLE events ADD COLUMN hash TEXT;
    `,
  },
  {
    version: 3,
    description: 'sessions.kind: a fairness run or the rolls asked for on stream (dicerig serve)',
    sql: `ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'fairness' CHECK (kind IN ('fairness', 'stream'));`,
  },
  {
    version: 4,
    description: 'unresolved rolls (resolution), reviews by a person (append-only, hash-chained), the session verdicts',
    sql: `
      ALTER TABLE rolls ADD COLUMN resolution TEXT NOT NULL DEFAULT 'read' CHECK (resolution IN ('read', 'unresolved', 'reviewed'));
      CREATE TABLE reviews (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER NOT NULL REFERENCES sessions(id),
        roll_id     INTEGER NOT NULL UNIQUE REFERENCES rolls(id),
        face_id     TEXT,
        symbol      TEXT    NOT NULL,
        reviewer    TEXT    NOT NULL,
        at          INTEGER NOT NULL,
        after_throw INTEGER NOT NULL,
        prev_hash   TEXT    NOT NULL,
        hash        TEXT    NOT NULL
      );
      CREATE INDEX reviews_by_session ON reviews(session_id, id);
      CREATE TRIGGER reviews_no_update BEFORE UPDATE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
      CREATE TRIGGER reviews_no_delete BEFORE DELETE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
      CREATE TABLE session_verdicts (
        session_id    INTEGER PRIMARY KEY REFERENCES sessions(id),
        at            INTEGER NOT NULL,
        verdicts_json TEXT    NOT NULL
      );
    `,
  },
  {
    version: 5,
    description: "rolls' resolution in the hash chain: covers for the throws with declined rolls recorded before it was hashed",
    sql: `
      CREATE TABLE legacy_resolutions (
        throw_id        INTEGER PRIMARY KEY REFERENCES throws(id),
        resolution_hash TEXT    NOT NULL
      );
      CREATE TRIGGER legacy_resolutions_no_update BEFORE UPDATE ON legacy_resolutions BEGIN SELECT RAISE(ABORT, 'legacy resolution covers are fixed'); END;
      CREATE TRIGGER legacy_resolutions_no_delete BEFORE DELETE ON legacy_resolutions BEGIN SELECT RAISE(ABORT, 'legacy resolution covers are fixed'); END;
    `,
    run: coverLegacyResolutions,
  },
  {
    version: 6,
    description: 'session locks: which process (pid, host, boot, start) is writing a rig session, so a second one cannot write it too',
    // Not part of any hash chain: a lock says who may write now, not what was recorded.
    sql: `
      CREATE TABLE session_locks (
        session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
        token      TEXT    NOT NULL,
        pid        INTEGER NOT NULL,
        host       TEXT    NOT NULL,
        boot_id    TEXT    NOT NULL DEFAULT '',
        proc_start TEXT    NOT NULL DEFAULT '',
        taken_at   INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    description: 'corrections: a review may supersede an earlier review of the same roll (reviews.supersedes), so a roll takes several reviews',
    // SQLite cannot drop the UNIQUE on roll_id in place: the table is rebuilt, its rows, ids and hashes copied as they are.
    sql: `
      CREATE TABLE reviews_v7 (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER NOT NULL REFERENCES sessions(id),
        roll_id     INTEGER NOT NULL REFERENCES rolls(id),
        face_id     TEXT,
        symbol      TEXT    NOT NULL,
        reviewer    TEXT    NOT NULL,
        at          INTEGER NOT NULL,
        after_throw INTEGER NOT NULL,
        prev_hash   TEXT    NOT NULL,
        hash        TEXT    NOT NULL,
        supersedes  INTEGER UNIQUE REFERENCES reviews_v7(id)
      );
      INSERT INTO reviews_v7 (id, session_id, roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash)
        SELECT id, session_id, roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash FROM reviews;
      DROP TABLE reviews;
      ALTER TABLE reviews_v7 RENAME TO reviews;
      CREATE INDEX reviews_by_session ON reviews(session_id, id);
      CREATE INDEX reviews_by_roll ON reviews(roll_id);
      CREATE TRIGGER reviews_no_update BEFORE UPDATE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
      CREATE TRIGGER reviews_no_delete BEFORE DELETE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
    `,
  },
  {
    version: 8,
    description: "review chain heads: each session keeps its reviews' count and last hash (sessions.review_count, reviews_head), set with each review, so a deleted last review is seen",
    // Filled from the reviews the store holds now: a last review deleted before this migration cannot be seen.
    sql: `
      ALTER TABLE sessions ADD COLUMN review_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN reviews_head TEXT NOT NULL DEFAULT '';
      UPDATE sessions SET
        review_count = (SELECT count(*) FROM reviews rv WHERE rv.session_id = sessions.id),
        reviews_head = coalesce((SELECT rv.hash FROM reviews rv WHERE rv.session_id = sessions.id ORDER BY rv.id DESC LIMIT 1), '');
    `,
  },
  {
    version: 9,
    description: 'session locks name the PID namespace of the process writing a session (session_locks.pid_ns), so a process in a container on the same host name is not judged by a pid that means nothing here',
    // '' for claims made before: judged by pid, boot and start time as then.
    sql: `ALTER TABLE session_locks ADD COLUMN pid_ns TEXT NOT NULL DEFAULT '';`,
  },
];

/** The schema version this software writes. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

export interface MigrationResult {
  readonly from: number;
  readonly to: number;
}

/**
 * Brings the database to `SCHEMA_VERSION`. The pending migrations run in order
 * in one transaction together with the `user_version` bump, so a crash leaves
 * the database at the old version or the new one, never in between. Refuses a database
 * from a newer dicerig (writing it could lose what the newer schema holds) and
 * an SQLite file that belongs to something else.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  // A migration may rebuild a table others refer to; foreign keys can only be switched outside a transaction.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1;
  if (foreignKeys && !db.inTransaction) db.pragma('foreign_keys = OFF');
  try {
    return migrateInTransaction(db, migrations);
  } finally {
    if (foreignKeys && !db.inTransaction) db.pragma('foreign_keys = ON');
  }
}

function migrateInTransaction(db: Database, migrations: readonly Migration[]): MigrationResult {
  // Read the version inside the write transaction: two processes opening a new
  // file at once must not both apply migration 1.
  return db
    .transaction((): MigrationResult => {
      const from = checkSchema(db, migrations);
      const latest = migrations.reduce((v, m) => Math.max(v, m.version), 0);
      const pending = [...migrations].filter((m) => m.version > from).sort((a, b) => a.version - b.version);
      for (const m of pending) {
        db.exec(m.sql);
        m.run?.(db);
        if (m.version === 1) db.pragma(`application_id = ${APPLICATION_ID}`);
        db.pragma(`user_version = ${m.version}`);
      }

      return { from, to: Math.max(from, latest) };
    })
    .immediate();
}

/**
 * The database's schema version, after refusing (without writing anything) an
 * SQLite file of another program, one from a newer dicerig, and one holding
 * foreign tables. Read-only openings check with this instead of migrating.
 */
export function checkSchema(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const from = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.reduce((v, m) => Math.max(v, m.version), 0);
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new StoreError(`${db.name} is an SQLite database of another program (application id ${appId}), not a dicerig roll store.`, { db: db.name });
  }
  if (from > latest) {
    throw new StoreError(`${db.name} was written by a newer dicerig (schema version ${from}; this version knows up to ${latest}). Upgrade dicerig to open it.`, {
      db: db.name,
    });
  }
  if (from === 0) {
    const tables = db.prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.n ?? 0;
    if (tables > 0) throw new StoreError(`${db.name} already holds tables that are not a dicerig roll store (it has no dicerig schema version).`, { db: db.name });
  }
  return from;
}
