/**
 * An export carries each roll's throw time (format version 3): when the throw was read, for whoever looks for drift
 * or wear over a session in a spreadsheet. The seal covers it, `import` keeps it, and an export made before (format
 * version 2, no times) still verifies, on its own and against its store.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSession } from '../../src/store/exportSession.js';
import { RollStore } from '../../src/store/rollStore.js';
import { okThrow, storeWithSession } from '../store/support/fixtures.js';
import { runCli, runCliOk } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-export-times-'));
const db = join(dir, 'rolls.db');
const csv = join(dir, 'session.csv');
const jsonl = join(dir, 'session.jsonl');

/** Each throw's end as an export writes it, by throw number. */
let readAt: Map<number, string>;

beforeAll(async () => {
  const { store, session } = storeWithSession(db, false);
  const dice = store.dice();
  for (let n = 1; n <= 30; n++) {
    // Throws of uneven length, a void and a re-tumbled one among them (they export no rows).
    const t = okThrow(n, dice);
    const timed = { ...t, startedAt: 1_700_000_000_000 + n * 4_000, endedAt: 1_700_000_000_000 + n * 4_000 + 700 + ((n * 37) % 500) };
    if (n === 7) store.recordThrow(session.id, { ...timed, status: 'void', why: 'jam', rolls: timed.rolls.slice(0, 1) });
    else if (n === 13) store.recordThrow(session.id, { ...timed, status: 'rerolled', why: 'cocked', rolls: timed.rolls.map((r, i) => (i === 0 ? { ...r, cocked: true } : r)) });
    else store.recordThrow(session.id, timed);
  }
  readAt = new Map(store.throwTimes(session.id).map((t) => [t.index, new Date(t.endedAt).toISOString()]));
  store.close();
  for (const out of [csv, jsonl]) await runCliOk('export', '1', '--db', db, '--out', out);
}, 60_000);

/** The data lines of a CSV export, split into cells (no cell of these files needs quoting). */
function csvRows(file: string): { header: string[]; rows: string[][] } {
  const [head, ...rest] = readFileSync(file, 'utf8').trimEnd().split('\n');
  return { header: (head as string).split(','), rows: rest.map((l) => l.split(',')) };
}

describe('the throw times of an export', () => {
  it('gives every row the time its throw was read, in CSV and JSON Lines alike, under format version 3', () => {
    const { header, rows } = csvRows(csv);
    expect(header).toEqual(['throw', 'die', 'type', 'channel', 'face', 'symbol', 'confidence', 'classifier', 'simulated', 'time']);
    expect(rows.length).toBeGreaterThan(50);
    for (const r of rows) expect(r[9], r.join(',')).toBe(readAt.get(Number(r[0])));
    const [manifest, ...objects] = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(manifest).toMatchObject({ kind: 'manifest', formatVersion: 3, columns: header });
    expect(objects.map((o) => [o['throw'], o['time']])).toEqual(rows.map((r) => [Number(r[0]), r[9]]));
  });

  it('is sealed: a time changed, or the column taken out, makes verify say EDITED and name the die and line', async () => {
    expect((await runCliOk('verify', csv)).out).toContain('sealed');
    const lines = readFileSync(csv, 'utf8').split('\n');
    const changed = join(dir, 'changed.csv');
    // Line 6 (the fifth row) a second later.
    const cells = (lines[5] as string).split(',');
    cells[9] = new Date(Date.parse(cells[9] as string) + 1000).toISOString();
    writeFileSync(changed, [...lines.slice(0, 5), cells.join(','), ...lines.slice(6)].join('\n'));
    writeFileSync(`${changed}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    const edited = await runCli('verify', changed);
    expect(edited.code).toBe(1);
    expect(edited.out).toContain('EDITED');
    expect(edited.out).toMatch(new RegExp(`${cells[1]}: .*line 6`));

    const untimed = join(dir, 'untimed.csv');
    writeFileSync(untimed, lines.map((l) => l.split(',').slice(0, 9).join(',')).join('\n'));
    writeFileSync(`${untimed}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    const stripped = await runCli('verify', untimed);
    expect(stripped.code).toBe(1);
    expect(stripped.out).toContain('EDITED');
  });

  it('is kept by import: each imported throw has its time, and an export of the import gives the same times', async () => {
    const copy = join(dir, 'copy.db');
    await runCliOk('import', jsonl, '--db', copy);
    const store = RollStore.open(copy, { mustExist: true, readonly: true });
    try {
      // The ok throws in order (the void and re-tumbled throws were never exported): renumbered, each with its time.
      const kept = [...readAt].filter(([n]) => n !== 7 && n !== 13).map(([, at]) => at);
      const times = store.throwTimes(1);
      expect(times.map((t) => new Date(t.endedAt).toISOString())).toEqual(kept);
      expect(times.every((t) => t.startedAt === t.endedAt)).toBe(true);
    } finally {
      store.close();
    }
    const again = join(dir, 'again.csv');
    await runCliOk('export', '1', '--db', copy, '--out', again);
    expect(csvRows(again).rows.map((r) => r[9])).toEqual(csvRows(csv).rows.map((r) => r[9]));
  });

  it('spans an imported throw from the earliest to the latest time its rows give, and keeps the import time where a log gives none', async () => {
    const log = join(dir, 'spread.csv');
    writeFileSync(log, 'die,symbol,throw,time\nA,3,1,2026-03-01T10:00:00Z\nB,4,1,2026-03-01T10:00:02.5+01:00\nA,5,2,\nB,6,2,\n');
    const copy = join(dir, 'spread.db');
    const before = Date.now();
    await runCliOk('import', log, '--db', copy, '--die', 'd6');
    const store = RollStore.open(copy, { mustExist: true, readonly: true });
    try {
      const [first, second] = store.throwTimes(1);
      // 10:00:02.5 at +01:00 is 09:00:02.5 UTC: earlier than 10:00 UTC.
      expect(first).toMatchObject({ startedAt: Date.parse('2026-03-01T09:00:02.500Z'), endedAt: Date.parse('2026-03-01T10:00:00Z') });
      expect(second?.endedAt).toBeGreaterThanOrEqual(before);
    } finally {
      store.close();
    }
  });

  it('refuses a time without its zone, or one that is no time, naming the file, line and column, and stores nothing', async () => {
    const cases: [file: string, text: string, message: RegExp][] = [
      ['zoneless.csv', 'die,symbol,throw,time\nA,3,1,2026-03-01T10:00:00Z\nA,4,2,2026-03-01 10:00:04\n', /zoneless\.csv, line 3, column "time": the time "2026-03-01 10:00:04" is not a date and time with its time zone/],
      ['clock.csv', 'die,symbol,throw,time\nA,3,1,10:00\n', /clock\.csv, line 2, column "time": the time "10:00" is not a date and time with its time zone/],
      ['number.jsonl', '{"die":"A","symbol":"3","throw":1,"time":1700000000000}\n', /number\.jsonl, line 1, column "time": the time must be text/],
    ];
    for (const [name, text, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const target = join(dir, `${name}.db`);
      const r = await runCli('import', file, '--db', target, '--die', 'd6');
      expect(r.code, r.out).not.toBe(0);
      expect(r.err).toMatch(message);
      expect(r.err).toContain('rename or remove the column to import the rolls without their times');
      expect((await runCli('sessions', '--db', target, '--json')).out).not.toMatch(/"id"/);
    }
  });

  it('of an export made before rows carried times is not asked for: it verifies on its own and against its store', async () => {
    const old = join(dir, 'v2.csv');
    const store = RollStore.open(db, { mustExist: true, readonly: true });
    try {
      const exported = exportSession(store, store.getSession(1)!, 'csv', new Date(), { times: false });
      expect(exported.manifest.formatVersion).toBe(2);
      writeFileSync(old, `${[...exported.lines()].join('\n')}\n`);
      writeFileSync(`${old}.manifest.json`, JSON.stringify(exported.manifest));
    } finally {
      store.close();
    }
    expect(csvRows(old).header).not.toContain('time');
    const alone = await runCliOk('verify', old);
    expect(alone.out).toContain('sealed');
    const against = await runCli('verify', old, '--db', db);
    expect(against.code, against.out).toBe(0);
    expect(against.out).toMatch(/exports the same \d+ rows: the file holds the session's rolls/);
  });
});
