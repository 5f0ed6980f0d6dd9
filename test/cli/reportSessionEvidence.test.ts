/**
 * Issue 10 review: the HTML report of a sequential session shows what the
 * session decided with, not a recomputation from the read rolls: the same
 * verdicts, threshold K/α and e-values as the session's own summary (its
 * evidence chart replays the session's least favourable e-value, declined
 * rolls included), fixed-n p-values labelled descriptive, and how each die's
 * rolls were resolved, per die and per face.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { confidenceLabel, fixed, formatProbability } from '../../src/core/format.js';
import { fileKeys } from '../../src/report/fileKeys.js';
import { tempDir } from '../store/support/fixtures.js';
import { dieSectionHtml, rowCells, stripTags, svgById, svgShape } from '../report/support/html.js';
import { FairnessView } from '../../src/server/live/fairnessView.js';
import type { SessionEvent } from '../../src/session/events.js';
import { renderReportHtml } from '../../src/report/reportHtml.js';
import { reportOf } from '../report/support/reportOf.js';
import { runCli } from './runCli.js';

interface DemoJson {
  verdicts: SessionVerdicts;
  totals: { declined: number; rereadResolved: number; unresolved: number };
}

interface ReportJson {
  errorControl: SessionVerdicts['errorControl'];
  dice: { label: string; verdict: string; certifiedWithin: number; anytime: { logE: number; decision: string; decidedAt: number | null } }[];
}

/** The live pages' view of the run, folded from the session's own events as the dashboard folds them. */
function liveView(events: readonly SessionEvent[], alpha: number): FairnessView {
  const started = events.find((e) => e.type === 'started');
  if (started?.type !== 'started') throw new Error('no started event');
  const view = new FairnessView(started.sessionId, started.dice.map((d) => ({ label: d.label, type: d.type, channel: d.channel, level: 'face' as const })), new Map(), alpha);
  for (const e of events) view.onEvent(e);
  return view;
}

describe('report of a demo session with declines (HTML)', () => {
  it('shows one verdict, the session’s, in its summary, live view, text, HTML and JSON report and export, with its threshold and e-values; labels fixed-n p-values descriptive; tabulates read, re-read, reviewed and unresolved rolls per die and per face', async () => {
    const dir = tempDir('dicerig-report-evidence-');
    const db = join(dir, 'demo.db');
    // Declines the re-reads cannot all resolve, and misreads a simulated calibration measures: the least favourable e-value differs from the read rolls'.
    // 80 rolls a die leave each of the four dice undecided with unresolved rolls (5 to 11), as 150 did (12 to 18) for half as much CPU again.
    const demo = await runCli('demo', '--seed', '3', '--budget', '80', '--declines', '6=0.9,1=0.5', '--misreads', '6>5=0.02', '--db', db, '--events');
    expect(demo.code, demo.err).toBe(0);
    const lines = demo.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    const session = lines.find((l) => l.type === 'summary') as unknown as DemoJson;
    const live = liveView(lines.filter((l) => l.type !== 'summary') as unknown as SessionEvent[], session.verdicts.errorControl.alpha);
    expect(session.totals.unresolved).toBeGreaterThan(0);
    const out = join(dir, 'report');
    const report = await runCli('report', '1', '--db', db, '--out', out);
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const json = await runCli('report', '1', '--db', db, '--out', join(dir, 'report-json'), '--json');
    expect(json.code, json.err).toBe(0);
    const shownJson = JSON.parse(json.out) as ReportJson;
    const exported = await runCli('export', '1', '--db', db, '--format', 'jsonl');
    expect(exported.code, exported.err).toBe(0);
    const manifest = JSON.parse(exported.out.split('\n')[0] as string) as { verdicts?: SessionVerdicts };

    // The session's one error control, as the summary states it.
    const control = session.verdicts.errorControl;
    expect(stripTags(html)).toContain(`Verdicts as the session made them (not recomputed by this report): ${control.statement}`);
    expect(html).toContain(`data-threshold="${control.threshold}"`);
    expect(report.out).toContain(`Verdicts as the session made them (not recomputed by this report): ${control.statement}`);
    expect(shownJson.errorControl).toEqual(control);
    // The live dashboard draws its UNFAIR line at the session's own threshold (K/α, not 1/α).
    expect(live.errorControl).toEqual(control);
    // The export carries the stored verdicts as they are.
    expect(manifest.verdicts).toEqual(session.verdicts);
    // "How to read this report" explains the session's rule, not the fixed-size analysis it did not use.
    const method = stripTags(/<section id="method">.*?<\/section>/s.exec(html)?.[0] ?? '');
    expect(method).toContain(`The verdicts are the session’s own, as it made them while rolling; this report does not recompute them. ${control.statement}`);
    expect(method).toContain(`every face’s anytime-valid ${confidenceLabel(control.alphaPerDie)} interval, widened over every face its unresolved rolls could have been`);
    expect(method).not.toContain('Verdicts treat each die’s rolls as a sample of fixed size');
    const misreads = session.verdicts.dice[0]?.misreads?.statement ?? '';
    expect(misreads).toMatch(/^misreads allowed for/);
    expect(stripTags(html)).toContain(`Misreads: ${misreads.replace(/^misreads /, '')}.`);

    // The rolls each die's verdict counts, its unresolved ones said, in the text and HTML tables as the run counted them.
    for (const made of session.verdicts.dice) {
      const unresolved = made.rolls - (made.faces.reduce((n, f) => n + f.count, 0));
      const shown = unresolved > 0 ? `${made.rolls.toLocaleString('en-US')} (${unresolved.toLocaleString('en-US')} unresolved)` : made.rolls.toLocaleString('en-US');
      expect(report.out, made.label).toMatch(new RegExp(`^ {2}${made.label} +\\S+ +${shown.replace(/[()]/g, '\\$&')} `, 'm'));
      expect(html, made.label).toContain(`data-col="rolls">${shown}<`);
    }

    const keys = fileKeys(session.verdicts.dice.map((d) => d.label));
    let declinedOnTheChart = 0;
    session.verdicts.dice.forEach((made, i) => {
      const key = keys[i] as string;
      const section = dieSectionHtml(html, key);
      expect(section, made.label).toContain(`data-verdict="${made.kind}"`);
      // One verdict: the badge, the words beside it, the JSON report and the live pages say the same.
      const line = stripTags(/<p class="note" data-test="anytime"[^>]*>.*?<\/p>/.exec(section)?.[0] ?? '');
      expect(line, made.label).toContain(made.decidedAt === null ? 'no decision yet' : `${made.kind} at roll ${made.decidedAt.toLocaleString('en-US')}`);
      if (made.kind === 'UNFAIR') expect(line).not.toContain('no decision yet');
      // The plain words give the confidence and chance the session decided at, not the fixed-size analysis'.
      const words = stripTags(/<div class="meaning"[^>]*>.*?<\/div>/s.exec(section)?.[0] ?? section);
      if (made.kind === 'FAIR_WITHIN') expect(words, made.label).toContain(`with ${confidenceLabel(made.alphaPerDie)} confidence for all of them at once`);
      if (made.kind === 'UNFAIR') expect(words, made.label).toContain(`at any point of its rolling with probability ${formatProbability(made.adjustedAnytimeP)} at most, after allowing for the session's ${control.dice} dice`);
      const j = shownJson.dice.find((d) => d.label === made.label);
      expect(j?.verdict, made.label).toBe(made.kind);
      expect(j?.anytime).toEqual({ logE: made.logE, decision: made.kind, decidedAt: made.decidedAt });
      // What the organiser can certify is the session's own bound (its robust intervals), in the table, the text and the JSON report.
      const certified = Math.max(...made.faces.map((f) => Math.max(f.upper - f.expected, f.expected - f.lower)));
      if (made.verdict.kind === 'FAIR_WITHIN') expect(certified).toBeCloseTo(made.verdict.certifiedDelta, 12);
      expect(rowCells(html, `data-die="${made.label}"`).certified, made.label).toBe(`±${fixed(certified)}`);
      expect(j?.certifiedWithin, made.label).toBe(certified);
      expect(report.out).toMatch(new RegExp(`${made.label} .* ${fixed(certified).replace('.', '\\.')}\n`));
      // Figures in play: one range each, the interval that holds whatever the unresolved rolls were (declines depend on
      // the face here) and allows for chance, in the organiser's table and the plain words as in the die's table; not
      // the read rolls' rate, nor the range without sampling error beside it.
      if (made.unresolved > 0) {
        const known = made.resolved + made.reviewed;
        const u = made.unresolved;
        const whatever = `whatever its ${u} unresolved ${u === 1 ? 'roll was' : 'rolls were'}`;
        const noChance = (hits: number) => `${formatProbability(hits / (known + u))} to ${formatProbability((hits + u) / (known + u))} ${whatever}`;
        const c = made.counts;
        const [sixLow, sixHigh] = (rowCells(section, 'data-figure="6s"').interval as string).split('–');
        const game = rowCells(html, `data-die="${made.label}"`).game;
        expect(game, made.label).toContain(`sixes: ${sixLow} to ${sixHigh} (0.167 expected, 99.9 % interval, ${whatever})`);
        expect(game, made.label).not.toContain(noChance(c[5] as number));
        const [low, high] = (rowCells(section, 'data-figure="4+"').interval as string).split('–').map(Number);
        expect(stripTags(section), made.label).toContain(`In play, successes on 4+: ${formatProbability(low as number)} to ${formatProbability(high as number)} instead of 0.5 (99.9 % interval, ${whatever}).`);
        expect(stripTags(section), made.label).not.toContain(noChance((c[3] as number) + (c[4] as number) + (c[5] as number)));
      }
      const shownLive = live.dice.find((d) => d.label === made.label);
      expect(shownLive?.state, made.label).toBe(made.kind);
      expect(shownLive?.logE, made.label).toBeCloseTo(made.logE, 9);
      if (made.decidedAt !== null) expect(shownLive?.sentence, made.label).toBe(made.sentence);
      // The e-value and threshold the session used, in words and on the chart.
      const anytime = /<p class="note" data-test="anytime" data-source="session" data-log-e="([^"]+)" data-log-threshold="([^"]+)" data-decision="([^"]+)">/.exec(section);
      expect(anytime, made.label).not.toBeNull();
      expect(Number(anytime?.[1])).toBe(made.logE);
      expect(Number(anytime?.[2])).toBe(made.logThreshold);
      expect(anytime?.[3]).toBe(made.kind);
      const svg = svgById(html, `chart-${key}-evidence`);
      expect(Number(svgShape(svg, 'line', { role: 'threshold' })['data-value'])).toBe(made.logThreshold);
      // Replayed from the stored rolls, unresolved ones in their places: it ends at the stored e-value.
      expect(Number(svgShape(svg, 'polyline', { role: 'evidence' })['data-final'])).toBeCloseTo(made.logE, 9);
      if (made.unresolved > 0) declinedOnTheChart++;
      // Fixed-n p-values after optional stopping: descriptive.
      expect(section).toMatch(/data-test="symbol" data-descriptive="true"><strong>Descriptive only/);
      // Per face: read and reviewed; and the unresolved rolls.
      const faces = made.faces.map((f) => rowCells(section, `data-face="${f.label}"`));
      expect(faces.reduce((n, f) => n + Number((f.read ?? '').replace(/,/g, '')), 0), made.label).toBe(made.resolved);
      expect(section).toContain(`data-col="unresolved" data-value="${made.unresolved}"`);
      // Per die: read, of them after a re-read, reviewed, unresolved.
      const row = rowCells(html, `data-resolution-die="${made.label}"`);
      expect(Number(row.unresolved), made.label).toBe(made.unresolved);
      expect(Number(row.reviewed)).toBe(made.reviewed);
      expect(Number(row.read?.replace(/,/g, ''))).toBe(made.resolved);
      expect(row.reread).toMatch(/^\d+$/);
    });
    expect(declinedOnTheChart).toBeGreaterThan(0);
    // The re-read counts per die add up to the session's.
    const rereads = session.verdicts.dice.reduce((n, d) => n + Number(rowCells(html, `data-resolution-die="${d.label}"`).reread), 0);
    expect(rereads).toBe(session.totals.rereadResolved);

    // Where the stored roll events cannot be replayed, the chart falls back to the read rolls, but the words still state the session's verdict.
    const fallback = renderReportHtml(reportOf(db, 1, { verdicts: session.verdicts }).report, []);
    session.verdicts.dice.forEach((made, i) => {
      const section = dieSectionHtml(fallback, keys[i] as string);
      expect(section, made.label).toContain(`data-verdict="${made.kind}"`);
      expect(section).toContain(`data-source="read-rolls" data-log-e="${made.logE}" data-log-threshold="${made.logThreshold}" data-decision="${made.kind}"`);
      expect(stripTags(section)).toContain('The chart replays the read rolls only');
    });
  }, 300_000);
});

describe('the words of a report on verdicts a session made', () => {
  it('give the confidence and the anytime-valid chance the session decided at, and explain its rule, not the fixed-size analysis', async () => {
    const dir = tempDir('dicerig-report-words-');
    const cfg = join(dir, 'c.yaml');
    // A die loaded 4x on its 6 is UNFAIR, and a fair one FAIR_WITHIN(0.2), within a few dozen rolls each.
    writeFileSync(
      cfg,
      "seed: 2\ndice:\n  - { label: L1, type: d6, simulatedLoad: { symbol: '6', factor: 4 } }\n  - { label: F1, type: d6 }\nrig:\n  driver: sim\nstopping: { budgetRolls: 600, alpha: 0.05, delta: 0.2 }\n",
    );
    const db = join(dir, 'r.db');
    const run = await runCli('run', cfg, '--db', db, '--json');
    expect(run.code, run.err).toBe(0);
    const made = (JSON.parse(run.out) as { verdicts: SessionVerdicts }).verdicts;
    expect(made.dice.map((d) => d.kind)).toEqual(['UNFAIR', 'FAIR_WITHIN']);
    const out = join(dir, 'report');
    expect((await runCli('report', '1', '--db', db, '--out', out)).code).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const [unfair, fair] = made.dice as [SessionVerdicts['dice'][number], SessionVerdicts['dice'][number]];
    const words = (label: string) => stripTags(/<div class="meaning[^"]*">.*?<\/div>/s.exec(dieSectionHtml(html, fileKeys([label])[0] as string))?.[0] ?? '');
    expect(fair.alphaPerDie).toBe(0.025);
    expect(words('F1')).toContain('within ±0.2 of its published odds, with 97.5 % confidence for all of them at once');
    expect(words('L1')).toContain(`at any point of its rolling with probability ${formatProbability(unfair.adjustedAnytimeP)} at most, after allowing for the session's 2 dice.`);
    expect(words('L1')).not.toMatch(/after allowing for the \d+ tests? in this report/);
    const method = stripTags(/<section id="method">.*?<\/section>/s.exec(html)?.[0] ?? '');
    expect(method).toContain(`The verdicts are the session’s own, as it made them while rolling; this report does not recompute them. ${made.errorControl.statement}`);
    expect(method).toContain('every face’s anytime-valid 97.5 % interval');
    expect(method).toContain('The frequency and in-play charts, the p-values and the table of how alike the dice are treat the rolls as a sample of fixed size (97.5 % simultaneous intervals of the faces, 95 % in play)');
    expect(method).not.toContain('Verdicts treat each die’s rolls as a sample of fixed size');
  });
});
