/**
 * The review page's API over a real demo session with declined dice: labels
 * are stored as a person's with who and when, each refusal of the store comes
 * back as a 400/404/409 with its message, the verdicts are remade as the
 * session made them and stored, and the page is served only to loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReviewServer, OPEN_SESSION_SENTENCE, readerGuess } from '../../src/server/review/reviewApp.js';
import { recomputeVerdicts } from '../../src/server/review/sessionVerdicts.js';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { RollStore } from '../../src/store/rollStore.js';
import { declinedCopy } from '../e2e/support/declinedCopy.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-review-'));
let store: RollStore;
let app: FastifyInstance;
const AT = 1_790_000_000_000;

type RollView = { rollId: number; die: string; dieType: string; reason: string | null; guess: string | null; faces: string[]; crop: boolean };
type DieView = { label: string; kind: string; resolved: number; reviewed: number; unresolved: number };

beforeAll(async () => {
  const db = await declinedCopy(dir);
  store = RollStore.open(db);
  app = await createReviewServer({ store, sessionId: 1, reviewer: 'ada', now: () => AT });
}, 60_000);

afterAll(async () => {
  await app?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const label = (rollId: number | string, face: unknown) => app.inject({ method: 'POST', url: `/api/rolls/${rollId}/label`, headers: { host: '127.0.0.1' }, payload: { face } });
const labelAll = (rolls: readonly number[], face: unknown) => app.inject({ method: 'POST', url: '/api/labels', headers: { host: '127.0.0.1' }, payload: { rolls, face } });
const state = async () => (await app.inject({ method: 'GET', url: '/api/review', headers: { host: '127.0.0.1' } })).json<{ dice: DieView[]; rolls: RollView[] }>();

describe('the review API', () => {
  it('says what the reader made of a declined die, from its event details', () => {
    expect(readerGuess({ reason: 'x', details: { pips: 6, confidence: 0.9635 } })).toBe('counted 6 pips, confidence 0.96');
    expect(readerGuess({ reason: 'x', details: { pips: 1 } })).toBe('counted 1 pip');
    expect(readerGuess({ reason: 'x' })).toBeNull();
  });

  it('remakes the verdicts the session stored, before any review', () => {
    const stored = store.storedVerdicts(1)?.verdicts as SessionVerdicts;
    const remade = recomputeVerdicts(store, 1);
    expect(remade.dice.map((d) => [d.label, d.kind, d.logE, d.resolved, d.unresolved])).toEqual(stored.dice.map((d) => [d.label, d.kind, d.logE, d.resolved, d.unresolved]));
    expect(remade.errorControl).toEqual(stored.errorControl);
  });

  it('lists the declined rolls with their die, faces, crop and the reason the reader gave', async () => {
    const { rolls } = await state();
    expect(rolls.length).toBeGreaterThan(2);
    expect(rolls.length).toBe(store.unresolvedRolls(1).length);
    for (const r of rolls) {
      expect(r.faces).toEqual(['1', '2', '3', '4', '5', '6']);
      expect(r.reason).toMatch(/declines a [16]/);
      // The reader saw the face it then declined (the simulated reader declines by face).
      expect(r.guess).toMatch(new RegExp(`^counted ${/declines a ([16])/.exec(r.reason ?? '')?.[1]} pips?, confidence [01]\\.\\d\\d$`));
      expect(r.crop).toBe(true);
    }
    const crop = await app.inject({ url: `/api/crops/${rolls[0]?.rollId}`, headers: { host: '127.0.0.1' } });
    expect(crop.statusCode).toBe(200);
    expect(crop.headers['content-type']).toBe('image/png');
    expect(crop.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('stores a label as the reviewer\'s, with when, and stores the remade verdicts', async () => {
    const before = await state();
    const roll = before.rolls[0] as RollView;
    const res = await label(roll.rollId, '6');
    expect(res.statusCode).toBe(200);
    const reviews = store.reviews(1);
    expect(reviews.at(-1)).toMatchObject({ rollId: roll.rollId, faceId: '6', reviewer: 'ada', at: AT });
    const after = res.json<{ dice: DieView[] }>().dice.find((d) => d.label === roll.die) as DieView;
    const was = before.dice.find((d) => d.label === roll.die) as DieView;
    expect([after.reviewed, after.unresolved]).toEqual([was.reviewed + 1, was.unresolved - 1]);
    const stored = store.storedVerdicts(1) as { at: number; verdicts: SessionVerdicts };
    expect(stored.at).toBe(AT);
    expect(stored.verdicts.dice.find((d) => d.label === roll.die)?.reviewed).toBe(was.reviewed + 1);
    expect((await state()).rolls.map((r) => r.rollId)).not.toContain(roll.rollId);
  });

  it('refuses a face the die does not have with 400, naming its faces', async () => {
    const roll = (await state()).rolls[0] as RollView;
    const res = await label(roll.rollId, '7');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ refusal: 'bad-face', error: 'A d6 die has no face "7" (its faces: 1, 2, 3, 4, 5, 6).' });
    expect(store.reviews(1).some((r) => r.rollId === roll.rollId)).toBe(false);
  });

  it('refuses a crop already labelled with 409, with the label stored (who, what) and the dice counted as the server has them', async () => {
    const done = store.reviews(1)[0];
    const res = await label(done?.rollId as number, '1');
    expect(res.statusCode).toBe(409);
    const body = res.json<{ error: string; stored: unknown[]; dice: DieView[] }>();
    expect(body.error).toMatch(/is already labelled/);
    expect(body.stored).toEqual([{ id: done?.id, rollId: done?.rollId, face: '6', cannotTell: false, reviewer: 'ada', at: AT, earlier: [] }]);
    expect(body.dice).toEqual((await state()).dice);
  });

  it('gives the page every answer that stands and the command that starts its server again', async () => {
    const got = (await app.inject({ method: 'GET', url: '/api/review', headers: { host: '127.0.0.1' } })).json<{ answers: { rollId: number }[]; restart: string }>();
    expect(got.answers.map((a) => a.rollId)).toEqual(store.reviews(1).map((r) => r.rollId));
    expect(got.restart).toBe(`dicerig review 1 --db ${store.path}`);
  });

  it('refuses a roll the reader read with 409, and an unknown roll with 404', async () => {
    const read = store.rollEvents(1).get(store.findDie('demo1-d6-A')?.id as number)?.find((e) => e.kind === 'roll');
    const r1 = await label(read?.rollId as number, '1');
    expect(r1.statusCode).toBe(409);
    expect(r1.json<{ error: string }>().error).toMatch(/was read by the reader; only unresolved rolls \(declined, or the die not found\) take a label/);
    const r2 = await label(999_999, '1');
    expect(r2.statusCode).toBe(404);
    expect(r2.json<{ error: string }>().error).toBe('Session 1 has no roll 999999.');
    const r3 = await label('abc', '1');
    expect(r3.statusCode).toBe(404);
  });

  it('labels several selected crops with one face in one request, stored in order as the reviewer\'s, the verdicts remade', async () => {
    const before = await state();
    const die = (before.rolls[0] as RollView).die;
    const picked = before.rolls.filter((r) => r.die === die).slice(0, 3).map((r) => r.rollId);
    expect(picked.length).toBe(3);
    const count = store.reviews(1).length;
    const res = await labelAll(picked, '6');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ reviews: { rollId: number; face: string }[] }>().reviews.map((r) => [r.rollId, r.face])).toEqual(picked.map((id) => [id, '6']));
    expect(store.reviews(1).slice(count).map((r) => [r.rollId, r.faceId, r.reviewer, r.at])).toEqual(picked.map((id) => [id, '6', 'ada', AT]));
    const after = res.json<{ dice: DieView[] }>().dice.find((d) => d.label === die) as DieView;
    const was = before.dice.find((d) => d.label === die) as DieView;
    expect([after.reviewed, after.unresolved]).toEqual([was.reviewed + 3, was.unresolved - 3]);
    expect((store.storedVerdicts(1)?.verdicts as SessionVerdicts).dice.find((d) => d.label === die)?.reviewed).toBe(was.reviewed + 3);
    // The review chain still holds.
    expect(store.verify()).toMatchObject({ ok: true, breaks: [] });
  });

  it('stores none of a batch when one of its rolls is refused, naming that roll', async () => {
    const open = (await state()).rolls.slice(0, 2).map((r) => r.rollId);
    const done = store.reviews(1)[0]?.rollId as number;
    const count = store.reviews(1).length;
    const res = await labelAll([...open, done], '1');
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string }>().error).toMatch(new RegExp(`^Roll ${done} \\(die "[^"]+"\\) is already labelled 6 by ada; correct it on its card to change it\\. No label of this batch was stored\\.$`));
    expect(store.reviews(1).length).toBe(count);
    expect((await state()).rolls.map((r) => r.rollId)).toEqual(expect.arrayContaining(open));
    const bad = await labelAll(open, '7');
    expect(bad.statusCode).toBe(400);
    expect(store.reviews(1).length).toBe(count);
  });

  it('refuses a batch that names no rolls, a roll twice, or ids that are not whole numbers, before storing anything', async () => {
    const open = (await state()).rolls[0]?.rollId as number;
    const count = store.reviews(1).length;
    for (const [rolls, why] of [
      [[], /with 1 to 5000 roll ids/],
      [[open, open], /a roll id is named twice/],
      [[open, 1.5], /with 1 to 5000 roll ids/],
      ['12', /with 1 to 5000 roll ids/],
    ] as const) {
      const res = await labelAll(rolls as unknown as number[], '1');
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(why);
    }
    const noFace = await labelAll([open], '');
    expect(noFace.json<{ error: string }>().error).toMatch(/say which face the dice show/);
    expect(store.reviews(1).length).toBe(count);
  });

  it('asks for a face when the body names none', async () => {
    const res = await label((await state()).rolls[0]?.rollId as number, 6);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/say which face/);
  });

  it('takes crops nobody can tell off the list, one or a batch: the rolls stay unresolved and the evidence is as before', async () => {
    const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { host: '127.0.0.1' }, payload: payload as object });
    const before = await state();
    const [one, ...rest] = before.rolls;
    const die = (one as RollView).die;
    const was = before.dice.find((d) => d.label === die) as DieView & { cannotTell: number };
    const logE = recomputeVerdicts(store, 1).dice.find((d) => d.label === die)?.logE;
    const res = await post(`/api/rolls/${one?.rollId}/label`, { cannotTell: true });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ review: unknown }>().review).toMatchObject({ rollId: one?.rollId, face: null, cannotTell: true, reviewer: 'ada', at: AT, earlier: [] });
    const after = res.json<{ dice: (DieView & { cannotTell: number })[] }>().dice.find((d) => d.label === die)!;
    expect([after.reviewed, after.unresolved, after.cannotTell]).toEqual([was.reviewed, was.unresolved, was.cannotTell + 1]);
    expect(recomputeVerdicts(store, 1).dice.find((d) => d.label === die)?.logE).toBe(logE);
    expect((await state()).rolls.map((r) => r.rollId)).not.toContain(one?.rollId);
    const two = rest.slice(0, 2).map((r) => r.rollId);
    const batch = await post('/api/labels', { rolls: two, cannotTell: true });
    expect(batch.statusCode).toBe(200);
    expect(batch.json<{ reviews: { rollId: number; cannotTell: boolean }[] }>().reviews.map((r) => [r.rollId, r.cannotTell])).toEqual(two.map((id) => [id, true]));
    expect(store.unresolvedRolls(1).filter((r) => r.cannotTell).map((r) => r.rollId)).toEqual(expect.arrayContaining([one?.rollId, ...two]));
    expect(store.verify()).toMatchObject({ ok: true, breaks: [] });
    // Once looked at, a roll takes no face; and a body must say one thing.
    const again = await label(one?.rollId as number, '6');
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toMatch(/is already answered "cannot tell" by ada; correct it on its card to change it/);
    const both = await post(`/api/rolls/${rest[2]?.rollId}/label`, { face: '6', cannotTell: true });
    expect(both.statusCode).toBe(400);
    expect(both.json<{ error: string }>().error).toMatch(/or \{"cannotTell": true\}/);
  });

  it('corrects a label as a new review that supersedes it: the verdicts are remade with the corrected face, the earlier label comes back as history, and an answer changed since is refused with 409', async () => {
    const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { host: '127.0.0.1' }, payload: payload as object });
    const roll = (await state()).rolls[0] as RollView;
    expect((await label(roll.rollId, '6')).statusCode).toBe(200);
    const first = store.reviews(1).at(-1) as NonNullable<ReturnType<typeof store.reviews>[number]>;
    const die = (await state()).dice.find((d) => d.label === roll.die);
    const res = await post(`/api/rolls/${first.rollId}/correct`, { supersedes: first.id, face: '1' });
    expect(res.statusCode).toBe(200);
    const review = res.json<{ review: { id: number; face: string; earlier: { id: number; face: string }[] } }>().review;
    expect(review).toMatchObject({ rollId: first.rollId, face: '1', reviewer: 'ada', earlier: [{ id: first.id, face: '6' }] });
    expect(store.reviews(1).at(-1)).toMatchObject({ rollId: first.rollId, faceId: '1', supersedes: first.id });
    // The same reviewed count (the roll is still labelled), the verdicts remade from the stored events with the face corrected.
    const after = res.json<{ dice: DieView[] }>().dice.find((d) => d.label === die?.label) as DieView;
    expect(after.reviewed).toBe(die?.reviewed);
    expect((store.storedVerdicts(1)?.verdicts as SessionVerdicts).dice.find((d) => d.label === die?.label)?.faces.map((f) => f.count)).toEqual(
      recomputeVerdicts(store, 1).dice.find((d) => d.label === die?.label)?.faces.map((f) => f.count),
    );
    const stale = await post(`/api/rolls/${first.rollId}/correct`, { supersedes: first.id, face: '2' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ refusal: string; stored: { face: string }[] }>()).toMatchObject({ refusal: 'stale', stored: [{ face: '1' }] });
    const bad = await post(`/api/rolls/${first.rollId}/correct`, { face: '2' });
    expect(bad.statusCode).toBe(400);
    expect(store.verify()).toMatchObject({ ok: true, breaks: [] });
  });

  it('serves the page with the security headers, and nothing to a request addressed to another host or sent by another site', async () => {
    const page = await app.inject({ url: '/', headers: { host: '127.0.0.1:1234' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body).toContain('/static/review.js');
    const rebound = await app.inject({ url: '/api/review', headers: { host: 'evil.example:1234' } });
    expect(rebound.statusCode).toBe(403);
    const roll = (await state()).rolls[0] as RollView;
    const fromSite = await app.inject({ method: 'POST', url: `/api/rolls/${roll.rollId}/label`, headers: { host: '127.0.0.1:1234', origin: 'https://evil.example' }, payload: { face: '6' } });
    expect(fromSite.statusCode).toBe(403);
    const plain = await app.inject({ method: 'POST', url: `/api/rolls/${roll.rollId}/label`, headers: { host: '127.0.0.1', 'content-type': 'text/plain' }, payload: '{"face":"6"}' });
    // A cross-site form or text/plain post (no preflight) is never taken as a label.
    expect(plain.statusCode).toBe(400);
    const form = await app.inject({ method: 'POST', url: `/api/rolls/${roll.rollId}/label`, headers: { host: '127.0.0.1', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'face=6' });
    expect(form.statusCode).toBe(415);
    expect(store.reviews(1).some((r) => r.rollId === roll.rollId)).toBe(false);
    const away = await app.inject({ url: '/static/../../../etc/passwd', headers: { host: '127.0.0.1' } });
    expect(away.statusCode).toBe(404);
  });
  it('leaves the verdicts to a session still open (the run takes labels in as it goes): it says so, stores the label and stores no verdict of its own', async () => {
    const storedBefore = store.storedVerdicts(1);
    store.resumeSession(1, AT);
    try {
      const seen = await state();
      for (const d of seen.dice as (DieView & { sentence: string })[]) {
        expect(d.kind).toBe('running');
        expect(d.sentence).toBe(OPEN_SESSION_SENTENCE);
      }
      const roll = seen.rolls[0] as RollView;
      const was = seen.dice.find((d) => d.label === roll.die) as DieView;
      const res = await label(roll.rollId, '6');
      expect(res.statusCode).toBe(200);
      expect(store.reviews(1).at(-1)?.rollId).toBe(roll.rollId);
      const after = res.json<{ dice: DieView[] }>().dice.find((d) => d.label === roll.die) as DieView;
      expect([after.kind, after.reviewed]).toEqual(['running', was.reviewed + 1]);
      expect(store.storedVerdicts(1)).toEqual(storedBefore);
    } finally {
      store.endSession(1, AT + 1, 'finished');
    }
  });
});

describe('the review API on X-Wing dice', () => {
  it('offers the symbols the session counts, stores one as the label, and remakes the verdicts as the session made them', async () => {
    const xdir = mkdtempSync(join(tmpdir(), 'dicerig-review-xwing-'));
    const xstore = RollStore.open(await declinedCopy(xdir, 'hit=0.9,evade=0.9', 'xwing'));
    const xapp = await createReviewServer({ store: xstore, sessionId: 1, reviewer: 'ada', now: () => AT });
    try {
      const stored = xstore.storedVerdicts(1)?.verdicts as SessionVerdicts;
      expect(recomputeVerdicts(xstore, 1).dice.map((d) => [d.kind, d.logE, d.unresolved])).toEqual(stored.dice.map((d) => [d.kind, d.logE, d.unresolved]));
      const { rolls } = (await xapp.inject({ url: '/api/review', headers: { host: '127.0.0.1' } })).json<{ rolls: RollView[] }>();
      const red = rolls.find((r) => r.dieType === 'red') as RollView;
      expect(red.faces).toEqual(['hit', 'crit', 'focus', 'blank']);
      const res = await xapp.inject({ method: 'POST', url: `/api/rolls/${red.rollId}/label`, headers: { host: '127.0.0.1' }, payload: { face: 'hit' } });
      expect(res.statusCode).toBe(200);
      expect(xstore.reviews(1)[0]).toMatchObject({ rollId: red.rollId, faceId: null, symbol: 'hit' });
      const evade = await xapp.inject({ method: 'POST', url: `/api/rolls/${rolls.find((r) => r.dieType === 'red' && r.rollId !== red.rollId)?.rollId}/label`, headers: { host: '127.0.0.1' }, payload: { face: 'evade' } });
      expect(evade.statusCode).toBe(400);
      expect(evade.json<{ error: string }>().error).toMatch(/^A red die has no face "evade"/);
    } finally {
      await xapp.close();
      xstore.close();
      rmSync(xdir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the review API correcting several labels at once', () => {
  const cdir = mkdtempSync(join(tmpdir(), 'dicerig-review-corrections-'));
  let cstore: RollStore;
  let capp: FastifyInstance;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    capp.inject({ method: 'POST', url, headers: { host: '127.0.0.1', ...headers }, payload: payload as object });
  const correctAll = (corrections: unknown, answer: object = { face: '1' }) => post('/api/corrections', { corrections, ...answer });
  const cstate = async () => (await capp.inject({ method: 'GET', url: '/api/review', headers: { host: '127.0.0.1' } })).json<{ dice: DieView[]; rolls: RollView[] }>();
  type Answer = { id: number; rollId: number; face: string | null; cannotTell: boolean; reviewer: string; earlier: { id: number; face: string | null }[] };
  type Refusal = { error: string; refusal: string; stored: Answer[]; dice: DieView[] };
  /** `n` crops of one die still to label, labelled 6 in one batch (a range given the wrong face): their reviews. */
  async function wrongRange(n: number) {
    const { rolls } = await cstate();
    const die = rolls.map((r) => r.die).find((d) => rolls.filter((r) => r.die === d).length >= n) as string;
    const ids = rolls.filter((r) => r.die === die).slice(0, n).map((r) => r.rollId);
    expect(ids).toHaveLength(n);
    expect((await post('/api/labels', { rolls: ids, face: '6' })).statusCode).toBe(200);
    return { die, labels: cstore.reviews(1).slice(-n) };
  }
  const faceCounts = (die: string) => (cstore.storedVerdicts(1)?.verdicts as SessionVerdicts).dice.find((d) => d.label === die)?.faces.map((f) => f.count) as number[];
  const asked = (labels: readonly { rollId: number; id: number }[]) => labels.map((l) => ({ roll: l.rollId, supersedes: l.id }));

  beforeAll(async () => {
    cstore = RollStore.open(await declinedCopy(cdir));
    capp = await createReviewServer({ store: cstore, sessionId: 1, reviewer: 'ada', now: () => AT });
  }, 60_000);

  afterAll(async () => {
    await capp?.close();
    cstore?.close();
    rmSync(cdir, { recursive: true, force: true });
  });

  it('corrects each named label to one face in one request, superseding the answer the page showed: history on each, the verdicts remade and stored once, the counts moved', async () => {
    const { die, labels } = await wrongRange(3);
    const before = faceCounts(die);
    const reviewedBefore = (await cstate()).dice.find((d) => d.label === die)?.reviewed;
    const saves = vi.spyOn(cstore, 'saveVerdicts');
    let res;
    try {
      res = await correctAll(asked(labels), { face: '1' });
      expect(res.statusCode).toBe(200);
      expect(saves).toHaveBeenCalledTimes(1);
    } finally {
      saves.mockRestore();
    }
    const reviews = res.json<{ reviews: Answer[] }>().reviews;
    expect(reviews.map((r) => [r.rollId, r.face, r.reviewer, r.earlier.map((e) => [e.id, e.face])])).toEqual(labels.map((l) => [l.rollId, '1', 'ada', [[l.id, '6']]]));
    expect(cstore.reviews(1).slice(-3).map((r) => [r.rollId, r.faceId, r.supersedes, r.reviewer, r.at])).toEqual(labels.map((l) => [l.rollId, '1', l.id, 'ada', AT]));
    // Three ones more and three sixes fewer in the stored verdict; the reviewed count as it was (the rolls are still labelled).
    const after = faceCounts(die);
    expect(after.map((c, k) => c - (before[k] as number))).toEqual([3, 0, 0, 0, 0, -3]);
    expect(res.json<{ dice: DieView[] }>().dice.find((d) => d.label === die)?.reviewed).toBe(reviewedBefore);
    expect(cstore.verify()).toMatchObject({ ok: true, breaks: [] });
  });

  it('refuses with 400, storing nothing, a batch that names no corrections, more than MAX_BATCH, a roll twice, ids that are not whole numbers, or no face', async () => {
    const { labels } = await wrongRange(2);
    const [a, b] = asked(labels) as [{ roll: number; supersedes: number }, { roll: number; supersedes: number }];
    const count = cstore.reviews(1).length;
    for (const [corrections, why] of [
      [[], /with 1 to 5000 corrections/],
      [Array.from({ length: 5001 }, (_, k) => ({ roll: k + 1, supersedes: 1 })), /with 1 to 5000 corrections/],
      [[a, { ...b, roll: a.roll }], /^a roll is named twice; each roll takes one correction$/],
      [[a, { ...b, roll: 1.5 }], /with 1 to 5000 corrections/],
      [[a, { roll: b.roll }], /with 1 to 5000 corrections/],
      [[a, { ...b, supersedes: '3' }], /with 1 to 5000 corrections/],
      [[a, b.roll], /with 1 to 5000 corrections/],
      ['12', /with 1 to 5000 corrections/],
    ] as const) {
      const res = await correctAll(corrections);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(why);
    }
    for (const answer of [{}, { face: '' }, { face: 1 }, { face: '1', cannotTell: true }]) {
      const res = await correctAll([a, b], answer);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/^say the right face/);
    }
    expect(cstore.reviews(1).length).toBe(count);
    // MAX_BATCH corrections with the longest ids fit in one request: it reaches the store, which knows none of these rolls.
    const longest = Array.from({ length: 5000 }, (_, k) => ({ roll: Number.MAX_SAFE_INTEGER - k, supersedes: Number.MAX_SAFE_INTEGER - k }));
    const full = await correctAll(longest);
    expect(full.statusCode).toBe(404);
    expect(full.json<{ error: string }>().error).toBe(`Session 1 has no roll ${Number.MAX_SAFE_INTEGER}. No correction of this batch was stored.`);
  });

  it('stores none of a batch, with 409, when one answer changed since the page showed it, one roll has none, or one says that face already; sends back the answers that stand and the counts', async () => {
    const { labels } = await wrongRange(3);
    const [a, b, c] = labels as [(typeof labels)[number], (typeof labels)[number], (typeof labels)[number]];
    // Another tab corrected the middle one to 2.
    expect((await post(`/api/rolls/${b.rollId}/correct`, { supersedes: b.id, face: '2' })).statusCode).toBe(200);
    const count = cstore.reviews(1).length;
    const stale = await correctAll(asked(labels), { face: '1' });
    expect(stale.statusCode).toBe(409);
    const body = stale.json<Refusal>();
    expect(body.refusal).toBe('stale');
    expect(body.error).toMatch(new RegExp(`^Roll ${b.rollId} \\(die "[^"]+"\\) was answered again since you looked: it is labelled 2 by ada now\\. No correction of this batch was stored\\.$`));
    expect(body.stored.map((s) => [s.rollId, s.face])).toEqual([[a.rollId, '6'], [b.rollId, '2'], [c.rollId, '6']]);
    expect(body.dice).toEqual((await cstate()).dice);
    expect(cstore.reviews(1).length).toBe(count);

    const standingB = cstore.reviews(1).at(-1) as (typeof labels)[number];
    const open = (await cstate()).rolls[0] as RollView;
    for (const [batch, face, refusal, why] of [
      [[...asked([a]), { roll: open.rollId, supersedes: a.id }], '1', 'not-reviewed', new RegExp(`^Roll ${open.rollId} \\(die "[^"]+"\\) has no answer to correct: label it\\.`)],
      [asked([a, standingB]), '2', 'same-answer', new RegExp(`^Roll ${b.rollId} \\(die "[^"]+"\\) is labelled 2 by ada already\\.`)],
    ] as const) {
      const res = await correctAll(batch, { face });
      expect(res.statusCode).toBe(409);
      expect(res.json<Refusal>()).toMatchObject({ refusal });
      expect(res.json<Refusal>().error).toMatch(why);
    }
    const badFace = await correctAll(asked([a, standingB, c]), { face: '7' });
    expect(badFace.statusCode).toBe(400);
    expect(badFace.json<Refusal>()).toMatchObject({ refusal: 'bad-face', error: 'A d6 die has no face "7" (its faces: 1, 2, 3, 4, 5, 6). No correction of this batch was stored.' });
    const unknown = await correctAll([...asked([a]), { roll: 999_999, supersedes: a.id }]);
    expect(unknown.statusCode).toBe(404);
    expect(cstore.reviews(1).length).toBe(count);
    // Corrected as the page now shows them, the batch is taken.
    expect((await correctAll(asked([a, standingB, c]), { cannotTell: true })).statusCode).toBe(200);
    expect(cstore.verify()).toMatchObject({ ok: true, breaks: [] });
  });

  it('takes a batch correction only from its own pages, addressed to loopback, as JSON', async () => {
    const { labels } = await wrongRange(2);
    const count = cstore.reviews(1).length;
    const payload = { corrections: asked(labels), face: '1' };
    expect((await post('/api/corrections', payload, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post('/api/corrections', payload, { host: 'evil.example' })).statusCode).toBe(403);
    const plain = await capp.inject({ method: 'POST', url: '/api/corrections', headers: { host: '127.0.0.1', 'content-type': 'text/plain' }, payload: JSON.stringify(payload) });
    expect(plain.statusCode).toBe(400);
    expect(cstore.reviews(1).length).toBe(count);
    expect((await post('/api/corrections', payload, { origin: 'http://127.0.0.1' })).statusCode).toBe(200);
  });
});
