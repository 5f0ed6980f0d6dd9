// After a fault the runner brings the rig back (light, home). A board still finishing a motion refuses that home as
// busy: after a reset, say, whose voided tumble reached the fresh firmware anyway. That is the same fault still
// clearing, not a new one: the runner waits and asks again, for a bounded time, and one reset never ends a session.
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/session/runner.js';
import { scriptedSession, type ChannelScript } from './support/fakes.js';

const faces = ['1', '2', '3', '4', '5', '6'];
const cycle = (call: number, channel: number): ChannelScript => faces[(call + channel * 2) % 6] as string;

describe('bringing the rig back after a fault', () => {
  it('waits out a board that refuses the home as busy, counting one fault, and goes on', async () => {
    const s = scriptedSession({ rig: ['ok', 'reset', 'ok'], fallback: cycle, rules: { budgetRolls: 3, maxConsecutiveFaults: 3 } });
    s.rig.onTumble = (n) => {
      if (n === 2) s.rig.homeBusy = 3;
    };
    const result = await runSession(s.deps, s.plan);
    expect(result.state).toBe('finished');
    expect(s.store.events(s.session.id).filter((e) => e.kind === 'fault')).toHaveLength(1);
    expect(s.store.events(s.session.id).some((e) => e.kind === 'recovered')).toBe(true);
    expect(s.store.counts(s.session.id)).toMatchObject({ ok: 3, void: 1 });
    expect(s.rig.homes).toBe(1 + 3 + 1); // the first home, three refused, the one that ran
  });

  it('counts a board busy for longer than any motion takes as a fault, after waiting a bounded time', async () => {
    const s = scriptedSession({ rig: ['reset'], fallback: cycle, rules: { maxConsecutiveFaults: 2 } });
    s.rig.onTumble = (n) => {
      if (n === 1) s.rig.homeBusy = 1000;
    };
    const t0 = s.clock.now();
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'aborted', stop: 'faults' });
    expect(result.reason).toMatch(/faulted 2 times in a row \(the last: The board refused the home \(seq 9\): busy\.\)/);
    const waited = s.clock.now() - t0;
    expect(waited).toBeGreaterThan(10_000);
    expect(waited).toBeLessThan(20_000);
  });
});
