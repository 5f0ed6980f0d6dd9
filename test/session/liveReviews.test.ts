import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/events.js';
import { LiveReviews } from '../../src/session/liveReviews.js';
import { MonitorSet } from '../../src/session/monitorSet.js';
import { runSession } from '../../src/session/runner.js';
import { formatSessionSummary } from '../../src/session/summary.js';
import { seededRandom } from '../../src/stats/random.js';
import { NO_SETTLE_WATCH, scriptedSession, RULES, type ChannelScript } from './support/fakes.js';

/**
 * A session whose reader never reads channel 0's 6 (a logo), with a person labelling that die's unresolved rolls as
 * 6 (as `dicerig review` does, in another process) while the run goes on, at the given reads of the throw loop.
 */
async function labelledWhileRunning(labelAt: readonly number[], budgetRolls = 400, face: string | null = '6') {
  const random = seededRandom(9);
  let labelled = 0;
  const fallback = (call: number, channel: number): ChannelScript => {
    // Called only while the session runs, after `session` below is made.
    if (channel === 0 && labelAt.includes(call)) {
      const id = session.session.id;
      const die = session.dice[0]?.record.id;
      for (const r of session.store.rollsToReview(id).filter((x) => x.dieId === die)) {
        session.store.reviewRoll(id, { rollId: r.rollId, faceId: face, reviewer: 'ada', at: 1_700_000_000_000 + call });
        labelled++;
      }
    }
    const shown = String(1 + Math.floor(random() * 6));
    return channel === 0 && shown === '6' ? { unreadable: true } : shown;
  };
  const session = scriptedSession({ fallback, rules: { budgetRolls, maxConsecutiveMissing: 10_000 }, settle: NO_SETTLE_WATCH });
  const events: SessionEvent[] = [];
  const result = await runSession({ ...session.deps, onEvent: (e) => events.push(e) }, session.plan);
  return { s: session, result, events, labelled };
}

describe('labels given while a session runs', () => {
  it('are taken in by the running session, so the verdicts it stores are those a monitor rebuilt from the store makes, labels included', async () => {
    const { s, result, events, labelled } = await labelledWhileRunning([150, 300]);
    expect(labelled).toBeGreaterThan(30);
    // The statuses' tallies count the labels too: the reader never read a 6, a person gave every one.
    const last = events.filter((e): e is Extract<SessionEvent, { type: 'throw' }> => e.type === 'throw').at(-1);
    expect(last?.dice[0]?.tally?.['6']).toBe(labelled);
    expect(Object.values(last?.dice[0]?.tally ?? {}).reduce((a, b) => a + b, 0)).toBe((result.dice[0]?.resolved ?? 0) + labelled);
    const live = result.dice[0];
    expect(live?.reviewed).toBe(labelled);
    expect(live?.unresolved).toBe(s.store.unresolvedRolls(s.session.id).length);
    // The session's one verdict, stored when it ended, is the one a resumed run or the review page rebuilds.
    const rebuilt = new MonitorSet(s.dice, { alpha: RULES.alpha, delta: RULES.delta, budgetRolls: 400 });
    rebuilt.replayStored(s.store, s.session.id);
    expect(s.store.storedVerdicts(s.session.id)?.verdicts).toEqual(rebuilt.verdicts(null));
    expect(rebuilt.tracks[0]?.monitor.state().reviewed).toBe(labelled);
  });

  it('decide a die during the run when the labels settle it, and say so as the session says any verdict', async () => {
    // Every 6 labelled early and often: the die reads as a fair one, and with 3,000 rolls of budget it is decided.
    const at = Array.from({ length: 60 }, (_, i) => 50 * (i + 1));
    const { s, result, events, labelled } = await labelledWhileRunning(at, 3000);
    expect(labelled).toBeGreaterThan(100);
    const decided = events.filter((e): e is Extract<SessionEvent, { type: 'decided' }> => e.type === 'decided' && e.label === s.dice[0]?.record.label);
    expect(decided).toHaveLength(1);
    expect(result.dice[0]?.verdict.kind).toBe(decided[0]?.verdict.kind);
    expect(result.dice[0]?.verdict.kind).not.toBe('INCONCLUSIVE');
    const rebuilt = new MonitorSet(s.dice, { alpha: RULES.alpha, delta: RULES.delta, budgetRolls: 3000 });
    rebuilt.replayStored(s.store, s.session.id);
    expect(s.store.storedVerdicts(s.session.id)?.verdicts).toEqual(rebuilt.verdicts(null));
  });

  it('store no roll of a die that a label decided while its throw was being read: every stored roll of the die is one its verdict counted', async () => {
    // Channel 0's die is declined 80 times, then labelled 6 every time while the reader reads the next throw (the fake
    // reader gives the labels): 80 sixes decide it UNFAIR before that throw is stored.
    const random = seededRandom(3);
    const fallback = (call: number, channel: number): ChannelScript => {
      if (channel === 0 && call === 81) {
        for (const r of s.store.rollsToReview(s.session.id).filter((x) => x.dieId === s.dice[0]?.record.id)) {
          s.store.reviewRoll(s.session.id, { rollId: r.rollId, faceId: '6', reviewer: 'ada', at: 1_700_000_000_000 + call });
        }
      }
      if (channel === 0 && call <= 80) return { unreadable: true };
      return String(1 + Math.floor(random() * 6));
    };
    const s = scriptedSession({ fallback, rules: { budgetRolls: 300, maxConsecutiveMissing: 10_000 }, settle: NO_SETTLE_WATCH });
    const result = await runSession(s.deps, s.plan);
    const id = s.session.id;
    const die = s.dice[0]?.record.id;
    const verdict = (s.store.storedVerdicts(id)?.verdicts as { dice: { label: string; rolls: number; kind: string }[] }).dice[0];
    expect(verdict?.kind).toBe('UNFAIR');
    expect(verdict?.rolls).toBe(80);
    const stored = (s.store.dieRolls(id).find((d) => d.die.id === die)?.faces.length ?? 0) + s.store.unresolvedRolls(id).filter((r) => r.dieId === die).length;
    expect(stored).toBe(verdict?.rolls);
    expect(result.dice[0]?.rolls).toBe(verdict?.rolls);
  });

  it('take in "cannot tell" too: the rolls stay unresolved, and the stored verdicts are those a rebuilt monitor makes', async () => {
    const { s, result, labelled } = await labelledWhileRunning([150, 300], 400, null);
    expect(labelled).toBeGreaterThan(30);
    const live = result.dice[0];
    expect(live?.reviewed).toBe(0);
    expect(live?.unresolved).toBe(s.store.unresolvedRolls(s.session.id).filter((r) => r.dieId === s.dice[0]?.record.id).length);
    // The run's summary does not send anyone to review them again.
    expect(live?.cannotTell).toBe(labelled);
    const waiting = s.store.rollsToReview(s.session.id).length;
    expect(formatSessionSummary(result, { db: 'rolls.db', simulated: true })).toContain(waiting > 0 ? `(${waiting} still to review)` : 'kept as unresolved rolls.');
    expect(s.store.unresolvedRolls(s.session.id).filter((r) => r.cannotTell)).toHaveLength(labelled);
    const rebuilt = new MonitorSet(s.dice, { alpha: RULES.alpha, delta: RULES.delta, budgetRolls: 400 });
    rebuilt.replayStored(s.store, s.session.id);
    expect(s.store.storedVerdicts(s.session.id)?.verdicts).toEqual(rebuilt.verdicts(null));
    // Its advice counts on no review of the rolls nobody could tell.
    expect(live?.sentence).toContain('nobody could tell');
  });

  it('takes a label in only once the throw it was given after is in the monitors, and each label once', async () => {
    const { s } = await labelledWhileRunning([], 100);
    const monitors = new MonitorSet(s.dice, { alpha: RULES.alpha, delta: RULES.delta, budgetRolls: 100 });
    monitors.replayStored(s.store, s.session.id);
    const live = new LiveReviews(s.store, s.session.id);
    const last = s.store.lastThrowIndex(s.session.id);
    const open = s.store.unresolvedRolls(s.session.id);
    expect(open.length).toBeGreaterThan(2);
    // Given now, after the session's last throw: due after that throw, not before it.
    const review = s.store.reviewRoll(s.session.id, { rollId: open[0]?.rollId as number, faceId: '6', reviewer: 'ada', at: 1 });
    expect(review.afterThrow).toBe(last);
    const reviewed = () => monitors.tracks[0]?.monitor.state().reviewed;
    expect(live.take(monitors, last - 1)).toEqual([]);
    expect(reviewed()).toBe(0);
    live.take(monitors, last);
    expect(reviewed()).toBe(1);
    live.take(monitors, last + 1);
    expect(reviewed()).toBe(1);
    // The reviews stored before it was made are the rebuilt monitors' already.
    expect(new LiveReviews(s.store, s.session.id).take(monitors, last + 5)).toEqual([]);
    expect(reviewed()).toBe(1);
  });

  it('take in a correction given while the run goes on at its next throw, so the verdicts it stores are those a monitor rebuilt from the store makes, the corrected faces counted', async () => {
    const random = seededRandom(9);
    let corrected = 0;
    const fallback = (call: number, channel: number): ChannelScript => {
      const id = session.session.id;
      const die = session.dice[0]?.record.id;
      // Labelled 5 by mistake at read 150, corrected to 6 at read 300 (and those declined between, labelled 6 then).
      if (channel === 0 && call === 150) for (const r of session.store.rollsToReview(id).filter((x) => x.dieId === die)) session.store.reviewRoll(id, { rollId: r.rollId, faceId: '5', reviewer: 'ada', at: call });
      if (channel === 0 && call === 300) {
        for (const r of session.store.reviews(id).filter((x) => x.faceId === '5')) {
          session.store.reviewLog.correct(id, { rollId: r.rollId, faceId: '6', reviewer: 'ada', at: call, supersedes: r.id });
          corrected++;
        }
      }
      const shown = String(1 + Math.floor(random() * 6));
      return channel === 0 && shown === '6' ? { unreadable: true } : shown;
    };
    const session = scriptedSession({ fallback, rules: { budgetRolls: 400, maxConsecutiveMissing: 10_000 }, settle: NO_SETTLE_WATCH });
    const result = await runSession(session.deps, session.plan);
    expect(corrected).toBeGreaterThan(10);
    const live = result.dice[0];
    expect(live?.reviewed).toBe(corrected);
    // The faces counted: every label a 6 now, none a 5 from a person.
    const rebuilt = new MonitorSet(session.dice, { alpha: RULES.alpha, delta: RULES.delta, budgetRolls: 400 });
    rebuilt.replayStored(session.store, session.session.id);
    expect(session.store.storedVerdicts(session.session.id)?.verdicts).toEqual(rebuilt.verdicts(null));
    const state = rebuilt.tracks[0]?.monitor.state();
    expect(state?.counts[5]).toBe(corrected);
    expect(session.store.verify()).toMatchObject({ ok: true });
  });
});
