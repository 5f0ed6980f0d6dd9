/**
 * The verdicts a session stores are what report, analyze, pool and export show as the session's: their digest is
 * sealed in the session's events chain, so verify finds them changed or removed behind the store's back.
 */
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { verdictsDigest } from '../../src/store/sessionVerdictRows.js';
import { okThrow, storeWithSession, tamper } from './support/fixtures.js';

const verdicts = (kind: string) => ({ dice: [{ label: 'R1', verdict: { kind, delta: 0.05 } }], alpha: 0.05 });

function sessionWithVerdicts() {
  const s = storeWithSession();
  for (let n = 1; n <= 5; n++) s.store.recordThrow(s.session.id, okThrow(n, s.dice));
  s.store.saveVerdicts(s.session.id, 1_700_000_010_000, verdicts('INCONCLUSIVE'));
  s.store.endSession(s.session.id, 1_700_000_010_000, 'finished');
  return s;
}

describe('stored verdicts sealed in the events chain', () => {
  it('verify passes while they are as stored, the last stored counting, and names the session whose verdicts were changed afterwards', () => {
    const s = sessionWithVerdicts();
    s.store.saveVerdicts(s.session.id, 1_700_000_020_000, verdicts('UNFAIR'));
    expect(s.store.verify().ok).toBe(true);
    expect(s.store.storedVerdicts(s.session.id)?.verdicts).toEqual(verdicts('UNFAIR'));
    s.store.close();
    tamper(s.path, (db) => db.prepare("UPDATE session_verdicts SET verdicts_json = replace(verdicts_json, 'UNFAIR', 'FAIR_WITHIN')").run());
    const again = RollStore.open(s.path);
    const report = again.verify();
    again.close();
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      { sessionId: s.session.id, sessionName: 'bench-test', throwIndex: null, problem: 'its stored verdicts are not the ones it made: they were changed after it stored them (their SHA-256 is not the one its events chain sealed)' },
    ]);
  });

  it('names stored verdicts that were removed, and a change to the event that sealed them breaks the events chain', () => {
    const removed = sessionWithVerdicts();
    removed.store.close();
    tamper(removed.path, (db) => db.prepare('DELETE FROM session_verdicts').run());
    const a = RollStore.open(removed.path);
    expect(a.verify().breaks.map((b) => b.problem)).toEqual(['its stored verdicts were removed (its events chain sealed the ones it made)']);
    a.close();

    const resealed = sessionWithVerdicts();
    resealed.store.close();
    // A tamperer who changes the verdicts and the digest the event holds: the event no longer matches its hash.
    tamper(resealed.path, (db) => {
      db.prepare("UPDATE session_verdicts SET verdicts_json = replace(verdicts_json, 'INCONCLUSIVE', 'FAIR_WITHIN')").run();
      const json = db.prepare<{ j: string }>('SELECT verdicts_json AS j FROM session_verdicts').get()?.j as string;
      db.prepare("UPDATE events SET detail_json = ? WHERE kind = 'verdicts-stored'").run(JSON.stringify({ sha256: verdictsDigest(json) }));
    });
    const b = RollStore.open(resealed.path);
    expect(b.verify().breaks.map((x) => x.problem)).toEqual([expect.stringMatching(/^event \d+ \(verdicts-stored\) does not match its hash/)]);
    b.close();
  });

  it('notes, without failing, verdicts a session stored before dicerig sealed them', () => {
    const s = storeWithSession();
    s.store.recordThrow(s.session.id, okThrow(1, s.dice));
    s.store.close();
    // As a dicerig before the seal stored them: the row alone, no event.
    tamper(s.path, (db) => db.prepare('INSERT INTO session_verdicts (session_id, at, verdicts_json) VALUES (?, ?, ?)').run(s.session.id, 1, JSON.stringify(verdicts('UNFAIR'))));
    const store = RollStore.open(s.path);
    const report = store.verify();
    store.close();
    expect(report.ok).toBe(true);
    expect(report.notes).toEqual(["session 1 (bench-test) stored its verdicts before dicerig sealed them in its events chain: whether they were changed since cannot be told"]);
  });
});
