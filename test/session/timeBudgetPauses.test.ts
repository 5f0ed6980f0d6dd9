import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/events.js';
import { timeBudgetLeftMs } from '../../src/session/progress.js';
import { runSession } from '../../src/session/runner.js';
import { rollingTime } from '../../src/session/rollingTime.js';
import { scriptedSession, type ChannelScript } from './support/fakes.js';

const faces = ['1', '2', '3', '4', '5', '6'];
const cycle = (call: number, channel: number): ChannelScript => faces[(call + channel * 2) % 6] as string;
const PAUSE_MS = 20 * 60_000;

/** A session with a time budget of 0.01 h (36 s) whose rig stands still for 20 minutes after its 5th throw (the user away, a stall). */
async function pausedRun(): Promise<{ s: ReturnType<typeof scriptedSession>; result: Awaited<ReturnType<typeof runSession>>; events: SessionEvent[] }> {
  const s = scriptedSession({ fallback: cycle, rules: { budgetRolls: 10_000, budgetHours: 0.01 } });
  const events: SessionEvent[] = [];
  const onEvent = (e: SessionEvent): void => {
    events.push(e);
    // Between throws: the next throw starts 20 minutes after this one was stored.
    if (e.type === 'throw' && e.index === 5) s.clock.advance(PAUSE_MS);
  };
  const result = await runSession({ ...s.deps, onEvent }, s.plan);
  return { s, result, events };
}

describe("a time budget and the current run's own pauses", () => {
  it('leaves a pause between this run\'s throws out of the budget, as it leaves out the pauses of earlier runs', async () => {
    const { s, result } = await pausedRun();
    expect(result.stop).toBe('time-budget');
    // It rolled its 36 s besides the pause: a run that charged the pause stopped right after it, at throw 6.
    expect(result.totals.throws).toBeGreaterThan(10);
    expect(result.clock.elapsedMs).toBeGreaterThan(PAUSE_MS + 36_000);
    // What it counted is what a resume would count over the stored throws: one function, one figure.
    const stored = rollingTime(s.store.throwTimes(s.session.id));
    expect(stored.pauses).toBe(1);
    expect(result.clock.rollingMs).toBe(stored.ms);
    expect(stored.ms).toBeGreaterThanOrEqual(36_000);
    expect(stored.ms).toBeLessThan(36_000 + 5000);
  });

  it('shows the budget left without the pause', async () => {
    const { events } = await pausedRun();
    const after = events.find((e): e is Extract<SessionEvent, { type: 'throw' }> => e.type === 'throw' && e.index === 6);
    expect(after).toBeDefined();
    const clock = (after as Extract<SessionEvent, { type: 'throw' }>).clock;
    // Six throws' rolling is seconds: most of the 36 s is left, though the run's clock passed 20 minutes.
    expect(clock.elapsedMs).toBeGreaterThan(PAUSE_MS);
    expect(timeBudgetLeftMs(clock, 0.01)).toBeGreaterThan(20_000);
  });
});
