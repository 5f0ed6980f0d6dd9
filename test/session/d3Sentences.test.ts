import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { RollStore } from '../../src/store/rollStore.js';
import type { SessionRecord } from '../../src/store/records.js';
import { storedSessionReport } from '../../src/report/storedSessionReport.js';
import { allDice } from '../../src/dice/catalogue.js';
import { tempDir } from '../store/support/fixtures.js';

describe('a D3 session’s verdict sentences', () => {
  it('name a D6 face by what it reads, so face 6 is never taken for a result 6 nor face 2 for a result 2: stored, announced and printed alike', async () => {
    const dir = tempDir('dicerig-d3-');
    const db = join(dir, 'd3.db');
    const config = checkSessionConfig({
      seed: 5,
      dice: [
        { label: 'heavy-3', type: 'd3', simulatedLoad: { symbol: '3', factor: 2 } },
        { label: 'fair', type: 'd3' },
      ],
      rig: { driver: 'sim' },
      camera: { source: 'sim', cockedRate: 0 },
      stopping: { budgetRolls: 200, alpha: 0.05 },
    });
    const opened = await openSession({ config, dbPath: db, wallNow: () => 0, log: () => undefined });
    const announced = new Map<string, string>();
    let result;
    try {
      result = await runSession(runnerDeps(opened, { onEvent: (e) => (e.type === 'decided' ? announced.set(e.label, e.sentence) : undefined) }), opened.plan);
    } finally {
      await opened.close();
    }
    const store = RollStore.open(db, { mustExist: true });
    const stored = store.storedVerdicts(result.sessionId)?.verdicts as SessionVerdicts;
    // The report's plain words name the face as the verdict does.
    const report = storedSessionReport(store, store.getSession(result.sessionId) as SessionRecord, { dice: allDice(), generatedAt: 0 });
    store.close();
    expect(report.dice.find((d) => d.analysis.label === 'heavy-3')?.meaning.join(' ')).toMatch(/face [56] \(reads 3\) comes up 0\.\d+ of the time instead of 0\.167/);
    // An undecided die's projection names its face so too.
    for (const d of stored.dice) if (/ stays at /.test(d.sentence)) expect(d.sentence).toMatch(/, if face \d \(reads \d\) stays at /);
    const heavy = stored.dice.find((d) => d.label === 'heavy-3');
    // Faces 5 and 6 read 3, each at 1/3 instead of 1/6.
    expect(heavy?.kind).toBe('UNFAIR');
    expect(heavy?.sentence).toMatch(/^UNFAIR: face [56] \(reads 3\) comes up 0\.\d+ instead of 0\.167/);
    expect(announced.get('heavy-3')).toBe(heavy?.sentence);
    expect(result.dice.find((o) => o.label === 'heavy-3')?.sentence).toBe(heavy?.sentence);
    // The stored face estimates keep the face ids every reader of the store matches on.
    expect(heavy?.faces.map((f) => f.label)).toEqual(['1', '2', '3', '4', '5', '6']);
  }, 60_000);
});
