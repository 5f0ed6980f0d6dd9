import { describe, expect, it } from 'vitest';
import { analyzeDice } from '../../src/analysis/analyze.js';
import { resolveDieRolls } from '../../src/analysis/dieRolls.js';
import { allDice } from '../../src/dice/catalogue.js';
import { StoreError } from '../../src/store/errors.js';
import { RollStore } from '../../src/store/rollStore.js';
import { sessionDieLogs } from '../../src/store/sessionDieLogs.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { okThrow, simRig, storeWithSession, tempDbPath } from './support/fixtures.js';
import { thrown } from '../support/thrown.js';

const errorOf = (fn: () => unknown): StoreError => thrown(fn, StoreError);

function rowCounts(path: string): { throws: number; rolls: number } {
  const db = openDatabase(path, { readonly: true });
  try {
    const n = (table: string) => (db.prepare<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { throws: n('throws'), rolls: n('rolls') };
  } finally {
    db.close();
  }
}

describe('RollStore', () => {
  it('records throws with 1-based indices and reads each die’s counted rolls back in throw order', () => {
    const { store, dice, session } = storeWithSession();
    const recorded = [1, 2, 3].map((n) => store.recordThrow(session.id, okThrow(n, dice)));
    expect(recorded.map((r) => r.index)).toEqual([1, 2, 3]);
    expect(store.lastThrowIndex(session.id)).toBe(3);
    const series = store.dieRolls(session.id);
    expect(series.map((s) => s.die.label)).toEqual(['R1', 'R2', 'G1']);
    const r1 = series[0];
    expect(r1?.throwIndices).toEqual([1, 2, 3]);
    expect(r1?.faces).toEqual([1, 2, 3].map((n) => okThrow(n, dice).rolls[0]?.faceId));
    expect(r1?.channels).toEqual([0, 0, 0]);
    store.close();
  });

  it('writes a throw and its rolls all or nothing: a roll that fails mid-throw leaves nothing of that throw', () => {
    const { store, dice, session, path } = storeWithSession();
    store.recordThrow(session.id, okThrow(1, dice));
    const before = rowCounts(path);
    const good = okThrow(2, dice);
    // The third roll names a die that is not registered: the foreign key fails after two rolls were inserted.
    const bad = { ...good, rolls: [good.rolls[0], good.rolls[1], { ...good.rolls[2], dieId: 9999 }] } as typeof good;
    const e = errorOf(() => store.recordThrow(session.id, bad));
    expect(e.message).toBe('Cannot record throw 2 of session 1: roll 3: die 9999 is not registered. Nothing of the throw was stored.');
    // A die twice in one throw fails on its second roll, after the first was inserted.
    const twice = { ...good, rolls: [good.rolls[0], good.rolls[1], good.rolls[0]] } as typeof good;
    expect(errorOf(() => store.recordThrow(session.id, twice)).message).toMatch(/roll 3: die 1 appears twice in the throw/);
    expect(rowCounts(path)).toEqual(before);
    expect(store.lastThrowIndex(session.id)).toBe(1);
    expect(store.recordThrow(session.id, good).index).toBe(2);
    expect(store.verify().ok).toBe(true);
    store.close();
  });

  it('never counts void or rerolled throws, nor their rolls', () => {
    const { store, dice, session } = storeWithSession();
    store.recordThrow(session.id, okThrow(1, dice));
    store.recordThrow(session.id, { startedAt: 10, endedAt: 20, status: 'void', why: 'jam during tumble', rolls: okThrow(2, dice).rolls });
    const cocked = okThrow(3, dice);
    store.recordThrow(session.id, {
      ...cocked,
      status: 'rerolled',
      why: 'R2 cocked',
      rolls: cocked.rolls.map((r, i) => (i === 1 ? { dieId: r.dieId, channel: 1, cocked: true } : r)),
    });
    store.recordThrow(session.id, okThrow(4, dice));
    expect(store.counts(session.id)).toEqual({ throws: 4, ok: 2, void: 1, rerolled: 1, rolls: 12, countedRolls: 6, cocked: 1, events: 0 });
    expect(store.dieRolls(session.id).map((s) => s.throwIndices)).toEqual([
      [1, 4],
      [1, 4],
      [1, 4],
    ]);
    expect([...store.countedRolls(session.id)].map((r) => r.throwIndex)).toEqual([1, 1, 1, 4, 4, 4]);
    // Every throw keeps its times, counted or not: the report measures the rig's pace over them.
    expect(store.throwTimes(session.id).map((t) => [t.index, t.endedAt - t.startedAt])).toEqual([
      [1, okThrow(1, dice).endedAt - okThrow(1, dice).startedAt],
      [2, 10],
      [3, cocked.endedAt - cocked.startedAt],
      [4, okThrow(4, dice).endedAt - okThrow(4, dice).startedAt],
    ]);
    expect(store.throwTimes(session.id)[1]?.startedAt).toBe(10);
    store.close();
  });

  it('refuses an ok throw with a cocked or unread die, a void throw without a reason, and times that run backwards', () => {
    const { store, dice, session } = storeWithSession();
    const t = okThrow(1, dice);
    expect(errorOf(() => store.recordThrow(session.id, { ...t, rolls: [{ ...t.rolls[0], cocked: true } as (typeof t.rolls)[0]] })).message).toBe(
      'Cannot record the throw: roll 1 is cocked, so the throw cannot be ok; record it as rerolled.',
    );
    expect(errorOf(() => store.recordThrow(session.id, { ...t, rolls: [{ dieId: dice[0]?.id as number }] })).message).toMatch(/roll 1 was not read/);
    expect(errorOf(() => store.recordThrow(session.id, { ...t, status: 'void', rolls: [] })).message).toBe('Cannot record the throw: a void throw needs a reason (why).');
    expect(errorOf(() => store.recordThrow(session.id, { ...t, endedAt: t.startedAt - 1 })).message).toMatch(/ends \(\d+\) before it starts/);
    expect(errorOf(() => store.recordThrow(session.id, { ...t, rolls: [{ ...t.rolls[0], confidence: 1.5 } as (typeof t.rolls)[0]] })).message).toMatch(
      /confidence 1.5; it must be between 0 and 1/,
    );
    expect(store.counts(session.id).throws).toBe(0);
    store.close();
  });

  it('stamps every roll with the session’s simulated flag', () => {
    const real = storeWithSession();
    real.store.recordThrow(real.session.id, okThrow(1, real.dice));
    expect([...real.store.countedRolls(real.session.id)].every((r) => !r.simulated)).toBe(true);
    real.store.close();
    const sim = storeWithSession(tempDbPath(), true);
    sim.store.recordThrow(sim.session.id, okThrow(1, sim.dice));
    expect([...sim.store.countedRolls(sim.session.id)].every((r) => r.simulated)).toBe(true);
    sim.store.close();
  });

  it('logs events with their detail, in time order', () => {
    const { store, dice, session } = storeWithSession();
    store.recordEvent(session.id, { at: 200, kind: 'fault', detail: { kind: 'jam', message: 'motor stalled' } });
    store.recordEvent(session.id, { at: 100, kind: 'cocked', throwIndex: 1, dieId: dice[1]?.id as number, detail: { evidence: 'ev/1-1.png' } });
    expect(store.events(session.id).map((e) => [e.at, e.kind, e.throwIndex, e.detail])).toEqual([
      [100, 'cocked', 1, { evidence: 'ev/1-1.png' }],
      [200, 'fault', null, { kind: 'jam', message: 'motor stalled' }],
    ]);
    expect(errorOf(() => store.recordEvent(77, { at: 1, kind: 'fault' })).message).toBe('Cannot log the "fault" event: session 77 does not exist.');
    store.close();
  });

  it('resumes a session left running by a crash after its last committed throw, and refuses throws on an ended session', () => {
    const { store, dice, session, path } = storeWithSession();
    store.recordThrow(session.id, okThrow(1, dice));
    store.recordThrow(session.id, okThrow(2, dice));
    store.close(); // as if the process died: the session is still 'running'

    const reopened = RollStore.open(path);
    expect(reopened.getSession(session.id)?.state).toBe('running');
    const { lastThrowIndex } = reopened.resumeSession(session.id, 5000);
    expect(lastThrowIndex).toBe(2);
    expect(reopened.recordThrow(session.id, okThrow(3, dice)).index).toBe(3);
    reopened.endSession(session.id, 6000, 'stopped');
    expect(errorOf(() => reopened.recordThrow(session.id, okThrow(4, dice))).message).toBe('Session 1 is stopped; resume it before recording throws.');
    reopened.resumeSession(session.id, 7000);
    expect(reopened.recordThrow(session.id, okThrow(4, dice)).index).toBe(4);
    expect(reopened.events(session.id).map((e) => [e.kind, e.detail])).toEqual([
      ['resumed', { previousState: 'running', lastThrowIndex: 2 }],
      ['resumed', { previousState: 'stopped', lastThrowIndex: 3 }],
    ]);
    expect(reopened.verify().ok).toBe(true);
    reopened.close();
  });

  it('keeps one row per die label and per rig identity, and refuses a label reused for another die type', () => {
    const store = RollStore.open(tempDbPath());
    const a = store.registerDie({ label: 'R1', typeId: 'red', set: 'Core set 2.0' });
    expect(store.registerDie({ label: 'R1', typeId: 'red' })).toEqual(a);
    expect(a).toMatchObject({ label: 'R1', typeId: 'red', set: 'Core set 2.0', notes: null });
    expect(errorOf(() => store.registerDie({ label: 'R1', typeId: 'green' })).message).toBe(
      'Die "R1" is already in the store as type "red", not "green"; give this die another label.',
    );
    const rig = store.registerRig(simRig, 'cal-1');
    expect(store.registerRig({ ...simRig, port: '/dev/ttyACM0' }, 'cal-1').id).toBe(rig.id);
    expect(store.registerRig(simRig, 'cal-2').id).not.toBe(rig.id);
    expect(store.registerRig({ ...simRig, firmware: '0.2.0' }, 'cal-1').id).not.toBe(rig.id);
    expect(rig).toMatchObject({ rigId: 'sim-4ch', driver: 'simulated', firmware: '0.1.0', protocol: 1, configHash: 'cfg-1', calibrationHash: 'cal-1', tumbler: 'servo' });
    store.close();
  });

  it('finds a session by id or name and lists the sessions when there is no such one', () => {
    const { store, path } = storeWithSession();
    expect(store.findSession('1').name).toBe('bench-test');
    expect(store.findSession('bench-test').id).toBe(1);
    expect(errorOf(() => store.findSession('nope')).message).toBe(`There is no session "nope" in ${path}; sessions: 1 (bench-test).`);
    expect(errorOf(() => store.createSession({ name: 'bench-test', config: {}, simulated: false, startedAt: 1 })).message).toBe(
      'A session named "bench-test" already exists; choose another name.',
    );
    expect(errorOf(() => store.createSession({ name: '42', config: {}, simulated: false, startedAt: 1 })).message).toMatch(/must not be empty or all digits/);
    store.close();
  });

  it('hands a session to the analysis as the same counts the store holds', () => {
    const { store, dice, session } = storeWithSession();
    for (let n = 1; n <= 40; n++) store.recordThrow(session.id, okThrow(n, dice));
    const logs = sessionDieLogs(store.dieRolls(session.id), 'session 1');
    const catalogue = allDice();
    const analysis = analyzeDice(logs.map((l) => resolveDieRolls(l, catalogue)));
    for (const [i, d] of analysis.dice.entries()) {
      const stored = store.dieRolls(session.id)[i];
      expect(d.label).toBe(stored?.die.label);
      const faceIds = d.die.faces.map((f) => f.id);
      const expected = faceIds.map((id) => stored?.faces.filter((f) => f === id).length);
      expect(Array.from(d.face?.counts ?? [])).toEqual(expected);
    }
    store.close();
  });
});
