import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { copyStore } from '../support/demoStore.js';
import { fixtureStore, type Fixture } from '../report/support/fixtureStore.js';
import { runCli } from './runCli.js';

let fixture: Fixture;

beforeAll(() => {
  fixture = fixtureStore();
});

afterAll(() => rmSync(fixture.dir, { recursive: true, force: true }));

interface ReportJson {
  html: string;
  charts: string[];
  session: { id: number; name: string; simulated: boolean };
  dice: { label: string; verdict: string; rolls: number; certifiedWithin: number }[];
}

/** A demo session (the demo's own alpha and margin), run once into a store of its own for the tests that start from it. */
let demoRun: Promise<string> | undefined;
function demoSession(): Promise<string> {
  demoRun ??= (async () => {
    const db = join(fixture.dir, 'own-settings.db');
    const demo = await runCli('demo', '--seed', '2', '--budget', '6', '--db', db, '--json');
    expect(demo.code, demo.err).toBe(0);
    return db;
  })();
  return demoRun;
}

describe('dicerig report', () => {
  it('writes report.html and one PNG per chart into --out, and lists the verdicts', async () => {
    const out = join(fixture.dir, 'by-name');
    const r = await runCli('report', 'demo-loaded', '--db', fixture.db, '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // The fixture's sessions carry no stopping rules: analyze's defaults.
    expect(r.out).toMatch(/^Report of session 1 \(demo-loaded\), SIMULATED: 4 dice, 6,000 counted rolls; judged at α = 0\.05, FAIR_WITHIN ±0\.03\.\n/);
    expect(r.out).toMatch(/^ {2}R2 {3}UNFAIR +1,500 +0\.\d{3}$/m);
    const files = readdirSync(out).sort();
    expect(files).toContain('report.html');
    // Per die: symbols, faces, evidence, transitions, game.
    expect(files.filter((f) => f.endsWith('.png'))).toHaveLength(4 * 5);
    expect(r.out).toContain(`Wrote ${join(out, 'report.html')} and 20 PNG charts beside it.`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<title>Dice report: session 1 (demo-loaded)</title>');
    for (const png of files.filter((f) => f.endsWith('.png'))) expect(html).toContain(`href="${png}"`);
  });

  it('prints what it wrote and the verdicts as JSON with --json, and the PNGs it names are images', async () => {
    const out = join(fixture.dir, 'json');
    const r = await runCli('report', '2', '--db', fixture.db, '--out', out, '--json');
    expect(r.err).toBe('');
    const json = JSON.parse(r.out) as ReportJson;
    expect(json.session).toMatchObject({ id: 2, name: 'real-600', simulated: false });
    expect(json.dice.map((d) => d.label)).toEqual(['R1', 'R2', 'G1', 'G2']);
    expect(json.dice.find((d) => d.label === 'R2')?.verdict).toBe('UNFAIR');
    expect(json.dice.every((d) => d.rolls === 600)).toBe(true);
    expect(existsSync(json.html)).toBe(true);
    expect(json.charts).toHaveLength(20);
    const meta = await sharp(json.charts[0] as string).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBeGreaterThan(0);
  });

  it('judges a session at its own alpha and margin unless told otherwise, as the session did', async () => {
    const db = await demoSession();
    const own = await runCli('report', '1', '--db', db, '--out', join(fixture.dir, 'own'), '--json');
    expect(own.code, own.err).toBe(0);
    expect((JSON.parse(own.out) as { settings: object }).settings).toEqual({
      alpha: 0.001,
      delta: 0.05,
      multiplicity: 'holm',
      serialAlpha: 0.01,
      appliesTo: 'descriptive figures only: the verdicts are the session’s own, under errorControl',
    });
    const told = await runCli('report', '1', '--db', db, '--out', join(fixture.dir, 'told'), '--alpha', '0.01', '--delta', '0.04');
    // The verdicts stay the session's (α = 0.001, ±0.05); the options asked for make only the descriptive figures.
    expect(told.out).toMatch(/the session's own verdicts, made at α = 0\.001, FAIR_WITHIN ±0\.05\. The α = 0\.01 and margin ±0\.04 this report was asked for apply only to its descriptive figures/);
    const html = readFileSync(join(fixture.dir, 'told', 'report.html'), 'utf8');
    // The certified bounds are the session's own intervals, at its level per die (its 4 dice at α/4), not the options' level.
    expect(html).toContain('(99.975 % anytime-valid, the session’s own intervals)');
    expect(html).toContain('The α = 0.01 and margin ±0.04 this report was asked for apply only to its descriptive figures');
    // Only the option that differs from the session's is named.
    const marginOnly = await runCli('report', '1', '--db', db, '--out', join(fixture.dir, 'margin-only'), '--alpha', '0.001', '--delta', '0.02');
    expect(marginOnly.out).toMatch(/\. The margin ±0\.02 this report was asked for applies only to its descriptive figures/);
  });

  it('says when a session stored throws after its verdicts (a run still rolling, or one that died), which its roll counts include and its verdicts do not', async () => {
    // A copy of the demo session the test above reports: this test stores throws into it.
    const db = join(fixture.dir, 'behind.db');
    copyStore(await demoSession(), db);
    const inSync = JSON.parse((await runCli('report', '1', '--db', db, '--out', join(fixture.dir, 'in-sync'), '--json')).out) as { rollsSinceVerdicts?: number };
    expect(inSync.rollsSinceVerdicts).toBeUndefined();
    // Three more throws of every die, stored as a resumed run stores them, with no run end (its process died).
    const store = RollStore.open(db, { mustExist: true });
    try {
      const last = store.throwTimes(1).at(-1)!;
      const dice = store.dieRolls(1).map((r) => store.findDie(r.die.label)!);
      store.resumeSession(1, last.endedAt + 1000);
      for (let i = 1; i <= 3; i++) {
        store.recordThrow(1, { startedAt: last.endedAt + i * 2000, endedAt: last.endedAt + i * 2000 + 1500, status: 'ok', rolls: dice.map((d, c) => ({ dieId: d.id, channel: c, faceId: '3', symbol: '3' })) });
      }
    } finally {
      store.close();
    }
    const behind = await runCli('report', '1', '--db', db, '--out', join(fixture.dir, 'behind'));
    expect(behind.code, behind.err).toBe(0);
    expect(behind.out).toContain('These verdicts are as the session stored them when a run last stopped; it stored 12 rolls after that (a run still rolling, or one whose process died before it stopped), which the roll counts here include and the verdicts do not');
    const html = readFileSync(join(fixture.dir, 'behind', 'report.html'), 'utf8');
    expect(html).toContain('data-rolls-since="12"');
    // Rolled on, not relabelled: no die is said to have had its labels corrected, here or in analyze.
    expect(html).not.toMatch(/corrected/);
    const analyzed = await runCli('analyze', '1', '--db', db);
    expect(analyzed.code, analyzed.err).toBe(0);
    expect(analyzed.err).toMatch(/die \S+'s verdict was made on its first \d+ rolls; the session stored 3 more after it \(a run still rolling, or one whose process died before it stopped\)/);
    expect(analyzed.err).not.toMatch(/corrected/);
  });

  it('names the sessions the store holds when the session is unknown', async () => {
    const r = await runCli('report', 'nope', '--db', fixture.db, '--out', join(fixture.dir, 'nope'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: There is no session "nope" in ${fixture.db}; sessions: 1 (demo-loaded), 2 (real-600), 3 (all-void).\n`);
    expect(existsSync(join(fixture.dir, 'nope'))).toBe(false);
  });

  it('says a session with no counted rolls has nothing to report, and writes nothing', async () => {
    const r = await runCli('report', 'all-void', '--db', fixture.db, '--out', join(fixture.dir, 'empty'));
    expect(r.code).toBe(1);
    expect(r.err).toBe('dicerig: session 3 (all-void) has no counted rolls (it has 4 throws: 0 ok, 4 void, 0 rerolled), so there is nothing to report yet.\n');
    expect(existsSync(join(fixture.dir, 'empty'))).toBe(false);
  });

  it('refuses a roll store that does not exist rather than creating one', async () => {
    const db = join(fixture.dir, 'missing.db');
    const r = await runCli('report', '1', '--db', db);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: There is no roll store at ${db}.\n`);
    expect(existsSync(db)).toBe(false);
  });
});
