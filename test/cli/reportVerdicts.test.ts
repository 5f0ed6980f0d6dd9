import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

interface DieJson {
  label: string;
  verdict: string;
  anytime: { logE: number };
  sessionVerdict?: { kind: string; threshold: number; logE: number; anytimeP: number; unresolved: number };
}

describe('one verdict from session to report (issue 10)', () => {
  it('report of a demo session shows the same verdicts, thresholds and e-values as the session’s own summary', async () => {
    const dir = tempDir('dicerig-verdicts-');
    const db = join(dir, 'demo.db');
    const demo = await runCli('demo', '--seed', '11', '--dice', 'xwing', '--budget', '300', '--db', db, '--json');
    expect(demo.code, demo.err).toBe(0);
    const session = JSON.parse(demo.out) as { verdicts: SessionVerdicts };
    // 4 dice at alpha 0.001: each decided at the Bonferroni threshold K/alpha = 4000.
    expect(session.verdicts.errorControl).toMatchObject({ alpha: 0.001, dice: 4, threshold: 4000 });
    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'), '--json');
    expect(report.code, report.err).toBe(0);
    const r = JSON.parse(report.out) as { dice: DieJson[]; errorControl: SessionVerdicts['errorControl'] };
    expect(r.errorControl).toEqual(session.verdicts.errorControl);
    for (const made of session.verdicts.dice) {
      const shown = r.dice.find((d) => d.label === made.label);
      expect(shown?.verdict, made.label).toBe(made.kind);
      expect(shown?.sessionVerdict).toMatchObject({ kind: made.kind, threshold: made.threshold, logE: made.logE, anytimeP: made.anytimeP, unresolved: made.unresolved });
      expect(shown?.anytime.logE).toBe(made.logE);
    }
    const text = await runCli('report', '1', '--db', db, '--out', join(dir, 'report-text'));
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('Verdicts as the session made them (not recomputed): α = 0.001 for the whole session');
    expect(text.out).toMatch(/Fixed-n p-values in the report are descriptive only/);
  }, 300_000);
});
