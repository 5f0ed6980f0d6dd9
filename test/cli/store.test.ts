import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { okThrow, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

interface DieJson {
  label: string;
  type: string;
  rolls: number;
  symbol: { categories: string[]; counts: number[] };
  face: { categories: string[]; counts: number[] } | null;
}

/** `dicerig analyze --json` on files: each die's symbol and face counts. */
async function analyzed(...files: string[]): Promise<Record<string, { type: string; rolls: number; symbols: Record<string, number>; faces: Record<string, number> | null }>> {
  const r = await runCli('analyze', '--json', ...files);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const dice = (JSON.parse(r.out) as { dice: DieJson[] }).dice;
  const zip = (names: string[], counts: number[]) => Object.fromEntries(names.map((n, i) => [n, counts[i] as number]));
  return Object.fromEntries(
    dice.map((d) => [d.label, { type: d.type, rolls: d.rolls, symbols: zip(d.symbol.categories, d.symbol.counts), faces: d.face ? zip(d.face.categories, d.face.counts) : null }]),
  );
}

/** The same figures computed from the store's counted rolls (not through the analysis). */
function storedCounts(db: string, sessionId: number) {
  const store = RollStore.open(db, { mustExist: true });
  try {
    const out: Record<string, { rolls: number; symbols: Record<string, number>; faces: Record<string, number> }> = {};
    for (const s of store.dieRolls(sessionId)) {
      const tally = (xs: readonly (string | null)[]) => {
        const t: Record<string, number> = {};
        for (const x of xs) if (x !== null) t[x] = (t[x] ?? 0) + 1;
        return t;
      };
      out[s.die.label] = { rolls: s.symbols.length, symbols: tally(s.symbols), faces: tally(s.faces) };
    }
    return out;
  } finally {
    store.close();
  }
}

/** Drops zero counts so a tally and an analysis (which lists every face) compare. */
function nonZero(counts: Record<string, number> | null): Record<string, number> {
  return Object.fromEntries(Object.entries(counts ?? {}).filter(([, n]) => n > 0));
}

/** A store holding one session of 60 throws: 49 ok, 6 void (2 rolls each), 5 rerolled with a cocked die (4 rolls each); one label needs CSV quoting. */
function recordedStore(simulated = false): { db: string; dir: string } {
  const dir = tempDir('dicerig-cli-store-');
  const db = join(dir, 'rolls.db');
  const { store, session } = storeWithSession(db, simulated);
  const quoted = store.registerDie({ label: 'Red, "lucky"', typeId: 'red' });
  const dice = [...store.dice().filter((d) => d.id !== quoted.id), quoted];
  for (let n = 1; n <= 60; n++) {
    const t = okThrow(n, dice);
    if (n % 9 === 0) store.recordThrow(session.id, { ...t, status: 'void', why: 'jam', rolls: t.rolls.slice(0, 2) });
    else if (n % 11 === 0) store.recordThrow(session.id, { ...t, status: 'rerolled', why: 'R2 cocked', rolls: t.rolls.map((r, i) => (i === 1 ? { ...r, cocked: true } : r)) });
    else store.recordThrow(session.id, t);
  }
  store.close();
  return { db, dir };
}

describe('dicerig export', () => {
  it('writes CSV with a manifest beside it that dicerig analyze reads back to the same counts', async () => {
    const { db, dir } = recordedStore();
    const out = join(dir, 'session.csv');
    const r = await runCli('export', '1', '--db', db, '--out', out);
    expect(r.err).toBe('');
    expect(r.out).toBe(`Wrote 196 rolls of session 1 (bench-test) to ${out}, manifest ${out}.manifest.json.\n`);
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines[0]).toBe('throw,die,type,channel,face,symbol,confidence,classifier,simulated,time');
    expect(lines[1]).toBe('1,R1,red,0,crit,crit,0.99,d8-v1,0,2023-11-14T22:13:21.800Z');
    expect(lines[4]).toBe('1,"Red, ""lucky""",red,3,blank-1,blank,0.99,d8-v1,0,2023-11-14T22:13:21.800Z');
    expect(lines.filter((l) => /^9,/.test(l))).toEqual([]); // throw 9 was void
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8'));
    expect(manifest).toMatchObject({
      kind: 'manifest',
      format: 'dicerig-export',
      session: { id: 1, name: 'bench-test', origin: 'rig', simulated: false, state: 'running', config: { channels: 3 } },
      rig: { rigId: 'sim-4ch', calibrationHash: 'cal-1' },
      counts: { throws: 60, ok: 49, void: 6, rerolled: 5, rolls: 228, countedRolls: 196, cocked: 5 },
      exportedRolls: 196,
    });

    const back = await analyzed(out);
    const stored = storedCounts(db, 1);
    expect(Object.keys(back).sort()).toEqual(Object.keys(stored).sort());
    for (const [label, s] of Object.entries(stored)) {
      expect(back[label]?.rolls).toBe(s.rolls);
      expect(nonZero(back[label]?.symbols ?? null)).toEqual(s.symbols);
      expect(nonZero(back[label]?.faces ?? null)).toEqual(s.faces);
    }
  });

  it('writes JSON Lines with the manifest as the first line, read back by analyze to the same counts', async () => {
    const { db, dir } = recordedStore();
    const out = join(dir, 'session.jsonl');
    expect((await runCli('export', 'bench-test', '--db', db, '--out', out)).err).toBe('');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ kind: 'manifest', exportedRolls: 196 });
    expect(JSON.parse(lines[1] as string)).toEqual({ throw: 1, die: 'R1', type: 'red', channel: 0, face: 'crit', symbol: 'crit', confidence: 0.99, classifier: 'd8-v1', simulated: false, time: '2023-11-14T22:13:21.800Z' });
    expect(lines).toHaveLength(197);
    const back = await analyzed(out);
    for (const [label, s] of Object.entries(storedCounts(db, 1))) expect(nonZero(back[label]?.faces ?? null)).toEqual(s.faces);
  });

  it('puts the manifest on a comment line when CSV goes to standard output, and analyze skips it', async () => {
    const { db, dir } = recordedStore();
    const r = await runCli('export', '1', '--db', db, '--format', 'csv');
    expect(r.out.split('\n')[0]).toMatch(/^# dicerig-manifest \{"kind":"manifest",/);
    const file = join(dir, 'stdout.csv');
    writeFileSync(file, r.out);
    const back = await analyzed(file);
    expect(back['R1']?.rolls).toBe(storedCounts(db, 1)['R1']?.rolls);
  });

  it('names an unknown session and lists the ones there are', async () => {
    const { db } = recordedStore();
    const r = await runCli('export', 'nope', '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: There is no session "nope" in ${db}; sessions: 1 (bench-test).\n`);
  });
});

describe('dicerig verify', () => {
  it('says every chain verifies, with exit status 0', async () => {
    const { db } = recordedStore();
    const r = await runCli('verify', '--db', db);
    // The fixture's rolls name evidence files it never wrote: missing pictures are said, and fail nothing.
    expect(r).toEqual({
      code: 0,
      out:
        `${db}: 1 session, 60 throws, 228 rolls: every hash chain verifies.\n` +
        '228 evidence pictures are missing (moved or deleted; the rolls and their chain are unaffected):\n' +
        ['  session 1, throw 1, R1: ev/1-0.png', '  session 1, throw 1, R2: ev/1-1.png', '  session 1, throw 1, G1: ev/1-2.png', '  session 1, throw 1, Red, "lucky": ev/1-3.png', '  session 1, throw 2, R1: ev/2-0.png', '  and 223 more']
          .map((l) => `${l}\n`)
          .join('') +
        '0 of 228 evidence pictures match the hash the chain sealed.\n',
      err: '',
    });
    expect((await runCli('verify', db)).code).toBe(0);
  });

  /** A recorded store whose first roll of each of the throws `idx` was edited after it was sealed. */
  const editedStore = (...idx: number[]): string => {
    const { db } = recordedStore();
    const raw = openDatabase(db);
    raw.prepare(`UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE throw_id IN (SELECT id FROM throws WHERE idx IN (${idx.join(', ')})) AND seq = 0`).run();
    raw.close();
    return db;
  };

  it('names the session and throw of an edited roll, with exit status 1 and a JSON report on request', async () => {
    const db = editedStore(7);
    const r = await runCli('verify', '--db', db);
    expect(r.code).toBe(1);
    expect(r.out.split('\n').slice(0, 3).join('\n')).toBe(
      `${db}: 1 session, 60 throws, 228 rolls: CHAIN BROKEN (tampered with, or rows lost to damage).\n` +
        'The hash chain is broken in 1 of 1 session:\n' +
        '  session 1 (bench-test): throw 7 does not match its hash: the throw or its rolls were changed, or it was moved, after it was recorded',
    );
    const json = await runCli('verify', '--db', db, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ db, ok: false, breaks: [{ sessionId: 1, throwIndex: 7 }] });
  });

  it('counts the sessions whose chain is broken, not the places: one session broken at two throws is one of one', async () => {
    const r = await runCli('verify', '--db', editedStore(7, 30));
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[1]).toBe('The hash chain is broken in 1 of 1 session:');
    expect(lines.slice(2).filter((l) => l.startsWith('  session 1 (bench-test): throw '))).toHaveLength(2);
  });

  it('refuses a database that does not exist instead of creating it', async () => {
    const db = join(tempDir(), 'none.db');
    const r = await runCli('verify', '--db', db);
    expect(r).toEqual({ code: 1, out: '', err: `dicerig: There is no roll store at ${db}.\n` });
    expect(existsSync(db)).toBe(false);
  });
});

describe('dicerig import', () => {
  it('imports a CSV with die, type and face columns into a finished session with the counts analyze gives', async () => {
    const db = join(tempDir(), 'rolls.db');
    const r = await runCli('import', 'examples/xwing-rolls.csv', '--db', db, '--session-name', 'box');
    expect(r.err).toBe('');
    expect(r.out).toBe(`Imported 18,000 rolls of 6 dice from 1 file into session 1 (box) in ${db}.\n`);
    const store = RollStore.open(db, { mustExist: true });
    const s = store.findSession('box');
    expect(s).toMatchObject({ origin: 'import', state: 'finished', simulated: false });
    expect(JSON.parse(s.configJson)).toEqual({ imported: [{ file: 'examples/xwing-rolls.csv', format: 'csv', rows: 18000 }] });
    expect(store.verify().ok).toBe(true);
    store.close();
    const fromFile = await analyzed('examples/xwing-rolls.csv');
    for (const [label, c] of Object.entries(storedCounts(db, 1))) {
      expect(c.rolls).toBe(fromFile[label]?.rolls);
      expect(c.faces).toEqual(nonZero(fromFile[label]?.faces ?? null));
    }
  });

  it('imports a one-hot file (symbols only) and JSON Lines, and exports them back to the same counts', async () => {
    const dir = tempDir();
    const db = join(dir, 'rolls.db');
    const jsonl = join(dir, 'd6.jsonl');
    writeFileSync(jsonl, ['{"die":"W1","type":"d6","face":"3"}', '{"die":"W1","type":"d6","face":"6"}', '{"die":"W1","type":"d6","face":"3"}', ''].join('\n'));
    const r = await runCli('import', 'examples/one-hot/green-07.csv', jsonl, '--db', db);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Imported 1,005 rolls of 2 dice from 2 files into session 1 in /);
    expect(storedCounts(db, 1)['W1']).toEqual({ rolls: 3, symbols: { '3': 2, '6': 1 }, faces: { '3': 2, '6': 1 } });
    // green-07 has symbols only, so the CSV export leaves out the face column.
    const out = join(dir, 'back.csv');
    expect((await runCli('export', '1', '--db', db, '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('throw,die,type,channel,symbol,confidence,classifier,simulated,time');
    const [original, back] = [await analyzed('examples/one-hot/green-07.csv', jsonl), await analyzed(out)];
    expect(back['green-07']?.symbols).toEqual(original['green-07']?.symbols);
    expect(back['W1']?.symbols).toEqual(original['W1']?.symbols);
  });

  it('writes nothing when a file has a bad line, and names the file and line', async () => {
    const dir = tempDir();
    const db = join(dir, 'rolls.db');
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'die,type,face\nA,red,hit-1\nA,red,hit-9\n');
    const r = await runCli('import', 'examples/xwing-rolls.csv', bad, '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${bad}, line 3: "hit-9" is not a face of die "A" (red: hit-1, hit-2, hit-3, crit, focus-1, focus-2, blank-1, blank-2)\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('rolls back the whole import when the store refuses part of it', async () => {
    const dir = tempDir();
    const db = join(dir, 'rolls.db');
    expect((await runCli('import', 'examples/xwing-rolls.csv', '--db', db)).code).toBe(0);
    // Die R1 is red in the store; a file calling it green must not leave a half-written session behind.
    const clash = join(dir, 'clash.csv');
    writeFileSync(clash, 'die,type,face\nG9,green,evade-1\nR1,green,evade-2\n');
    const r = await runCli('import', clash, '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toBe('dicerig: Die "R1" is already in the store as type "red", not "green"; give this die another label.\n');
    const store = RollStore.open(db, { mustExist: true });
    expect(store.sessions()).toHaveLength(1);
    expect(store.findDie('G9')).toBeUndefined();
    store.close();
  });

  it("refuses a session's rolls the store holds already: one export in two formats, an earlier export of it, its own store, or an export of its import", async () => {
    const { db, dir } = recordedStore();
    const [csv, jsonl, early] = ['s1.csv', 's1.jsonl', 'early.jsonl'].map((f) => join(dir, f)) as [string, string, string];
    // An export before the session rolled on: another chain head, the same session.
    expect((await runCli('export', '1', '--db', db, '--out', early)).code).toBe(0);
    const store = RollStore.open(db, { mustExist: true });
    store.recordThrow(1, okThrow(61, store.dice()));
    store.close();
    for (const out of [csv, jsonl]) expect((await runCli('export', '1', '--db', db, '--out', out)).code).toBe(0);
    const other = join(dir, 'other.db');
    expect((await runCli('import', csv, '--db', other)).code).toBe(0);
    const refused = async (file: string, target: string, why: RegExp) => {
      const r = await runCli('import', file, '--db', target);
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toMatch(new RegExp(`^dicerig: ${file}, line 1: its rolls are those of exported session 1 \\(chain head [0-9a-f]{12}…\\), ${why.source}\n$`));
    };
    await refused(jsonl, other, /imported into this store before as session 1: importing them again would count them twice/);
    await refused(early, other, /imported into this store before as session 1: importing them again would count them twice/);
    await refused(jsonl, db, /which this store holds as session 1 \(bench-test\): importing them again would count them twice/);
    const both = await runCli('import', csv, jsonl, '--db', join(dir, 'fresh.db'));
    expect(both.err).toMatch(new RegExp(`^dicerig: ${jsonl}, line 1: its rolls are those of exported session 1 \\(chain head [0-9a-f]{12}…\\), as are those of ${csv}: import one of the files`));
    const fresh = RollStore.open(join(dir, 'fresh.db'), { mustExist: true });
    expect(fresh.sessions()).toHaveLength(0);
    fresh.close();
    // The import, exported and imported where the original is: its manifest names where its rolls came from.
    const reexport = join(dir, 'again.jsonl');
    expect((await runCli('export', '1', '--db', other, '--out', reexport)).code).toBe(0);
    const third = join(dir, 'third.db');
    expect((await runCli('import', jsonl, '--db', third)).code).toBe(0);
    await refused(reexport, third, /imported into this store before as session 1: importing them again would count them twice/);
    const kept = RollStore.open(other, { mustExist: true });
    expect(kept.sessions()).toHaveLength(1);
    kept.close();
    // Logs without a manifest are known by their rolls: the same log again is refused.
    expect((await runCli('import', 'examples/xwing-rolls.csv', '--db', other)).code).toBe(0);
    const twice = await runCli('import', 'examples/xwing-rolls.csv', '--db', other);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('the file is a copy of rolls stored already (an export without its manifest, say), and importing it would count them twice');
  });

  it("keeps the exported session's alpha and margin (from its manifest) for report and analyze, through an export of the import too", async () => {
    const dir = tempDir();
    const db = join(dir, 'demo.db');
    expect((await runCli('demo', '--seed', '2', '--budget', '4', '--db', db, '--plain')).code).toBe(0);
    const csv = join(dir, 'demo.csv');
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    const other = join(dir, 'other.db');
    const r = await runCli('import', csv, '--db', other);
    expect(r.out).toBe(
      `Imported 16 rolls of 4 dice from 1 file into session 1, simulated, in ${other}.\nIt keeps the exported session's settings: alpha 0.001, FAIR_WITHIN margin ±0.05, rig checks at 0.01.\nIt keeps the verdicts the exported session made: analyze, pool and report show them, as they do the file's.\n`,
    );
    expect((await runCli('analyze', '--db', other, '1')).out).toMatch(/^4 dice, 16 rolls\. alpha 0\.001 \(the sessions' own\), Holm over 4 tests, FAIR_WITHIN margin ±0\.05 \(the sessions' own\)/);
    expect((await runCli('report', '1', '--db', other, '--out', join(dir, 'report'))).out).toContain("the session's own verdicts, made at α = 0.001, FAIR_WITHIN ±0.05.");
    const again = join(dir, 'again.jsonl');
    expect((await runCli('export', '1', '--db', other, '--out', again)).code).toBe(0);
    const third = join(dir, 'third.db');
    expect((await runCli('import', again, '--db', third)).out).toContain("It keeps the exported session's settings: alpha 0.001, FAIR_WITHIN margin ±0.05");
    expect((await runCli('analyze', '--db', third, '1')).out).toMatch(/^4 dice, 16 rolls\. alpha 0\.001 \(the sessions' own\)/);
    // A log without a manifest carries no settings: the defaults stand.
    const plain = join(dir, 'plain.db');
    expect((await runCli('import', 'examples/one-hot/green-07.csv', '--db', plain)).out).not.toContain('settings');
    expect((await runCli('analyze', '--db', plain, '1')).out).toMatch(/^1 die, 1,002 rolls\. alpha 0\.05, /);
  });

  it('says a lone export of a session that had no settings names none, rather than that manifests disagree', async () => {
    const dir = tempDir();
    const db = join(dir, 'plain.db');
    expect((await runCli('import', 'examples/one-hot/green-07.csv', '--db', db)).code).toBe(0);
    const jsonl = join(dir, 'plain.jsonl');
    expect((await runCli('export', '1', '--db', db, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
    const r = await runCli('import', jsonl, '--db', join(dir, 'other.db'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`The manifest of ${jsonl} names no decision settings (its session was imported from logs that named none): its dice are judged at alpha 0.05, FAIR_WITHIN margin ±0.03, rig checks at 0.01 unless told otherwise.`);
    expect(r.out).not.toContain('do not agree');
  });

  it('refuses a copy of an export without its manifest when the store holds its rolls already, imported or recorded, and writes nothing', async () => {
    const { db, dir } = recordedStore();
    const csv = join(dir, 'session.csv');
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    const bare = join(dir, 'bare.csv');
    copyFileSync(csv, bare);
    // Beside the session it came from.
    const beside = await runCli('import', bare, '--db', db);
    expect(beside.code).toBe(1);
    expect(beside.err).toMatch(/bare\.csv: die .+'s first \d+ rolls are those of die .+ in session 1 \(bench-test\) of this store, in the same order: the file is a copy of rolls stored already/);
    // Imported once into another store, then again, by itself or with its manifest.
    const other = join(dir, 'other.db');
    expect((await runCli('import', bare, '--db', other)).code).toBe(0);
    const again = await runCli('import', bare, '--db', other);
    expect(again.code).toBe(1);
    expect(again.err).toContain('in session 1 of this store, in the same order');
    expect((await runCli('import', csv, '--db', other)).code).toBe(1);
    const store = RollStore.open(other, { mustExist: true });
    expect(store.sessions().length).toBe(1);
    store.close();
  });

  it('keeps a simulated export simulated (JSON Lines and CSV with its manifest file), and refuses to mix it with real rolls', async () => {
    const { db, dir } = recordedStore(true);
    const out = join(dir, 'sim.jsonl');
    expect((await runCli('export', '1', '--db', db, '--out', out)).code).toBe(0);
    const target = join(dir, 'other.db');
    const r = await runCli('import', out, '--db', target);
    expect(r.out).toMatch(/into session 1, simulated, in /);
    const store = RollStore.open(target, { mustExist: true });
    expect(store.getSession(1)?.simulated).toBe(true);
    expect([...store.countedRolls(1)].every((x) => x.simulated)).toBe(true);
    store.close();
    // A CSV export carries the flag in its FILE.manifest.json.
    const csv = join(dir, 'sim.csv');
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    expect((await runCli('import', csv, '--db', join(dir, 'another.db'))).out).toMatch(/into session 1, simulated, in /);
    // Without its manifest, the CSV's rows still say so: every one is marked simulated.
    const bare = join(dir, 'bare.csv');
    copyFileSync(csv, bare);
    const fromRows = await runCli('import', bare, '--db', join(dir, 'bare.db'));
    expect(fromRows.out).toMatch(/into session 1, simulated, in /);
    const mixed = await runCli('import', out, 'examples/one-hot/green-07.csv', '--db', target);
    expect(mixed.code).toBe(1);
    expect(mixed.err).toBe(
      `dicerig: ${out}, line 1: its manifest or its rows mark the rolls as simulated, but examples/one-hot/green-07.csv holds real rolls; simulated rolls must never mix with real ones, so import them as separate sessions\n`,
    );
  });
});
