import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainRows } from '../../src/store/chainRows.js';
import { sealHash, throwHash, type ChainSeal, type ChainThrow } from '../../src/store/hashChain.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { runCli } from '../cli/runCli.js';
import { RollStore } from '../../src/store/rollStore.js';
import { okThrow, simRig, storeWithSession, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetCounts, fleetThrows, localThrows, sorted } from './support/compare.js';

let server: ScratchPostgres;
let dir: string;
let n = 0;
const freshFleet = (): Promise<string> => server.createDatabase(`fleet${++n}`);

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/** A local store with one session of `throws` deterministic throws of three dice. */
function fixtureStore(name: string, throws: number): string {
  const path = join(dir, name);
  const { store, dice, session } = storeWithSession(path);
  store.atomically(() => {
    for (let i = 1; i <= throws; i++) store.recordThrow(session.id, okThrow(i, dice));
  });
  store.recordEvent(session.id, { at: 1_700_000_000_500, kind: 'fault', throwIndex: 2, detail: { message: 'jam' } });
  store.close();
  return path;
}

/** Rolls session 1 of the store on from throw `from` to `to`, each with the faces of throw i + `shift` (0: as the original rolls them). */
function rollOn(path: string, from: number, to: number, shift: number): void {
  const store = RollStore.open(path);
  const dice = store.dice();
  for (let i = from; i <= to; i++) store.recordThrow(1, { ...okThrow(i + shift, dice), startedAt: okThrow(i, dice).startedAt, endedAt: okThrow(i, dice).endedAt });
  store.close();
}

describe('dicerig sync to a fleet store (a real PostgreSQL on a unix socket)', () => {
  it('copies a demo session so that the fleet store reads as the local one: report, export, pool, analyze, verify', async () => {
    const local = join(dir, 'demo.db');
    expect((await runCli('demo', '--seed', '3', '--budget', '40', '--db', local, '--json')).code).toBe(0);
    const url = await freshFleet();
    const synced = await runCli('sync', '--db', local, '--to', url, '--batch', '7', '--json');
    expect(synced.code, synced.err).toBe(0);
    expect(JSON.parse(synced.out)).toMatchObject({ sessions: 1, duplicates: 0, behind: 0 });
    expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(local)));

    // The report: the same JSON and the same chart images, whichever store it is read from.
    const fromLocal = await runCli('report', '1', '--db', local, '--json', '--out', join(dir, 'r-local'));
    const fromFleet = await runCli('report', '1', '--db', url, '--json', '--out', join(dir, 'r-fleet'));
    expect(fromFleet.code, fromFleet.err).toBe(0);
    expect(fromFleet.err).toMatch(/fleet session 1\b.*session 1 of .*demo\.db/);
    const a = JSON.parse(fromLocal.out) as { html: string; charts: string[] };
    const { fleetSession, ...b } = JSON.parse(fromFleet.out) as { html: string; charts: string[]; fleetSession: { id: number; localId: number } };
    // The one difference: the fleet's report names the fleet session it was asked for, and its id on the rig host.
    expect(fleetSession).toMatchObject({ id: 1, localId: 1 });
    expect({ ...b, html: '', charts: [] }).toEqual({ ...a, html: '', charts: [] });
    expect(b.charts.length).toBeGreaterThan(0);
    b.charts.forEach((file, i) => expect(readFileSync(file).equals(readFileSync(a.charts[i] as string))).toBe(true));

    const exportOf = async (db: string) => {
      const r = await runCli('export', '1', '--db', db, '--format', 'jsonl');
      expect(r.code, r.err).toBe(0);
      return r.out.replace(/"exportedAt":"[^"]*"/g, '');
    };
    expect(await exportOf(url)).toBe(await exportOf(local));

    const pooled = async (db: string) => (await runCli('pool', '1', '--size', '2', '--db', db, '--json')).out;
    // As for analyze below: the simulated notice names its source by the fleet's id.
    expect((await pooled(url)).replace(/"fleet session 1"/g, '"session 1"')).toBe(await pooled(local));
    const analysed = async (db: string) => (await runCli('analyze', '1', '--db', db, '--json')).out;
    // The one difference: the analysis names its source by the fleet's id.
    const analysis = await analysed(url);
    expect(analysis).toMatch(/"fleet session 1"/);
    expect(analysis.replace(/"fleet session 1"/g, '"session 1"')).toBe(await analysed(local));
    expect(analysis).toMatch(/demo3-d6-A/);

    const verified = await runCli('verify', '--db', url);
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/1 session, \d+ throws, \d+ rolls: every hash chain verifies/);
    const listed = await runCli('sessions', '--db', url);
    expect(listed.out).toMatch(/^1 .*sim-01 +demo\.db +\S+:1 +finished/m);
  }, 120_000);

  it('stores throws synced twice once: the second sync copies nothing, a third from a copy of the file neither', async () => {
    const local = fixtureStore('twice.db', 120);
    const url = await freshFleet();
    const first = JSON.parse((await runCli('sync', '--db', local, '--to', url, '--json', '--batch', '50')).out) as { throws: number; batches: number };
    expect(first).toMatchObject({ throws: 120, batches: 3 });
    const again = JSON.parse((await runCli('sync', '--db', local, '--to', url, '--json')).out) as { throws: number; rolls: number; events: number };
    expect(again).toMatchObject({ throws: 0, rolls: 0, events: 0 });
    // The same store under another name (a backup restored elsewhere) is the same sessions: nothing doubles.
    const copy = join(dir, 'twice-copy.db');
    const db = openDatabase(local, { readonly: true });
    db.exec(`VACUUM INTO '${copy}'`);
    db.close();
    expect(JSON.parse((await runCli('sync', '--db', copy, '--to', url, '--json')).out)).toMatchObject({ throws: 0 });
    expect(await fleetCounts(url)).toMatchObject({ sessions: 1, throws: 120, rolls: 360, events: 1, dice: 3, rigs: 1 });
    expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(local)));
  });

  it('refuses a local throw changed after it was recorded, naming session and throw, and copies nothing of its batch', async () => {
    const local = fixtureStore('tampered.db', 30);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', local, '--to', url, '--batch', '10')).code).toBe(0);
    // Append ten more throws, then change a face of throw 35 by hand.
    const store = RollStore.open(local);
    const dice = store.dice();
    for (let i = 31; i <= 40; i++) store.recordThrow(1, okThrow(i, dice));
    store.close();
    const db = openDatabase(local);
    db.prepare("UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE seq = 0 AND throw_id = (SELECT id FROM throws WHERE session_id = 1 AND idx = 35)").run();
    db.close();
    const r = await runCli('sync', '--db', local, '--to', url, '--batch', '20');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: session 1 \(bench-test\) of .*tampered\.db: throw 35 does not match its hash: .*nothing of this batch was copied\.\n$/);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(await fleetCounts(url)).toMatchObject({ throws: 30 });
  });

  it('refuses another throw under the id of one the fleet holds, even when its chain was recomputed to fit', async () => {
    const local = fixtureStore('forged.db', 30);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', local, '--to', url)).code).toBe(0);
    // A forger rewrites the synced last throw and recomputes its hash, the head and the seal, so the local store verifies.
    const db = openDatabase(local);
    const chain = new ChainRows(db);
    const t = db.prepare<{ id: number; prevHash: string }>('SELECT id, prev_hash AS prevHash FROM throws WHERE session_id = 1 AND idx = 30').get() as { id: number; prevHash: string };
    db.prepare("UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE throw_id = ? AND seq = 0").run(t.id);
    const hash = throwHash(t.prevHash, chain.throwFields(t.id) as ChainThrow, chain.rolls(t.id));
    db.prepare('UPDATE throws SET hash = ? WHERE id = ?').run(hash, t.id);
    db.prepare('UPDATE sessions SET head_hash = ? WHERE id = 1').run(hash);
    db.prepare('UPDATE sessions SET seal = ? WHERE id = 1').run(sealHash(chain.seal(1) as ChainSeal));
    db.close();
    expect((await runCli('verify', '--db', local)).code).toBe(0);
    const r = await runCli('sync', '--db', local, '--to', url);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: session 1 \(bench-test\) of .*forged\.db: throw 30 in the fleet store is not the local throw 30 \(their hashes differ\); throws 1 to 29 agree: the fleet store holds 30 throws of this session, from throw 30 on rolled in another copy of the store \(or changed here after they were synced\); nothing was copied\.\n$/);
    expect((await runCli('verify', '--db', url)).code).toBe(0);
  });

  it('refuses a copy of the store rolled on apart from the one synced, even when the copy holds fewer throws than the fleet store, naming the first throw that differs', async () => {
    const original = fixtureStore('two.db', 13);
    const copy = join(dir, 'two-copy.db');
    copyFileSync(original, copy);
    rollOn(original, 14, 17, 0);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', original, '--to', url)).code).toBe(0);
    // The copy rolls on with other faces: its throws 14 and 15 are not the fleet's.
    rollOn(copy, 14, 15, 1);
    // And holds a session of its own, which the refusal of session 1 must not keep out of the fleet store.
    const other = RollStore.open(copy);
    const own = other.createSession({ name: 'later', config: { channels: 3 }, simulated: false, rigId: 1, startedAt: 1_700_000_500_000 });
    for (let i = 1; i <= 5; i++) other.recordThrow(own.id, okThrow(i, other.dice()));
    other.close();
    const r = await runCli('sync', '--db', copy, '--to', url, '--quiet');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: session 1 \(bench-test\) of .*two-copy\.db: throw 14 in the fleet store is not the local throw 14 \(their hashes differ\); throws 1 to 13 agree: the fleet store holds 17 throws of this session, from throw 14 on rolled in another copy of the store \(or changed here after they were synced\); nothing was copied\.\n$/);
    expect(r.out).toMatch(/^Copied 5 throws .* of 2 sessions from .*; 1 session was refused \(above\)\.\n$/);
    expect(await fleetCounts(url)).toMatchObject({ throws: 22 });
  });

  it('refuses a copy of the store rolled on apart, holding more throws than the fleet store, naming the first throw that differs rather than the last synced', async () => {
    const original = fixtureStore('fork.db', 13);
    const copy = join(dir, 'fork-copy.db');
    copyFileSync(original, copy);
    rollOn(original, 14, 17, 0);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', original, '--to', url)).code).toBe(0);
    // The copy, resumed on its own from throw 13, rolls other faces: from its throw 14 on it is not the fleet's.
    rollOn(copy, 14, 21, 1);
    const r = await runCli('sync', '--db', copy, '--to', url, '--quiet');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: session 1 \(bench-test\) of .*fork-copy\.db: throw 14 in the fleet store is not the local throw 14 \(their hashes differ\); throws 1 to 13 agree: the fleet store holds 17 throws of this session, from throw 14 on rolled in another copy of the store \(or changed here after they were synced\); nothing was copied\.\n$/);
    expect(await fleetCounts(url)).toMatchObject({ throws: 17 });
  });

  it('copies nothing from a restored backup (the start of what the fleet store holds) and says so, with status 0', async () => {
    const original = fixtureStore('restored.db', 13);
    const backup = join(dir, 'restored-backup.db');
    copyFileSync(original, backup);
    const store = RollStore.open(original);
    const dice = store.dice();
    for (let i = 14; i <= 17; i++) store.recordThrow(1, okThrow(i, dice));
    store.close();
    const url = await freshFleet();
    expect((await runCli('sync', '--db', original, '--to', url)).code).toBe(0);
    const r = await runCli('sync', '--db', backup, '--to', url);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^dicerig: note: session 1 \(bench-test\) of .*restored-backup\.db holds 13 throws but the fleet store already holds 17: nothing was copied \(is this a restored backup\?\)\.\n$/);
  });

  it('lists, and shows on the dashboard, the store file of each session, as HOST:ID is shared by the store files one host syncs; only the fleet id names one of them', async () => {
    const url = await freshFleet();
    // Three stores of one host, each with a session of its own (started apart), each session 1 there.
    mkdirSync(join(dir, 'vm', 'spare'), { recursive: true });
    const stores = (['two.db', 'big.db', 'spare/big.db'] as const).map((name, k) => {
      const path = join(dir, 'vm', name);
      const store = RollStore.open(path);
      const rig = store.registerRig(simRig, 'cal-1');
      const dice = ['R1', 'R2'].map((label) => store.registerDie({ label, typeId: 'red' }));
      const session = store.createSession({ config: { channels: 2 }, simulated: false, rigId: rig.id, startedAt: 1_700_000_000_000 + k * 60_000 });
      for (let i = 1; i <= 3 + k; i++) store.recordThrow(session.id, okThrow(i, dice));
      store.close();
      return path;
    });
    for (const db of stores) expect((await runCli('sync', '--db', db, '--to', url, '--host', 'vm', '--quiet')).code).toBe(0);
    const listed = await runCli('sessions', '--db', url);
    expect(listed.out).toMatch(/^fleet id +name +rig +campaign +store file +from \(host:id\) +state +throws$/m);
    // The shortest tail of each path that tells it from the host's other store files.
    expect(listed.out).toMatch(/^1 .* two\.db +vm:1 +running +3$/m);
    expect(listed.out).toMatch(/^2 .* vm\/big\.db +vm:1 +running +4$/m);
    expect(listed.out).toMatch(/^3 .* spare\/big\.db +vm:1 +running +5$/m);
    const help = await runCli('sessions', '--help');
    expect(help.out.replace(/\s+/g, ' ')).toMatch(/their sessions can share HOST:ID, and only the fleet id names one of them/);
    const ambiguous = await runCli('report', 'vm:1', '--db', url, '--json');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toMatch(/Several sessions .* are named "vm:1": .*two\.db.*big\.db.*spare\/big\.db.* Name one by its fleet id\./);
    expect((await runCli('report', '3', '--db', url, '--json', '--out', join(dir, 'r-vm'))).code).toBe(0);

    const fleet = await openFleet(url);
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 100, now: () => Date.now() });
      const shown = (await view.state()).sessions.map((x) => [x.id, x.hostKey, x.storeFile]);
      expect(shown).toEqual([
        [1, 'vm:1', 'two.db'],
        [2, 'vm:1', 'vm/big.db'],
        [3, 'vm:1', 'spare/big.db'],
      ]);
    } finally {
      await fleet.close();
    }
  });

  it('copies reviews of declined rolls with their chain, and the fleet counts the reviewed roll as the local store does', async () => {
    const path = join(dir, 'reviewed.db');
    const { store, dice, session } = storeWithSession(path);
    const declined = (n: number) => ({ ...okThrow(n, dice), rolls: okThrow(n, dice).rolls.map((r, i) => (i === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) });
    for (let i = 1; i <= 4; i++) store.recordThrow(session.id, i === 2 ? declined(i) : okThrow(i, dice));
    const url = await freshFleet();
    expect((await runCli('sync', '--db', path, '--to', url)).code).toBe(0);
    const roll = store.unresolvedRolls(session.id)[0];
    store.reviewRoll(session.id, { rollId: roll?.rollId as number, faceId: 'hit-1', reviewer: 'ada', at: 1_700_000_900_000 });
    // Throw 5's declined roll: a person could not tell its face. It stays unresolved, in the fleet as here.
    for (let i = 5; i <= 6; i++) store.recordThrow(session.id, i === 5 ? declined(i) : okThrow(i, dice));
    const untold = store.rollsToReview(session.id)[0];
    store.reviewRoll(session.id, { rollId: untold?.rollId as number, faceId: null, reviewer: 'ada', at: 1_700_000_901_000 });
    store.close();
    const r = JSON.parse((await runCli('sync', '--db', path, '--to', url, '--json')).out) as { throws: number; reviews: number };
    expect(r).toMatchObject({ throws: 2, reviews: 2 });
    const exportOf = async (db: string) => (await runCli('export', 'bench-test', '--db', db, '--format', 'jsonl')).out.replace(/"exportedAt":"[^"]*"/g, '');
    const fromFleet = await exportOf(url);
    expect(fromFleet).toBe(await exportOf(path));
    expect(fromFleet).toMatch(/"throw":2,"die":"R1".*"symbol":"hit"/);
    // The roll nobody could tell is a row of its own, with no face, in either export.
    expect(fromFleet).not.toMatch(/"throw":5,"die":"R1"[^\n]*"symbol":"/);
    expect(fromFleet).toMatch(/"throw":5,"die":"R1","type":"red","channel":0,"symbol":null,"resolution":"unresolved"/);
    expect(fromFleet).toContain('"unresolvedRolls":1');
    expect((await runCli('verify', url)).code).toBe(0);
    // The fleet page and the report count R1's rolls as its verdict does: all 6, the one nobody could tell said.
    const fleet = await openFleet(url);
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 0, now: () => Date.now() });
      let state = await view.state();
      for (let i = 0; i < 5 && state.sessions.some((x) => x.verdicts === null); i++) state = await view.state();
      expect(state.sessions[0]?.verdicts?.dice.find((d) => d.label === 'R1')).toMatchObject({ rolls: 6, unresolved: 1 });
    } finally {
      await fleet.close();
    }
    const reported = JSON.parse((await runCli('report', 'bench-test', '--db', path, '--out', join(dir, 'reviewed-report'), '--json')).out) as { dice: { label: string; rolls: number; unresolved: number }[] };
    expect(reported.dice.find((d) => d.label === 'R1')).toMatchObject({ rolls: 6, unresolved: 1 });

    // Both answers corrected on this host: the label to another face, "cannot tell" to a face. The fleet takes the answers that stand.
    const again = RollStore.open(path);
    const [label, cannotTell] = again.reviews(session.id);
    again.reviewLog.correct(session.id, { rollId: label?.rollId as number, faceId: 'crit', reviewer: 'bob', at: 1_700_000_902_000, supersedes: label?.id as number });
    again.reviewLog.correct(session.id, { rollId: cannotTell?.rollId as number, faceId: 'blank-1', reviewer: 'bob', at: 1_700_000_903_000, supersedes: cannotTell?.id as number });
    again.close();
    const corrected = await runCli('sync', '--db', path, '--to', url, '--json');
    expect(corrected.code, corrected.err).toBe(0);
    expect(JSON.parse(corrected.out)).toMatchObject({ throws: 0, reviews: 2 });
    const correctedExport = await exportOf(url);
    expect(correctedExport).toBe(await exportOf(path));
    expect(correctedExport).toMatch(/"throw":2,"die":"R1"[^\n]*"symbol":"crit"/);
    expect(correctedExport).not.toMatch(/"throw":2,"die":"R1"[^\n]*"symbol":"hit"/);
    expect(correctedExport).toMatch(/"throw":5,"die":"R1"[^\n]*"symbol":"blank"/);
    expect(correctedExport).toContain('"unresolvedRolls":0');
    expect((await runCli('verify', url)).code).toBe(0);
  });

  it('copies corrections as it copies first answers, a correction made after a sync on the next one; the fleet verifies them, and catches a correction changed there', async () => {
    const path = join(dir, 'corrected.db');
    const { store, dice, session } = storeWithSession(path);
    const declined = (n: number) => ({ ...okThrow(n, dice), rolls: okThrow(n, dice).rolls.map((r, i) => (i === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) });
    for (let i = 1; i <= 3; i++) store.recordThrow(session.id, i === 2 ? declined(i) : okThrow(i, dice));
    const rollId = store.unresolvedRolls(session.id)[0]?.rollId as number;
    const first = store.reviewRoll(session.id, { rollId, faceId: 'hit-1', reviewer: 'ada', at: 1_700_000_900_000 });
    const fixed = store.reviewLog.correct(session.id, { rollId, faceId: 'crit', reviewer: 'ada', at: 1_700_000_901_000, supersedes: first.id });
    const url = await freshFleet();
    // The label and its correction in one batch: the correction names the fleet's row of the label it copied just before.
    const synced = await runCli('sync', '--db', path, '--to', url, '--json');
    expect(synced.code, synced.err).toBe(0);
    expect(JSON.parse(synced.out)).toMatchObject({ reviews: 2 });
    // Another correction here, to "cannot tell", after the sync: the next sync copies it alone, and the roll is unresolved again there too.
    store.recordThrow(session.id, okThrow(4, dice));
    store.reviewLog.correct(session.id, { rollId, faceId: null, reviewer: 'bob', at: 1_700_000_902_000, supersedes: fixed.id });
    store.close();
    const next = await runCli('sync', '--db', path, '--to', url, '--json');
    expect(JSON.parse(next.out)).toMatchObject({ throws: 1, reviews: 1 });
    const fleet = await openFleet(url);
    try {
      const rows = await fleet.pool.query<{ n: number; id: number; supersedes: number | null; local_id: number; local_supersedes: number | null; resolution: string }>(
        'SELECT v.n, v.id, v.supersedes, v.local_id, v.local_supersedes, r.resolution FROM reviews v JOIN rolls r ON r.id = v.roll_id ORDER BY v.n',
      );
      const [a, b, c] = rows.rows;
      expect(rows.rows.map((x) => [x.local_id, x.local_supersedes])).toEqual([[first.id, null], [fixed.id, first.id], [fixed.id + 1, fixed.id]]);
      expect([a?.supersedes, b?.supersedes, c?.supersedes]).toEqual([null, a?.id, b?.id]);
      expect(c?.resolution).toBe('unresolved');
    } finally {
      await fleet.close();
    }
    const exportOf = async (db: string) => (await runCli('export', 'bench-test', '--db', db, '--format', 'jsonl')).out.replace(/"exportedAt":"[^"]*"/g, '');
    expect(await exportOf(url)).toBe(await exportOf(path));
    const verified = await runCli('verify', '--db', url);
    expect(verified.code, verified.out).toBe(0);

    // The first correction's face changed in the fleet store, as a tamperer would: fleet verify names it.
    const tamperer = await openFleet(url);
    await tamperer.pool.query("UPDATE reviews SET face_id = 'hit-2', symbol = 'hit' WHERE n = 2");
    await tamperer.close();
    const caught = await runCli('verify', '--db', url);
    expect(caught.code).not.toBe(0);
    expect(caught.out + caught.err).toMatch(/review \d+ \(roll \d+\) does not match its hash/);
  });

  it('keeps one die per label across rigs: a die rolled on two rigs is one die with a record from each, pooled across them', async () => {
    const url = await freshFleet();
    const paths = ['rig-a', 'rig-b'].map((rig, k) => {
      const path = join(dir, `${rig}.db`);
      const store = RollStore.open(path);
      const r = store.registerRig({ ...simRig, rigId: rig }, `cal-${rig}`);
      // Registered in another order on each host: local die ids differ, labels do not.
      const dice = (k === 0 ? ['R1', 'R2'] : ['R3', 'R1']).map((label) => store.registerDie({ label, typeId: 'red' }));
      const session = store.createSession({ name: `box-${rig}`, config: { campaign: 'box-1' }, simulated: false, rigId: r.id, startedAt: 1_700_000_000_000 + k });
      for (let i = 1; i <= 25; i++) store.recordThrow(session.id, okThrow(i + k, dice));
      store.close();
      return path;
    });
    for (const path of paths) expect((await runCli('sync', '--db', path, '--to', url, '--host', `host-${basename(path, '.db')}`)).code).toBe(0);
    expect(await fleetCounts(url)).toMatchObject({ sessions: 2, throws: 50, dice: 3, rigs: 2 });
    const listed = await runCli('sessions', '--db', url);
    expect(listed.out).toMatch(/^1 +box-rig-a +rig-a +box-1 +rig-a\.db +host-rig-a:1 +running +25$/m);
    expect(listed.out).toMatch(/^2 +box-rig-b +rig-b +box-1 +rig-b\.db +host-rig-b:1 +running +25$/m);
    const pool = await runCli('pool', 'box-rig-a', 'box-rig-b', '--size', '1', '--db', url, '--json');
    expect(pool.code, pool.err).toBe(0);
    const pooled = JSON.parse(pool.out) as { sessions: { id: number }[]; pool: { label: string; n?: number }[] };
    expect(pooled.sessions.map((x) => x.id)).toEqual([1, 2]);
    const analysed = JSON.parse((await runCli('analyze', 'box-rig-a', 'box-rig-b', '--db', url, '--json')).out) as { dice: { label: string; rolls: number }[] };
    expect(analysed.dice.map((d) => [d.label, d.rolls]).sort()).toEqual([['R1', 50], ['R2', 25], ['R3', 25]]);
    // A label the fleet knows as a red die cannot arrive as a green one.
    const clash = join(dir, 'clash.db');
    const store = RollStore.open(clash);
    const green = store.registerDie({ label: 'R1', typeId: 'green' });
    const s = store.createSession({ config: {}, simulated: false, startedAt: 1_700_000_000_009 });
    store.recordThrow(s.id, okThrow(1, [green]));
    store.close();
    const r = await runCli('sync', '--db', clash, '--to', url);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/die "R1" is a green here but the fleet store knows it as a red/);
  });

  it('says there is no roll store to copy from when the file, or its folder, is missing, and creates neither', async () => {
    const url = await freshFleet();
    for (const missing of [join(dir, 'no-such-folder', 'dicerig.db'), join(dir, 'typo.db')]) {
      const r = await runCli('sync', '--db', missing, '--to', url);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`dicerig: There is no roll store at ${missing}.\n`);
      expect(existsSync(missing)).toBe(false);
    }
  });

  it('counts in words what it copied, one of a kind in the singular: 1 throw, 1 event, 1 session', async () => {
    const local = fixtureStore('one.db', 1);
    const url = await freshFleet();
    const r = await runCli('sync', '--db', local, '--to', url);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Copied 1 throw \(3 rolls\), 1 event and 0 reviews of 1 session from .*one\.db to /);
  });

  it('refuses, in words and changing nothing, a database that holds tables dicerig did not create', async () => {
    const local = fixtureStore('theirs.db', 3);
    const url = await freshFleet();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('CREATE TABLE sessions (id INTEGER PRIMARY KEY, who TEXT)');
      const r = await runCli('sync', '--db', local, '--to', url);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^dicerig: The fleet store \S+ holds tables dicerig did not create \(relation "sessions" already exists\); nothing was changed\. Give dicerig a database of its own \(e\.g\. `createdb dicerig_fleet`\) and name it in the URL\.\n$/);
      expect((await c.query("SELECT to_regclass('dicerig_schema')::text AS t")).rows[0]).toEqual({ t: null });
    } finally {
      await c.end();
    }
  });

  it('refuses a --host that is empty or holds a colon or a space (sync, run --fleet, campaign run), naming the flag, before anything is copied or claimed', async () => {
    const local = fixtureStore('hosts.db', 3);
    const url = await freshFleet();
    const box = join(dir, 'hosts-box.csv');
    writeFileSync(box, 'label,die\nH1,d6\nH2,d6\n');
    expect((await runCli('campaign', 'create', 'hosts', '--dice', box, '--rigs', '2', '--channels', '2', '--rolls', '6', '--db', url)).code).toBe(0);
    const said = {
      '': 'dicerig: --host "" names no rig host: give this host\'s name, or leave --host out to use the hostname\n',
      'lab:2': 'dicerig: --host "lab:2" cannot name a rig host: the fleet names a session HOST:ID, so a host name holds no ":" and no spaces (e.g. --host "lab-2")\n',
      'rig host b': 'dicerig: --host "rig host b" cannot name a rig host: the fleet names a session HOST:ID, so a host name holds no ":" and no spaces (e.g. --host "rig-host-b")\n',
      // The example never starts with a hyphen, which would read as an option.
      ':x': 'dicerig: --host ":x" cannot name a rig host: the fleet names a session HOST:ID, so a host name holds no ":" and no spaces (e.g. --host "x")\n',
    };
    for (const [host, err] of Object.entries(said)) {
      for (const args of [
        ['sync', '--db', local, '--to', url, '--host', host],
        ['run', '--fleet', url, '--db', join(dir, 'hosts-run.db'), '--host', host],
        ['campaign', 'run', 'hosts', '--rig', '1', '--fleet', url, '--db', join(dir, 'hosts-rig.db'), '--host', host],
      ]) {
        const r = await runCli(...args);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.err, args.join(' ')).toBe(err);
      }
    }
    expect(await fleetCounts(url)).toMatchObject({ sessions: 0 });
    const status = JSON.parse((await runCli('campaign', 'status', 'hosts', '--db', url, '--json')).out) as { batches: unknown[] };
    expect(status.batches).toEqual([]);
  });

  it('lists a running session from which no throw has arrived for 10 minutes as "running?", with how long, and a finished one as it is', async () => {
    const local = fixtureStore('quiet.db', 5);
    const url = await freshFleet();
    expect((await runCli('sync', '--db', local, '--to', url)).code).toBe(0);
    const stateOf = async (): Promise<string> => {
      const r = await runCli('sessions', '--db', url);
      expect(r.code, r.err).toBe(0);
      return r.out.split('\n').find((line) => line.includes('bench-test'))?.trim() ?? '';
    };
    expect(await stateOf()).toMatch(/ running +5$/);
    // Its host died 25 minutes ago: the fleet last received a throw then.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('UPDATE throws SET synced_at = synced_at - 25 * 60000');
      expect(await stateOf()).toMatch(/ running\? \(no throw arrived for 25 min\) +5$/);
      await c.query("UPDATE sessions SET state = 'finished'");
      expect(await stateOf()).toMatch(/ finished +5$/);
    } finally {
      await c.end();
    }
  });

  it('says in one line, with a non-zero exit and no stack trace, that the server is down or the URL is wrong', async () => {
    const local = fixtureStore('down.db', 3);
    const gone = `postgres:///fleet?host=${join(dir, 'no-server-here')}`;
    const down = await runCli('sync', '--db', local, '--to', gone);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^dicerig: Cannot reach the fleet store postgres:\/\/\/fleet\?host=.* \(connect ENOENT \S+\/\.s\.PGSQL\.5432\): check that PostgreSQL is running and listening on the unix socket in .*no-server-here, and that this host can reach it\.\n$/);
    const noDb = await runCli('report', '1', '--db', server.url('nosuchdb'));
    expect(noDb.code).toBe(1);
    expect(noDb.err).toMatch(/^dicerig: The fleet store .*nosuchdb.* does not exist on the unix socket in .*: create it first/);
    const secret = await runCli('sync', '--db', local, '--to', `postgres://dice:s3cret@${join(dir, 'x').replace(/\//g, '%2F')}/fleet`);
    expect(secret.code).toBe(1);
    expect(secret.err).not.toContain('s3cret');
    expect(secret.err.trim().split('\n')).toHaveLength(1);
    // Credentials with no host (pg reads the socket folder from ?host=): the hint still names that folder.
    const bare = await runCli('sync', '--db', local, '--to', `postgres://dice:s3cret@/fleet?host=${join(dir, 'no-server-here')}`);
    expect(bare.code).toBe(1);
    expect(bare.err).not.toContain('s3cret');
    expect(bare.err).toMatch(/listening on the unix socket in .*no-server-here, and that this host can reach it\.\n$/);
    const notUrl = await runCli('sync', '--db', local, '--to', 'fleet.db');
    expect(notUrl.err).toBe('dicerig: --to must be a postgres:// URL of the fleet store, not "fleet.db"\n');
  });
});
