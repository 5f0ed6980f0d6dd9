/**
 * `dicerig analyze A B --db`: a die rolled in two stored sessions (someone rolled it again because the first left it
 * undecided) is judged on the product of its sessions' e-values and their intervals together, not by a fixed-n test
 * on the pooled rolls, whose count nobody fixed in advance.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStoreForReading } from '../../src/store/openStore.js';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-across-'));
const db = join(dir, 'rolls.db');

type StoredDie = { label: string; logE: number; alphaPerDie: number; faces: { label: string; expected: number; lower: number; upper: number }[] };
type Analysed = {
  label: string;
  rolls: number;
  verdict: { kind: string; certifiedDelta?: number; alpha?: number };
  sentence: string;
  acrossSessions?: { sessions: number[]; logE: number; logThreshold: number; certified?: { level: string; within: number; alpha: number } };
  sessionVerdicts?: { session: number; kind: string }[];
};

let stored: StoredDie[][] = [];

/** `dicerig ARGS`, run once for the tests that read what the same command printed (analyze and pool only read the store). */
const runs = new Map<string, ReturnType<typeof runCli>>();
function once(...args: string[]): ReturnType<typeof runCli> {
  const key = JSON.stringify(args);
  let run = runs.get(key);
  if (run === undefined) {
    run = runCli(...args);
    runs.set(key, run);
  }
  return run;
}

beforeAll(async () => {
  // The same three dice (one loaded) in two sessions of 150 rolls each, on other seeds.
  for (const seed of [5, 6]) {
    const config = join(dir, `part-${seed}.yaml`);
    writeFileSync(
      config,
      `name: part-${seed}\nseed: ${seed}\ndice:\n  - { label: on-A, type: d6, simulatedLoad: { symbol: "6", factor: 1.8 } }\n  - { label: on-B, type: d6 }\n  - { label: on-C, type: d6 }\n` +
        'rig: { driver: sim }\ncamera: { source: sim, lighting: studio }\nstopping: { budgetRolls: 150 }\n',
    );
    const r = await runCli('run', config, '--db', db, '--plain');
    expect(r.code, r.err).toBe(0);
  }
  const opened = openStoreForReading(db);
  try {
    stored = [1, 2].map((id) => (opened.store.storedVerdicts(id)?.verdicts as { dice: StoredDie[] }).dice);
  } finally {
    opened.close();
  }
}, 120_000);

describe('a die rolled in several stored sessions', () => {
  it("is judged on the product of its sessions' e-values, against alpha over the tests, with what each session decided beside it", async () => {
    const r = await once('analyze', 'part-5', 'part-6', '--db', db, '--json', '--alpha', '0.05');
    expect(r.code, r.err).toBe(0);
    const dice = (JSON.parse(r.out) as { dice: Analysed[] }).dice;
    expect(dice.map((d) => d.label)).toEqual(['on-A', 'on-B', 'on-C']);
    for (const d of dice) {
      const parts = stored.map((s) => s.find((x) => x.label === d.label)!);
      const logE = parts[0]!.logE + parts[1]!.logE;
      expect(d.acrossSessions?.sessions).toEqual([1, 2]);
      expect(d.acrossSessions?.logE).toBeCloseTo(logE, 12);
      // alpha 0.05 over 3 tests: the product must reach 60.
      expect(d.acrossSessions?.logThreshold).toBeCloseTo(Math.log(60), 12);
      expect(d.verdict.kind, d.label).toBe(logE >= Math.log(60) ? 'UNFAIR' : 'INCONCLUSIVE');
      expect(d.sessionVerdicts?.map((v) => v.session)).toEqual([1, 2]);
    }
    // The loaded die: undecided by each session alone (at 0.001 over its 3 dice), shown unfair by both together.
    expect(dice.find((d) => d.label === 'on-A')?.verdict.kind).toBe('UNFAIR');
    expect(dice.find((d) => d.label === 'on-A')?.sessionVerdicts?.map((v) => v.kind)).toEqual(['INCONCLUSIVE', 'INCONCLUSIVE']);
    const text = (await runCli('analyze', 'part-5', 'part-6', '--db', db, '--alpha', '0.05')).out;
    expect(text).toContain("Every die was rolled in several stored sessions: judged on the product of those sessions' e-values");
    expect(text).not.toContain('Verdicts assume the number of rolls was fixed in advance');
    expect(text).toMatch(/on-B {2}\(D6 \(pips\), 300 rolls\)\n {2}INCONCLUSIVE: the product of its 2 sessions' e-values is [^ ]+ \(UNFAIR needs 60\), and their intervals together leave ±0\.\d+ \(FAIR_WITHIN needs ±0\.05\)\./);
    expect(text).toContain('(made here across its sessions, on their e-values and intervals; the sessions that rolled part of them each decided on their own: session 1: INCONCLUSIVE, session 2: INCONCLUSIVE)');
  });

  it("certifies it within a margin only by its sessions' intervals together, its error the sum of theirs", async () => {
    const r = await runCli('analyze', 'part-5', 'part-6', '--db', db, '--json', '--delta', '0.2', '--alpha', '0.05');
    expect(r.code, r.err).toBe(0);
    const dice = (JSON.parse(r.out) as { dice: Analysed[] }).dice;
    for (const d of dice) {
      const parts = stored.map((s) => s.find((x) => x.label === d.label)!);
      // Each face: the tightest lower and upper bound either session gave it; the largest deviation they leave.
      const within = Math.max(
        ...parts[0]!.faces.map((f, i) => {
          const lower = Math.max(f.lower, parts[1]!.faces[i]!.lower);
          const upper = Math.min(f.upper, parts[1]!.faces[i]!.upper);
          return Math.max(upper - f.expected, f.expected - lower);
        }),
      );
      expect(d.acrossSessions?.certified?.within, d.label).toBeCloseTo(within, 12);
      expect(d.acrossSessions?.certified?.alpha, d.label).toBeCloseTo(parts[0]!.alphaPerDie + parts[1]!.alphaPerDie, 15);
      if (d.verdict.kind !== 'UNFAIR') {
        expect(d.verdict.kind, d.label).toBe(within <= 0.2 ? 'FAIR_WITHIN' : 'INCONCLUSIVE');
        if (d.verdict.kind === 'FAIR_WITHIN') expect(d.verdict.certifiedDelta).toBeCloseTo(within, 12);
      }
    }
    expect(dice.some((d) => d.verdict.kind === 'FAIR_WITHIN')).toBe(true);
  });

  it('is pooled, or left out, by that same judgement, and ranked by its sessions\' intervals intersected', async () => {
    const analysed = (JSON.parse((await once('analyze', 'part-5', 'part-6', '--db', db, '--json', '--alpha', '0.05')).out) as { dice: Analysed[] }).dice;
    const r = await runCli('pool', 'part-5', 'part-6', '--db', db, '--size', '1', '--json', '--alpha', '0.05');
    expect(r.code, r.err).toBe(0);
    const pooled = JSON.parse(r.out) as { ranking: { label: string; score: number }[]; verdicts: Record<string, string>; rankedBySession: string[]; excluded: { label: string; reason: string }[] };
    for (const d of analysed) {
      expect(pooled.verdicts[d.label], d.label).toBe(d.verdict.kind);
      if (d.verdict.kind === 'UNFAIR') {
        expect(pooled.excluded).toContainEqual({ label: d.label, reason: 'UNFAIR by the product of the e-values of the 2 sessions that rolled it' });
        continue;
      }
      expect(pooled.rankedBySession).toContain(d.label);
      expect(pooled.ranking.find((x) => x.label === d.label)?.score, d.label).toBeCloseTo(d.acrossSessions?.certified?.within as number, 12);
    }
    // Left to their defaults, both judge at the sessions' own alpha, and agree.
    const byDefault = (JSON.parse((await once('analyze', 'part-5', 'part-6', '--db', db, '--json')).out) as { dice: Analysed[] }).dice;
    const poolDefault = JSON.parse((await runCli('pool', 'part-5', 'part-6', '--db', db, '--size', '1', '--json')).out) as { alpha: number; verdicts: Record<string, string> };
    expect(poolDefault.alpha).toBe(0.01);
    expect(poolDefault.verdicts).toEqual(Object.fromEntries(byDefault.map((d) => [d.label, d.verdict.kind])));
  });

  it("is judged at the sessions' own alpha and margin unless told otherwise, and says so", async () => {
    const r = await once('analyze', 'part-5', 'part-6', '--db', db, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { settings: { alpha: number; delta: number; fromSessions: string[] }; dice: Analysed[] };
    // The sessions ran at the run defaults: alpha 0.01 over their dice, margin ±0.05.
    expect([j.settings.alpha, j.settings.delta, j.settings.fromSessions]).toEqual([0.01, 0.05, ['alpha', 'delta', 'serialAlpha']]);
    for (const d of j.dice) expect(d.acrossSessions?.logThreshold, d.label).toBeCloseTo(Math.log(3 / 0.01), 12);
    const text = (await runCli('analyze', 'part-5', 'part-6', '--db', db)).out;
    expect(text.split('\n')[0]).toBe("3 dice, 900 rolls. alpha 0.01 (the sessions' own), Holm over 3 tests, FAIR_WITHIN margin ±0.05 (the sessions' own), rig checks at 0.01 (the sessions' own).");
    // An option given wins; the rest stay the sessions'.
    const told = JSON.parse((await runCli('analyze', 'part-5', 'part-6', '--db', db, '--json', '--alpha', '0.02')).out) as { settings: { alpha: number; delta: number; fromSessions?: string[] } };
    expect([told.settings.alpha, told.settings.delta, told.settings.fromSessions]).toEqual([0.02, 0.05, ['delta', 'serialAlpha']]);
  });

  it('refuses a session named twice (by name and by id), which would count its rolls and multiply its evidence twice', async () => {
    for (const command of [['analyze', 'part-5', '1'], ['pool', 'part-5', '1', '--size', '1']]) {
      const r = await runCli(...command, '--db', db);
      expect(r.code, command.join(' ')).toBe(1);
      expect(r.err.trim()).toBe("dicerig: session 1 (part-5) is named twice among the sources: each session's rolls count once, so name it once");
      expect(r.out).toBe('');
    }
  });

  it("is named in each session's report with the other sessions that rolled it, and the command that judges it on all of them", async () => {
    const out = join(dir, 'report-1');
    const r = await runCli('report', '1', '--db', db, '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    const dice = (JSON.parse(r.out) as { dice: { label: string; alsoRolledIn?: { id: number; name: string | null }[] }[] }).dice;
    expect(dice.map((d) => [d.label, d.alsoRolledIn])).toEqual(['on-A', 'on-B', 'on-C'].map((label) => [label, [{ id: 2, name: 'part-6' }]]));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain("Also rolled in session 2 (part-6). This verdict is this session's alone; <code>dicerig analyze 1 2</code> (with this report's <code>--db</code>) judges the die on all of them together.");
  });
});
