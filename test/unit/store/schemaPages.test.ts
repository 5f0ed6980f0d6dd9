/**
 * The table of tables read and written byte by byte (salvage's way into a store whose own table of tables is
 * damaged), checked against SQLite itself: what SQLite lists, salvage must find on the pages; a first page salvage
 * writes, SQLite must read the tables' rows through.
 */
import { closeSync, copyFileSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLayout, firstPage, freelistPages, schemaEntriesOf, type FileLayout } from '../../../src/store/schemaPages.js';
import { readingDefinition } from '../../../src/store/salvageSchema.js';
import { openDatabase } from '../../../src/store/sqlite.js';
import { tempDir } from '../../store/support/fixtures.js';

function pagesOf(file: string): { bytes: Buffer; layout: FileLayout; page: (n: number) => Buffer; count: number } {
  const bytes = readFileSync(file);
  const layout = fileLayout(bytes.subarray(0, 100));
  if (layout === undefined) throw new Error(`${file} has no SQLite header`);
  const page = (n: number): Buffer => bytes.subarray((n - 1) * layout.pageSize, n * layout.pageSize);
  return { bytes, layout, page, count: bytes.length / layout.pageSize };
}

function storeWith(sql: string): string {
  const file = join(tempDir('dicerig-schema-pages-'), 'db.sqlite');
  const db = openDatabase(file);
  db.exec(sql);
  db.close();
  return file;
}

describe('the table of tables, read from the pages', () => {
  it('finds every entry SQLite lists, with its root page and CREATE statement, and a statement spilling onto another page by its name and root page', () => {
    const wide = Array.from({ length: 500 }, (_, i) => `column_${i} TEXT`).join(', ');
    const tables = Array.from({ length: 25 }, (_, i) => `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER DEFAULT ${i}); CREATE INDEX t${i}_n ON t${i} (n);`).join('\n');
    const file = storeWith(`${tables}\nCREATE TABLE wide (${wide}); CREATE VIEW v AS SELECT id FROM t1; CREATE TRIGGER tr AFTER INSERT ON t2 BEGIN SELECT 1; END;`);
    const db = openDatabase(file, { readonly: true });
    const listed = db.prepare<{ type: string; name: string; rootpage: number; sql: string | null }>('SELECT type, name, rootpage, sql FROM sqlite_master').all();
    db.close();
    const { layout, page, count } = pagesOf(file);
    const found = Array.from({ length: count }, (_, i) => schemaEntriesOf(page(i + 1), i + 1, layout)).flat();
    // The entries span several pages: the first page points to leaves of their own.
    expect(new Set(found.map((e) => e.page)).size).toBeGreaterThan(1);
    const key = (e: { type: string; name: string; rootpage: number }): string => `${e.type} ${e.name} ${e.rootpage}`;
    expect(found.map(key).sort()).toEqual(listed.map(key).sort());
    for (const e of found) {
      const sql = listed.find((l) => key(l) === key(e))?.sql ?? undefined;
      if (e.name === 'wide') {
        expect((sql ?? '').length).toBeGreaterThan(layout.pageSize);
        expect(e.sql).toBeUndefined();
      } else expect(e.sql, e.name).toBe(sql);
    }
  });

  it('takes nothing from a page that is no leaf of a table, and lists the pages of the freelist', () => {
    const file = storeWith(
      `CREATE TABLE keep (x); ${Array.from({ length: 12 }, (_, i) => `CREATE TABLE gone${i} (x); INSERT INTO gone${i} SELECT hex(randomblob(2000)) FROM (SELECT 1 UNION SELECT 2 UNION SELECT 3);`).join(' ')} ${Array.from({ length: 12 }, (_, i) => `DROP TABLE gone${i};`).join(' ')}`,
    );
    const db = openDatabase(file, { readonly: true });
    const freeCount = db.pragma('freelist_count', { simple: true }) as number;
    db.close();
    expect(freeCount).toBeGreaterThan(10);
    const { bytes, layout, page, count } = pagesOf(file);
    const free = freelistPages(bytes.subarray(0, 100), (n) => (n >= 1 && n <= count ? page(n) : undefined), count);
    expect(free.size).toBe(freeCount);
    expect(schemaEntriesOf(Buffer.alloc(layout.pageSize, 0xff), 2, layout)).toEqual([]);
  });
});

describe('a first page written for the table of tables', () => {
  it('lets SQLite read every row of the tables it names, a row older than an added column with that column\'s default', () => {
    const file = storeWith(
      "CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT NOT NULL UNIQUE); INSERT INTO a (x) VALUES ('one'), ('two');" +
        "ALTER TABLE a ADD COLUMN y INTEGER NOT NULL DEFAULT 7; INSERT INTO a (x, y) VALUES ('three', 3);" +
        "CREATE TABLE b (k TEXT, v REAL, PRIMARY KEY (k, v)); INSERT INTO b VALUES ('p', 1.5), ('q', -2);",
    );
    const db = openDatabase(file, { readonly: true });
    const rows = (d: typeof db, t: string): unknown[] => d.prepare(`SELECT rowid AS r, * FROM ${t} ORDER BY rowid`).all();
    const before = { a: rows(db, 'a'), b: rows(db, 'b') };
    const entries = ['a', 'b'].map((name) => ({ name, rootpage: (db.prepare<{ p: number }>("SELECT rootpage AS p FROM sqlite_master WHERE name = ?").get(name) as { p: number }).p, sql: readingDefinition(db, name) }));
    db.close();
    expect(before.a).toEqual([{ r: 1, id: 1, x: 'one', y: 7 }, { r: 2, id: 2, x: 'two', y: 7 }, { r: 3, id: 3, x: 'three', y: 3 }]);

    const copy = join(tempDir('dicerig-schema-pages-'), 'copy.sqlite');
    copyFileSync(file, copy);
    const { bytes, layout } = pagesOf(file);
    const first = firstPage(bytes.subarray(0, 100), layout, entries);
    expect(first).toBeDefined();
    const fd = openSync(copy, 'r+');
    writeSync(fd, first as Uint8Array, 0, layout.pageSize, 0);
    closeSync(fd);
    const read = openDatabase(copy, { readonly: true });
    try {
      expect(read.prepare<{ name: string }>('SELECT name FROM sqlite_master ORDER BY name').all().map((r) => r.name)).toEqual(['a', 'b']);
      expect({ a: rows(read, 'a'), b: rows(read, 'b') }).toEqual(before);
    } finally {
      read.close();
    }
  });

  it('is not written when the tables do not fit on one page', () => {
    const file = storeWith('CREATE TABLE a (x);');
    const { bytes, layout } = pagesOf(file);
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `t${i}`, rootpage: 2, sql: `CREATE TABLE "t${i}" (${'"a_long_column_name", '.repeat(5)}"x")` }));
    expect(firstPage(bytes.subarray(0, 100), layout, many)).toBeUndefined();
    expect(firstPage(bytes.subarray(0, 100), layout, many.slice(0, 2))).toBeDefined();
  });
});
