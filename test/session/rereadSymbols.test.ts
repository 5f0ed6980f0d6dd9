import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { storedTotals } from '../../src/session/sessionTotals.js';
import { formatSessionSummary } from '../../src/session/summary.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';

describe('the dice a re-read resolved', () => {
  it('are recorded with the symbol read, and the summary says which faces the reader declined at first', async () => {
    // The simulated reader declines half its reads of a 6 and nothing else: a re-read resolves most of them. 60 rolls a
    // die give it a few to resolve (120 did no more for what is checked here, at twice the cost).
    const config = checkSessionConfig({ seed: 9, dice: [{ label: 'A', type: 'd6' }, { label: 'B', type: 'd6' }], rig: { driver: 'sim' }, camera: { source: 'sim', declines: { '6': 0.5 } }, stopping: { budgetRolls: 60 } });
    const db = join(tempDir('dicerig-reread-symbols-'), 'r.db');
    const opened = await openSession({ config, dbPath: db, wallNow: () => 1_700_000_000_000 });
    let summary: string;
    let resolved: number;
    try {
      const result = await runSession(runnerDeps(opened), opened.plan);
      resolved = result.totals.rereadResolved ?? 0;
      expect(resolved).toBeGreaterThan(0);
      expect(result.totals.rereadBySymbol).toEqual({ '6': resolved });
      summary = formatSessionSummary(result, { db, simulated: true });
    } finally {
      await opened.close();
    }
    expect(summary).toContain(`a re-read (further frames, light up and down) resolved ${resolved} (${resolved} read as 6; counted as read`);
    // A resumed run starts from the stored events' symbols.
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(storedTotals(store, 1).rereadBySymbol).toEqual({ '6': resolved });
      const reread = store.events(1).find((e) => e.kind === 'reread' && (e.detail as { resolved: number }).resolved > 0);
      expect(Object.values((reread?.detail as { resolvedAs: Record<string, string> }).resolvedAs)).toContain('6');
    } finally {
      store.close();
    }
  });
});
