import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/stats/random.js';
import { runCli } from './runCli.js';

/** A roll file of one D6: `faces` in order, 'U' for a row the reader left unresolved. */
function csv(faces: readonly (number | 'U')[]): string {
  const rows = faces.map((f, i) => `${i + 1},W,d6,${f === 'U' ? '' : f},${f === 'U' ? 'unresolved' : 'read'}`);
  return ['throw,die,type,face,resolution', ...rows].join('\n') + '\n';
}

/** 300 of each face in a seeded random order (a cycle would fail the rig checks), with `u` unresolved rows spread among them. */
function evenWith(u: number): (number | 'U')[] {
  const faces = Array.from({ length: 1800 }, (_, i) => (i % 6) + 1);
  const random = seededRandom(9);
  for (let i = faces.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [faces[i], faces[j]] = [faces[j] as number, faces[i] as number];
  }
  const out: (number | 'U')[] = [];
  faces.forEach((f, i) => {
    out.push(f);
    if (i % (1800 / u) === 0) out.push('U');
  });
  return out;
}

/** 40 each of 1–5 with 40 unresolved among them (no 6 read), then 60 of each face: as test/unit/analysis/anytimeUnresolved.test.ts. */
function declinedEarly(): (number | 'U')[] {
  const out: (number | 'U')[] = [];
  for (let i = 0; i < 200; i++) {
    out.push((i % 5) + 1);
    if (i % 5 === 4) out.push('U');
  }
  for (let i = 0; i < 360; i++) out.push((i % 6) + 1);
  return out;
}

describe('analyze on a roll file with unresolved rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-analyze-unresolved-'));

  /*
   * SciPy 1.17 (widened Goodman bound, 300 of each face, 40 unresolved; see test/unit/analysis/unresolvedRolls.test.ts):
   *   lo = stats.binomtest(300, 1840).proportion_ci(1 - 0.05/6, method='wilson').low
   *   hi = stats.binomtest(340, 1840).proportion_ci(1 - 0.05/6, method='wilson').high
   *   max(1/6 - lo, hi - 1/6)  -> 0.04315970192081148
   */
  it('certifies the same margin as pool on the same file, over all its rolls, whatever its unresolved rows were', async () => {
    const file = join(dir, 'y40.csv');
    writeFileSync(file, csv(evenWith(40)));
    const text = await runCli('analyze', file, '--alpha', '0.05', '--delta', '0.05');
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(
      'FAIR_WITHIN: every face is within ±0.05 of its expected odds after 1,840 rolls (largest deviation still possible 0.0432, 95 % confidence); it holds whatever the 40 unresolved rolls were.',
    );
    expect(text.out).toContain('    6         300     0.167     0.167        0.142–0.210        0 %');
    expect(text.out).toContain('(intervals widened over every face the 40 unresolved rolls could have been; observed: of the read rolls)');
    // One range per figure: its interval whatever the unresolved rolls were, not the read rolls' rate beside it.
    expect(text.out).toMatch(/sixes: 0\.\d{3} to 0\.\d{3} \(expected 0\.167; 95 % interval, whatever its 40 unresolved rolls were\)/);
    const analysed = JSON.parse((await runCli('analyze', file, '--alpha', '0.05', '--delta', '0.05', '--json')).out) as { dice: { verdict: { certifiedDelta: number; n: number } }[] };
    const pooled = JSON.parse((await runCli('pool', file, '--size', '1', '--alpha', '0.05', '--json')).out) as { certifiedDelta: number };
    expect(analysed.dice[0]?.verdict.certifiedDelta).toBeCloseTo(0.04315970192081148, 12);
    expect(pooled.certifiedDelta).toBeCloseTo(analysed.dice[0]?.verdict.certifiedDelta as number, 12);
    expect(analysed.dice[0]?.verdict.n).toBe(1840);
  });

  // SciPy: the least favourable e-value of 100 of each of 1–5, 60 sixes and 40 unresolved is 0.007523 (test/unit/analysis/anytimeUnresolved.test.ts).
  it('gives the least favourable anytime e-value over the unresolved rows, from the file and from the session it is imported as', async () => {
    const file = join(dir, 'early.csv');
    writeFileSync(file, csv(declinedEarly()));
    const line = 'anytime-valid e-value against the expected odds of its symbols, least favourable over the 40 unresolved rolls: 0.0075\n';
    const fromFile = await runCli('analyze', file, '--alpha', '0.05', '--delta', '0.05');
    expect(fromFile.code, fromFile.err).toBe(0);
    expect(fromFile.out).toContain(line);
    const db = join(dir, 'rolls.db');
    expect((await runCli('import', file, '--db', db, '--session-name', 'early')).code).toBe(0);
    const fromDb = await runCli('analyze', 'early', '--db', db, '--alpha', '0.05', '--delta', '0.05');
    expect(fromDb.code, fromDb.err).toBe(0);
    expect(fromDb.out).toContain(line);
  });

  it('is reported as analyze judges it: the same verdict and e-value once imported, not a verdict of the read rolls alone', async () => {
    // 108 of each of 1-5 and 60 sixes in a seeded order, 40 unresolved rows among them: the read rolls alone are short
    // of sixes (0.1 of them, not 0.167), which 40 unresolved sixes would all but make up.
    const faces: (number | 'U')[] = [...[1, 2, 3, 4, 5].flatMap((f) => Array.from({ length: 108 }, () => f)), ...Array.from({ length: 60 }, () => 6)];
    const random = seededRandom(3);
    for (let i = faces.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [faces[i], faces[j]] = [faces[j] as number, faces[i] as number];
    }
    for (let k = 0; k < 40; k++) faces.splice(Math.floor(random() * faces.length), 0, 'U');
    const file = join(dir, 'short-of-sixes.csv');
    writeFileSync(file, csv(faces));
    const db = join(dir, 'report.db');
    expect((await runCli('import', file, '--db', db)).code).toBe(0);
    const analysed = JSON.parse((await runCli('analyze', '1', '--db', db, '--json')).out) as { dice: { verdict: { kind: string }; anytime: { logE: number } }[] };
    const reported = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'), '--json');
    expect(reported.code, reported.err).toBe(0);
    const report = JSON.parse(reported.out) as { dice: { verdict: string; anytime: { logE: number; decision: string } }[] };
    // UNFAIR on the read rolls alone; the 40 unresolved rolls could undo it.
    expect(analysed.dice[0]?.verdict.kind).toBe('INCONCLUSIVE');
    expect(report.dice[0]?.verdict).toBe('INCONCLUSIVE');
    expect(report.dice[0]?.anytime.logE).toBeCloseTo(analysed.dice[0]?.anytime.logE as number, 9);
    expect(report.dice[0]?.anytime.decision).not.toBe('UNFAIR');
  });
});
