import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DieVerdict } from '../../src/stats/dieVerdict.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('dicerig demo --declines', () => {
  it('refuses a face the dice do not have and a probability outside [0, 1), in one line', async () => {
    const dir = tempDir('dicerig-declines-');
    const face = await runCli('demo', '--declines', '7=0.3', '--db', join(dir, 'a.db'));
    expect(face.code).not.toBe(0);
    expect(face.err.trim()).toBe('dicerig: --declines: "7" is not a face of these dice (1, 2, 3, 4, 5, 6).');
    const p = await runCli('demo', '--declines', '6=1.5', '--db', join(dir, 'b.db'));
    expect(p.err.trim()).toBe('dicerig: --declines: the probability of 6 is 1.5; it must be at least 0 and below 1.');
    const shape = await runCli('demo', '--declines', '6:0.3', '--db', join(dir, 'c.db'));
    expect(shape.err.trim()).toBe('dicerig: --declines: "6:0.3" is not FACE=PROBABILITY (e.g. 6=0.3,1=0.05).');
  });

  it('finishes with declined dice re-read or kept unresolved in their places, counted per die, none lost', async () => {
    const dir = tempDir('dicerig-declines-');
    const db = join(dir, 'demo.db');
    // 6s declined often enough that re-reads leave some unresolved (at 6=0.3 this seed's re-reads resolved all 17).
    const r = await runCli('demo', '--seed', '3', '--budget', '60', '--declines', '6=0.6,1=0.05', '--db', db, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { state: string; totals: { declined: number; rereadResolved: number; unresolved: number }; verdicts: { dice: DieVerdict[] } };
    expect(j.state).toBe('finished');
    expect(j.totals.declined).toBeGreaterThan(0);
    expect(j.totals.unresolved).toBeGreaterThan(0);
    expect(j.totals.rereadResolved + j.totals.unresolved).toBe(j.totals.declined);
    const store = RollStore.open(db, { mustExist: true });
    try {
      const open = store.unresolvedRolls(1);
      expect(open).toHaveLength(j.totals.unresolved);
      // Every die's sequence holds its read and its unresolved rolls; the stored verdicts count both.
      const unresolvedByDie = j.verdicts.dice.reduce((n, d) => n + d.unresolved, 0);
      expect(unresolvedByDie).toBe(j.totals.unresolved);
      for (const d of j.verdicts.dice) expect(d.resolved + d.reviewed + d.unresolved).toBe(d.rolls);
      for (const o of open) expect(o.reason).toMatch(/the simulated reader declines a [16] with probability/);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
    // The report shows, per die, the rolls read and reviewed per face and those still unresolved.
    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'), '--json');
    expect(report.code, report.err).toBe(0);
    const shown = JSON.parse(report.out) as { resolution: { label: string; unresolved: number; faces: { face: string; read: number; reviewed: number }[] }[] };
    for (const d of j.verdicts.dice) {
      const r = shown.resolution.find((x) => x.label === d.label);
      expect(r?.unresolved, d.label).toBe(d.unresolved);
      expect(r?.faces.reduce((n, f) => n + f.read + f.reviewed, 0)).toBe(d.resolved + d.reviewed);
    }
    // A roll a person looked at and could not tell stays unresolved; the report says so of it.
    const rw = RollStore.open(db);
    const untold = rw.rollsToReview(1)[0]!;
    rw.reviewRoll(1, { rollId: untold.rollId, faceId: null, reviewer: 'ada', at: 1_790_000_000_000 });
    rw.close();
    const again = await runCli('report', '1', '--db', db, '--out', join(dir, 'report-2'), '--json');
    expect(again.code, again.err).toBe(0);
    const after = (JSON.parse(again.out) as { resolution: { label: string; unresolved: number; cannotTell?: number }[] }).resolution.find((x) => x.label === untold.dieLabel);
    const before = shown.resolution.find((x) => x.label === untold.dieLabel);
    expect(after).toMatchObject({ unresolved: before?.unresolved, cannotTell: 1 });
    const html = readFileSync(join(dir, 'report-2', 'report.html'), 'utf8');
    expect(html).toContain(`${before?.unresolved} (1 nobody could tell)`);
    expect(html).toMatch(/unresolved rolls? \(1 a person looked at and could not tell/);
  }, 300_000);
});
