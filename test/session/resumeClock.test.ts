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
  // The first run ends on its time budget, which counts all runs: the resume raises it.
  const opened = await openSession({ config, dbPath: db, wallNow: () => wallNow, ...(resume !== undefined ? { resume, moreHours: 0.005 } : {}) });
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

async function runWith(db: string, wallNow: number, extra: { resume?: string; moreHours?: number; stopAfterThrows?: number } = {}): Promise<{ elapsedMs: number; stop: string }> {
  const { stopAfterThrows, ...rest } = extra;
  const opened = await openSession({ config, dbPath: db, wallNow: () => wallNow, ...rest });
  const controller = new AbortController();
  let throws = 0;
  try {
    const result = await runSession(
      runnerDeps(opened, {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'throw' && ++throws === stopAfterThrows) controller.abort();
        },
      }),
      opened.plan,
    );
    return { elapsedMs: result.clock.elapsedMs, stop: result.stop };
  } finally {
    await opened.close();
  }
}

describe("a session's time budget", () => {
  const budgetMs = 0.005 * 3_600_000;

  it('counts the rolling time of all its runs: a run resumed after a stop gets only what is left of it', async () => {
    const db = join(tempDir('dicerig-time-budget-'), 'r.db');
    const first = await runWith(db, 1_700_000_000_000, { stopAfterThrows: 3 });
    expect(first.stop).toBe('user');
    const second = await runWith(db, 1_700_000_001_000, { resume: '1' });
    expect(second.stop).toBe('time-budget');
    // The two runs together roll about the budget (a throw's length past it at most); the second alone used to get all of it.
    expect(second.elapsedMs).toBeLessThan(budgetMs - first.elapsedMs / 2);
    expect(first.elapsedMs + second.elapsedMs).toBeGreaterThanOrEqual(budgetMs);
    expect(first.elapsedMs + second.elapsedMs).toBeLessThan(budgetMs + 10_000);
  });

  it('refuses to resume a session that finished on it, storing nothing, and rolls on for the hours a raise adds', async () => {
    const db = join(tempDir('dicerig-time-budget-'), 'r.db');
    expect((await runWith(db, 1_700_000_000_000)).stop).toBe('time-budget');
    await expect(runWith(db, 1_700_000_001_000, { resume: '1' })).rejects.toThrow(
      'session 1 finished on its time budget: its 0.005 h of rolling (over all its runs) are spent, so a resume would roll nothing. To roll on in the same session, raise its time budget: run --resume 1 --more-hours H',
    );
    const store = RollStore.open(db, { mustExist: true });
    const throws = store.lastThrowIndex(1);
    expect(store.events(1).filter((e) => e.kind === 'resumed')).toHaveLength(0);
    store.close();
    const raised = await runWith(db, 1_700_000_002_000, { resume: '1', moreHours: 0.002 });
    expect(raised.stop).toBe('time-budget');
    // The raise's hours, not a fresh budget of 0.007 h.
    expect(raised.elapsedMs).toBeGreaterThan(0.0015 * 3_600_000);
    expect(raised.elapsedMs).toBeLessThan(0.003 * 3_600_000);
    const after = RollStore.open(db, { mustExist: true });
    try {
      expect(after.lastThrowIndex(1)).toBeGreaterThan(throws);
      expect(after.events(1).filter((e) => e.kind === 'time-budget-raised').map((e) => e.detail)).toEqual([{ from: 0.005, to: 0.007 }]);
    } finally {
      after.close();
    }
  });
});
