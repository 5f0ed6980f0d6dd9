import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';
import { demoSessions } from '../support/demoSessions.js';

type Pooled = { ranking: { label: string; score: number }[]; verdicts: Record<string, string>; rankedBySession: string[] };

describe('pool over several sessions', () => {
  it("ranks each session's dice by the session's intervals made again at alpha over all the candidates, keeping the verdicts the sessions made", async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'dicerig-pool-level-')), 'rolls.db');
    // Sessions 1 and 2, demos of other seeds (shared with importVerdicts.test.ts: run once per test run).
    const demos = await demoSessions([['--budget', '150', '--seed', '3'], ['--budget', '150', '--seed', '5']], db);
    expect(demos.map((d) => d.code), demos.map((d) => d.err).join('')).toEqual([0, 0]);
    const pool = async (...sessions: string[]) => JSON.parse((await runCli('pool', ...sessions, '--db', db, '--size', '2', '--json')).out) as Pooled;
    // Alone, session 1's four dice are ranked at its own level (0.001 over 4 dice: the pool's level too).
    const alone = await pool('1');
    const both = await pool('1', '2');
    expect(both.ranking).toHaveLength(8);
    expect(both.rankedBySession).toHaveLength(8);
    // Among 8 candidates each die's intervals are at 0.001 / 8, stricter than the session's 0.001 / 4: wider.
    for (const d of alone.ranking) {
      const again = both.ranking.find((r) => r.label === d.label);
      expect(again?.score, d.label).toBeGreaterThan(d.score);
      expect(again?.score, d.label).toBeLessThan(d.score + 0.02);
      expect(both.verdicts[d.label]).toBe(alone.verdicts[d.label]);
    }
    const text = (await runCli('pool', '1', '2', '--db', db, '--size', '2')).out;
    expect(text).toContain('(99.987 % simultaneous bound, alpha over the 8 dice; for a die the sessions judged, their anytime-valid intervals at that level)');
  }, 120_000);
});
