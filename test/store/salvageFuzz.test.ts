/**
 * Salvage under random damage (garbled bytes, garbled pages, a byte of each table's rows, files cut anywhere, inside a
 * page too), seeded: it never fails unexpectedly, writes nothing when it refuses, and every row it keeps is the
 * healthy store's row of that id or sits in a session the new store's verify names as broken (a byte garbled inside a
 * row's values reads as a row; only its chain can tell). Fuzzing so found stored verdicts changed by damage and shown
 * as the session's, which verify now finds (a byte of the verdicts' rows is garbled in some trials here).
 */
import { copyFileSync, existsSync, openSync, statSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { RollStore } from '../../src/store/rollStore.js';
import { salvageStore } from '../../src/store/salvage.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { seededRandom } from '../../src/stats/random.js';
import { okThrow, storeWithSession, tempDir } from './support/fixtures.js';

type Row = Record<string, unknown>;

function tablesOf(file: string): Map<string, Map<number, Row>> {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all().map((r) => r.name);
    return new Map(names.map((t) => [t, new Map(db.prepare<Row & { fuzz_rowid: number }>(`SELECT rowid AS fuzz_rowid, * FROM "${t}"`).all().map(({ fuzz_rowid: id, ...row }) => [id, row]))]));
  } finally {
    db.close();
  }
}

/** Two sessions of 150 throws with void ones, events and stored verdicts; the file checkpointed (no write-ahead log). */
function healthyStore(): string {
  const s = storeWithSession();
  const second = s.store.createSession({ name: 'second', config: { channels: 3 }, simulated: false, rigId: 1, startedAt: 1_700_000_500_000 });
  for (const session of [s.session.id, second.id]) {
    for (let n = 1; n <= 150; n++) {
      const t = okThrow(n, s.dice);
      s.store.recordThrow(session, n % 25 === 0 ? { ...t, status: 'void', why: 'jam', rolls: [] } : t);
      if (n % 30 === 0) s.store.recordEvent(session, { at: t.endedAt, kind: 'rig-health', throwIndex: n, detail: { cycleMs: 800 + n, note: 'x'.repeat(n) } });
    }
    s.store.saveVerdicts(session, 1_700_001_000_000, { dice: s.dice.map((d) => ({ label: d.label, verdict: { kind: 'INCONCLUSIVE' } })) });
    s.store.endSession(session, 1_700_001_000_000, 'finished');
  }
  s.store.close();
  return s.path;
}

let healthy: string;
let original: Map<string, Map<number, Row>>;
/** Each table's leaf pages (SQLite's dbstat; indexes left out): where its rows' bytes are. */
let leaves: [string, number[]][];
beforeAll(() => {
  healthy = healthyStore();
  original = tablesOf(healthy);
  const db = openDatabase(healthy, { readonly: true, fileMustExist: true });
  const pages = db.prepare<{ name: string; pageno: number }>("SELECT name, pageno FROM dbstat WHERE pagetype = 'leaf' AND name IN (SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%') ORDER BY name, pageno").all();
  db.close();
  const byTable = new Map<string, number[]>();
  for (const p of pages) byTable.set(p.name, [...(byTable.get(p.name) ?? []), p.pageno]);
  leaves = [...byTable];
});

/** The session a row belongs to (its own id for a session row; by its throw for a roll), if any. */
function sessionOf(table: string, id: number, row: Row): number | undefined {
  if (table === 'sessions') return id;
  if (typeof row['session_id'] === 'number') return row['session_id'];
  const throwId = row['throw_id'];
  return typeof throwId === 'number' ? (original.get('throws')?.get(throwId)?.['session_id'] as number | undefined) : undefined;
}

describe('salvage under random damage', () => {
  it('keeps only rows equal to the healthy ones or in sessions verify names, and refuses cleanly, for 40 seeded damages', () => {
    const random = seededRandom(96);
    const pick = (n: number): number => Math.floor(random() * n);
    const size = statSync(healthy).size;
    const outcomes = { refused: 0, whole: 0, lost: 0 };
    for (let trial = 0; trial < 40; trial++) {
      const dir = tempDir('dicerig-salvage-fuzz-');
      const db = join(dir, 'damaged.db');
      copyFileSync(healthy, db);
      const kind = ['bytes', 'row', 'page', 'cut'][trial % 4];
      if (kind === 'cut') truncateSync(db, 4096 + pick(size - 4096));
      else if (kind === 'row') {
        // One byte in the last 200 of a leaf page of the next table in turn: a page keeps its rows from its end down.
        const [, pages] = leaves[(trial >> 2) % leaves.length] as [string, number[]];
        const fd = openSync(db, 'r+');
        writeSync(fd, Buffer.from([pick(256)]), 0, 1, (pages[pick(pages.length)] as number) * 4096 - 1 - pick(200));
        closeSync(fd);
      } else {
        const n = kind === 'page' ? [100, 4096][pick(2)] as number : [1, 8, 50, 300][pick(4)] as number;
        const at = kind === 'page' ? pick(size / 4096) * 4096 : pick(size - n);
        const fd = openSync(db, 'r+');
        writeSync(fd, Buffer.from(Array.from({ length: n }, () => pick(256))), 0, n, at);
        closeSync(fd);
      }
      const out = join(dir, 'new.db');
      const what = `trial ${trial} (${kind})`;
      try {
        const result = salvageStore(db, out);
        outcomes[result.tables.some((t) => t.unreadable + t.unkept > 0 || t.endLost === true || t.definitionLost === true) ? 'lost' : 'whole']++;
      } catch (e) {
        if (!(e instanceof StoreError)) throw new Error(`${what}: ${String(e)}`, { cause: e });
        expect(e.message, what).toMatch(/nothing was written/);
        expect(existsSync(out), what).toBe(false);
        outcomes.refused++;
        continue;
      }
      const store = RollStore.open(out);
      const broken = new Set(store.verify().breaks.map((b) => b.sessionId));
      store.close();
      for (const [table, rows] of tablesOf(out)) {
        for (const [id, row] of rows) {
          if (JSON.stringify(row) === JSON.stringify(original.get(table)?.get(id))) continue;
          const session = sessionOf(table, id, row);
          expect(session !== undefined && broken.has(session), `${what}: ${table} row ${id} differs from the healthy one, and no session verify names covers it`).toBe(true);
        }
      }
    }
    // The damage must reach every outcome, or the test shows less than it claims.
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.whole).toBeGreaterThan(0);
    expect(outcomes.lost).toBeGreaterThan(0);
  }, 60_000);
});
