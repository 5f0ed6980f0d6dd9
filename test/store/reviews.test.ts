import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { isCannotTell, ReviewError } from '../../src/store/reviews.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import type { ThrowInput } from '../../src/store/records.js';
import { okThrow, storeWithSession } from './support/fixtures.js';
import { thrown } from '../support/thrown.js';

/** Throw n with die 0 declined by the reader (kept, unresolved, with its crop). */
function throwWithDecline(n: number, dice: Parameters<typeof okThrow>[1]): ThrowInput {
  const t = okThrow(n, dice);
  const [first, ...rest] = t.rolls;
  return { ...t, rolls: [{ dieId: first!.dieId, channel: 0, confidence: 0.2, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-0-unreadable.png`, evidenceHash: 'hx', resolution: 'unresolved' }, ...rest] };
}

function setup() {
  const s = storeWithSession();
  s.store.recordThrow(s.session.id, okThrow(1, s.dice));
  const second = s.store.recordThrow(s.session.id, throwWithDecline(2, s.dice));
  s.store.recordEvent(s.session.id, { at: 1, kind: 'unreadable', throwIndex: second.index, dieId: s.dice[0]!.id, detail: { reason: 'no icon above the noise floor' } });
  s.store.recordThrow(s.session.id, okThrow(3, s.dice));
  return s;
}

describe('declined rolls and reviews in the store', () => {
  it('keeps a declined roll in its ok throw, uncounted, and lists it with its crop and the reader’s reason', () => {
    const { store, session, dice } = setup();
    expect(store.dieRolls(session.id)[0]?.throwIndices).toEqual([1, 3]);
    const open = store.unresolvedRolls(session.id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ throwIndex: 2, dieId: dice[0]!.id, dieLabel: 'R1', dieType: 'red', channel: 0, evidencePath: 'ev/2-0-unreadable.png', reason: 'no icon above the noise floor' });
    const events = store.rollEvents(session.id).get(dice[0]!.id)!;
    expect(events.map((e) => e.kind)).toEqual(['roll', 'unresolved', 'roll']);
    store.close();
  });

  it('stores a person’s label with who and when; the roll counts from then on and the chain still verifies', () => {
    const { store, session, dice } = setup();
    const rollId = store.unresolvedRolls(session.id)[0]!.rollId;
    const review = store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Ada', at: 1_700_000_100_000 });
    expect(review).toMatchObject({ rollId, faceId: 'crit', symbol: 'crit', reviewer: 'Ada', at: 1_700_000_100_000, afterThrow: 3 });
    expect(store.unresolvedRolls(session.id)).toEqual([]);
    const r1 = store.dieRolls(session.id)[0]!;
    expect(r1.throwIndices).toEqual([1, 2, 3]);
    expect(r1.faces[1]).toBe('crit');
    expect(store.rollEvents(session.id).get(dice[0]!.id)!.map((e) => e.kind)).toEqual(['roll', 'unresolved', 'roll', 'review']);
    expect(store.verify().ok).toBe(true);
    store.close();
  });

  it('refuses a face the die does not have, a roll already labelled, a read roll and a session that does not exist', () => {
    const { store, session } = setup();
    const rollId = store.unresolvedRolls(session.id)[0]!.rollId;
    const bad = thrown(() => store.reviewRoll(session.id, { rollId, faceId: 'evade-1', reviewer: 'Ada', at: 1 }), ReviewError);
    expect(bad.refusal).toBe('bad-face');
    expect(bad.message).toBe('A red die has no face "evade-1" (its faces: hit-1, hit-2, hit-3, crit, focus-1, focus-2, blank-1, blank-2).');
    store.reviewRoll(session.id, { rollId, faceId: 'hit-2', reviewer: 'Ada', at: 2 });
    const twice = thrown(() => store.reviewRoll(session.id, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 3 }), ReviewError);
    expect(twice.refusal).toBe('already-reviewed');
    expect(twice.message).toBe(`Roll ${rollId} (die "R1") is already labelled hit-2 by Ada; correct it on its card to change it.`);
    const read = thrown(() => store.reviewRoll(session.id, { rollId: rollId + 1, faceId: 'hit-1', reviewer: 'Bob', at: 3 }), ReviewError);
    expect(read.refusal).toBe('not-unresolved');
    const none = thrown(() => store.reviewRoll(999, { rollId, faceId: 'hit-1', reviewer: 'Bob', at: 3 }), ReviewError);
    expect(none.refusal).toBe('no-session');
    expect(none.message).toBe(`There is no session 999 in ${store.path}.`);
    expect(thrown(() => store.unresolvedRolls(999), ReviewError).refusal).toBe('no-session');
    expect(store.reviews(session.id)).toHaveLength(1);
    store.close();
  });

  it('keeps reviews append-only, and verify finds a review changed behind its back', () => {
    const { store, session, path } = setup();
    const rollId = store.unresolvedRolls(session.id)[0]!.rollId;
    store.reviewRoll(session.id, { rollId, faceId: 'hit-2', reviewer: 'Ada', at: 2 });
    store.close();
    const db = openDatabase(path);
    expect(() => db.prepare("UPDATE reviews SET face_id = 'crit'").run()).toThrow(/append-only/);
    db.exec('DROP TRIGGER reviews_no_update');
    db.prepare("UPDATE reviews SET face_id = 'crit', symbol = 'crit'").run();
    db.close();
    const again = RollStore.open(path);
    const report = again.verify();
    expect(report.ok).toBe(false);
    expect(report.breaks[0]?.problem).toMatch(/does not match its hash: it was changed after it was given/);
    again.close();
  });

  it('takes "cannot tell" off the review queue for good, while the roll stays unresolved and uncounted, and the chains verify', () => {
    const { store, session, dice } = setup();
    const rollId = store.unresolvedRolls(session.id)[0]!.rollId;
    const review = store.reviewRoll(session.id, { rollId, faceId: null, reviewer: 'Ada', at: 5 });
    expect(review).toMatchObject({ rollId, faceId: null, symbol: '', reviewer: 'Ada', afterThrow: 3 });
    expect(isCannotTell(review)).toBe(true);
    // Still unresolved (every verdict counts it as any face), but nobody waits to review it.
    expect(store.unresolvedRolls(session.id)).toEqual([expect.objectContaining({ rollId, cannotTell: true })]);
    expect(store.rollsToReview(session.id)).toEqual([]);
    // Never counted, not even as a roll with an empty symbol.
    expect(store.dieRolls(session.id)[0]?.throwIndices).toEqual([1, 3]);
    expect(store.rollEvents(session.id).get(dice[0]!.id)!.map((e) => e.kind)).toEqual(['roll', 'unresolved', 'roll', 'cannot-tell']);
    expect(store.verify().ok).toBe(true);
    const twice = thrown(() => store.reviewRoll(session.id, { rollId, faceId: 'crit', reviewer: 'Bob', at: 6 }), ReviewError);
    expect(twice.refusal).toBe('already-reviewed');
    expect(twice.message).toBe(`Roll ${rollId} (die "R1") is already answered "cannot tell" by Ada; correct it on its card to change it.`);
    store.close();
  });

  it('finds a "cannot tell" roll turned into a labelled one behind the store\'s back', () => {
    const { store, session, path } = setup();
    const rollId = store.unresolvedRolls(session.id)[0]!.rollId;
    store.reviewRoll(session.id, { rollId, faceId: null, reviewer: 'Ada', at: 5 });
    store.close();
    const db = openDatabase(path);
    db.prepare("UPDATE rolls SET resolution = 'reviewed' WHERE id = ?").run(rollId);
    db.close();
    const again = RollStore.open(path);
    const report = again.verify();
    expect(report.ok).toBe(false);
    expect(report.breaks.map((b) => b.problem).join('\n')).toContain(`roll ${rollId} has a stored "cannot tell" answer but is marked reviewed`);
    again.close();
  });

  it('refuses an unresolved roll that claims a face', () => {
    const { store, session, dice } = setup();
    const t = okThrow(4, dice);
    const err = thrown(() => store.recordThrow(session.id, { ...t, rolls: [{ ...t.rolls[0]!, resolution: 'unresolved' }] }), StoreError);
    expect(err.message).toBe('Cannot record the throw: roll 1 is unresolved, so it has no face or symbol.');
    store.close();
  });
});

describe('migration 4 (declined rolls, reviews, verdicts)', () => {
  it('brings a version-1 store forward: its rolls become read, its chain still verifies, and reviews can be added', async () => {
    const { MIGRATIONS, migrate, SCHEMA_VERSION } = await import('../../src/store/migrations.js');
    const { tempDbPath } = await import('./support/fixtures.js');
    const path = tempDbPath();
    const db = openDatabase(path);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version === 1));
    db.close();
    // A version-1 store written through the version-1 schema: the store opens and migrates it.
    const raw = openDatabase(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    raw.close();
    const { store, session, dice } = storeWithSession(path);
    store.recordThrow(session.id, okThrow(1, dice));
    expect(store.settings().schemaVersion).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
    expect(store.verify().ok).toBe(true);
    expect(store.dieRolls(session.id).map((s) => s.throwIndices)).toEqual([[1], [1], [1]]);
    store.close();
  });
});

describe('the session verdicts in the store and the export', () => {
  it('stores the verdicts as the session made them and exports them as is, with the count of unresolved rolls', async () => {
    const { exportSession } = await import('../../src/store/exportSession.js');
    const { store, session } = setup();
    const verdicts = { errorControl: { alpha: 0.001, dice: 3, threshold: 3000 }, dice: [{ label: 'R1', kind: 'INCONCLUSIVE', logE: 0.5 }] };
    store.saveVerdicts(session.id, 5, verdicts);
    expect(store.storedVerdicts(session.id)).toEqual({ at: 5, verdicts });
    const manifest = exportSession(store, store.getSession(session.id)!, 'jsonl', new Date(0)).manifest;
    expect(manifest.verdicts).toEqual(verdicts);
    expect(manifest.unresolvedRolls).toBe(1);
    expect(thrown(() => store.saveVerdicts(999, 5, verdicts), StoreError).message).toBe(`There is no session 999 in ${store.path}.`);
    store.close();
  });
});
