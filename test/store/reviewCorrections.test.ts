/**
 * Corrections of a person's answer in the roll store: a new review that supersedes the answer it corrects, in the
 * same append-only chain, taken by every reader of the reviews as the answer that stands, and a store written before
 * corrections (schema 5) brought forward with its reviews as they were.
 */
import { describe, expect, it } from 'vitest';
import { ReviewError, reviewHash, type ReviewRecord } from '../../src/store/reviews.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import type { ThrowInput } from '../../src/store/records.js';
import { okThrow, storeWithSession } from './support/fixtures.js';
import { thrown } from '../support/thrown.js';

/** Throw n with die 0 declined by the reader (kept, unresolved, with its crop). */
function throwWithDecline(n: number, dice: Parameters<typeof okThrow>[1]): ThrowInput {
  const t = okThrow(n, dice);
  const [first, ...rest] = t.rolls;
  return { ...t, rolls: [{ dieId: first!.dieId, channel: 0, confidence: 0.2, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-0-unreadable.png`, evidenceHash: 'hx', resolution: 'unresolved' }, ...rest] };
}

function setup(path?: string) {
  const s = storeWithSession(path);
  s.store.recordThrow(s.session.id, okThrow(1, s.dice));
  s.store.recordThrow(s.session.id, throwWithDecline(2, s.dice));
  s.store.recordThrow(s.session.id, okThrow(3, s.dice));
  const rollId = s.store.unresolvedRolls(s.session.id)[0]!.rollId;
  return { ...s, rollId };
}

describe('corrections of a review', () => {
  it('stores a correction as a new review superseding the label: the roll counts with the corrected face from then, the earlier label stays in the chain, and verify holds', () => {
    const { store, session, dice, rollId } = setup();
    const first = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 10 });
    store.recordThrow(session.id, okThrow(4, dice));
    const fixed = store.reviewLog.correct(session.id, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 20, supersedes: first.id });
    expect(fixed).toMatchObject({ rollId, faceId: 'hit-1', symbol: 'hit', reviewer: 'Bob', afterThrow: 4, supersedes: first.id });
    expect(fixed.hash).toBe(reviewHash(fixed.prevHash, fixed));
    // Both in the chain, in order; the corrected face is the one counted and exported.
    expect(store.reviews(session.id).map((r) => [r.faceId, r.supersedes])).toEqual([['crit', null], ['hit-1', first.id]]);
    expect(store.dieRolls(session.id)[0]?.faces[1]).toBe('hit-1');
    // The session replays it at the throw it was given, after the label.
    expect(store.rollEvents(session.id).get(dice[0]!.id)!.map((e) => e.kind)).toEqual(['roll', 'unresolved', 'roll', 'review', 'roll', 'correction']);
    expect(store.unresolvedRolls(session.id)).toEqual([]);
    expect(store.verify()).toMatchObject({ ok: true });
    store.close();
  });

  it('corrects a label to "cannot tell" and back: the roll leaves the count, stays off the queue, then counts again', () => {
    const { store, session, rollId } = setup();
    const label = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 10 });
    const none = store.reviewLog.correct(session.id, { rollId, faceId: null, reviewer: 'Ada', at: 11, supersedes: label.id });
    expect(store.dieRolls(session.id)[0]?.throwIndices).toEqual([1, 3]);
    expect(store.unresolvedRolls(session.id).map((r) => [r.rollId, r.cannotTell])).toEqual([[rollId, true]]);
    expect(store.rollsToReview(session.id)).toEqual([]);
    expect(store.verify()).toMatchObject({ ok: true });
    store.reviewLog.correct(session.id, { rollId, faceId: 'focus-2', reviewer: 'Ada', at: 12, supersedes: none.id });
    expect(store.dieRolls(session.id)[0]?.faces[1]).toBe('focus-2');
    expect(store.unresolvedRolls(session.id)).toEqual([]);
    expect(store.verify()).toMatchObject({ ok: true });
    store.close();
  });

  it('refuses a correction of a roll nobody answered, of an answer changed since the person looked, and to the answer that stands; and a second first answer', () => {
    const { store, session, rollId } = setup();
    expect(thrown(() => store.reviewLog.correct(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 1, supersedes: 1 }), ReviewError).refusal).toBe('not-reviewed');
    const label = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 2 });
    const twice = thrown(() => store.reviewRoll(session.id, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 3 }), ReviewError);
    expect(twice.refusal).toBe('already-reviewed');
    expect(twice.message).toBe(`Roll ${rollId} (die "R1") is already labelled crit by Ada; correct it on its card to change it.`);
    const same = thrown(() => store.reviewLog.correct(session.id, { rollId, faceId: 'crit', reviewer: 'Bob', at: 3, supersedes: label.id }), ReviewError);
    expect(same.refusal).toBe('same-answer');
    store.reviewLog.correct(session.id, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 4, supersedes: label.id });
    const stale = thrown(() => store.reviewLog.correct(session.id, { rollId, faceId: 'blank-1', reviewer: 'Cy', at: 5, supersedes: label.id }), ReviewError);
    expect(stale.refusal).toBe('stale');
    expect(stale.message).toBe(`Roll ${rollId} (die "R1") was answered again since you looked: it is labelled hit-1 by Bob now. Nothing was stored.`);
    expect(store.reviews(session.id)).toHaveLength(2);
    store.close();
  });

  it('finds a correction whose superseded review was changed behind the store\'s back', () => {
    const { store, session, rollId, path } = setup();
    const label = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 2 });
    store.reviewLog.correct(session.id, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 4, supersedes: label.id });
    store.close();
    const db = openDatabase(path);
    db.exec('DROP TRIGGER reviews_no_update');
    db.prepare('UPDATE reviews SET supersedes = NULL WHERE supersedes IS NOT NULL').run();
    db.close();
    const again = RollStore.open(path);
    expect(again.verify().breaks[0]?.problem).toMatch(/does not match its hash/);
    again.close();
  });
});

/** Three rolls of die R1 declined (throws 2, 3 and 4), all labelled crit by Ada in one batch: a range labelled with the wrong face. */
function wronglyLabelledRange() {
  const s = storeWithSession();
  s.store.recordThrow(s.session.id, okThrow(1, s.dice));
  for (const n of [2, 3, 4]) s.store.recordThrow(s.session.id, throwWithDecline(n, s.dice));
  const labels = s.store.reviewRolls(
    s.session.id,
    s.store.unresolvedRolls(s.session.id).map((r) => ({ rollId: r.rollId, faceId: 'crit', reviewer: 'Ada', at: 10 })),
  );
  expect(labels).toHaveLength(3);
  return { ...s, labels };
}

describe('a batch of corrections', () => {
  it('corrects several labels at once, each superseding the answer the person saw, chained one by one with the head moved each time, and verify holds', () => {
    const { store, session, dice, labels } = wronglyLabelledRange();
    store.recordThrow(session.id, okThrow(5, dice));
    const fixed = store.reviewLog.correctAll(session.id, labels.map((l) => ({ rollId: l.rollId, faceId: 'hit-1', reviewer: 'Bob', at: 20, supersedes: l.id })));
    expect(fixed.map((r) => [r.rollId, r.faceId, r.supersedes, r.afterThrow])).toEqual(labels.map((l) => [l.rollId, 'hit-1', l.id, 5]));
    // One link of the chain a correction, each from the one before.
    expect(fixed.map((r) => r.prevHash)).toEqual([labels[2]!.hash, fixed[0]!.hash, fixed[1]!.hash]);
    for (const r of fixed) expect(r.hash).toBe(reviewHash(r.prevHash, r));
    expect(store.reviewLog.head(session.id)).toEqual({ count: 6, hash: fixed[2]!.hash });
    expect(store.dieRolls(session.id)[0]?.faces.slice(1, 4)).toEqual(['hit-1', 'hit-1', 'hit-1']);
    expect(store.verify()).toMatchObject({ ok: true });
    store.close();
  });

  it('stores none of a batch whose middle correction supersedes an answer changed since the person looked, naming that roll and its die', () => {
    const { store, session, labels } = wronglyLabelledRange();
    const [a, b, c] = labels as [ReviewRecord, ReviewRecord, ReviewRecord];
    // Another tab corrected the middle roll meanwhile.
    const other = store.reviewLog.correct(session.id, { rollId: b.rollId, faceId: 'focus-1', reviewer: 'Cy', at: 15, supersedes: b.id });
    const head = store.reviewLog.head(session.id);
    const batch = [a, b, c].map((l) => ({ rollId: l.rollId, faceId: 'hit-1', reviewer: 'Bob', at: 20, supersedes: l.id }));
    const refused = thrown(() => store.reviewLog.correctAll(session.id, batch), ReviewError);
    expect(refused.refusal).toBe('stale');
    expect(refused.message).toBe(`Roll ${b.rollId} (die "R1") was answered again since you looked: it is labelled focus-1 by Cy now. Nothing was stored.`);
    // The correction before the stale one was rolled back with it.
    expect(store.reviews(session.id).map((r) => r.id)).toEqual([a.id, b.id, c.id, other.id]);
    expect(store.reviewLog.head(session.id)).toEqual(head);
    expect(store.dieRolls(session.id)[0]?.faces.slice(1, 4)).toEqual(['crit', 'focus-1', 'crit']);
    expect(store.verify()).toMatchObject({ ok: true });
    store.close();
  });

  it("finds a correction of a batch changed behind the store's back", () => {
    const { store, session, labels, path } = wronglyLabelledRange();
    const fixed = store.reviewLog.correctAll(session.id, labels.map((l) => ({ rollId: l.rollId, faceId: 'hit-1', reviewer: 'Bob', at: 20, supersedes: l.id })));
    store.close();
    const db = openDatabase(path);
    db.exec('DROP TRIGGER reviews_no_update');
    db.prepare("UPDATE reviews SET face_id = 'hit-2' WHERE id = ?").run(fixed[1]!.id);
    db.close();
    const again = RollStore.open(path);
    expect(again.verify().breaks[0]?.problem).toBe(`review ${fixed[1]!.id} (roll ${fixed[1]!.rollId}) does not match its hash: it was changed after it was given`);
    again.close();
  });
});

describe('migration 7 (corrections)', () => {
  it('brings a store written before corrections forward: its reviews keep their ids and hashes, verify holds, and a label can then be corrected', () => {
    const { store, session, rollId, path } = setup();
    const label = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 2 });
    store.close();
    // The reviews table as schema 5 made it (one review a roll, no supersedes), at version 5 (so without schema 6's session locks either).
    const db = openDatabase(path);
    db.exec(`
      CREATE TABLE reviews_v5 (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id), roll_id INTEGER NOT NULL UNIQUE REFERENCES rolls(id),
        face_id TEXT, symbol TEXT NOT NULL, reviewer TEXT NOT NULL, at INTEGER NOT NULL, after_throw INTEGER NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
      INSERT INTO reviews_v5 SELECT id, session_id, roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash FROM reviews;
      DROP TABLE reviews;
      ALTER TABLE reviews_v5 RENAME TO reviews;
      CREATE INDEX reviews_by_session ON reviews(session_id, id);
      CREATE TRIGGER reviews_no_update BEFORE UPDATE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
      CREATE TRIGGER reviews_no_delete BEFORE DELETE ON reviews BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
      DROP TABLE session_locks;
      ALTER TABLE sessions DROP COLUMN review_count;
      ALTER TABLE sessions DROP COLUMN reviews_head;
    `);
    db.pragma('user_version = 5');
    db.close();
    const again = RollStore.open(path);
    expect(again.settings().schemaVersion).toBe(SCHEMA_VERSION);
    expect(again.reviews(session.id)).toEqual([{ ...label, supersedes: null }]);
    expect(again.verify()).toMatchObject({ ok: true });
    again.reviewLog.correct(session.id, { rollId, faceId: 'hit-2', reviewer: 'Bob', at: 3, supersedes: label.id });
    expect(again.verify()).toMatchObject({ ok: true });
    expect(() => openDatabase(path).prepare('DELETE FROM reviews').run()).toThrow(/append-only/);
    again.close();
  });
});
