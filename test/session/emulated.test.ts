import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_VERSION } from '../../src/rig/protocol/pinMap.js';
import { demoConfig } from '../../src/session/demo.js';
import type { SessionEvent } from '../../src/session/events.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { RollStore } from '../../src/store/rollStore.js';
import { buildFirmware } from '../rig/support/build.js';
import { tempDir } from '../store/support/fixtures.js';

beforeAll(() => {
  buildFirmware();
});

describe('a whole session on the emulated board', () => {
  it('tumbles with the real firmware in real time, reads every die the camera showed, stores and judges every throw', async () => {
    const db = join(tempDir('dicerig-session-'), 'emulated.db');
    const config = demoConfig({ seed: 5, dice: 'd6', emulated: true, budget: 6 });
    const opened = await openSession({ config, dbPath: db, wallNow: () => Date.now() });
    expect(opened.identity).toMatchObject({ driver: 'serial', firmware: FIRMWARE_VERSION });
    expect(opened.simulated).toBe(true);
    const misreads: string[] = [];
    const events: SessionEvent[] = [];
    let result;
    try {
      result = await runSession(
        runnerDeps(opened, {
          stopwatch: () => performance.now(),
          onEvent: (e) => {
            events.push(e);
            if (e.type !== 'throw' || e.status !== 'ok') return;
            // The camera rendered what the dice rolled; the pipeline must have read exactly that.
            const truth = opened.simCamera?.lastTruth;
            e.rolls.forEach((r, channel) => {
              const shown = truth?.dice.find((d) => d.channel === channel);
              if (shown?.face !== r.symbol) misreads.push(`throw ${e.index} ${r.label}: shown ${shown?.face}, read ${r.symbol}`);
            });
          },
        }),
        opened.plan,
      );
    } finally {
      await opened.close();
    }
    expect(misreads).toEqual([]);
    expect(result.state).toBe('finished');
    for (const d of result.dice) expect(d.rolls).toBe(6);
    expect(result.totals.ok).toBe(6);
    // Real time: every throw took at least the firmware's two 600 ms servo holds.
    expect(result.clock.elapsedMs / result.totals.throws).toBeGreaterThanOrEqual(1200);
    // The camera's dice come to rest 8..21 frames (270..700 ms at 30 fps) after the motion.
    for (const ms of result.settleMs) {
      expect(ms).toBeGreaterThanOrEqual(200);
      expect(ms).toBeLessThanOrEqual(800);
    }
    expect(events.filter((e) => e.type === 'throw')).toHaveLength(result.totals.throws);

    const store = RollStore.open(db, { mustExist: true });
    const session = store.getSession(result.sessionId);
    expect(session).toMatchObject({ state: 'finished', simulated: true });
    expect(store.getRig(session?.rigId as number)).toMatchObject({ driver: 'serial', firmware: FIRMWARE_VERSION });
    expect(store.counts(result.sessionId)).toMatchObject({ ok: 6, countedRolls: 24 });
    expect(store.verify().ok).toBe(true);
    store.close();
  }, 120_000);
});
