import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { APPLICATION_ID, MIGRATIONS, migrate, SCHEMA_VERSION, type Migration } from '../../src/store/migrations.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDbPath, tempDir } from './support/fixtures.js';
import { thrown } from '../support/thrown.js';

function tables(path: string): string[] {
  const db = openDatabase(path, { readonly: true });
  try {
    return db
      .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

function schemaSql(path: string): string {
  const db = openDatabase(path, { readonly: true });
  try {
    return db
      .prepare<{ sql: string | null }>('SELECT sql FROM sqlite_master ORDER BY name')
      .all()
      .map((r) => r.sql ?? '')
      .join('\n');
  } finally {
    db.close();
  }
}

const errorOf = (fn: () => unknown): StoreError => thrown(fn, StoreError);

describe('store migrations', () => {
  it('creates every table on an empty file and records the schema version', () => {
    const path = tempDbPath();
    const store = RollStore.open(path);
    expect(store.settings().schemaVersion).toBe(SCHEMA_VERSION);
    store.close();
    expect(tables(path)).toEqual(['dice', 'events', 'legacy_resolutions', 'reviews', 'rigs', 'rolls', 'session_locks', 'session_verdicts', 'sessions', 'throws']);
    const raw = openDatabase(path, { readonly: true });
    expect(raw.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    raw.close();
  });

  it('reopens an up-to-date store without changing its schema or its data', () => {
    const path = tempDbPath();
    const first = RollStore.open(path);
    first.registerDie({ label: 'R1', typeId: 'red' });
    first.close();
    const before = schemaSql(path);
    const again = RollStore.open(path);
    expect(again.dice().map((d) => d.label)).toEqual(['R1']);
    expect(again.settings().schemaVersion).toBe(SCHEMA_VERSION);
    again.close();
    expect(schemaSql(path)).toBe(before);
  });

  it('runs with WAL, synchronous FULL and foreign keys on (NORMAL only when asked)', () => {
    const path = tempDbPath();
    const store = RollStore.open(path);
    expect(store.settings()).toMatchObject({ journalMode: 'wal', synchronous: 'full', foreignKeys: true });
    store.close();
    const fast = RollStore.open(path, { synchronous: 'normal' });
    expect(fast.settings().synchronous).toBe('normal');
    fast.close();
  });

  it('applies pending migrations in order, and a failing one leaves the database at its old version with nothing half-applied', () => {
    const path = tempDbPath();
    RollStore.open(path).close();
    // Versions after the shipped ones, so the test holds whatever migrations ship.
    const base = SCHEMA_VERSION;
    const v2: Migration = { version: base + 1, description: 'dice colour', sql: 'ALTER TABLE dice ADD COLUMN colour TEXT;' };
    const v3: Migration = { version: base + 2, description: 'index on colour', sql: 'CREATE INDEX dice_colour ON dice(colour);' };
    const broken: Migration = { version: base + 3, description: 'broken', sql: 'CREATE TABLE extra (x); SELECT nonsense FROM nowhere;' };

    const db = openDatabase(path);
    // Given out of order: applied by version.
    expect(migrate(db, [...MIGRATIONS, v3, v2])).toEqual({ from: base, to: base + 2 });
    expect(db.pragma('user_version', { simple: true })).toBe(base + 2);
    expect(() => migrate(db, [...MIGRATIONS, v2, v3, broken])).toThrow(/no such table: nowhere/);
    expect(db.pragma('user_version', { simple: true })).toBe(base + 2);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'extra'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuses a database written by a newer dicerig, saying so', () => {
    const path = tempDbPath();
    RollStore.open(path).close();
    const db = openDatabase(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const e = errorOf(() => RollStore.open(path));
    expect(e.message).toBe(
      `${path} was written by a newer dicerig (schema version ${SCHEMA_VERSION + 5}; this version knows up to ${SCHEMA_VERSION}). Upgrade dicerig to open it.`,
    );
  });

  it('refuses an SQLite file of another program and a file that is not SQLite at all', () => {
    const foreign = tempDbPath();
    const db = openDatabase(foreign);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    expect(errorOf(() => RollStore.open(foreign)).message).toBe(`${foreign} already holds tables that are not a dicerig roll store (it has no dicerig schema version).`);
    expect(tables(foreign)).toEqual(['notes']);

    const junk = join(tempDir(), 'junk.db');
    writeFileSync(junk, 'this is a text file, not a database\n'.repeat(200));
    expect(errorOf(() => RollStore.open(junk)).message).toBe(`${junk} is not an SQLite database, so it cannot be a roll store.`);
  });

  it('does not create a store where one must already exist', () => {
    const path = join(tempDir(), 'missing.db');
    expect(errorOf(() => RollStore.open(path, { mustExist: true })).message).toBe(`There is no roll store at ${path}.`);
  });
});
