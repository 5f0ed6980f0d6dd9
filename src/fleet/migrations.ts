import type pg from 'pg';
import { CAMPAIGN_CLAIM_MIGRATION } from './campaignClaimTables.js';
import { CAMPAIGN_MIGRATION } from './campaignTables.js';
import { FleetError } from './errors.js';

/**
 * The fleet store's schema in PostgreSQL, as versioned migrations (the same
 * idea as the local store's `src/store/migrations.ts`): published migrations
 * are never edited, a change is a new entry, and `migrateFleet` applies the
 * pending ones in order in one transaction together with their rows in
 * `dicerig_schema`. Times are milliseconds since the Unix epoch as
 * stored locally (DOUBLE PRECISION: a simulated clock's are fractional, and
 * the hashes cover them exactly); flags are 0/1 as in the local store, so the hash
 * chains are recomputed from the same values.
 *
 * Ids are the fleet's own. What ties a row to the rig host it came from:
 * a session's `genesis` (the genesis hash of its chain, which covers its local
 * id, config, start time and rig, so it names one session of one store), its
 * `local_id`, and the local ids the chains hash (`local_die_id`, `local_id` of
 * a roll, and from version 3 `local_id` and `local_supersedes` of a review: a
 * correction's hash names the review it supersedes by its local id). A throw
 * is identified by (session, idx): copied twice, it is stored once.
 */
export interface FleetMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const FLEET_MIGRATIONS: readonly FleetMigration[] = [
  {
    version: 1,
    description: 'rigs and their setups, dice (one per label across the fleet), campaigns, sessions (origin, rig, campaign), throws, rolls, events, reviews, session verdicts',
    sql: `
      CREATE TABLE rigs (
        id               TEXT   PRIMARY KEY,
        firmware         TEXT,
        camera           TEXT,
        calibration_hash TEXT,
        first_seen       DOUBLE PRECISION,
        last_seen        DOUBLE PRECISION
      );
      CREATE TABLE rig_setups (
        id               BIGSERIAL PRIMARY KEY,
        rig_id           TEXT    NOT NULL REFERENCES rigs(id),
        driver           TEXT    NOT NULL,
        firmware         TEXT    NOT NULL,
        protocol         INTEGER NOT NULL,
        config_hash      TEXT    NOT NULL,
        calibration_hash TEXT    NOT NULL,
        tumbler          TEXT    NOT NULL,
        port             TEXT,
        UNIQUE (rig_id, driver, firmware, protocol, config_hash, calibration_hash, tumbler)
      );
      CREATE TABLE dice (
        id       BIGSERIAL PRIMARY KEY,
        label    TEXT NOT NULL UNIQUE,
        type_id  TEXT NOT NULL,
        set_name TEXT,
        notes    TEXT
      );
      CREATE TABLE campaigns (
        id         BIGSERIAL PRIMARY KEY,
        name       TEXT   NOT NULL UNIQUE,
        created_at DOUBLE PRECISION NOT NULL
      );
      CREATE TABLE sessions (
        id                BIGSERIAL PRIMARY KEY,
        genesis           TEXT    NOT NULL UNIQUE,
        origin_host       TEXT    NOT NULL,
        origin_db         TEXT    NOT NULL,
        local_id          INTEGER NOT NULL,
        local_rig_id      INTEGER,
        rig_setup_id      BIGINT  REFERENCES rig_setups(id),
        rig_id            TEXT    REFERENCES rigs(id),
        campaign_id       BIGINT  REFERENCES campaigns(id),
        name              TEXT,
        origin            TEXT    NOT NULL CHECK (origin IN ('rig', 'import')),
        kind              TEXT    NOT NULL CHECK (kind IN ('fairness', 'stream')),
        config_json       TEXT    NOT NULL,
        software_version  TEXT    NOT NULL,
        simulated         INTEGER NOT NULL CHECK (simulated IN (0, 1)),
        started_at        DOUBLE PRECISION  NOT NULL,
        ended_at          DOUBLE PRECISION,
        state             TEXT    NOT NULL CHECK (state IN ('running', 'finished', 'stopped', 'aborted', 'never-started')),
        chain_version     INTEGER NOT NULL CHECK (chain_version IN (1, 2)),
        head_hash         TEXT    NOT NULL,
        throw_count       INTEGER NOT NULL DEFAULT 0,
        events_head       TEXT    NOT NULL DEFAULT '',
        event_count       INTEGER NOT NULL DEFAULT 0,
        review_count      INTEGER NOT NULL DEFAULT 0,
        seal              TEXT    NOT NULL DEFAULT '',
        local_throw_count INTEGER NOT NULL DEFAULT 0,
        local_event_count INTEGER NOT NULL DEFAULT 0,
        synced_at         DOUBLE PRECISION  NOT NULL
      );
      CREATE INDEX sessions_by_rig ON sessions(rig_id);
      CREATE INDEX sessions_by_campaign ON sessions(campaign_id);
      CREATE TABLE throws (
        id         BIGSERIAL PRIMARY KEY,
        session_id BIGINT  NOT NULL REFERENCES sessions(id),
        idx        INTEGER NOT NULL CHECK (idx >= 1),
        started_at DOUBLE PRECISION  NOT NULL,
        ended_at   DOUBLE PRECISION  NOT NULL,
        status     TEXT    NOT NULL CHECK (status IN ('ok', 'void', 'rerolled')),
        why        TEXT,
        prev_hash  TEXT    NOT NULL,
        hash       TEXT    NOT NULL,
        synced_at  DOUBLE PRECISION  NOT NULL,
        UNIQUE (session_id, idx)
      );
      CREATE TABLE rolls (
        id                 BIGSERIAL PRIMARY KEY,
        throw_id           BIGINT  NOT NULL REFERENCES throws(id),
        local_id           INTEGER NOT NULL,
        seq                INTEGER NOT NULL,
        die_id             BIGINT  NOT NULL REFERENCES dice(id),
        local_die_id       INTEGER NOT NULL,
        channel            INTEGER,
        face_id            TEXT,
        symbol             TEXT,
        confidence         DOUBLE PRECISION CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
        cocked             INTEGER NOT NULL CHECK (cocked IN (0, 1)),
        classifier_version TEXT,
        evidence_path      TEXT,
        evidence_hash      TEXT,
        simulated          INTEGER NOT NULL CHECK (simulated IN (0, 1)),
        resolution         TEXT    NOT NULL CHECK (resolution IN ('read', 'unresolved', 'reviewed')),
        UNIQUE (throw_id, seq),
        UNIQUE (throw_id, die_id)
      );
      CREATE INDEX rolls_by_die ON rolls(die_id);
      CREATE TABLE events (
        id           BIGSERIAL PRIMARY KEY,
        session_id   BIGINT  NOT NULL REFERENCES sessions(id),
        n            INTEGER NOT NULL CHECK (n >= 1),
        at           DOUBLE PRECISION  NOT NULL,
        kind         TEXT    NOT NULL,
        throw_index  INTEGER,
        die_id       BIGINT  REFERENCES dice(id),
        local_die_id INTEGER,
        detail_json  TEXT    NOT NULL,
        prev_hash    TEXT,
        hash         TEXT,
        UNIQUE (session_id, n)
      );
      CREATE TABLE reviews (
        id            BIGSERIAL PRIMARY KEY,
        session_id    BIGINT  NOT NULL REFERENCES sessions(id),
        n             INTEGER NOT NULL CHECK (n >= 1),
        roll_id       BIGINT  NOT NULL UNIQUE REFERENCES rolls(id),
        local_roll_id INTEGER NOT NULL,
        face_id       TEXT,
        symbol        TEXT    NOT NULL,
        reviewer      TEXT    NOT NULL,
        at            DOUBLE PRECISION  NOT NULL,
        after_throw   INTEGER NOT NULL,
        prev_hash     TEXT    NOT NULL,
        hash          TEXT    NOT NULL,
        UNIQUE (session_id, n)
      );
      CREATE TABLE session_verdicts (
        session_id    BIGINT PRIMARY KEY REFERENCES sessions(id),
        at            DOUBLE PRECISION NOT NULL,
        verdicts_json TEXT   NOT NULL
      );
    `,
  },
  CAMPAIGN_MIGRATION,
  {
    version: 3,
    description: 'corrections: a roll takes several reviews, a correction superseding the answer that stood (reviews.supersedes, and the local ids its hash covers)',
    // local_id is the review's id on its rig host (a correction's hash covers the local id it supersedes); rows copied
    // before this version have none until their session is copied to again. supersedes is the fleet's id, for readers.
    sql: `
      ALTER TABLE reviews DROP CONSTRAINT reviews_roll_id_key;
      ALTER TABLE reviews
        ADD COLUMN local_id         INTEGER,
        ADD COLUMN supersedes       BIGINT UNIQUE REFERENCES reviews(id),
        ADD COLUMN local_supersedes INTEGER,
        ADD CONSTRAINT reviews_correction_whole CHECK ((supersedes IS NULL) = (local_supersedes IS NULL));
      CREATE INDEX reviews_by_roll ON reviews(roll_id);
      CREATE UNIQUE INDEX reviews_by_local_id ON reviews(session_id, local_id);
    `,
  },
  CAMPAIGN_CLAIM_MIGRATION,
];

export const FLEET_SCHEMA_VERSION = FLEET_MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** Any key: all dicerig processes migrating one database take this transaction-level advisory lock first. */
const MIGRATION_LOCK = 0x44494345;

/**
 * Brings the fleet database to the latest version of `migrations` in one
 * transaction (an advisory lock keeps two rig hosts starting at once from
 * both applying a migration). Refuses a database written by a newer dicerig.
 * Another helper's migrations are appended to FLEET_MIGRATIONS (next number).
 */
export async function migrateFleet(client: pg.ClientBase, where: string, migrations: readonly FleetMigration[] = FLEET_MIGRATIONS): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS dicerig_schema (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const from = await fleetSchemaVersion(client);
    const latest = migrations.reduce((v, m) => Math.max(v, m.version), 0);
    if (from > latest) {
      throw new FleetError(`The fleet store ${where} was written by a newer dicerig (schema version ${from}; this version knows up to ${latest}). Upgrade dicerig on this host.`, { url: where });
    }
    for (const m of [...migrations].filter((x) => x.version > from).sort((a, b) => a.version - b.version)) {
      await client.query(m.sql);
      await client.query('INSERT INTO dicerig_schema (version, description) VALUES ($1, $2)', [m.version, m.description]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, latest) };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    // A table or index of ours already there, though no migration of ours made it: the database is someone else's.
    const code = (e as { code?: string }).code;
    if (code === '42P07' || code === '42710') {
      throw new FleetError(
        `The fleet store ${where} holds tables dicerig did not create (${(e as Error).message}); nothing was changed. Give dicerig a database of its own (e.g. \`createdb dicerig_fleet\`) and name it in the URL.`,
        { url: where },
        { cause: e },
      );
    }
    throw e;
  }
}

/** The fleet database's schema version (0 when it has none yet). */
export async function fleetSchemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('dicerig_schema')::text AS t");
  if ((exists.rows[0]?.t ?? null) === null) return 0;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM dicerig_schema');
  return r.rows[0]?.v ?? 0;
}

/**
 * The schema version of a fleet store a read-only command (serve, sessions, report, export, verify) may read: the
 * latest, or 0 when dicerig has made no tables there yet (it holds nothing). Such a command never migrates: a shared
 * store brought forward locks out every rig host whose dicerig is older, and only a writer (`dicerig sync`) should.
 */
export async function readableFleetSchema(client: pg.ClientBase, where: string): Promise<number> {
  const version = await fleetSchemaVersion(client);
  if (version > FLEET_SCHEMA_VERSION) {
    throw new FleetError(`The fleet store ${where} was written by a newer dicerig (schema version ${version}; this version knows up to ${FLEET_SCHEMA_VERSION}). Upgrade dicerig on this host.`, { url: where });
  }
  if (version > 0 && version < FLEET_SCHEMA_VERSION) {
    throw new FleetError(
      `The fleet store ${where} has schema version ${version}; this dicerig reads version ${FLEET_SCHEMA_VERSION}. A command that only reads leaves it as it is, so rig hosts running an older dicerig can still sync to it: ` +
        `once they run this version, \`dicerig sync\` from one of them brings it forward (or read it with the dicerig that wrote it).`,
      { url: where },
    );
  }
  return version;
}
