import { rmSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDice } from '../../src/analysis/analyze.js';
import { fixed, formatCount, formatLogScientific, signedPercent } from '../../src/core/format.js';
import { redAttackDie, symbolProbabilities } from '../../src/dice/catalogue.js';
import { InputError } from '../../src/core/errors.js';
import { PALETTE } from '../../src/report/chart/palette.js';
import { drawScene, PNG_SCALE, sceneToPng } from '../../src/report/chart/png.js';
import { evidenceTrace } from '../../src/report/evidenceTrace.js';
import { fileKeys } from '../../src/report/fileKeys.js';
import { reportCharts } from '../../src/report/reportCharts.js';
import { renderReportHtml } from '../../src/report/reportHtml.js';
import { buildSessionReport, type SessionReport } from '../../src/report/sessionReport.js';
import { rigHealth } from '../../src/report/rigHealth.js';
import { transitionTable } from '../../src/report/transitionTable.js';
import type { SessionCounts, SessionRecord } from '../../src/store/records.js';
import { dieSectionHtml, rowCells, stripTags, svgById, svgShape } from './support/html.js';
import { fixtureStore, LOADED_FACE, type Fixture } from './support/fixtureStore.js';
import { reportOf, tally } from './support/reportOf.js';

let fixture: Fixture;
let main: ReturnType<typeof reportOf>;
let html: string;

beforeAll(() => {
  fixture = fixtureStore();
  main = reportOf(fixture.db, fixture.sessions.main.id);
  html = renderReportHtml(main.report, reportCharts(main.report));
});

afterAll(() => rmSync(fixture.dir, { recursive: true, force: true }));

function die(report: SessionReport, label: string) {
  const d = report.dice.find((x) => x.analysis.label === label);
  if (d === undefined) throw new Error(`no die ${label}`);
  return d;
}

describe('session report content', () => {
  it('shows the loaded die as UNFAIR and no fair die as UNFAIR', () => {
    const verdicts = Object.fromEntries(main.report.dice.map((d) => [d.analysis.label, d.analysis.verdict.kind]));
    expect(verdicts.R2).toBe('UNFAIR');
    for (const fair of ['R1', 'G1', 'G2']) expect(verdicts[fair]).not.toBe('UNFAIR');
    const section = dieSectionHtml(html, 'r2');
    expect(section).toContain('data-verdict="UNFAIR"');
    expect(stripTags(section)).toContain(`${LOADED_FACE} comes up`);
  });

  it('draws the loaded face’s bar above its expected line, in the warning colour, and every bar of a fair die in the plain colour', () => {
    const faces = svgById(html, 'chart-r2-faces');
    const bar = svgShape(faces, 'rect', { role: 'bar', label: LOADED_FACE });
    const expected = svgShape(faces, 'line', { role: 'expected', label: LOADED_FACE });
    // SVG y grows downwards: the bar's top is above (smaller y than) the expected line.
    expect(Number(bar.y)).toBeLessThan(Number(expected.y1));
    expect(Number(bar['data-observed'])).toBeGreaterThan(Number(bar['data-expected']));
    expect(bar.fill).toBe(PALETTE.barOff);
    const fair = svgById(html, 'chart-r1-faces');
    for (const face of redAttackDie.faces) expect(svgShape(fair, 'rect', { role: 'bar', label: face.id }).fill).toBe(PALETTE.bar);
  });

  it('prints the counts the store holds and the proportions, intervals and tests of the analysis', () => {
    const analysis = analyzeDice(main.rolls);
    for (const d of analysis.dice) {
      const key = die(main.report, d.label).key;
      const section = dieSectionHtml(html, key);
      const stored = main.raw.get(d.label) as { faces: (string | null)[]; symbols: string[] };
      const storedCounts = { symbol: tally(stored.symbols), face: tally(stored.faces) };
      for (const level of [d.symbol, d.face]) {
        if (level === undefined) throw new Error(`${d.label} has no face level`);
        level.labels.forEach((label, i) => {
          const cells = rowCells(section, `data-level="${level.level}" data-label="${label}"`);
          const iv = level.intervals[i] as { lower: number; upper: number };
          expect(cells.count).toBe(formatCount(storedCounts[level.level][label] ?? 0));
          expect(cells.observed).toBe(fixed((level.counts[i] as number) / level.n));
          expect(cells.expected).toBe(fixed(level.expected[i] as number));
          expect(cells.interval).toBe(`${fixed(iv.lower)}–${fixed(iv.upper)}`);
          expect(cells.deviation).toBe(signedPercent(level.relativeDeviations[i] as number));
        });
        const test = stripTags(section.slice(section.indexOf(`data-test="${level.level}"`)));
        expect(test).toContain(`Pearson X² = ${fixed(level.pearson.statistic, 2)} (${level.pearson.df} df), p = ${formatLogScientific(level.pearson.logP)}`);
      }
      for (const g of d.game) {
        const cells = rowCells(section, `data-figure="${g.figure.name}"`);
        expect(cells.rate).toBe(fixed(g.result.rate));
        expect(cells.expected).toBe(fixed(g.result.expected));
      }
      const summary = rowCells(html, `data-die="${d.label}"`);
      expect(summary.rolls).toBe(formatCount(stored.symbols.length));
      expect(summary.verdict).toBe(d.verdict.kind === 'FAIR_WITHIN' ? `FAIR_WITHIN(${d.verdict.delta})` : d.verdict.kind);
      expect(summary['e-value']).toBe(formatLogScientific(d.anytime.logE));
    }
  });

  it('names each table for a screen reader and heads each row with its label, and gives the charts’ numbers as text', () => {
    // Every table has a caption, and every body row starts with a row header.
    const tables = [...html.matchAll(/<table[^>]*>([\s\S]*?)<\/table>/g)].map((m) => m[1] as string);
    expect(tables.length).toBeGreaterThan(10);
    for (const t of tables) {
      expect(t).toMatch(/^\s*<caption class="sr-only">[^<]+<\/caption>/);
      const body = t.slice(t.indexOf('<tbody>'));
      for (const row of body.match(/<tr[^>]*>.*?<\/tr>/g) ?? []) expect(row).toMatch(/^<tr[^>]*><th scope="row"/);
    }
    // The transitions chart's counts, as the analysis counted them, in a table under it.
    const r2 = die(main.report, 'R2');
    const section = dieSectionHtml(html, 'r2');
    const figure = section.slice(section.indexOf('<figure data-chart="transitions">'), section.indexOf('</figure>', section.indexOf('<figure data-chart="transitions">')));
    expect(figure).toContain('<summary>The chart’s numbers</summary>');
    const rows = [...figure.matchAll(/<tr><th scope="row">after ([^<]+)<\/th>((?:<td class="num">[\d,]+<\/td>)+)<\/tr>/g)];
    expect(rows.map((m) => m[1])).toEqual([...r2.transitions.labels]);
    expect(rows.map((m) => [...(m[2] as string).matchAll(/>([\d,]+)</g)].map((c) => Number((c[1] as string).replace(/,/g, ''))))).toEqual(r2.transitions.counts);
    // The evidence chart's last point is the trace's last e-value; the bar charts point to the tables that hold their numbers.
    const evidence = section.slice(section.indexOf('<figure data-chart="evidence">'), section.indexOf('</figure>', section.indexOf('<figure data-chart="evidence">')));
    const points = [...evidence.matchAll(/<tr><th scope="row" class="num">([\d,]+)<\/th><td class="num">([^<]+)<\/td>/g)];
    expect(Number((points.at(-1)?.[1] as string).replace(/,/g, ''))).toBe(r2.evidence.rolls.at(-1));
    expect(points.at(-1)?.[2]).toBe(formatLogScientific(r2.evidence.logE.at(-1) as number));
    expect(section).toMatch(/<figure data-chart="symbols">[\s\S]*?The numbers: the table of rolls by symbol below\.[\s\S]*?<\/figure>/);
  });

  it('certifies each die within the worst simultaneous bound of its levels, which for a FAIR_WITHIN verdict is the verdict’s own', () => {
    for (const d of main.report.dice) {
      const a = d.analysis;
      const bound = (l: typeof a.symbol) => Math.max(...l.expected.map((p, i) => Math.max((l.intervals[i] as { upper: number }).upper - p, p - (l.intervals[i] as { lower: number }).lower)));
      expect(d.certifiedBound).toBe(Math.max(bound(a.symbol), ...(a.face ? [bound(a.face)] : [])));
      if (a.verdict.kind === 'FAIR_WITHIN') expect(d.certifiedBound).toBeCloseTo(a.verdict.certifiedDelta, 12);
      expect(rowCells(html, `data-die="${a.label}"`).certified).toBe(`±${fixed(d.certifiedBound)}`);
    }
  });

  it('ends each die’s evidence trace at the analysis’ anytime e-value and decision', () => {
    for (const d of main.report.dice) {
      const t = d.evidence;
      expect(t.finalLogE).toBeCloseTo(d.analysis.anytime.logE, 9);
      expect(t.logE[t.logE.length - 1]).toBe(t.finalLogE);
      expect(t.rolls[t.rolls.length - 1]).toBe(d.analysis.n);
      expect(t.decidedAt).toBe(d.analysis.anytime.decidedAt);
      expect(t.decision).toBe(d.analysis.anytime.decision);
      expect(t.thresholdLogE).toBeCloseTo(Math.log(main.report.analysis.family / main.report.analysis.alpha), 12);
      expect(t.rolls.length).toBeLessThanOrEqual(402);
    }
  });

  it('says the session is simulated before anything else, and a real session says it is real', () => {
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('id="provenance"')).toBeLessThan(body.indexOf('<h1>'));
    expect(stripTags(body.slice(0, body.indexOf('</p>')))).toContain('SIMULATED SESSION');
    const real = reportOf(fixture.db, fixture.sessions.real.id).report;
    const realHtml = renderReportHtml(real, []);
    expect(realHtml).toContain('data-simulated="false"');
    expect(realHtml).not.toContain('SIMULATED');
    expect(stripTags(realHtml)).toContain('Real dice. The rolls in this report were recorded from physical dice on rig sim-4ch');
  });

  it('is one self-contained page: no script, no external resource, and a policy that blocks the network', () => {
    const withoutNamespace = html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '');
    expect(withoutNamespace).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toMatch(/@media print/);
  });

  it('reports rig health from the throws and events: rates, throughput over the session span, events by kind', () => {
    const h = main.report.rigHealth;
    const s = fixture.sessions.main;
    const throws = s.ok + s.void + s.rerolled;
    // Void throws store 2 of the 4 dice; rerolled throws all 4, one of them cocked.
    const rolls = 4 * s.ok + 2 * s.void + 4 * s.rerolled;
    expect(h.counts).toMatchObject({ throws, ok: s.ok, void: s.void, rerolled: s.rerolled, rolls, cocked: s.rerolled, countedRolls: 4 * s.ok });
    expect(h.voidRate).toBe(s.void / throws);
    expect(h.rerollRate).toBe(s.rerolled / throws);
    expect(h.cockedRate).toBe(s.rerolled / rolls);
    expect(h.throwsPerHour).toBeCloseTo(throws / ((s.endedAt - s.startedAt) / 3_600_000), 9);
    expect(h.events).toEqual([
      { kind: 'cocked', count: s.rerolled },
      { kind: 'fault', count: s.void },
      { kind: 'reconnect', count: s.void },
    ]);
    expect(rowCells(html, 'data-figure="void rate"').value).toBe(`${((100 * s.void) / throws).toFixed(1)} %`);
  });

  it('compares the dice of each type for homogeneity, by symbol and by face', () => {
    const groups = main.report.analysis.homogeneity.map((g) => `${g.dieType}/${g.level}:${g.dice.join('+')}`);
    expect(groups).toEqual(['red/symbol:R1+R2', 'red/face:R1+R2', 'green/symbol:G1+G2', 'green/face:G1+G2']);
    for (const g of main.report.analysis.homogeneity) {
      expect(rowCells(html, `data-type="${g.dieType}" data-level="${g.level}"`).p).toBe(formatLogScientific(g.test.pearson.logP));
    }
  });

  it('refuses a session with no counted rolls with a sentence saying what it holds', () => {
    const voidOnly = fixture.sessions.voidOnly;
    expect(() => reportOf(fixture.db, voidOnly.id)).toThrow(InputError);
    expect(() => reportOf(fixture.db, voidOnly.id)).toThrow(`session ${voidOnly.id} (all-void) has no counted rolls (it has 4 throws: 0 ok, 4 void, 0 rerolled), so there is nothing to report yet.`);
  });
});

describe('evidence trace', () => {
  it('decides UNFAIR on the roll where the Dirichlet-mixture e-value first reaches 1/alpha, the roll SciPy gives', () => {
    // from scipy.special import gammaln; import numpy as np
    // A = 100.0; p = 3/8; a = A*p   # red die by symbol, every roll a hit
    // logbf = lambda n: gammaln(A) - gammaln(A+n) + gammaln(a+n) - gammaln(a) - n*np.log(p)
    // next(n for n in range(1, 200) if logbf(n) >= np.log(1/0.05))  -> 22
    // logbf(22) -> 3.0754367068565855; logbf(40) -> 8.958363438591597
    const trace = evidenceTrace(new Uint8Array(40), symbolProbabilities(redAttackDie), { alpha: 0.05, delta: 0.03, family: 1 });
    expect(trace.decision).toBe('UNFAIR');
    expect(trace.decidedAt).toBe(22);
    expect(trace.rolls).toContain(22);
    expect(trace.logE[trace.rolls.indexOf(22)]).toBeCloseTo(3.0754367068565855, 10);
    expect(trace.finalLogE).toBeCloseTo(8.958363438591597, 10);
  });

  it('keeps about maxPoints points however many rolls there are, always with the first, the last and the decision', () => {
    const rolls = Uint8Array.from({ length: 10_001 }, (_, i) => (i < 300 ? 0 : i % 4));
    const trace = evidenceTrace(rolls, symbolProbabilities(redAttackDie), { alpha: 0.05, delta: 0.03, family: 4, maxPoints: 100 });
    expect(trace.rolls[0]).toBe(0);
    expect(trace.rolls[trace.rolls.length - 1]).toBe(10_001);
    expect(trace.rolls.length).toBeLessThanOrEqual(103);
    expect(trace.decidedAt).not.toBeNull();
    expect(trace.rolls).toContain(trace.decidedAt);
    expect([...trace.rolls].sort((a, b) => a - b)).toEqual(trace.rolls);
  });

  it('gives no trace, with the reason, for a die with a symbol that cannot come up', () => {
    const trace = evidenceTrace(Uint8Array.from([0, 1, 0]), [0.5, 0.5, 0], { alpha: 0.05, delta: 0.03, family: 1 });
    expect(trace.unavailable).toMatch(/each with a chance to come up/);
    expect(trace.finalLogE).toBe(0);
  });
});

describe('transition table', () => {
  it('counts what followed what and gives the adjusted residuals SciPy’s expected frequencies give', () => {
    // import numpy as np; from scipy.stats.contingency import expected_freq
    // seq = [0,1,2,0,0,1,2,2,1,0,1,1,2,0,2,2,2,1,0,0,1,2,0,1,1,1,0,2,1,0,0,2,1,2,0]
    // t = np.zeros((3,3), int); [t.__setitem__((a,b), t[a,b]+1) for a,b in zip(seq, seq[1:])]
    // e = expected_freq(t); n = t.sum(); r = t.sum(1, keepdims=True)/n; c = t.sum(0, keepdims=True)/n
    // ((t - e) / np.sqrt(e*(1-r)*(1-c))).tolist()
    const seq = [0, 1, 2, 0, 0, 1, 2, 2, 1, 0, 1, 1, 2, 0, 2, 2, 2, 1, 0, 0, 1, 2, 0, 1, 1, 1, 0, 2, 1, 0, 0, 2, 1, 2, 0];
    const t = transitionTable(seq, ['a', 'b', 'c'], 'symbol');
    expect(t.counts).toEqual([
      [3, 5, 3],
      [4, 3, 5],
      [4, 4, 3],
    ]);
    expect(t.pairs).toBe(34);
    const scipy = [
      [-0.43789757313067457, 0.8573552885410552, -0.43789757313067457],
      [0.09024792510958478, -0.9276514378162979, 0.8573552885410552],
      [0.34570861036632233, 0.09024792510958478, -0.43789757313067457],
    ];
    scipy.forEach((row, i) => row.forEach((z, j) => expect(t.residuals[i]?.[j]).toBeCloseTo(z, 12)));
  });

  it('leaves the cells of a face that never came up without a residual', () => {
    const t = transitionTable([0, 1, 0, 1, 1, 0], ['1', '2', '3'], 'face');
    expect(t.residuals[2]).toEqual([null, null, null]);
    expect(t.residuals.map((r) => r[2])).toEqual([null, null, null]);
    expect(t.residuals[0]?.[0]).not.toBeNull();
  });
});

describe('rig health', () => {
  const counts: SessionCounts = { throws: 120, ok: 100, void: 5, rerolled: 15, rolls: 470, countedRolls: 400, cocked: 15, events: 3 };
  const session = (over: Partial<SessionRecord>): SessionRecord => ({
    id: 1,
    name: null,
    origin: 'rig',
    configJson: '{}',
    softwareVersion: '0.1.0',
    simulated: false,
    rigId: null,
    startedAt: 0,
    endedAt: 3_600_000,
    state: 'finished',
    throwCount: 120,
    headHash: 'h',
    ...over,
  });
  const event = (at: number, kind: string) => ({ id: at, sessionId: 1, at, kind, throwIndex: null, dieId: null, detail: {} });

  it('measures a running session up to its last event, and says so', () => {
    const h = rigHealth(session({ endedAt: null, state: 'running' }), counts, [event(600_000, 'fault'), event(1_800_000, 'resumed')]);
    expect(h.hours).toBe(0.5);
    expect(h.throwsPerHour).toBe(240);
    expect(h.spanNote).toMatch(/last logged event/);
  });

  it('measures the throw rate over rolling time, leaving out a pause such as a crash resumed hours later', () => {
    // Throws every 10 s (each 8 s long); the fourth is followed by a 2 h pause, then two more.
    const starts = [0, 10_000, 20_000, 30_000, 7_230_000, 7_240_000];
    const times = starts.map((t, i) => ({ index: i + 1, startedAt: t, endedAt: t + 8_000 }));
    const six: SessionCounts = { ...counts, throws: 6, countedRolls: 24 };
    const h = rigHealth(session({ endedAt: 7_248_000 }), six, [], times);
    // Rolling: 10 + 10 + 10 s, then only the fourth throw's own 8 s, then 10 + 8 s = 56 s.
    expect(h.hours).toBeCloseTo(56 / 3600, 12);
    expect(h.throwsPerHour).toBeCloseTo(6 / (56 / 3600), 6);
    expect(h.countedRollsPerHour).toBeCloseTo(24 / (56 / 3600), 6);
    expect(h.pauses).toEqual({ count: 1, totalMs: 7_200_000 - 8_000 });
    expect(h.spanNote).toMatch(/rolling time.*leaving out 1 pause longer than 2 min \(2 h 00 min in all/);
    // The session's span would have said 6 throws in 2 h.
    expect(rigHealth(session({ endedAt: 7_248_000 }), six, []).throwsPerHour).toBeCloseTo(6 / (7_248_000 / 3_600_000), 6);
  });

  it('does not invent a throw rate for an imported session or one with no span', () => {
    expect(rigHealth(session({ origin: 'import' }), counts, []).throwsPerHour).toBeNull();
    expect(rigHealth(session({ endedAt: null, state: 'running' }), counts, []).spanNote).toMatch(/not measured/);
    expect(rigHealth(session({ endedAt: 0 }), counts, []).throwsPerHour).toBeNull();
  });
});

describe('charts as PNG', () => {
  it('draws every chart as a valid PNG of the scene’s size times the scale, with something on it', async () => {
    const charts = reportCharts(main.report);
    expect(charts.map((c) => c.fileName).filter((f) => f.startsWith('r2-'))).toEqual(['r2-symbols.png', 'r2-faces.png', 'r2-evidence.png', 'r2-transitions.png', 'r2-game.png']);
    for (const c of charts.filter((x) => x.dieKey === 'r2')) {
      const png = await sceneToPng(c.scene);
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBe(Math.round(c.scene.width * PNG_SCALE));
      expect(meta.height).toBe(Math.round(c.scene.height * PNG_SCALE));
      const stats = await sharp(png).stats();
      // A blank (single-colour) image has no spread in any channel.
      expect(Math.max(...stats.channels.slice(0, 3).map((ch) => ch.stdev))).toBeGreaterThan(10);
    }
  });

  it('encodes exactly the pixels Skia draws, as Skia’s own PNG encoder would hold them', async () => {
    const chart = reportCharts(main.report).find((c) => c.fileName === 'r2-faces.png');
    if (chart === undefined) throw new Error('no faces chart for r2');
    const ours = await sharp(await sceneToPng(chart.scene)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const skias = await sharp(drawScene(chart.scene).toBuffer('image/png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(ours.info).toEqual(skias.info);
    expect(ours.data.equals(skias.data)).toBe(true);
  });
});

describe('file keys', () => {
  it('turns free-text labels into distinct file-safe keys', () => {
    expect(fileKeys(['R1', 'Red, "lucky"', 'red lucky', '!!!', 'R1 '])).toEqual(['r1', 'red-lucky', 'red-lucky-2', 'die-4', 'r1-2']);
  });
});

describe('building a report', () => {
  it('needs at least one die with rolls', () => {
    const s = main.report.session;
    expect(() =>
      buildSessionReport({ session: s, rig: null, counts: { ...main.report.rigHealth.counts, throws: 0, ok: 0, void: 0, rerolled: 0 }, events: [], rolls: [], generatedAt: 0 }),
    ).toThrow('session 1 (demo-loaded) has no counted rolls (it has no throws yet), so there is nothing to report yet.');
  });
});
