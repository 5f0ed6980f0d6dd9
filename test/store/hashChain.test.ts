import { describe, expect, it } from 'vitest';
import { throwHash } from '../../src/store/hashChain.js';
import { RollStore } from '../../src/store/rollStore.js';
import { okThrow, storeWithSession, tamper } from './support/fixtures.js';

/** A store with one session of `n` ok throws, closed, so a second connection can tamper with the file. */
function recordedSession(n = 5): string {
  const { store, dice, session, path } = storeWithSession();
  for (let i = 1; i <= n; i++) store.recordThrow(session.id, okThrow(i, dice));
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

describe('the hash chain over throws', () => {
  it('verifies an untouched store, including after it is reopened', () => {
    const path = recordedSession();
    expect(verify(path)).toEqual({ ok: true, sessions: 1, throws: 5, rolls: 15, orphanRolls: 0, breaks: [] });
  });

  it('finds an edited roll and names its session and throw', () => {
    const path = recordedSession();
    tamper(path, (db) => db.prepare("UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE id = (SELECT r.id FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.idx = 3 LIMIT 1)").run());
    const report = verify(path);
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: 3, problem: 'throw 3 does not match its hash: the throw or its rolls were changed, or it was moved, after it was recorded' },
    ]);
  });

  it('finds a confidence nudged in the last decimal place', () => {
    const path = recordedSession();
    tamper(path, (db) => db.prepare('UPDATE rolls SET confidence = 0.9900000000000001 WHERE id = 5').run());
    expect(verify(path).breaks.map((b) => b.throwIndex)).toEqual([2]);
  });

  it('finds a deleted throw in the middle of a session (and the rolls it leaves behind)', () => {
    const path = recordedSession();
    tamper(path, (db) => db.prepare('DELETE FROM throws WHERE idx = 2').run());
    const report = verify(path);
    expect(report.breaks).toEqual([{ sessionId: 1, sessionName: 'bench-test', throwIndex: 2, problem: 'throw 2 is missing (the next stored throw is 3)' }]);
    expect(report.orphanRolls).toBe(3);
  });

  it('finds a deleted throw renumbered to close the gap', () => {
    const path = recordedSession();
    tamper(path, (db) => {
      db.prepare('DELETE FROM rolls WHERE throw_id = (SELECT id FROM throws WHERE idx = 2)').run();
      db.prepare('DELETE FROM throws WHERE idx = 2').run();
      db.prepare('UPDATE throws SET idx = idx - 1 WHERE idx > 2').run();
      db.prepare('UPDATE sessions SET throw_count = 4').run();
    });
    // Every break is reported: each renumbered throw no longer matches its hash, nor the old head the last one.
    expect(verify(path).breaks.map((b) => b.throwIndex)).toEqual([2, 3, 4, null]);
  });

  it('finds the last throw deleted, through the session head', () => {
    const path = recordedSession();
    tamper(path, (db) => {
      db.prepare('DELETE FROM rolls WHERE throw_id = (SELECT id FROM throws WHERE idx = 5)').run();
      db.prepare('DELETE FROM throws WHERE idx = 5').run();
    });
    expect(verify(path).breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: null, problem: 'the session recorded 5 throws but 4 are stored: throws were removed or added at the end' },
    ]);
  });

  it('finds two throws swapped in order', () => {
    const path = recordedSession();
    tamper(path, (db) => {
      db.prepare('UPDATE throws SET idx = 100 WHERE idx = 2').run();
      db.prepare('UPDATE throws SET idx = 2 WHERE idx = 4').run();
      db.prepare('UPDATE throws SET idx = 4 WHERE idx = 100').run();
    });
    // Every break is reported: both moved throws, and both throws that no longer follow the one before them.
    expect(verify(path).breaks.map((b) => b.throwIndex)).toEqual([2, 3, 4, 5]);
  });

  it('finds a throw inserted with a correctly computed hash, because the session head does not move', () => {
    const path = recordedSession();
    tamper(path, (db) => {
      const head = db.prepare<{ hash: string }>('SELECT hash FROM throws WHERE idx = 5').get()?.hash as string;
      const fields = { sessionId: 1, index: 6, startedAt: 1, endedAt: 2, status: 'ok', why: null };
      const roll = { seq: 0, dieId: 1, dieLabel: 'R1', dieType: 'red', channel: 0, faceId: 'crit', symbol: 'crit', confidence: 1, cocked: 0, classifierVersion: 'd8-v1', evidencePath: null, evidenceHash: null, simulated: 0 };
      const hash = throwHash(head, fields, [roll]);
      const id = db.prepare("INSERT INTO throws (session_id, idx, started_at, ended_at, status, why, prev_hash, hash) VALUES (1, 6, 1, 2, 'ok', NULL, ?, ?)").run(head, hash).lastInsertRowid;
      db.prepare("INSERT INTO rolls (throw_id, seq, die_id, channel, face_id, symbol, confidence, cocked, classifier_version, simulated) VALUES (?, 0, 1, 0, 'crit', 'crit', 1, 0, 'd8-v1', 0)").run(id);
    });
    expect(verify(path).breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: null, problem: 'the session recorded 5 throws but 6 are stored: throws were removed or added at the end' },
    ]);
  });

  it('finds a simulated session relabelled as real, from its first throw', () => {
    const { store, dice, session, path } = storeWithSession(undefined, true);
    store.recordThrow(session.id, okThrow(1, dice));
    store.close();
    tamper(path, (db) => db.prepare('UPDATE sessions SET simulated = 0').run());
    expect(verify(path).breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: 1, problem: 'throw 1 does not follow throw 0 in the chain: a throw was deleted, inserted or moved' },
    ]);
  });

  it('reports every break of each broken session and leaves intact sessions out', () => {
    const { store, dice, session, path } = storeWithSession();
    const other = store.createSession({ config: {}, simulated: false, startedAt: 5 });
    const third = store.createSession({ config: {}, simulated: false, startedAt: 6 });
    for (let i = 1; i <= 4; i++) {
      store.recordThrow(session.id, okThrow(i, dice));
      store.recordThrow(other.id, okThrow(i + 10, dice));
      store.recordThrow(third.id, okThrow(i + 20, dice));
    }
    store.close();
    tamper(path, (db) => {
      db.prepare("UPDATE throws SET status = 'void', why = 'x' WHERE session_id = ? AND idx IN (1, 3)").run(session.id);
      db.prepare('UPDATE throws SET started_at = started_at + 1 WHERE session_id = ? AND idx = 4').run(third.id);
    });
    const report = verify(path);
    expect(report.breaks.map((b) => [b.sessionId, b.throwIndex])).toEqual([
      [session.id, 1],
      [session.id, 3],
      [third.id, 4],
    ]);
  });
});
