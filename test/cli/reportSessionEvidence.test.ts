/**
 * Issue 10 review: the HTML report of a sequential session shows what the
 * session decided with, not a recomputation from the read rolls: the same
 * verdicts, threshold K/α and e-values as the session's own summary (its
 * evidence chart replays the session's least favourable e-value, declined
 * rolls included), fixed-n p-values labelled descriptive, and how each die's
 * rolls were resolved, per die and per face.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { fileKeys } from '../../src/report/fileKeys.js';
import { tempDir } from '../store/support/fixtures.js';
import { dieSectionHtml, rowCells, stripTags, svgById, svgShape } from '../report/support/html.js';
import { runCli } from './runCli.js';

interface DemoJson {
  verdicts: SessionVerdicts;
  totals: { declined: number; rereadResolved: number; unresolved: number };
}

describe('report of a demo session with declines (HTML)', () => {
  it('shows the session’s verdicts, threshold and e-values, labels fixed-n p-values descriptive, and tabulates read, re-read, reviewed and unresolved rolls per die and per face', async () => {
    const dir = tempDir('dicerig-report-evidence-');
    const db = join(dir, 'demo.db');
    const demo = await runCli('demo', '--seed', '3', '--budget', '150', '--declines', '6=0.9,1=0.5', '--db', db, '--json');
    expect(demo.code, demo.err).toBe(0);
    const session = JSON.parse(demo.out) as DemoJson;
    expect(session.totals.unresolved).toBeGreaterThan(0);
    const out = join(dir, 'report');
    const report = await runCli('report', '1', '--db', db, '--out', out);
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');

    // The session's one error control, as the summary states it.
    const control = session.verdicts.errorControl;
    expect(stripTags(html)).toContain(`Verdicts as the session made them (not recomputed): ${control.statement}`);
    expect(html).toContain(`data-threshold="${control.threshold}"`);
    expect(stripTags(html)).toContain('Misreads: assumed 0: no calibration measured them (D6s are read by their pips, with no calibration).');

    const keys = fileKeys(session.verdicts.dice.map((d) => d.label));
    let declinedOnTheChart = 0;
    session.verdicts.dice.forEach((made, i) => {
      const key = keys[i] as string;
      const section = dieSectionHtml(html, key);
      expect(section, made.label).toContain(`data-verdict="${made.kind}"`);
      // The e-value and threshold the session used, in words and on the chart.
      const anytime = /<p class="note" data-test="anytime" data-source="session" data-log-e="([^"]+)" data-log-threshold="([^"]+)">/.exec(section);
      expect(anytime, made.label).not.toBeNull();
      expect(Number(anytime?.[1])).toBe(made.logE);
      expect(Number(anytime?.[2])).toBe(made.logThreshold);
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
  }, 300_000);
});
