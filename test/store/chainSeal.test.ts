import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { okThrow, storeWithSession, tempDbPath, tamper } from './support/fixtures.js';
import { writeSchema1Store } from './support/schema1Store.js';

/** A finished session of `n` ok throws with two events, closed. */
function recorded(n = 4): string {
  const { store, dice, session, path } = storeWithSession();
  store.recordEvent(session.id, { at: 1, kind: 'fault', detail: { why: 'jam' } });
  for (let i = 1; i <= n; i++) store.recordThrow(session.id, okThrow(i, dice));
  store.recordEvent(session.id, { at: 2, kind: 'cocked', throwIndex: 2, detail: { die: 'R1' } });
  store.endSession(session.id, 1_800_000_000_000, 'finished');
  store.close();
  return path;
}

function verify(path: string) {
  const store = RollStore.open(path, { mustExist: true });
  try {
    return store.verify();
  } finally {
    store.close();
  }
}

const problems = (path: string): string[] => verify(path).breaks.map((b) => b.problem);

describe('the chain over a session’s metadata and events', () => {
  it('verifies an untouched session with events', () => {
    expect(verify(recorded())).toMatchObject({ ok: true, breaks: [] });
  });

  it.each([
    ['name', "UPDATE sessions SET name = 'renamed'"],
    ['state', "UPDATE sessions SET state = 'aborted'"],
    ['end time', 'UPDATE sessions SET ended_at = ended_at + 60000'],
  ])('finds the session %s edited', (_what, sql) => {
    const path = recorded();
    tamper(path, (db) => db.prepare(sql).run());
    expect(problems(path)).toEqual(["the session's name, state, end time or heads were changed after they were recorded (its seal does not match)"]);
  });

  it('finds an event edited, deleted or added', () => {
    const edited = recorded();
    tamper(edited, (db) => db.prepare(`UPDATE events SET detail_json = '{"why":"none"}' WHERE kind = 'fault'`).run());
    expect(problems(edited)).toEqual(['event 1 (fault) does not match its hash: it was changed after it was recorded']);
    const deleted = recorded();
    tamper(deleted, (db) => db.prepare("DELETE FROM events WHERE kind = 'fault'").run());
    expect(problems(deleted)).toEqual(expect.arrayContaining([expect.stringMatching(/event 1 \(cocked\) does not follow/)]));
    const added = recorded();
    tamper(added, (db) => db.prepare("INSERT INTO events (session_id, at, kind, detail_json) VALUES (1, 3, 'fault', '{}')").run());
    expect(problems(added)).toEqual(expect.arrayContaining([expect.stringMatching(/event 3 \(fault\)/)]));
  });

  it('finds the last throw deleted even when the session head and count were adjusted to match', () => {
    const path = recorded();
    tamper(path, (db) => {
      const prev = db.prepare<{ hash: string }>('SELECT hash FROM throws WHERE idx = 3').get()?.hash;
      db.prepare('DELETE FROM rolls WHERE throw_id = (SELECT id FROM throws WHERE idx = 4)').run();
      db.prepare('DELETE FROM throws WHERE idx = 4').run();
      db.prepare('UPDATE sessions SET head_hash = ?, throw_count = 3').run(prev);
    });
    expect(problems(path)).toEqual(["the session's name, state, end time or heads were changed after they were recorded (its seal does not match)"]);
  });

  it('reports every break in a session, not only the first', () => {
    const path = recorded(6);
    tamper(path, (db) => db.prepare("UPDATE throws SET status = 'void', why = 'x' WHERE idx IN (2, 5)").run());
    expect(verify(path).breaks.map((b) => b.throwIndex)).toEqual([2, 5]);
  });

  it('still verifies a store written before the seal, saying what its older chain covers', () => {
    const path = tempDbPath();
    writeSchema1Store(path, ['3', '3', '3'], 9);
    const report = verify(path);
    expect(report).toMatchObject({ ok: true, breaks: [], throws: 3 });
    expect(report.notes).toEqual([
      'session 1 (old) was recorded before dicerig sealed sessions: its chain covers its throws, rolls and identity, not its name, state, end time or events',
    ]);
  });
});
