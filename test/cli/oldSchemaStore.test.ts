import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDir } from '../store/support/fixtures.js';
import { writeSchema1Store } from '../store/support/schema1Store.js';
import { startScratchPostgres } from '../support/postgres.js';
import { runCli } from './runCli.js';

/** A store as the first dicerig wrote it (schema version 1): one finished session of 12 throws of one D6. */
function schema1Store(): string {
  const path = join(tempDir('dicerig-old-'), 'old.db');
  writeSchema1Store(path, Array.from({ length: 12 }, (_, k) => String(((k + 1) % 6) + 1)), 20);
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
