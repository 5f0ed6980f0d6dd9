/**
 * A die its session decided keeps the session's verdict, but its figures (intervals, game figures, charts) must hold
 * whatever its unresolved rolls were, as they do for the same rows judged without the session's manifest: the read
 * rolls alone make a fair die whose 6s the reader declines look short of 6s.
 */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PALETTE } from '../../src/report/chart/palette.js';
import { fileKeys } from '../../src/report/fileKeys.js';
import { dieSectionHtml, rowCells, stripTags, svgById, svgShape } from '../report/support/html.js';
import { runCli } from './runCli.js';
import { demoStore } from '../support/demoStore.js';

type Interval = { lower: number; upper: number };
interface AnalyzedDie {
  label: string;
  rolls: number;
  unresolved?: number;
  decidedBy?: { session: number };
  verdict: { kind: string };
  sentence: string;
  symbol: { counts: number[]; intervals: Interval[]; widenedOver?: number };
  game: { name: string; interval: Interval; widenedOver?: number }[];
}

const DIE = 'demo4-d6-C';

/*
 * SciPy 1.17, for DIE of the demo below (seed 4, budget 150, 95 % of 6s declined): read counts [32, 19, 29, 26, 24, 0]
 * and 20 unresolved rolls; the session's alpha 0.001 over its 4 dice, so Goodman intervals at 1 - 0.00025/6:
 *   from scipy import stats
 *   a = 0.001 / 4
 *   [(stats.binomtest(c, 150).proportion_ci(1 - a/6, method='wilson').low,
 *     stats.binomtest(c + 20, 150).proportion_ci(1 - a/6, method='wilson').high) for c in [32, 19, 29, 26, 24, 0]]
 *   # 6: (0.0, 0.2842599605588845); 1: (0.10904070345133893, 0.5139036770477672)
 *   stats.binomtest(0, 130).proportion_ci(1 - a/6, method='wilson').high   # the read rolls alone: 0.11440471694961314 < 1/6
 *   # successes on 4+ (50 of the 130 read), Wilson 99.9 %, widened over the 20:
 *   stats.binomtest(50, 150).proportion_ci(0.999, method='wilson').low, stats.binomtest(70, 150).proportion_ci(0.999, method='wilson').high
 *   # (0.22172564404876322, 0.5983760443055197)
 */
const SIX = { lower: 0, upper: 0.2842599605588845 };
const ONE = { lower: 0.10904070345133893, upper: 0.5139036770477672 };
const FOUR_UP = { lower: 0.22172564404876322, upper: 0.5983760443055197 };

describe('figures of a die its session decided, with rolls the reader left unresolved', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-session-widened-'));
  const db = join(dir, 'rolls.db');
  let session: AnalyzedDie[];

  beforeAll(async () => {
    const demo = await demoStore(['--declines', '6=0.95', '--budget', '150', '--seed', '4'], db);
    expect(demo.code, demo.err).toBe(0);
    session = (JSON.parse((await runCli('analyze', '1', '--db', db, '--json')).out) as { dice: AnalyzedDie[] }).dice;
  }, 180_000);

  it('shows its intervals and game figures widened over its unresolved rolls beside the session’s own verdict, as the same rows without the manifest show them', async () => {
    const d = session.find((x) => x.label === DIE) as AnalyzedDie;
    // The demo's rolls the golden values were computed for.
    expect([d.symbol.counts, d.unresolved]).toEqual([[32, 19, 29, 26, 24, 0], 20]);
    expect(d.decidedBy).toEqual({ session: 1 });
    expect(d.symbol.widenedOver).toBe(20);
    expect(d.symbol.intervals[5]?.lower).toBeCloseTo(SIX.lower, 12);
    expect(d.symbol.intervals[5]?.upper).toBeCloseTo(SIX.upper, 12);
    expect(d.symbol.intervals[0]?.lower).toBeCloseTo(ONE.lower, 12);
    expect(d.symbol.intervals[0]?.upper).toBeCloseTo(ONE.upper, 12);
    const fourUp = d.game.find((g) => g.name === '4+');
    expect(fourUp?.widenedOver).toBe(20);
    expect(fourUp?.interval.lower).toBeCloseTo(FOUR_UP.lower, 12);
    expect(fourUp?.interval.upper).toBeCloseTo(FOUR_UP.upper, 12);

    // The same rows, judged without the session's manifest (at the session's alpha): the same figures, a verdict of their own.
    const csv = join(dir, 'session.csv');
    expect((await runCli('export', '1', '--db', db, '--out', csv)).code).toBe(0);
    const bare = join(dir, 'bare.csv');
    copyFileSync(csv, bare);
    const file = JSON.parse((await runCli('analyze', bare, '--alpha', '0.001', '--delta', '0.05', '--json')).out) as { dice: AnalyzedDie[] };
    for (const s of session) {
      const f = file.dice.find((x) => x.label === s.label) as AnalyzedDie;
      expect(f.decidedBy, s.label).toBeUndefined();
      expect(s.symbol.intervals, s.label).toEqual(f.symbol.intervals);
      expect(s.game.map((g) => g.interval), s.label).toEqual(f.game.map((g) => g.interval));
    }
    const text = await runCli('analyze', '1', '--db', db);
    expect(text.out).toContain(`(session 1's verdict`);
    expect(text.out).toContain('    (intervals widened over every face the 20 unresolved rolls could have been; observed: of the read rolls)');
    // One range per figure: the interval whatever the 20 were (FOUR_UP), not the read rolls' 0.385 beside it.
    expect(text.out).toContain('successes on 4+: 0.222 to 0.598 (expected 0.500; 99.9 % interval, whatever its 20 unresolved rolls were)');
    expect(text.out).not.toContain('successes on 4+: 0.385');
  });

  it('draws the widened whiskers in the report’s charts and tables, colours the bars by them, and heads the die with its rolls as its table counts them', async () => {
    const out = join(dir, 'report');
    const report = await runCli('report', '1', '--db', db, '--out', out);
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const key = fileKeys(session.map((d) => d.label))[session.findIndex((d) => d.label === DIE)] as string;
    const section = dieSectionHtml(html, key);
    const chart = svgById(html, `chart-${key}-symbols`);
    const six = svgShape(chart, 'rect', { role: 'bar', label: '6' });
    expect(Number(six['data-lower'])).toBeCloseTo(SIX.lower, 12);
    expect(Number(six['data-upper'])).toBeCloseTo(SIX.upper, 12);
    // Read alone, its 6s' interval (to 0.114) misses 1/6; whatever the unresolved rolls were, it does not.
    expect(six.fill).toBe(PALETTE.bar);
    expect(svgShape(chart, 'line', { role: 'interval', label: '6' })['data-widened']).toBe('20');
    expect(stripTags(chart)).toContain('Whiskers widened over every symbol the 20 unresolved rolls could have been; bars: the read rolls.');
    expect(rowCells(section, 'data-level="symbol" data-label="6"').interval).toBe('0.000–0.284');
    expect(stripTags(section)).toContain('Intervals widened over every symbol the 20 unresolved rolls could have been; observed: of the read rolls.');
    expect(rowCells(section, 'data-figure="4+"').interval).toBe('0.222–0.598');
    expect(stripTags(svgById(html, `chart-${key}-game`))).toContain('in play, per die; intervals whatever its 20 unresolved rolls were');
    // The session's verdict stands as it made it.
    expect(section).toContain(`data-verdict="${(session.find((d) => d.label === DIE) as AnalyzedDie).verdict.kind}"`);
    // One count of its rolls: the heading says it as the organiser table does.
    expect(stripTags(/<p class="die-meta">.*?<\/p>/.exec(section)?.[0] ?? '')).toContain('· 150 rolls (20 unresolved)');
    expect(rowCells(html, `data-die="${DIE}"`).rolls).toBe('150 (20 unresolved)');
  });
});
