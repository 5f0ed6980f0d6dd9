/**
 * The head of a session's review chain: its count and last hash, kept on the session in the same transaction as each
 * review, so a review deleted from the end (which leaves the chain before it whole) is seen by `verify`, and a head
 * written down elsewhere is checked by `verify --expect`. A store of schema 7 (before heads) is brought forward.
 */
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import type { ThrowInput } from '../../src/store/records.js';
import { runCli } from '../cli/runCli.js';
import { okThrow, storeWithSession } from './support/fixtures.js';

/** Throw n with die 0 declined by the reader (kept unresolved, with its crop). */
function throwWithDecline(n: number, dice: Parameters<typeof okThrow>[1]): ThrowInput {
  const t = okThrow(n, dice);
  const [first, ...rest] = t.rolls;
  return { ...t, rolls: [{ dieId: first!.dieId, channel: 0, confidence: 0.2, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-0-unreadable.png`, evidenceHash: 'hx', resolution: 'unresolved' }, ...rest] };
}

/** A store with one session, two declined rolls, both labelled: the second label is the chain's last review. */
function reviewedStore() {
  const s = storeWithSession();
  s.store.recordThrow(s.session.id, throwWithDecline(1, s.dice));
  s.store.recordThrow(s.session.id, throwWithDecline(2, s.dice));
  const [a, b] = s.store.unresolvedRolls(s.session.id);
  const first = s.store.reviewRoll(s.session.id, { rollId: a!.rollId, faceId: 'crit', reviewer: 'Ada', at: 10 });
  const last = s.store.reviewRoll(s.session.id, { rollId: b!.rollId, faceId: 'hit-1', reviewer: 'Ada', at: 11 });
  return { ...s, first, last };
}

/** Deletes the session's last review as someone with the file would: the append-only trigger dropped first, the roll put back as it was. */
function deleteLastReview(path: string, last: { id: number; rollId: number }): void {
  const db = openDatabase(path);
  db.exec('DROP TRIGGER reviews_no_delete');
  db.prepare('DELETE FROM reviews WHERE id = ?').run(last.id);
  db.prepare("UPDATE rolls SET resolution = 'unresolved' WHERE id = ?").run(last.rollId);
  db.close();
}

describe('the review chain head', () => {
  it('moves with each review: the session keeps its count and its last hash', () => {
    const { store, session, last } = reviewedStore();
    expect(store.reviewLog.head(session.id)).toEqual({ count: 2, hash: last.hash });
    store.close();
  });

  it('makes verify fail when the last review is deleted, naming the session and the missing review', async () => {
    const { store, session, path, last } = reviewedStore();
    store.close();
    expect((await runCli('verify', path)).code).toBe(0);
    deleteLastReview(path, last);
    const after = await runCli('verify', path, '--json');
    expect(after.code).toBe(1);
    const report = JSON.parse(after.out) as { ok: boolean; breaks: { sessionId: number; problem: string }[] };
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([expect.objectContaining({ sessionId: session.id, problem: expect.stringMatching(/recorded 2 review\(s\) but 1 are stored: reviews were removed or added at the end/) })]);
  });

  it('makes verify fail when the last review is deleted and the count set back by hand, by its head', () => {
    const { store, session, path, last, first } = reviewedStore();
    store.close();
    deleteLastReview(path, last);
    const db = openDatabase(path);
    db.prepare('UPDATE sessions SET review_count = 1 WHERE id = ?').run(session.id);
    db.close();
    const again = RollStore.open(path, { readonly: true });
    expect(again.verify().breaks.map((b) => b.problem)).toEqual([expect.stringMatching(/reviews head is not the hash of its last review/)]);
    // Set back to the review before too: then only a head written down elsewhere tells (verify --expect, below).
    expect(again.reviewLog.findHead(first.hash)).toEqual({ sessionId: session.id, reviewIndex: 1, reviewCount: 1 });
    again.close();
  });

  it('is checked by verify --expect: found while the review is there, EXPECTED HEAD MISSING once it is deleted', async () => {
    const { store, path, last } = reviewedStore();
    store.close();
    const found = await runCli('verify', path, '--expect', last.hash);
    expect(found.code, found.out + found.err).toBe(0);
    expect(found.out).toMatch(/session 1's reviews reach the expected review head \(review 2 of 2\)/);
    deleteLastReview(path, last);
    const db = openDatabase(path);
    // Head and count set back too, so the store alone looks whole: only the witness's head tells.
    db.prepare("UPDATE sessions SET review_count = 1, reviews_head = (SELECT hash FROM reviews ORDER BY id DESC LIMIT 1)").run();
    db.close();
    expect((await runCli('verify', path)).code).toBe(0);
    const missing = await runCli('verify', path, '--expect', last.hash);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/EXPECTED HEAD MISSING: no session's chain reaches the expected head \(neither its throws nor its reviews\)/);
  });
});

/** Makes a store file what schema 7 wrote: the same tables without the head columns (nor the later locks' PID namespace). */
function asSchema7(path: string): void {
  const db = openDatabase(path);
  db.exec('ALTER TABLE sessions DROP COLUMN review_count; ALTER TABLE sessions DROP COLUMN reviews_head; ALTER TABLE session_locks DROP COLUMN pid_ns;');
  db.pragma('user_version = 7');
  db.close();
}

describe('migration 8 (review chain heads)', () => {
  it('brings a schema-7 store forward with each session\'s review count and head from its reviews, and verify then sees a deleted last review', () => {
    const { store, session, path, last } = reviewedStore();
    store.close();
    asSchema7(path);
    const again = RollStore.open(path);
    expect(again.settings().schemaVersion).toBe(SCHEMA_VERSION);
    expect(again.reviewLog.head(session.id)).toEqual({ count: 2, hash: last.hash });
    expect(again.verify()).toMatchObject({ ok: true });
    again.close();
    deleteLastReview(path, last);
    const cut = RollStore.open(path, { readonly: true });
    expect(cut.verify().ok).toBe(false);
    cut.close();
  });

  it('gives a session without reviews an empty head, and its first review moves it', () => {
    const { store, session, dice, path } = storeWithSession();
    store.recordThrow(session.id, throwWithDecline(1, dice));
    store.close();
    asSchema7(path);
    const again = RollStore.open(path);
    expect(again.reviewLog.head(session.id)).toEqual({ count: 0, hash: '' });
    const r = again.reviewRoll(session.id, { rollId: again.unresolvedRolls(session.id)[0]!.rollId, faceId: 'crit', reviewer: 'Bo', at: 5 });
    expect(again.reviewLog.head(session.id)).toEqual({ count: 1, hash: r.hash });
    expect(again.verify()).toMatchObject({ ok: true });
    again.close();
  });
});
