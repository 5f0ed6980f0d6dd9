import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import type { RollInput } from '../../src/store/records.js';
import { demoStore } from '../support/demoStore.js';
import { simRig, symbolOf } from '../store/support/fixtures.js';
import { runCli, runCliOk } from './runCli.js';

/*
 * "No data is lost": an export imported into another store (a fleet's copy, a damaged store's recovery) must be the
 * session, not only each die's sequence of faces. Exported again, its rows are the original's: the same rolls thrown
 * together, in the same order, each with its channel, confidence, classifier, resolution and reviewer. Throws are
 * renumbered 1, 2, 3... (an export leaves out void and re-tumbled throws: nothing says what they held).
 */

type Row = Record<string, unknown>;

/** An export's rows as objects (CSV or JSON Lines, manifest left out), cells as written. */
function exportRows(file: string): Row[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  if (file.endsWith('.jsonl')) return lines.map((l) => JSON.parse(l) as Row).filter((r) => r['kind'] !== 'manifest');
  const header = (lines[0] as string).split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((cell, i) => [header[i] as string, cell])));
}

/** The rows with their throws renumbered 1, 2, 3... in order, as an import numbers them. */
function compactThrows(rows: readonly Row[]): Row[] {
  const ranks = new Map([...new Set(rows.map((r) => Number(r['throw'])))].sort((a, b) => a - b).map((t, i) => [t, i + 1]));
  return rows.map((r) => ({ ...r, throw: typeof r['throw'] === 'number' ? ranks.get(r['throw']) : String(ranks.get(Number(r['throw']))) }));
}

/** Exports `session` of `db` as CSV and JSON Lines, imports each into a store of its own and exports that again. */
async function roundTrip(dir: string, db: string, name: string): Promise<{ format: string; file: string; copy: string; again: string }[]> {
  const out = [];
  for (const format of ['csv', 'jsonl']) {
    const file = join(dir, `${name}.${format}`);
    const copy = join(dir, `${name}-${format}-copy.db`);
    const again = join(dir, `${name}-${format}-again.${format}`);
    await runCliOk('export', '1', '--db', db, '--out', file);
    await runCliOk('import', file, '--db', copy);
    await runCliOk('export', '1', '--db', copy, '--out', again);
    out.push({ format, file, copy, again });
  }
  return out;
}

describe("importing an export keeps its session's throws and each roll's channel and read", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-import-throws-'));

  describe('a session where dice sat out some throws, with a re-tumbled throw, a declined roll and one a person labelled', () => {
    const db = join(dir, 'gaps.db');
    beforeAll(() => {
      const store = RollStore.open(db);
      const rig = store.registerRig(simRig, 'cal-1');
      const [r1, r2, g1] = [store.registerDie({ label: 'R1', typeId: 'red' }), store.registerDie({ label: 'R2', typeId: 'red' }), store.registerDie({ label: 'G1', typeId: 'green' })];
      const session = store.createSession({ name: 'gaps', config: { channels: 3 }, simulated: false, rigId: rig.id, startedAt: 1_700_000_000_000 });
      const red = ['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2'];
      const green = ['evade-1', 'evade-2', 'evade-3', 'focus-1', 'focus-2', 'blank-1', 'blank-2', 'blank-3'];
      const read = (dieId: number, channel: number, face: string, n: number): RollInput => ({
        dieId,
        channel,
        faceId: face,
        symbol: symbolOf(face),
        confidence: 0.9 + ((n * 7919) % 1000) / 10_000,
        classifierVersion: n < 20 ? 'd8-v1' : 'd8-v2',
      });
      for (let n = 1; n <= 40; n++) {
        const at = 1_700_000_000_000 + n * 1000;
        if (n === 9) {
          // Re-tumbled: a die came to rest cocked; nothing of it is counted or exported.
          store.recordThrow(session.id, { startedAt: at, endedAt: at + 800, status: 'rerolled', why: 'R2 cocked', rolls: [{ dieId: r2.id, channel: 1, cocked: true }] });
          continue;
        }
        const rolls: RollInput[] = [];
        // G1 sits out every third throw and R1 every fifth: their rolls must stay in the throws they were thrown in.
        if (n % 5 !== 0) rolls.push(read(r1.id, 0, red[(n * 3) % 8] as string, n));
        if (n === 12 || n === 30) rolls.push({ dieId: r2.id, channel: 1, resolution: 'unresolved' });
        else rolls.push(read(r2.id, 1, red[(n * 5) % 8] as string, n));
        if (n % 3 !== 0) rolls.push(read(g1.id, 2, green[(n * 7) % 8] as string, n));
        // Some throws list their dice in another order: the import keeps each throw's order.
        if (n % 4 === 0) rolls.reverse();
        store.recordThrow(session.id, { startedAt: at, endedAt: at + 800, status: 'ok', rolls });
      }
      const declined = store.unresolvedRolls(session.id).find((u) => u.throwIndex === 30);
      store.reviewRoll(session.id, { rollId: declined?.rollId as number, faceId: 'crit', reviewer: 'ana', at: 1_700_000_100_000 });
      store.endSession(session.id, 1_700_000_200_000, 'finished');
      store.close();
    });

    it('exported again, the imported session has the rows of the original export, throw by throw, as CSV and as JSON Lines', async () => {
      for (const { file, again } of await roundTrip(dir, db, 'gaps')) {
        const original = exportRows(file);
        // The original has the columns that matter here: dice missing from throws, several channels, both classifiers.
        expect(new Set(original.map((r) => String(r['channel'])))).toEqual(new Set(['0', '1', '2']));
        expect(original.filter((r) => r['die'] === 'G1').length).toBeLessThan(original.filter((r) => r['die'] === 'R2').length);
        expect(original.some((r) => r['resolution'] === 'reviewed' && r['reviewer'] === 'ana')).toBe(true);
        expect(original.some((r) => r['resolution'] === 'unresolved')).toBe(true);
        expect(exportRows(again)).toEqual(compactThrows(original));
      }
    }, 60_000);

    it('refuses a file whose channel, confidence or throw order is wrong, naming the file, line and column, and writes nothing', async () => {
      const file = join(dir, 'gaps.csv');
      const lines = readFileSync(file, 'utf8').split('\n');
      const header = (lines[0] as string).split(',');
      const cases: [column: string, value: string, message: RegExp][] = [
        ['channel', '-1', /line 3, column "channel": the channel "-1" is not a whole number from 0/],
        ['channel', '1.5', /line 3, column "channel": the channel "1.5" is not a whole number from 0/],
        ['confidence', '1.2', /line 3, column "confidence": the confidence "1.2" is not a number from 0 to 1/],
        ['confidence', 'high', /line 3, column "confidence": the confidence "high" is not a number from 0 to 1/],
      ];
      for (const [column, value, message] of cases) {
        const bad = join(dir, `bad-${column}.csv`);
        const cells = (lines[2] as string).split(',');
        cells[header.indexOf(column)] = value;
        writeFileSync(bad, [...lines.slice(0, 2), cells.join(','), ...lines.slice(3)].join('\n'));
        const copy = join(dir, `bad-${column}.db`);
        const r = await runCli('import', bad, '--db', copy);
        expect(r.code).not.toBe(0);
        expect(r.err).toContain(bad);
        expect(r.err).toMatch(message);
        expect(existsSync(copy) ? (await runCliOk('sessions', '--db', copy, '--json')).out : '[]').toMatch(/^\[\]/);
      }
      // A die's throws going backwards: its rows are not in the order it rolled them.
      const backwards = join(dir, 'backwards.csv');
      const r1 = lines.map((l, i) => [l, i] as const).filter(([l]) => l.split(',')[1] === 'R1');
      const swapped = [...lines];
      swapped[r1[0]?.[1] as number] = r1[1]?.[0] as string;
      swapped[r1[1]?.[1] as number] = r1[0]?.[0] as string;
      writeFileSync(backwards, swapped.join('\n'));
      const r = await runCli('import', backwards, '--db', join(dir, 'backwards.db'));
      expect(r.code).not.toBe(0);
      expect(r.err).toMatch(new RegExp(`${backwards}, line ${(r1[1]?.[1] as number) + 1}, column "throw": die "R1" rolls in throw \\d+ here, after throw \\d+ on line \\d+`));
    }, 60_000);
  });

  describe("a demo session: declined dice kept unresolved, four channels, re-tumbled throws, the session's verdicts", () => {
    // Named rolls.db as the other files name theirs: demoStore shares a demo among the files that ask for the same
    // arguments and store name (the name is part of the store's evidence paths), so demo.db ran the demo once more.
    const db = join(dir, 'rolls.db');
    beforeAll(async () => {
      // Shared with exportUnresolved.test.ts and others (run once per test run): this file's copy of its store is its own.
      const demo = await demoStore(['--declines', '6=0.95', '--budget', '150', '--seed', '4'], db);
      expect(demo.code, demo.err).toBe(0);
    }, 120_000);

    it("round-trips its rows, and the imported session's report and analyze show the original's verdicts, rig and reader figures", async () => {
      const report = async (store: string, out: string) => JSON.parse((await runCliOk('report', '1', '--db', store, '--out', out, '--json')).out) as {
        dice: Row[];
        rigHealth: { counts: { ok: number; countedRolls: number } };
        resolution: unknown;
      };
      const analyze = async (store: string) => JSON.parse((await runCliOk('analyze', '1', '--db', store, '--json')).out) as { dice: Row[] };
      const original = await report(db, join(dir, 'demo-report'));
      const originalAnalysis = await analyze(db);
      const originalHtml = readFileSync(join(dir, 'demo-report', 'report.html'), 'utf8');
      for (const { format, file, copy, again } of await roundTrip(dir, db, 'demo')) {
        // The export is sealed, and so is the copy's.
        for (const f of [file, again]) expect((await runCliOk('verify', f)).out).toContain('sealed');
        expect(exportRows(again)).toEqual(compactThrows(exportRows(file)));
        const copied = await report(copy, join(dir, `demo-${format}-report`));
        // The verdicts the session made, kept, and every figure made from the rolls and their reads.
        expect(copied.dice.map(({ sessionVerdict: _s, ...d }) => d)).toEqual(original.dice.map(({ sessionVerdict: _s, ...d }) => d));
        expect(copied.dice.map((d) => (d['sessionVerdict'] as { verdict: unknown }).verdict)).toEqual(original.dice.map((d) => (d['sessionVerdict'] as { verdict: unknown }).verdict));
        // How many declined dice a re-read resolved comes from the session's events, which no export carries.
        const perFace = (r: unknown) => (r as Row[]).map(({ rereadResolved: _r, ...d }) => d);
        expect(perFace(copied.resolution)).toEqual(perFace(original.resolution));
        expect(copied.rigHealth.counts.ok).toBe(original.rigHealth.counts.ok);
        expect(copied.rigHealth.counts.countedRolls).toBe(original.rigHealth.counts.countedRolls);
        // Each die's channel, as the report's die sections say it.
        const html = readFileSync(join(dir, `demo-${format}-report`, 'report.html'), 'utf8');
        const channels = (page: string) => [...page.matchAll(/· channels? [\d, ]+/g)].map((m) => m[0]);
        expect(channels(html)).toEqual(channels(originalHtml));
        expect(channels(html)).toHaveLength(4);
        const copiedAnalysis = await analyze(copy);
        const judged = (a: { dice: Row[] }) => a.dice.map((d) => [d['label'], d['verdict'], d['sentence'], d['serial'], d['rolls'], d['unresolved']]);
        expect(judged(copiedAnalysis)).toEqual(judged(originalAnalysis));
      }
    }, 120_000);
  });
});
