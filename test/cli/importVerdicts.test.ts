import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { demoSessions } from '../support/demoSessions.js';

type Die = { label: string; verdict: { kind: string }; sentence: string; decidedBy?: { session: number; file?: string; importedFrom?: { session: number; file: string } } };
type Analysis = { settings: { alpha: number; delta: number }; dice: Die[] };

/*
 * One verdict per die, made once by the session that rolled it: a session imported from that session's export holds
 * the same rolls, so analyze, pool and report of it must show the session's verdicts, as analyze of the file does,
 * not a fixed-sample test of rolls whose number the stopping rule chose.
 */
describe("importing a session's export", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-import-verdicts-'));
  const db = join(dir, 'rolls.db');
  const csv = join(dir, 's2.csv');
  const analyze = async (...args: string[]) => {
    const r = await runCli('analyze', ...args, '--json');
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as Analysis;
  };
  const verdicts = (a: Analysis) => a.dice.map((d) => [d.label, d.verdict.kind, d.sentence]);

  beforeAll(async () => {
    // Two sessions, so the exported one (2) has another id than the session it is imported as (1). The demos are
    // shared with poolLevel.test.ts (run once per test run): this file's copy of their store is its own.
    const demos = await demoSessions([['--budget', '150', '--seed', '3'], ['--budget', '150', '--seed', '5']], db);
    expect(demos.map((d) => d.code), demos.map((d) => d.err).join('')).toEqual([0, 0]);
    expect((await runCli('export', '2', '--db', db, '--out', csv)).code).toBe(0);
  }, 120_000);

  it("keeps the verdicts the exported session made: analyze, pool and report of the imported session show them, and say where they were made", async () => {
    const copy = join(dir, 'copy.db');
    const imported = await runCli('import', csv, '--db', copy);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toBe('');
    expect(imported.out).toContain("It keeps the verdicts the exported session made: analyze, pool and report show them, as they do the file's.");
    const original = await analyze('2', '--db', db);
    const again = await analyze('1', '--db', copy);
    expect(verdicts(again)).toEqual(verdicts(original));
    expect(verdicts(again)).toEqual(verdicts(await analyze(csv)));
    expect(again.settings).toMatchObject({ alpha: 0.001, delta: 0.05 });
    expect(again.dice.every((d) => d.decidedBy?.session === 1 && d.decidedBy.importedFrom?.session === 2 && d.decidedBy.importedFrom.file === csv)).toBe(true);
    const text = (await runCli('analyze', '1', '--db', copy)).out;
    expect(text).toContain(`(session 1's verdict, made by the session ${csv} was exported from (its session 2) and imported with it; the figures below are descriptive)`);
    expect(text).not.toContain('Verdicts assume the number of rolls was fixed in advance');
    const pool = async (...args: string[]) => JSON.parse((await runCli('pool', ...args, '--size', '2', '--json')).out) as { ranking: { label: string; score: number }[] };
    expect((await pool('1', '--db', copy)).ranking).toEqual((await pool('2', '--db', db)).ranking);
    const out = join(dir, 'report');
    const reported = await runCli('report', '1', '--db', copy, '--out', out);
    expect(reported.code).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`Verdicts as the session made them (not recomputed by this report; made by the session ${csv} was exported from, its session 2, and imported with it)`);
    // The text says it in the same words.
    expect(reported.out).toContain(`Verdicts as the session made them (not recomputed by this report; made by the session ${csv} was exported from, its session 2, and imported with it)`);
    // Exported again and imported again, the verdicts still name the session that made them.
    const csv2 = join(dir, 'again.csv');
    expect((await runCli('export', '1', '--db', copy, '--out', csv2)).code).toBe(0);
    const third = join(dir, 'third.db');
    expect((await runCli('import', csv2, '--db', third)).code).toBe(0);
    const thirdAnalysis = await analyze('1', '--db', third);
    expect(verdicts(thirdAnalysis)).toEqual(verdicts(original));
    expect(thirdAnalysis.dice.every((d) => d.decidedBy?.importedFrom?.session === 2 && d.decidedBy.importedFrom.file === csv)).toBe(true);
  }, 60_000);

  it("imports an edited export only when allowed, without its session's verdicts, naming the die, and judges the session on its rolls", async () => {
    const edited = join(dir, 'edited.csv');
    const rows = readFileSync(csv, 'utf8').split('\n');
    const at = rows.findIndex((r, i) => i > 0 && r.split(',')[4] === '1');
    const cells = (rows[at] as string).split(',');
    cells[4] = '2';
    cells[5] = '2';
    rows[at] = cells.join(',');
    writeFileSync(edited, rows.join('\n'));
    writeFileSync(`${edited}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    const copy = join(dir, 'edited.db');
    // Refused unless told: an export edited since its seal is not the session's evidence.
    expect((await runCli('import', edited, '--db', copy)).err).toContain(`${edited}, line ${at + 1}: die ${cells[1]}: its rows differ from the sealed ones`);
    const imported = await runCli('import', edited, '--db', copy, '--allow-edited');
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toContain(`dicerig: note: ${edited}: edited since its export (die ${cells[1]}: its rows differ from the sealed ones from line ${at + 1} on`);
    expect(imported.out).not.toContain('It keeps the verdicts');
    expect((await analyze('1', '--db', copy)).dice.every((d) => d.decidedBy === undefined)).toBe(true);
  }, 60_000);

  it('imports two exports as one session judged on all its rolls, and says why their verdicts are not kept', async () => {
    const first = join(dir, 's1.csv');
    expect((await runCli('export', '1', '--db', db, '--out', first)).code).toBe(0);
    const copy = join(dir, 'both.db');
    const imported = await runCli('import', first, csv, '--db', copy);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.err).toContain("dicerig: note: the session imported from 2 files is judged on its rolls, not by the exported session's verdicts (import one export to keep its session's verdicts).\n");
    expect((await analyze('1', '--db', copy)).dice.every((d) => d.decidedBy === undefined)).toBe(true);
  }, 60_000);
});
