import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { runCli } from './runCli.js';
import { demoStore } from '../support/demoStore.js';

type AnalyzedDie = { label: string; rolls: number; unresolved?: number; verdict: { kind: string; rollsNeeded: number | null } };

/*
 * A session whose simulated reader declines 95 % of 6s: the read rolls alone are short of 6s, so a test on them
 * alone calls fair dice unfair. Its export must carry the unresolved rolls, so that whoever judges the file (or the
 * store it is imported into) judges it whatever they were, as the session did.
 */
describe('exporting a session with rolls the reader left unresolved', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-export-unresolved-'));
  const db = join(dir, 'rolls.db');
  const csv = join(dir, 'session.csv');
  const jsonl = join(dir, 'session.jsonl');
  let session: AnalyzedDie[];

  beforeAll(async () => {
    const demo = await demoStore(['--declines', '6=0.95', '--budget', '150', '--seed', '4'], db);
    expect(demo.code, demo.err).toBe(0);
    session = (JSON.parse((await runCli('analyze', '1', '--db', db, '--json')).out) as { dice: AnalyzedDie[] }).dice;
    expect(session.every((d) => (d.unresolved ?? 0) > 0)).toBe(true);
    for (const out of [csv, jsonl]) expect((await runCli('export', '1', '--db', db, '--out', out)).code).toBe(0);
  }, 120_000);

  it('writes each unresolved roll as a row marked unresolved, with no face, and counts them in the manifest', async () => {
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('throw,die,type,channel,face,symbol,confidence,classifier,simulated,time,resolution');
    const unresolved = rows.filter((r) => r.endsWith(',unresolved'));
    const total = session.reduce((n, d) => n + (d.unresolved ?? 0), 0);
    expect(unresolved).toHaveLength(total);
    expect(unresolved.every((r) => /^\d+,demo4-d6-[A-D],d6,\d,,,,,1,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,unresolved$/.test(r))).toBe(true);
    expect(rows.length - 1 - unresolved.length).toBe(session.reduce((n, d) => n + d.rolls, 0));
    const manifest = JSON.parse(readFileSync(`${csv}.manifest.json`, 'utf8')) as { unresolvedRolls: number; exportedRolls: number };
    expect(manifest.unresolvedRolls).toBe(total);
    // Every die's rolls, read and unresolved, are the session's 150.
    for (const d of session) expect(rows.filter((r) => r.split(',')[1] === d.label)).toHaveLength(150);
  });

  it('judges the exported file whatever its unresolved rolls were, where its read rows alone would call fair dice unfair', async () => {
    // With its manifest the file shows the session's verdicts; without (the rows alone), it is judged here, fixed-n,
    // whatever its unresolved rows were.
    const bare = join(dir, 'rows-only.csv');
    writeFileSync(bare, readFileSync(csv, 'utf8'));
    for (const file of [csv, jsonl, bare]) {
      const r = await runCli('analyze', file, '--json');
      expect(r.code, r.err).toBe(0);
      const dice = (JSON.parse(r.out) as { dice: AnalyzedDie[] }).dice;
      expect(dice.map((d) => [d.label, d.rolls, d.unresolved])).toEqual(session.map((d) => [d.label, d.rolls, d.unresolved]));
      expect(dice.filter((d) => d.verdict.kind === 'UNFAIR')).toEqual([]);
      expect(dice.every((d) => (d as { decidedBy?: unknown }).decidedBy === undefined)).toBe(file === bare);
    }
    const read = session.reduce((n, d) => n + d.rolls, 0);
    const total = session.reduce((n, d) => n + (d.unresolved ?? 0), 0);
    expect((await runCli('analyze', csv)).out).toMatch(new RegExp(`^4 dice, ${read} rolls read, ${total} unresolved\\. alpha 0\\.001 \\(the sessions' own\\)`));
    // The same rows without the unresolved ones: the read rolls alone, which a test calls unfair.
    const readOnly = join(dir, 'read-only.csv');
    writeFileSync(readOnly, readFileSync(csv, 'utf8').split('\n').filter((r) => !r.endsWith(',unresolved')).join('\n'));
    const alone = (JSON.parse((await runCli('analyze', readOnly, '--json')).out) as { dice: AnalyzedDie[] }).dice;
    expect(alone.filter((d) => d.verdict.kind === 'UNFAIR').length).toBeGreaterThan(0);
    const pooled = JSON.parse((await runCli('pool', jsonl, '--size', '2', '--json')).out) as { ranking: { label: string; unresolved: number }[]; excluded: unknown[] };
    expect(pooled.excluded).toEqual([]);
    expect(Object.fromEntries(pooled.ranking.map((d) => [d.label, d.unresolved]))).toEqual(Object.fromEntries(session.map((d) => [d.label, d.unresolved])));
  }, 120_000);

  it('imports the unresolved rolls as unresolved, so the imported session is judged as the file is', async () => {
    const target = join(dir, 'copy.db');
    const imported = await runCli('import', jsonl, '--db', target);
    expect(imported.code, imported.err).toBe(0);
    const total = session.reduce((n, d) => n + (d.unresolved ?? 0), 0);
    expect(imported.out).toContain(`and ${total} unresolved (no face: every verdict holds whatever they were) of 4 dice`);
    const dice = (JSON.parse((await runCli('analyze', '1', '--db', target, '--json')).out) as { dice: AnalyzedDie[] }).dice;
    expect(dice.map((d) => [d.label, d.rolls, d.unresolved])).toEqual(session.map((d) => [d.label, d.rolls, d.unresolved]));
    expect(dice.filter((d) => d.verdict.kind === 'UNFAIR')).toEqual([]);
    // Exported again, it holds the same rows per die in the same order (throw numbers are the import's own).
    const again = join(dir, 'again.csv');
    expect((await runCli('export', '1', '--db', target, '--out', again)).code).toBe(0);
    const perDie = (file: string) => {
      const byDie = new Map<string, string[]>();
      for (const row of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
        const [, die, , , face, , , , , resolution] = row.split(',');
        byDie.set(die as string, [...(byDie.get(die as string) ?? []), resolution === 'unresolved' ? '?' : (face as string)]);
      }
      return byDie;
    };
    expect(perDie(again)).toEqual(perDie(csv));
  }, 120_000);

  it("still shows the session's verdicts in an export made after some unresolved rolls were labelled, which the verdicts held whatever they were", async () => {
    const copy = join(dir, 'labelled.db');
    writeFileSync(copy, readFileSync(db));
    const store = RollStore.open(copy, { mustExist: true });
    // A person labels the first two unresolved rolls of every die 6 (what the reader declined most).
    const seen = new Map<string, number>();
    for (const r of store.unresolvedRolls(1)) {
      const label = r.dieLabel;
      if ((seen.get(label) ?? 0) >= 2) continue;
      seen.set(label, (seen.get(label) ?? 0) + 1);
      store.reviewRoll(1, { rollId: r.rollId, faceId: '6', reviewer: 'ada', at: 1_700_000_100_000 });
    }
    store.close();
    const later = join(dir, 'labelled.csv');
    expect((await runCli('export', '1', '--db', copy, '--out', later)).code).toBe(0);
    const r = await runCli('analyze', later, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    const dice = (JSON.parse(r.out) as { dice: (AnalyzedDie & { decidedBy?: { session: number } })[] }).dice;
    expect(dice.map((d) => [d.label, d.unresolved, d.decidedBy?.session])).toEqual(session.map((d) => [d.label, (d.unresolved ?? 0) - 2, 1]));
  }, 60_000);

  it('marks a roll a person labelled as reviewed, by whom, with no reader confidence, and import keeps it labelled by them', async () => {
    const copy = join(dir, 'reviewed.db');
    writeFileSync(copy, readFileSync(db));
    const store = RollStore.open(copy, { mustExist: true });
    const labelled = store.unresolvedRolls(1).slice(0, 3);
    for (const r of labelled) store.reviewRoll(1, { rollId: r.rollId, faceId: '6', reviewer: 'ada, of the club', at: 1_700_000_100_000 });
    // Each row carries the time its throw was read.
    const timeOf = new Map(store.throwTimes(1).map((t) => [t.index, new Date(t.endedAt).toISOString()]));
    store.close();
    const out = { csv: join(dir, 'reviewed.csv'), jsonl: join(dir, 'reviewed.jsonl') };
    for (const file of Object.values(out)) {
      const r = await runCli('export', '1', '--db', copy, '--out', file);
      expect(r.out).toContain('rolls (3 of them labelled by a person: rows marked "reviewed") and');
    }
    const rows = readFileSync(out.csv, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('throw,die,type,channel,face,symbol,confidence,classifier,simulated,time,resolution,reviewer');
    const reviewed = rows.filter((r) => r.includes(',reviewed,'));
    expect(reviewed).toEqual(labelled.map((u) => `${u.throwIndex},${u.dieLabel},d6,${u.channel},6,6,,,1,${timeOf.get(u.throwIndex)},reviewed,"ada, of the club"`));
    expect(rows.filter((r) => r.includes(',read,')).every((r) => r.endsWith(',read,'))).toBe(true);
    const json = readFileSync(out.jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json[0]).toMatchObject({ kind: 'manifest', reviewedRolls: 3 });
    expect(json.filter((r) => r['resolution'] === 'reviewed')).toEqual(
      labelled.map((u) => ({ throw: u.throwIndex, die: u.dieLabel, type: 'd6', channel: u.channel, face: '6', symbol: '6', confidence: null, classifier: null, simulated: true, time: timeOf.get(u.throwIndex), resolution: 'reviewed', reviewer: 'ada, of the club' })),
    );
    const counted = (JSON.parse((await runCli('analyze', '1', '--db', copy, '--json')).out) as { dice: AnalyzedDie[] }).dice.map((d) => [d.label, d.rolls, d.unresolved]);
    for (const file of Object.values(out)) {
      expect((JSON.parse((await runCli('analyze', file, '--json')).out) as { dice: AnalyzedDie[] }).dice.map((d) => [d.label, d.rolls, d.unresolved])).toEqual(counted);
      const target = join(dir, `reviewed-import-${file.endsWith('.csv') ? 'csv' : 'jsonl'}.db`);
      const imported = await runCli('import', file, '--db', target);
      expect(imported.code, imported.err).toBe(0);
      expect(imported.out).toContain('rolls (3 of them labelled by a person, and stored so) and');
      const again = RollStore.open(target, { mustExist: true, readonly: true });
      try {
        expect(again.reviews(1).map((r) => [r.faceId, r.reviewer])).toEqual(labelled.map(() => ['6', 'ada, of the club']));
        expect([...again.countedRolls(1)].filter((r) => r.resolution === 'reviewed')).toHaveLength(3);
        expect(again.verify().ok).toBe(true);
      } finally {
        again.close();
      }
      expect((JSON.parse((await runCli('analyze', '1', '--db', target, '--json')).out) as { dice: AnalyzedDie[] }).dice.map((d) => [d.label, d.rolls, d.unresolved])).toEqual(counted);
    }
  }, 120_000);

  it('reads a log that says a roll was reviewed but not by whom, and imports it labelled by an unnamed reviewer', async () => {
    const log = join(dir, 'unnamed.csv');
    writeFileSync(log, 'die,type,face,resolution\nA,d6,1,read\nA,d6,6,reviewed\nA,d6,,unresolved\n');
    const target = join(dir, 'unnamed.db');
    const r = await runCli('import', log, '--db', target);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Imported 2 rolls \(1 of them labelled by a person, and stored so\) and 1 unresolved/);
    const store = RollStore.open(target, { mustExist: true, readonly: true });
    try {
      expect(store.reviews(1).map((v) => [v.faceId, v.reviewer])).toEqual([['6', 'unnamed (the imported log does not say)']]);
    } finally {
      store.close();
    }
  });

  it('names a die none of whose rolls was read, leaves it out, and refuses a log with no read roll at all', async () => {
    const some = join(dir, 'some.csv');
    writeFileSync(some, 'die,type,face,resolution\nA,d6,1,read\nA,d6,2,read\nB,d6,,unresolved\n');
    const r = await runCli('analyze', some, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('dicerig: note: no roll of die B (1 unresolved) was read: left out, with nothing to judge.\n');
    expect((JSON.parse(r.out) as { dice: AnalyzedDie[] }).dice.map((d) => d.label)).toEqual(['A']);
    const none = join(dir, 'none.csv');
    writeFileSync(none, 'die,type,face,resolution\nB,d6,,unresolved\n');
    const refused = await runCli('analyze', none);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('dicerig: no roll of any die was read: B (1 unresolved); there is nothing to judge until some are labelled\n');
  });
});

