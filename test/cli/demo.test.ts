import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedChannel } from '../../src/session/demo.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

interface DemoJson {
  state: string;
  simulated: boolean;
  dice: { label: string; rolls: number; decidedAt: number | null; verdict: { kind: string } }[];
  totals: { ok: number; rerolled: number };
  note: string;
  reportCommand: string;
}

describe('dicerig demo', () => {
  it('ends with the verdicts, the loaded die revealed, the session id and the report command', async () => {
    const dir = tempDir('dicerig-demo-');
    const db = join(dir, 'demo.db');
    const r = await runCli('demo', '--seed', '2', '--budget', '4', '--db', db, '--plain');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Session 1 finished/);
    expect(r.out).toMatch(/demo2-d6-A +\(d6, channel 0, 4 rolls\) +INCONCLUSIVE/);
    expect(r.out).toMatch(/The loaded die was demo2-d6-[A-D] \(6 1\.5x as likely as it should be\)/);
    expect(r.out).toContain(`Report:  dicerig report 1 --db ${db} --alpha 0.001 --delta 0.05`);
    expect(r.out).toMatch(/wall time/);
  });

  // The demo decides at alpha = 0.001. X-Wing dice make this quick: the loaded die's hit (or evade) at 0.5625
  // instead of 0.375 is flagged within 400 rolls in 99.9 % of runs (2,000 seeded runs of the monitor alone:
  // median 162, 99.9th percentile 397-432), while the fair dice stay INCONCLUSIVE at that budget or, rarely, FAIR_WITHIN.
  // Two seeds, the loaded die on another channel in each: a third seed cost about 30 s of CPU, 4 % of a test run's, and the
  // error rates themselves are tested where they are cheap (test/verdict/sessionErrorControl.test.ts).
  it('flags the loaded die UNFAIR and never a fair one, for two seeds, reading every die with the real pipeline', async () => {
    const dir = tempDir('dicerig-demo-');
    expect(loadedChannel(11)).not.toBe(loadedChannel(13));
    for (const seed of [11, 13]) {
      const r = await runCli('demo', '--seed', String(seed), '--dice', 'xwing', '--budget', '400', '--db', join(dir, `demo${seed}.db`), '--json');
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(r.out) as DemoJson;
      expect(j.state).toBe('finished');
      expect(j.simulated).toBe(true);
      const loaded = j.dice[loadedChannel(seed)];
      expect(loaded?.verdict.kind, `seed ${seed}: ${loaded?.label}`).toBe('UNFAIR');
      for (const [i, d] of j.dice.entries()) {
        if (i === loadedChannel(seed)) continue;
        expect(['FAIR_WITHIN', 'INCONCLUSIVE'], `seed ${seed}: ${d.label}`).toContain(d.verdict.kind);
        expect(d.rolls).toBeLessThanOrEqual(400);
      }
      expect(j.note).toMatch(/flagged UNFAIR after \d+ rolls\.\nNo fair die was flagged/);
      // Cocked dice (2 % of dice) are re-tumbled, not read.
      expect(j.totals.rerolled).toBeGreaterThan(0);
    }
  }, 400_000);
});
