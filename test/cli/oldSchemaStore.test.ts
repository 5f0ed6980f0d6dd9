import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { genesisHash, throwHash } from '../../src/store/hashChain.js';
import { ChainRows } from '../../src/store/chainRows.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres } from '../support/postgres.js';
import { runCli } from './runCli.js';

/** A store as the first dicerig wrote it (schema version 1): one finished session of 12 throws of one D6. */
function schema1Store(): string {
  const path = join(tempDir('dicerig-old-'), 'old.db');
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version === 1));
  db.prepare("INSERT INTO sessions (id, name, origin, config_json, software_version, simulated, started_at, state, head_hash) VALUES (1, 'old', 'rig', '{}', '0.0.9', 0, 5, 'running', '')").run();
  db.prepare("INSERT INTO dice (id, label, type_id) VALUES (1, 'D1', 'd6')").run();
  const rows = new ChainRows(db);
  let head = genesisHash(rows.session(1) as NonNullable<ReturnType<ChainRows['session']>>);
  for (let i = 1; i <= 12; i++) {
    const id = db.prepare("INSERT INTO throws (session_id, idx, started_at, ended_at, status, prev_hash, hash) VALUES (1, ?, ?, ?, 'ok', ?, '')").run(i, i, i + 1, head).lastInsertRowid;
    db.prepare("INSERT INTO rolls (throw_id, seq, die_id, face_id, symbol, cocked, simulated) VALUES (?, 0, 1, ?, ?, 0, 0)").run(id, String((i % 6) + 1), String((i % 6) + 1));
    head = throwHash(head, rows.throwFields(Number(id)) as NonNullable<ReturnType<ChainRows['throwFields']>>, rows.rolls(Number(id)));
    db.prepare('UPDATE throws SET hash = ? WHERE id = ?').run(head, id);
  }
  db.prepare("UPDATE sessions SET head_hash = ?, throw_count = 12, state = 'finished', ended_at = 20").run(head);
  db.close();
  return path;
}

const schemaOf = (path: string): number => {
  const db = openDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

const locked: string[] = [];
afterEach(() => {
  for (const p of locked.splice(0)) chmodSync(p, 0o644);
});

describe('a roll store of an older schema, read by a reading command', () => {
  for (const readOnly of [false, true]) {
    it(`is read through an up-to-date copy, and the file${readOnly ? ' (read-only)' : ''} is left as the dicerig that wrote it left it`, async () => {
      const db = schema1Store();
      if (readOnly) {
        chmodSync(db, 0o444);
        locked.push(db);
      }
      const before = readFileSync(db);
      const note = `dicerig: note: ${db} has schema version 1 (this dicerig's is ${SCHEMA_VERSION}): read through an up-to-date copy, and the file is left as it is, so the dicerig that wrote it still opens it. A command that writes to it (run, import, review, sync) brings it forward.\n`;
      const sessions = await runCli('sessions', '--db', db);
      expect(sessions.err).toBe(note);
      expect(sessions.code).toBe(0);
      expect(sessions.out).toMatch(/^1 +old +finished +12$/m);
      const verify = await runCli('verify', '--db', db);
      expect(verify.out).toMatch(/every hash chain verifies/);
      expect(verify.err).toBe(note);
      const exported = await runCli('export', '1', '--db', db);
      expect(exported.code, exported.err).toBe(0);
      expect(exported.err).toBe(note);
      expect(exported.out.trim().split('\n')).toHaveLength(14); // the manifest line, the header, 12 rolls
      const analyzed = await runCli('analyze', '1', '--db', db);
      expect(analyzed.code, analyzed.err).toBe(0);
      expect(analyzed.err).toBe(note);
      expect(analyzed.out).toMatch(/^1 die, 12 rolls/);
      expect(schemaOf(db)).toBe(1);
      expect(readFileSync(db).equals(before)).toBe(true);
    });
  }
});

describe('a roll store of an older schema, synced to the fleet', () => {
  it('is brought forward in place first, and sync says so, since the fleet takes rows as this schema has them', async () => {
    const server = await startScratchPostgres();
    try {
      const db = schema1Store();
      const r = await runCli('sync', '--db', db, '--to', await server.createDatabase('oldschema'), '--quiet');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toBe(`dicerig: note: brought ${db} forward from schema version 1 to ${SCHEMA_VERSION} to sync it; the dicerig that wrote it can no longer open it.\n`);
      expect(schemaOf(db)).toBe(SCHEMA_VERSION);
    } finally {
      await server.remove();
    }
  }, 90_000);
});
