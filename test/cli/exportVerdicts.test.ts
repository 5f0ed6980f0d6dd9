import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { demoStore } from '../support/demoStore.js';

type Die = { label: string; verdict: { kind: string }; sentence: string; decidedBy?: { session: number; file?: string }; acrossSessions?: { sessions: number[] } };
type Analysis = { settings: { alpha: number; delta: number }; dice: Die[] };

/*
 * A session's export carries the verdicts the session made. Analyzing the file must show those (one verdict, made
 * once at the session's error control), not a fixed-sample test of rolls whose number the session's stopping rule chose.
 */
describe("analyzing a session's export", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-export-verdicts-'));
  const db = join(dir, 'rolls.db');
  const csv = join(dir, 's1.csv');
  const jsonl = join(dir, 's2.jsonl');
  const analyze = async (...args: string[]) => {
    const r = await runCli('analyze', ...args, '--json');
    expect(r.code, r.err).toBe(0);
    return { ...(JSON.parse(r.out) as Analysis), err: r.err };
  };

  beforeAll(async () => {
    // The same seed twice: the same four dice (by label) rolled in two sessions. The second needs no more than 30 rolls
    // a die to leave undecided dice judged across both (its verdicts are read, not tested, here), for 120 fewer throws.
    expect((await demoStore(['--budget', '150', '--seed', '3'], db)).code).toBe(0);
    expect((await runCli('demo', '--budget', '30', '--seed', '3', '--db', db)).code).toBe(0);
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    expect((await runCli('export', '2', '--db', db, '--out', jsonl)).code).toBe(0);
  }, 120_000);

  it("shows each die's verdict as its session made it, at the session's settings, and says which export carried it", async () => {
    const session = await analyze('1', '--db', db);
    const file = await analyze(csv);
    expect(file.settings).toMatchObject({ alpha: 0.001, delta: 0.05 });
    expect(file.dice.map((d) => [d.label, d.verdict.kind, d.sentence])).toEqual(session.dice.map((d) => [d.label, d.verdict.kind, d.sentence]));
    expect(file.dice.every((d) => d.decidedBy?.session === 1 && d.decidedBy.file === csv)).toBe(true);
    const text = (await runCli('analyze', csv)).out;
    expect(text).toContain(`(session 1's verdict, as its export ${csv} carries it; the figures below are descriptive)`);
    expect(text).not.toContain('Verdicts assume the number of rolls was fixed in advance');
  });

  it("states, once under the session's first die, the error control the session decided its dice at, from the store and from its export", async () => {
    // The manifest carries the verdicts as the session stored them: their error control is the session's own.
    const manifest = JSON.parse(readFileSync(`${csv}.manifest.json`, 'utf8')) as { verdicts: { errorControl: { method: string; statement: string } } };
    const { method, statement } = manifest.verdicts.errorControl;
    expect(method).toBe('bonferroni');
    // The header's alpha and Holm are the descriptive figures'; the session's Bonferroni over its dice decided them.
    for (const text of [(await runCli('analyze', '1', '--db', db)).out, (await runCli('analyze', csv)).out]) {
      expect(text).toContain('Holm over 4 tests');
      expect(text.split('\n').filter((l) => l === `  session 1's error control: ${statement}`)).toHaveLength(1);
      expect(text).toContain('decided at α/4 = 0.00025 (Bonferroni)');
    }
  });

  it('judges a die rolled in both exported sessions across them, as analyze does the two stored sessions', async () => {
    const stored = await analyze('1', '2', '--db', db);
    const files = await analyze(csv, jsonl);
    expect(files.dice.map((d) => [d.label, d.verdict.kind, d.acrossSessions?.sessions])).toEqual(stored.dice.map((d) => [d.label, d.verdict.kind, d.acrossSessions?.sessions]));
    expect(files.dice.some((d) => d.acrossSessions !== undefined)).toBe(true);
    // pool ranks the exports' dice as it ranks the sessions'.
    const pool = async (...args: string[]) => JSON.parse((await runCli('pool', ...args, '--size', '2', '--json')).out) as { ranking: { label: string; score: number }[] };
    expect((await pool(csv)).ranking).toEqual((await pool('1', '--db', db)).ranking);
  });

  it("judges on the file's own rolls a die whose rows were cut, and says so", async () => {
    const cut = join(dir, 'cut.csv');
    const rows = readFileSync(csv, 'utf8').split('\n');
    const label = rows[1]?.split(',')[1] as string;
    let dropped = 0;
    writeFileSync(cut, rows.filter((r) => !(r.split(',')[1] === label && dropped++ < 10)).join('\n'));
    writeFileSync(`${cut}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    const r = await analyze(cut);
    // The export's seal names the line where the die's rows first differ: its first row left.
    const line = readFileSync(cut, 'utf8').split('\n').findIndex((l) => l.split(',')[1] === label) + 1;
    expect(r.err).toBe(`dicerig: note: ${cut}: die ${label}: its rows differ from the sealed ones from line ${line} on (that row changed or added, or the die's row before it dropped): judged here on the file's rolls, not by session 1's verdict.\n`);
    expect(r.dice.find((d) => d.label === label)?.decidedBy).toBeUndefined();
    expect(r.dice.filter((d) => d.decidedBy?.session === 1)).toHaveLength(3);
  });

  it("judges on the file's own rolls a die one of whose rows was edited to another face, and names the line", async () => {
    const edited = join(dir, 'edited.csv');
    const rows = readFileSync(csv, 'utf8').split('\n');
    const at = rows.findIndex((r, i) => i > 0 && r.split(',')[4] === '1');
    const cells = (rows[at] as string).split(',');
    const label = cells[1] as string;
    cells[4] = '2';
    cells[5] = '2';
    rows[at] = cells.join(',');
    writeFileSync(edited, rows.join('\n'));
    writeFileSync(`${edited}.manifest.json`, readFileSync(`${csv}.manifest.json`));
    const r = await analyze(edited);
    expect(r.err).toBe(`dicerig: note: ${edited}: die ${label}: its rows differ from the sealed ones from line ${at + 1} on (that row changed or added, or the die's row before it dropped): judged here on the file's rolls, not by session 1's verdict.\n`);
    expect(r.dice.find((d) => d.label === label)?.decidedBy).toBeUndefined();
    expect(r.dice.filter((d) => d.decidedBy?.session === 1)).toHaveLength(3);
  });
});
