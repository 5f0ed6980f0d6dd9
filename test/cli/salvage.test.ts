/**
 * `dicerig salvage`: every row still readable of a damaged store, in a new store. A healthy store of a demo session
 * (events, re-tumbled throws with their pictures, stored verdicts, declined rolls one of which a person labelled and
 * then corrected) and a bench session of 2,000 throws (void ones among them, events, every roll with a picture of its
 * own) is copied whole; damaged copies of it (garbled table pages, a truncated copy) give a store of the rows that
 * can still be read, each one the healthy store's row of its id.
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { okThrow, simRig, tempDir } from '../store/support/fixtures.js';
import { writeSchema1Store } from '../store/support/schema1Store.js';
import { runCli, runCliOk } from './runCli.js';

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

type Row = Record<string, unknown>;

/** Every table of a store file, each row by its row id (a read-only look, as a user's sqlite3 would take). */
function tablesOf(file: string): Map<string, Map<number, Row>> {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all().map((r) => r.name);
    return new Map(names.map((t) => [t, new Map(db.prepare<Row & { salvage_test_rowid: number }>(`SELECT rowid AS salvage_test_rowid, * FROM "${t}"`).all().map(({ salvage_test_rowid: id, ...row }) => [id, row]))]));
  } finally {
    db.close();
  }
}

/** The healthy store: session 1 a demo session with a review and its correction, session 2 a bench session of 2,000 throws. */
async function healthyStore(): Promise<string> {
  const dir = tempDir('dicerig-salvage-healthy-');
  const db = join(dir, 'healthy.db');
  await runCliOk('demo', '--seed', '3', '--budget', '12', '--declines', '6=0.9,1=0.5', '--db', db, '--plain');
  const store = RollStore.open(db);
  const [declined] = store.rollsToReview(1);
  if (declined === undefined) throw new Error('the demo session left no declined roll to review');
  const label = store.reviewRoll(1, { rollId: declined.rollId, faceId: '6', reviewer: 'Ada', at: 1_800_000_000_000 });
  store.reviewLog.correct(1, { rollId: declined.rollId, faceId: '5', reviewer: 'Bob', at: 1_800_000_001_000, supersedes: label.id });
  const rig = store.registerRig(simRig, 'cal-1');
  const dice = [store.registerDie({ label: 'R1', typeId: 'red' }), store.registerDie({ label: 'R2', typeId: 'red' }), store.registerDie({ label: 'G1', typeId: 'green' })];
  const session = store.createSession({ name: 'bench', config: { channels: 3 }, simulated: false, rigId: rig.id, startedAt: 1_700_000_000_000 });
  const pictures = join(dir, 'evidence', 'healthy.db', `session-${session.id}`);
  mkdirSync(pictures, { recursive: true });
  store.atomically(() => {
    for (let n = 1; n <= 2000; n++) {
      const t = okThrow(n, dice);
      const rolls = t.rolls.map((r, i) => {
        const bytes = Buffer.from(`picture of throw ${n}, channel ${i}`);
        writeFileSync(join(pictures, `t${n}-c${i}.png`), bytes);
        return { ...r, evidencePath: join('evidence', 'healthy.db', `session-${session.id}`, `t${n}-c${i}.png`), evidenceHash: createHash('sha256').update(bytes).digest('hex') };
      });
      store.recordThrow(session.id, n % 50 === 0 ? { ...t, status: 'void', why: 'jam', rolls: rolls.slice(0, 2) } : { ...t, rolls });
      if (n % 100 === 0) store.recordEvent(session.id, { at: t.endedAt, kind: 'rig-health', throwIndex: n, detail: { cycleMs: 800 + n } });
    }
  });
  store.saveVerdicts(session.id, 1_800_000_000_000, { note: 'verdicts as stored' });
  store.endSession(session.id, 1_800_000_000_000, 'finished');
  store.close();
  return db;
}

/** Leaf pages of a table in a store file, in page order (SQLite's dbstat). */
function leafPages(file: string, table: string): number[] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<{ pageno: number }>("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").all(table).map((r) => r.pageno);
  } finally {
    db.close();
  }
}

/**
 * A damaged copy of the healthy store, as test/cli/damagedStore.test.ts damages one: 100 bytes garbled from the start
 * of a page (here a middle leaf page of the throws and one of the rolls, so rows are lost, not only an index), or the
 * file truncated to half its size.
 */
function damaged(healthy: string, how: 'overwritten' | 'truncated' | 'torn'): string {
  const dir = tempDir('dicerig-salvage-damaged-');
  const db = join(dir, `${how}.db`);
  copyFileSync(healthy, db);
  if (how === 'truncated') truncateSync(db, Math.floor(statSync(db).size / 2));
  // Cut inside a page: SQLite reads the rest of that page as zeros, and a row there must not be kept half zeros.
  else if (how === 'torn') {
    // 150 bytes short of a page's end: a page's cells are packed from its end, so the cut falls inside its first row.
    const pages = leafPages(healthy, 'events');
    truncateSync(db, (pages[0] as number) * 4096 - 150);
  }
  else {
    const fd = openSync(db, 'r+');
    for (const table of ['throws', 'rolls']) {
      const pages = leafPages(healthy, table);
      const page = pages[Math.floor(pages.length / 2)] as number;
      writeSync(fd, Buffer.alloc(100, 0xff), 0, 100, (page - 1) * 4096);
    }
    closeSync(fd);
  }
  return db;
}

/** export of a session as JSON Lines, its manifest's time of export (and the seal's digest of it) and store path left out. */
async function exported(db: string, session: string): Promise<string> {
  const r = await runCli('export', session, '--db', db, '--format', 'jsonl');
  expect(r.code, r.err).toBe(0);
  const [manifest, ...rows] = r.out.trim().split('\n');
  const { exportedAt: _at, ...kept } = JSON.parse(manifest as string) as { exportedAt: string; seal: { fields: Record<string, string> } };
  // The seal's digest of the time of export differs as the time does; every other field and digest is compared.
  delete kept.seal.fields['exportedAt'];
  return [JSON.stringify(kept).split(db).join('STORE'), ...rows].join('\n');
}

/** The report page of session 1, its time of making and store path left out. */
async function reportPage(db: string): Promise<string> {
  const out = join(tempDir(), 'report');
  await runCliOk('report', '1', '--db', db, '--out', out);
  return readFileSync(join(out, 'report.html'), 'utf8').split(db).join('STORE').replace(/on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, '');
}

/** How many rolls name an evidence picture. */
const pictureCount = (tables: Map<string, Map<number, Row>>): number => [...(tables.get('rolls')?.values() ?? [])].filter((r) => r['evidence_path'] !== null).length;

interface SalvageJson {
  whole: boolean;
  tables: { table: string; copied: number; unreadable: number; unkept: number; endLost?: boolean; definitionLost?: boolean }[];
}

let healthy: string;
beforeAll(async () => {
  healthy = await healthyStore();
}, 120_000);

describe('salvage of a healthy store', () => {
  it('copies every row of every table with its id, into a store that verifies with the same chain heads and gives the same report and exports; the file it read is unchanged', async () => {
    const before = digest(healthy);
    const out = join(tempDir('dicerig-salvage-new-'), 'new.db');
    const r = await runCli('salvage', healthy, '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Nothing was lost: every row of every table was copied, and every session\'s chain verifies.');
    expect(r.out).toMatch(/session 1: whole, its chain verifies \(15 throws, 60 rolls, \d+ events, 2 reviews\)\./);
    expect(r.out).toContain('session 2 (bench): whole, its chain verifies (2,000 throws, 5,960 rolls, 21 events).');
    expect(digest(healthy)).toBe(before);

    const original = tablesOf(healthy);
    const copy = tablesOf(out);
    expect([...copy.keys()]).toEqual([...original.keys()]);
    for (const [table, rows] of original) expect(copy.get(table), table).toEqual(rows);
    expect(original.get('reviews')?.size).toBe(2);
    expect([...(original.get('throws')?.values() ?? [])].filter((t) => t['status'] !== 'ok').length).toBeGreaterThan(40);

    const pictures = pictureCount(original);
    expect(pictures).toBeGreaterThan(5000);
    // verify checks the whole store whatever head it is told to expect: each run of it says so.
    for (const s of original.get('sessions')?.values() ?? []) {
      const v = await runCli('verify', '--db', out, '--expect', s['head_hash'] as string);
      expect(v.code, v.out).toBe(0);
      expect(v.out).toContain('every hash chain verifies');
      expect(v.out).toContain(`${pictures.toLocaleString('en-US')} of ${pictures.toLocaleString('en-US')} evidence pictures match the hash the chain sealed.`);
    }
    for (const session of ['1', '2']) expect(await exported(out, session)).toBe(await exported(healthy, session));
    expect(await reportPage(out)).toBe(await reportPage(healthy));
  }, 120_000);

  it('beside the store it read, names the pictures in place (the rows name them by the damaged store\'s folder, sealed in the chain) and copies none', async () => {
    const dir = tempDir('dicerig-salvage-beside-');
    const db = join(dir, 'healthy.db');
    copyFileSync(healthy, db);
    // Only the demo session's pictures, to keep it short: the bench session's are then missing in both stores alike.
    mkdirSync(join(dir, 'evidence', 'healthy.db'), { recursive: true });
    const demoPictures = join(healthy, '..', 'evidence', 'healthy.db', 'session-1');
    mkdirSync(join(dir, 'evidence', 'healthy.db', 'session-1'));
    for (const f of readdirSync(demoPictures)) copyFileSync(join(demoPictures, f), join(dir, 'evidence', 'healthy.db', 'session-1', f));
    const r = await runCli('salvage', db, '--out', join(dir, 'copy.db'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Evidence pictures: the new store's rows name them in evidence/healthy.db beside both stores, where they are; keep that folder with ${join(dir, 'copy.db')}.`);
    expect(existsSync(join(dir, 'evidence', 'copy.db'))).toBe(false);
    const pictures = readdirSync(demoPictures).length;
    expect((await runCli('verify', '--db', join(dir, 'copy.db'))).out).toContain(`${pictures} of ${pictureCount(tablesOf(healthy)).toLocaleString('en-US')} evidence pictures match`);
  }, 60_000);
});

describe('salvage of a store of an older schema', () => {
  it('makes the new store at the same schema version, its rows equal, and verify reads it as it reads the old one', async () => {
    const dir = tempDir('dicerig-salvage-old-');
    const db = join(dir, 'old.db');
    writeSchema1Store(db, ['1', '2', '3', '4', '5', '6', '6'], 100);
    const out = join(dir, 'new.db');
    const r = await runCli('salvage', db, '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Salvaged ${db} into ${out} (schema version 1):`);
    expect(r.out).toContain('session 1 (old): whole, its chain verifies (7 throws, 7 rolls).');
    const version = (file: string): unknown => {
      const d = openDatabase(file, { readonly: true, fileMustExist: true });
      try {
        return [d.pragma('user_version', { simple: true }), d.pragma('application_id', { simple: true })];
      } finally {
        d.close();
      }
    };
    expect(version(out)).toEqual(version(db));
    expect(tablesOf(out)).toEqual(tablesOf(db));
    const v = await runCli('verify', '--db', out);
    expect(v.code, v.out).toBe(0);
    expect(v.err).toMatch(/schema version 1/);
  });
});

describe.each(['overwritten', 'truncated', 'torn'] as const)('salvage of a store %s', (how) => {
  it('keeps only rows of the healthy store, each equal to its row there, counts the others lost, leaves the damaged file as it was, and verify names exactly the sessions that lost rows', async () => {
    const db = damaged(healthy, how);
    const before = digest(db);
    const out = join(tempDir('dicerig-salvage-new-'), 'new.db');
    const r = await runCli('salvage', db, '--out', out, '--json');
    expect(r.err).not.toMatch(/\n\s+at |unexpected failure/);
    expect(r.code).toBe(2);
    expect(digest(db)).toBe(before);
    expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > 0).toBe(false);
    const result = JSON.parse(r.out) as SalvageJson;
    expect(result.whole).toBe(false);

    const original = tablesOf(healthy);
    const copy = tablesOf(out);
    for (const [table, rows] of copy) {
      for (const [id, row] of rows) expect(row, `${table} row ${id}`).toEqual(original.get(table)?.get(id));
    }
    for (const t of result.tables) {
      const all = original.get(t.table)?.size ?? 0;
      expect(copy.get(t.table)?.size, t.table).toBe(t.copied);
      // Every row counted, copied or lost; past a table's lost end, or with its entry lost, how many there were cannot be told (and is said).
      if (t.endLost === true) expect(t.copied + t.unreadable + t.unkept, t.table).toBeLessThan(all);
      else if (t.definitionLost === true) expect(t.copied + t.unreadable + t.unkept, t.table).toBe(0);
      else expect(t.copied + t.unreadable + t.unkept, t.table).toBe(all);
    }
    const lostSomething = result.tables.filter((t) => t.unreadable + t.unkept > 0 || t.endLost === true).map((t) => t.table);
    expect(lostSomething).toEqual(expect.arrayContaining(['throws', 'rolls']));

    // The sessions that lost rows of their chains (throws, rolls, events, reviews), found by comparing the two stores.
    const sessionOfThrow = new Map([...(original.get('throws') ?? [])].map(([id, t]) => [id, t['session_id'] as number]));
    const lostBy = new Set<number>();
    for (const table of ['throws', 'events', 'reviews', 'rolls']) {
      for (const [id, row] of original.get(table) ?? []) {
        if (copy.get(table)?.has(id) === true) continue;
        lostBy.add(table === 'rolls' ? (sessionOfThrow.get(row['throw_id'] as number) as number) : (row['session_id'] as number));
      }
    }
    expect(lostBy.size).toBeGreaterThan(0);
    const v = await runCli('verify', '--db', out, '--json');
    expect(v.code).toBe(1);
    const report = JSON.parse(v.out) as { damage?: unknown; breaks: { sessionId: number }[] };
    expect(report.damage).toBeUndefined();
    expect(new Set(report.breaks.map((b) => b.sessionId))).toEqual(lostBy);

    // Into a folder not made yet (a torn file's copy is made there first).
    const text = await runCli('salvage', db, '--out', join(tempDir('dicerig-salvage-new-'), 'not', 'yet', 'text.db'));
    expect(text.code, text.err).toBe(2);
    for (const id of lostBy) expect(text.out).toMatch(new RegExp(`session ${id}( \\([^)]*\\))?: LOST [^\\n]*commands that read it need --allow-unverified`));
    expect(text.out).toMatch(/ROWS LOST: /);
    if (how === 'torn') expect(text.out).toContain('The file ends inside a page: that page was not read');
  }, 120_000);
});

/** The pages of a store's table of tables (SQLite's dbstat), in page order. */
function schemaPages(file: string): number[] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<{ pageno: number }>("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema' ORDER BY pageno").all().map((r) => r.pageno);
  } finally {
    db.close();
  }
}

/** A copy of the healthy store with `bytes` written at `at` (or at each of several places). */
function garbled(healthyFile: string, places: readonly { at: number; bytes: Buffer }[]): string {
  const db = join(tempDir('dicerig-salvage-schema-'), 'damaged.db');
  copyFileSync(healthyFile, db);
  const fd = openSync(db, 'r+');
  for (const p of places) writeSync(fd, p.bytes, 0, p.bytes.length, p.at);
  closeSync(fd);
  return db;
}

/** Files beside the damaged store other than it and what SQLite reads it with (its empty write-ahead log and its index). */
const leftBeside = (db: string): string[] =>
  readdirSync(join(db, '..')).filter((f) => !['damaged.db', 'damaged.db-shm'].includes(f) && !(f === 'damaged.db-wal' && statSync(`${db}-wal`).size === 0));

/** Whether SQLite can read a table of the store at all. */
function sqliteReads(file: string, table: string): boolean {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    db.prepare(`SELECT count(*) FROM "${table}"`).get();
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

describe('salvage of a store whose table of tables is damaged', () => {
  it('finds every table by its entry on the pages the garbled first page pointed to, and copies every row: the new store verifies with the same heads', async () => {
    const pages = schemaPages(healthy);
    // The table of tables spans a first page pointing to leaves: garbling the first page's part orphans them all.
    expect(pages[0]).toBe(1);
    expect(pages.length).toBeGreaterThan(1);
    const db = garbled(healthy, [{ at: 100, bytes: Buffer.alloc(100, 0xff) }]);
    expect(sqliteReads(db, 'throws')).toBe(false);
    const before = digest(db);
    const out = join(tempDir('dicerig-salvage-new-'), 'new.db');
    const r = await runCli('salvage', db, '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("The file's table of tables is damaged, so SQLite could not find the tables in it as they are");
    expect(r.out).toContain('Nothing was lost: every row of every table was copied');
    expect(digest(db)).toBe(before);
    expect(leftBeside(db)).toEqual([]);
    const original = tablesOf(healthy);
    const copy = tablesOf(out);
    for (const [table, rows] of original) expect(copy.get(table), table).toEqual(rows);
    // verify checks the whole store whatever head it is told to expect: exit 0 is every chain whole, each reaching its head.
    for (const s of original.get('sessions')?.values() ?? []) expect((await runCli('verify', '--db', out, '--expect', s['head_hash'] as string)).code).toBe(0);
  }, 120_000);

  it('counts a table whose entry is garbled away as lost whole, says which sessions lost its rows, copies every other table whole, and exits 2', async () => {
    const file = readFileSync(healthy);
    const entry = Buffer.from('tablereviewsreviews');
    const at = file.indexOf(entry);
    expect(at).toBeGreaterThan(0);
    expect(file.indexOf(entry, at + 1)).toBe(-1);
    // The entry's type, names, root page and the start of its CREATE statement: neither SQLite nor a look at the pages finds it.
    const db = garbled(healthy, [{ at, bytes: Buffer.alloc(entry.length + 20, 'x') }]);
    const out = join(tempDir('dicerig-salvage-new-'), 'new.db');
    const r = await runCli('salvage', db, '--out', out, '--json');
    expect(r.code, r.err).toBe(2);
    const result = JSON.parse(r.out) as SalvageJson & { schemaRepaired: { lost: string[]; logApplied: boolean } };
    expect(result.schemaRepaired).toEqual({ lost: ['reviews'], logApplied: true });
    expect(result.tables.find((t) => t.table === 'reviews')).toMatchObject({ copied: 0, definitionLost: true });
    const original = tablesOf(healthy);
    const copy = tablesOf(out);
    expect(original.get('reviews')?.size).toBe(2);
    expect(copy.get('reviews')?.size).toBe(0);
    for (const [table, rows] of original) if (table !== 'reviews') expect(copy.get(table), table).toEqual(rows);
    const text = await runCli('salvage', db, '--out', join(tempDir('dicerig-salvage-new-'), 'text.db'));
    expect(text.code).toBe(2);
    expect(text.out).toContain('reviews: its entry is nowhere in the file: none of its rows could be found, nor how many there were');
    expect(text.out).toMatch(/session 1: LOST 2 of 2 reviews; its chain does not verify in the new store/);
    expect(text.out).toContain('session 2 (bench): whole, its chain verifies');
    expect(text.out).toMatch(/ROWS LOST: the rows of tables whose entry was lost could not be found/);
  }, 120_000);

  it('refuses a store none of whose table of tables is left, naming the damage, and leaves no file behind', async () => {
    const db = garbled(healthy, schemaPages(healthy).map((p) => ({ at: (p - 1) * 4096 + (p === 1 ? 100 : 0), bytes: Buffer.alloc(100, 0xff) })));
    const out = join(join(db, '..'), 'new.db');
    const r = await runCli('salvage', db, '--out', out);
    expect(r.code, r.out).toBe(1);
    expect(r.err.trim()).toMatch(/damaged\.db: no table of the store can be found in the file \(its table of tables is lost\); nothing was written\. Restore a backup\.$/);
    expect(leftBeside(db)).toEqual([]);
  }, 60_000);
});

describe('salvage refusals', () => {
  /** Runs salvage expecting a refusal: exit 1, one clear line matching `said`, and no new file beside --out. */
  async function refused(args: string[], said: RegExp, outDir: string): Promise<void> {
    const before = readdirSync(outDir).sort();
    const r = await runCli('salvage', ...args);
    expect(r.code, r.out).toBe(1);
    expect(r.err).not.toMatch(/\n\s+at |unexpected failure/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(said);
    expect(r.err).toMatch(/nothing was written/i);
    expect(readdirSync(outDir).sort()).toEqual(before);
  }

  it('refuses an --out that exists, naming it, and leaves it as it was', async () => {
    const dir = tempDir('dicerig-salvage-refuse-');
    const out = join(dir, 'there.db');
    writeFileSync(out, 'mine');
    await refused([healthy, '--out', out], new RegExp(`--out ${out} exists already`), dir);
    expect(readFileSync(out, 'utf8')).toBe('mine');
  });

  it('refuses an --out that is the store it reads, by another path or by a hard link', async () => {
    const dir = tempDir('dicerig-salvage-refuse-');
    const db = join(dir, 'rolls.db');
    copyFileSync(healthy, db);
    const before = digest(db);
    await refused([db, '--out', join(dir, '..', dir.split('/').pop() as string, 'rolls.db')], /is the store being salvaged/, dir);
    linkSync(db, join(dir, 'link.db'));
    await refused([db, '--out', join(dir, 'link.db')], /is the store being salvaged/, dir);
    expect(digest(db)).toBe(before);
  });

  it('refuses a file that is not a dicerig store, one that is not SQLite, and one that is missing', async () => {
    const dir = tempDir('dicerig-salvage-refuse-');
    const foreign = join(dir, 'other.db');
    const other = openDatabase(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES (\'hello\');');
    other.close();
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'these are not rolls\n'.repeat(100));
    const out = join(dir, 'new.db');
    await refused([foreign, '--out', out], /other\.db is not a dicerig roll store/, dir);
    // A schema version but none of its tables: another program's file, not a store whose table of tables is damaged.
    const versioned = join(dir, 'versioned.db');
    const v = openDatabase(versioned);
    v.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); PRAGMA user_version = 3;");
    v.close();
    await refused([versioned, '--out', out], /versioned\.db says it has schema version 3, but its table \w+ is missing: it is not a store dicerig made/, dir);
    await refused([text, '--out', out], /notes\.txt is not an SQLite database/, dir);
    await refused([join(dir, 'gone.db'), '--out', out], /There is no roll store at .*gone\.db/, dir);
  });

  it('refuses to copy the pictures into a folder beside --out another store of that name keeps', async () => {
    const dir = tempDir('dicerig-salvage-refuse-');
    mkdirSync(join(dir, 'evidence', 'healthy.db'), { recursive: true });
    await refused([healthy, '--out', join(dir, 'new.db')], /picture folder .*evidence\/healthy\.db exists already/, dir);
  });
});
