/**
 * Issue 10 review: a roll's resolution (read, unresolved, reviewed) is part of
 * what the hash chain covers. Before, a roll turned from read to unresolved (or
 * back) by hand in SQLite went unseen by verify.
 */
import { describe, expect, it } from 'vitest';
import { sealHash, throwHash, throwHashV1 } from '../../src/store/hashChain.js';
import type { ThrowInput } from '../../src/store/records.js';
import { RollStore } from '../../src/store/rollStore.js';
import { ChainRows } from '../../src/store/chainRows.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { okThrow, storeWithSession, tamper } from './support/fixtures.js';

/** Throw n with die 0 declined by the reader. */
function throwWithDecline(n: number, dice: Parameters<typeof okThrow>[1]): ThrowInput {
  const t = okThrow(n, dice);
  const [first, ...rest] = t.rolls;
  return { ...t, rolls: [{ dieId: first!.dieId, channel: 0, confidence: 0.2, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-0.png`, evidenceHash: 'hx', resolution: 'unresolved' }, ...rest] };
}

/** Throws 1..4, throw 2 with a declined roll; closed, so a second connection can tamper. */
function recorded(review = false): string {
  const { store, session, path } = storeWithSession();
  const dice = storeDice(store);
  store.recordThrow(session.id, okThrow(1, dice));
  store.recordThrow(session.id, throwWithDecline(2, dice));
  store.recordThrow(session.id, okThrow(3, dice));
  store.recordThrow(session.id, okThrow(4, dice));
  if (review) store.reviewRoll(session.id, { rollId: store.unresolvedRolls(session.id)[0]!.rollId, faceId: 'crit', reviewer: 'Ada', at: 5 });
  store.close();
  return path;
}

function storeDice(store: RollStore) {
  return store.dice().filter((d) => ['R1', 'R2', 'G1'].includes(d.label));
}

function verify(path: string, readonly = false) {
  const store = RollStore.open(path, readonly ? { readonly: true } : { mustExist: true });
  try {
    return store.verify();
  } finally {
    store.close();
  }
}

const rollOfThrow = (idx: number, seq: number) => `(SELECT r.id FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE t.idx = ${idx} AND r.seq = ${seq})`;

describe("a roll's resolution in the hash chain", () => {
  it('verifies an untouched store with declined and reviewed rolls', () => {
    expect(verify(recorded()).ok).toBe(true);
    expect(verify(recorded(true)).ok).toBe(true);
  });

  it('hashes a throw whose rolls were all read exactly as dicerig did before resolutions were hashed', () => {
    // The value the previous hashChain.ts (commit 24728c1) gives for this throw: stores written before stay verifiable.
    const t = { sessionId: 1, index: 2, startedAt: 1000, endedAt: 1800, status: 'ok', why: null };
    const roll = { seq: 0, dieId: 1, dieLabel: 'R1', dieType: 'red', channel: 0, faceId: 'crit', symbol: 'crit', confidence: 0.99, cocked: 0, classifierVersion: 'd8-v1', evidencePath: null, evidenceHash: null, simulated: 0 };
    const declined = { seq: 1, dieId: 2, dieLabel: 'R2', dieType: 'red', channel: 1, faceId: null, symbol: null, confidence: 0.2, cocked: 0, classifierVersion: 'd8-v1', evidencePath: 'ev/2-1.png', evidenceHash: 'hx', simulated: 0 };
    const before = '2d88d0f85229ac884a80e327f3618ac10c0b34546d138f98c235cc873c23dc29';
    expect(throwHash('prev', t, [roll, { ...declined, resolution: 'read' }])).toBe(before);
    expect(throwHashV1('prev', t, [roll, { ...declined, resolution: 'unresolved' }])).toBe(before);
    // A declined roll: the new encoding, the same for unresolved and (after a review) reviewed.
    const now = throwHash('prev', t, [roll, { ...declined, resolution: 'unresolved' }]);
    expect(now).not.toBe(before);
    expect(throwHash('prev', t, [roll, { ...declined, resolution: 'reviewed' }])).toBe(now);
  });

  it('finds a declined roll turned into a read one by hand', () => {
    const path = recorded();
    tamper(path, (db) => db.prepare(`UPDATE rolls SET resolution = 'read', face_id = 'hit-1', symbol = 'hit' WHERE id = ${rollOfThrow(2, 0)}`).run());
    const report = verify(path);
    expect(report.ok).toBe(false);
    expect(report.breaks.map((b) => b.throwIndex)).toEqual([2]);
    // The resolution alone, the face left empty as the reader left it.
    const alone = recorded();
    tamper(alone, (db) => db.prepare(`UPDATE rolls SET resolution = 'read' WHERE id = ${rollOfThrow(2, 0)}`).run());
    expect(verify(alone).breaks.map((b) => b.throwIndex)).toEqual([2]);
  });

  it('finds only the resolution flipped, read to unresolved, with the face left in place', () => {
    const path = recorded();
    tamper(path, (db) => db.prepare(`UPDATE rolls SET resolution = 'unresolved' WHERE id = ${rollOfThrow(3, 1)}`).run());
    const report = verify(path);
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: 3, problem: 'throw 3 does not match its hash: the throw or its rolls were changed, or it was moved, after it was recorded' },
    ]);
  });

  it('finds a reviewed roll set back to unresolved, and an unresolved one marked reviewed without a review', () => {
    const reviewed = recorded(true);
    tamper(reviewed, (db) => db.prepare(`UPDATE rolls SET resolution = 'unresolved' WHERE id = ${rollOfThrow(2, 0)}`).run());
    expect(verify(reviewed).breaks.map((b) => b.problem)).toEqual([expect.stringMatching(/has a stored review but is marked unresolved/)]);
    const open = recorded();
    tamper(open, (db) => db.prepare(`UPDATE rolls SET resolution = 'reviewed' WHERE id = ${rollOfThrow(2, 0)}`).run());
    expect(verify(open).breaks.map((b) => b.problem)).toEqual(['1 roll(s) are marked reviewed without a stored review']);
  });
});

/**
 * A store as the previous dicerig wrote it (schema 4): every throw hashed
 * 'dicerig-throw-v1', resolutions uncovered, no migration 5 table.
 */
function schema4Store(): string {
  const path = recorded();
  tamper(path, (db) => {
    const rows = new ChainRows(db);
    const throws = db.prepare<{ id: number; idx: number }>('SELECT id, idx FROM throws WHERE session_id = 1 ORDER BY idx').all();
    let prev = db.prepare<{ prev: string }>('SELECT prev_hash AS prev FROM throws WHERE id = ?').get(throws[0]!.id)!.prev;
    for (const t of throws) {
      const hash = throwHashV1(prev, rows.throwFields(t.id)!, rows.rolls(t.id));
      db.prepare('UPDATE throws SET prev_hash = ?, hash = ? WHERE id = ?').run(prev, hash, t.id);
      prev = hash;
    }
    db.prepare('UPDATE sessions SET head_hash = ? WHERE id = 1').run(prev);
    db.prepare('UPDATE sessions SET seal = ? WHERE id = 1').run(sealHash(rows.seal(1)!));
    // Schema 4 had neither the covers (5), the session locks (6) nor the review heads (8).
    db.exec('DROP TABLE legacy_resolutions; DROP TABLE session_locks; ALTER TABLE sessions DROP COLUMN review_count; ALTER TABLE sessions DROP COLUMN reviews_head');
    db.pragma('user_version = 4');
  });
  return path;
}

describe('stores written before resolutions were hashed', () => {
  it('the old encoding differs from the new one only for throws with a declined roll', () => {
    const path = recorded();
    const db = openDatabase(path, { readonly: true });
    const rows = new ChainRows(db);
    const ids = db.prepare<{ id: number; idx: number }>('SELECT id, idx FROM throws ORDER BY idx').all();
    const differs = ids.map((t) => throwHash('x', rows.throwFields(t.id)!, rows.rolls(t.id)) !== throwHashV1('x', rows.throwFields(t.id)!, rows.rolls(t.id)));
    expect(differs).toEqual([false, true, false, false]);
    db.close();
  });

  it('migration 5 covers them: the chain heads stay as they were, and a resolution edited afterwards is found', () => {
    const path = schema4Store();
    const headBefore = (() => {
      const db = openDatabase(path, { readonly: true });
      const h = db.prepare<{ h: string }>('SELECT head_hash AS h FROM sessions WHERE id = 1').get()!.h;
      db.close();
      return h;
    })();
    const migrated = verify(path);
    expect(migrated).toMatchObject({ ok: true });
    expect(migrated.notes).toBeUndefined();
    const store = RollStore.open(path, { mustExist: true });
    expect(store.getSession(1)!.headHash).toBe(headBefore);
    store.close();
    tamper(path, (db) => db.prepare(`UPDATE rolls SET resolution = 'read' WHERE id = ${rollOfThrow(2, 0)}`).run());
    expect(verify(path).breaks).toEqual([
      { sessionId: 1, sessionName: 'bench-test', throwIndex: 2, problem: "throw 2: a roll's resolution (read or unresolved) was changed after migration 5 covered it" },
    ]);
  });
});
