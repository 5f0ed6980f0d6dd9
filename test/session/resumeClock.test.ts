import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';

const config = checkSessionConfig({
  seed: 3,
  dice: [{ label: 'T1', type: 'd6' }],
  rig: { driver: 'sim' },
  // About 18 s of rig time per run: a handful of throws.
  stopping: { budgetRolls: 500, budgetHours: 0.005 },
});

async function runOnce(db: string, wallNow: number, resume?: string): Promise<void> {
  const opened = await openSession({ config, dbPath: db, wallNow: () => wallNow, ...(resume !== undefined ? { resume } : {}) });
  try {
    await runSession(runnerDeps(opened), opened.plan);
  } finally {
    await opened.close();
  }
}

describe('resuming a session on the simulated clock', () => {
  it('continues the session time from the last stored throw, even when less wall time has passed', async () => {
    const db = join(tempDir('dicerig-resume-clock-'), 'r.db');
    const t0 = 1_700_000_000_000;
    await runOnce(db, t0);
    // The simulated clock runs far ahead of the wall clock: resume one wall second later.
    await runOnce(db, t0 + 1000, '1');
    const store = RollStore.open(db, { mustExist: true });
    try {
      const times = store.throwTimes(1);
      expect(times.length).toBeGreaterThan(4);
      for (let i = 1; i < times.length; i++) expect((times[i] as { startedAt: number }).startedAt).toBeGreaterThanOrEqual((times[i - 1] as { endedAt: number }).endedAt);
    } finally {
      store.close();
    }
  });
});
