/**
 * The `dicerig review` app: the same stack as `dicerig serve` (security
 * headers, files from the app folder only, one-line errors) with the review
 * page and its small API over one session of the roll store. It listens on
 * loopback only and answers only requests addressed to loopback (a page of
 * another site cannot reach it by DNS rebinding). Crops are read from the
 * store's evidence folder by roll id: nothing a request says becomes a path.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SessionVerdicts } from '../../stats/dieVerdict.js';
import { isCannotTell, ReviewError, type ReviewRecord, type ReviewRefusal, type UnresolvedRoll } from '../../store/reviews.js';
import type { RollStore } from '../../store/rollStore.js';
import { sameSiteOnly } from '../security/sameSite.js';
import { createStack } from '../stack.js';
import { recomputeVerdicts, storedSessionDice, updateStoredVerdicts } from './sessionVerdicts.js';

export const REVIEW_PAGES = { '/': 'review.html' } as const;

/** The most rolls one request may label: a session's worth of a die's logo faces, without an unbounded transaction. */
export const MAX_BATCH = 5000;

export interface ReviewServerOptions {
  readonly store: RollStore;
  readonly sessionId: number;
  /** Who the labels are stored as given by. */
  readonly reviewer: string;
  /** The reviewer was named with --reviewer (not the OS user): the restart command names them too. */
  readonly reviewerGiven?: boolean;
  /** Wall clock, ms since the epoch (when each label is given). */
  readonly now: () => number;
}

/** The HTTP status of each refusal: 404 for what is not there, 409 for a roll past labelling, 400 for bad input. */
export const REFUSAL_STATUS: Readonly<Record<ReviewRefusal, number>> = {
  'no-session': 404,
  'no-roll': 404,
  'not-unresolved': 409,
  'already-reviewed': 409,
  'bad-face': 400,
  'bad-reviewer': 400,
  'not-reviewed': 409,
  stale: 409,
  'same-answer': 409,
};

/** What the page says of a die's verdict while its session is still open: the run makes it (`LiveReviews`), not this page. */
export const OPEN_SESSION_SENTENCE =
  'The session is still open (running, or stopped without ending): its run makes this verdict and takes each label in at its next throw, then stores it. If the run was stopped, resume it (dicerig run --resume).';

/** Each die's verdict and rolls for the page; `cannotTell`: of its `unresolved` rolls (the store's list), those a person looked at and could not tell. */
function dieSummary(v: SessionVerdicts, open: boolean, unresolved: readonly UnresolvedRoll[]) {
  const untold = new Map<string, number>();
  for (const r of unresolved) if (r.cannotTell) untold.set(r.dieLabel, (untold.get(r.dieLabel) ?? 0) + 1);
  return v.dice.map((d) => ({
    label: d.label,
    kind: open ? 'running' : d.kind,
    sentence: open ? OPEN_SESSION_SENTENCE : d.sentence,
    resolved: d.resolved,
    reviewed: d.reviewed,
    unresolved: d.unresolved,
    cannotTell: untold.get(d.label) ?? 0,
  }));
}

/** A stored answer as the page shows it: the face given, or none when the person could not tell; `earlier`: the answers it corrected, oldest first. */
function answerView(r: ReviewRecord, earlier: readonly ReviewRecord[] = []): AnswerView {
  const cannotTell = isCannotTell(r);
  const face = cannotTell ? null : (r.faceId ?? r.symbol);
  return { id: r.id, rollId: r.rollId, face, cannotTell, reviewer: r.reviewer, at: r.at, earlier: earlier.map((e) => answerView(e)) };
}

interface AnswerView {
  readonly id: number;
  readonly rollId: number;
  readonly face: string | null;
  readonly cannotTell: boolean;
  readonly reviewer: string;
  readonly at: number;
  readonly earlier: readonly AnswerView[];
}

/** The answers that stand for the session's rolls (those of `rollIds` when given), each with the answers it corrected. */
function answerViews(store: RollStore, sessionId: number, rollIds?: readonly number[]) {
  const asked = rollIds === undefined ? undefined : new Set(rollIds);
  const byRoll = new Map<number, ReviewRecord[]>();
  for (const r of store.reviews(sessionId)) if (asked === undefined || asked.has(r.rollId)) byRoll.set(r.rollId, [...(byRoll.get(r.rollId) ?? []), r]);
  // A roll's reviews form one line of corrections (verify checks it): the last stands, the rest are its history.
  return [...byRoll.values()].map((all) => answerView(all.at(-1) as ReviewRecord, all.slice(0, -1)));
}

/** The answer a request gives: `{"face": "<face id>"}`, or `{"cannotTell": true}` when the crop shows no face a person can tell. */
function answerOf(body: unknown): { faceId: string | null } | undefined {
  const b = body as { face?: unknown; cannotTell?: unknown } | null;
  if (b?.cannotTell === true && b.face === undefined) return { faceId: null };
  if (typeof b?.face === 'string' && b.face !== '' && b.cannotTell === undefined) return { faceId: b.face };
  return undefined;
}

/** A correction's body less the answer it corrects, so `answerOf` reads the answer alone. */
function withoutSupersedes(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const { supersedes: _supersedes, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The list of a batch correction, each `{"roll": <roll id>, "supersedes": <review id>}` and nothing else; undefined when it is not one (or too long). */
function correctionsOf(list: unknown): { roll: number; supersedes: number }[] | undefined {
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH) return undefined;
  const id = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
  const ok = list.every((c: unknown) => {
    const { roll, supersedes, ...rest } = (c !== null && typeof c === 'object' ? c : {}) as Record<string, unknown>;
    return id(roll) && id(supersedes) && Object.keys(rest).length === 0;
  });
  return ok ? (list as { roll: number; supersedes: number }[]).map(({ roll, supersedes }) => ({ roll, supersedes })) : undefined;
}

/** What the reader made of a declined die, from its `unreadable` event's details: the pips it counted and how sure it was. */
export function readerGuess(detail: unknown): string | null {
  const d = (detail as { details?: Record<string, unknown> } | null)?.details;
  if (d === undefined || d === null) return null;
  const parts: string[] = [];
  if (typeof d.pips === 'number') parts.push(`counted ${d.pips} ${d.pips === 1 ? 'pip' : 'pips'}`);
  if (typeof d.symbol === 'string') parts.push(`saw ${d.symbol}`);
  if (typeof d.confidence === 'number') parts.push(`confidence ${d.confidence.toFixed(2)}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** Each declined roll's first `unreadable` event (the one the store takes the reason from), by throw and die. */
function guesses(store: RollStore, sessionId: number): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const e of store.events(sessionId)) {
    const key = `${e.throwIndex}:${e.dieId}`;
    if (e.kind === 'unreadable' && !out.has(key)) out.set(key, readerGuess(e.detail));
  }
  return out;
}

function rollView(r: UnresolvedRoll, guess: string | null, faces: readonly string[]) {
  return { rollId: r.rollId, throwIndex: r.throwIndex, die: r.dieLabel, dieType: r.dieType, channel: r.channel, reason: r.reason, guess, faces, crop: r.evidencePath !== null };
}

export async function createReviewServer(options: ReviewServerOptions): Promise<FastifyInstance> {
  const { store, sessionId } = options;
  const session = store.getSession(sessionId);
  if (session === undefined) throw new ReviewError('no-session', `There is no session ${sessionId} in ${store.path}.`, { db: store.path, session: sessionId });
  const evidenceRoot = resolve(dirname(store.path));
  // A batch of MAX_BATCH corrections (some 56 bytes each at the longest ids) must fit in one body: the stack's 16 KiB
  // default took some 300 of them, and a batch cannot be split without losing all or none.
  const app = createStack({ pages: REVIEW_PAGES, bodyLimit: MAX_BATCH * 64 });
  sameSiteOnly(app, { loopback: true, what: 'the review page' });
  // A session still open is judged by its run, which takes the labels in as it goes and stores its verdicts when it
  // ends: a page that stored its own would race it (and could not know the misread bounds a first run has not stored).
  const open = (): boolean => store.getSession(sessionId)?.state === 'running';
  const remake = (at: number): SessionVerdicts => (open() ? recomputeVerdicts(store, sessionId) : updateStoredVerdicts(store, sessionId, at));
  let verdicts = recomputeVerdicts(store, sessionId);
  // What the verdicts were made from: the page asks every few seconds, and replaying a long session's monitors each
  // time would cost the server for nothing while no throw, label or state has changed.
  const madeFrom = (): string => {
    const s = store.getSession(sessionId);
    return `${s?.throwCount}:${store.lastReviewId(sessionId)}:${s?.state}`;
  };
  let verdictsOf = madeFrom();
  const current = (): SessionVerdicts => {
    const now = madeFrom();
    if (now !== verdictsOf) {
      verdicts = recomputeVerdicts(store, sessionId);
      verdictsOf = now;
    }
    return verdicts;
  };
  // The choices a person gets are what the session counts: faces of pip dice, symbols of X-Wing dice (whose hit faces look alike).
  const choices = new Map(storedSessionDice(store, sessionId).dice.map((d) => [d.record.id, d.level === 'face' ? d.type.faces.map((f) => f.id) : [...d.type.symbols]]));
  const title = session.name === null ? `session ${session.id}` : `session ${session.id} (${session.name})`;
  // What the page tells a person to run when it finds the server gone (its labels cannot be saved until then): on the
  // port it listens on now (the default is any free port, where the open tab would never find it) and as the same reviewer.
  const restart = (): string => {
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? ` --port ${address.port}` : '';
    const reviewer = options.reviewerGiven ? ` --reviewer ${shellWord(options.reviewer)}` : '';
    return `dicerig review ${session.id} --db ${shellWord(store.path)}${port}${reviewer}`;
  };
  // The answers that stand for the rolls asked about: a 409 shows the label another tab or person gave.
  const standing = (rollIds: readonly number[]) => answerViews(store, sessionId, rollIds);

  app.get('/api/review', async () => {
    // Remade when the session has run, been labelled or ended since the last look.
    verdicts = current();
    const guessed = guesses(store, sessionId);
    // One read of the unresolved rolls: the queue is those nobody has looked at, the dice's counts take in the rest.
    const unresolved = store.unresolvedRolls(sessionId);
    return {
      session: { id: session.id, title, simulated: session.simulated, open: open() },
      reviewer: options.reviewer,
      restart: restart(),
      // Every answer that stands, so a page open beside another shows the labels given there, and the rolls they
      // answer, so a label can be corrected after the page is opened again.
      answers: answerViews(store, sessionId),
      answered: store.reviewLog
        .declined(sessionId)
        .filter((r) => r.cannotTell || !unresolved.some((u) => u.rollId === r.rollId))
        .map((r) => rollView(r, guessed.get(`${r.throwIndex}:${r.dieId}`) ?? null, choices.get(r.dieId) ?? [])),
      dice: dieSummary(verdicts, open(), unresolved),
      rolls: unresolved.filter((r) => !r.cannotTell).map((r) => rollView(r, guessed.get(`${r.throwIndex}:${r.dieId}`) ?? null, choices.get(r.dieId) ?? [])),
    };
  });

  app.get<{ Params: { rollId: string } }>('/api/crops/:rollId', async (req, reply: FastifyReply) => {
    // Any roll the reader left unresolved, labelled since or not: a label can be corrected while its crop is shown.
    const roll = store.reviewLog.declined(sessionId).find((r) => String(r.rollId) === req.params.rollId);
    if (roll === undefined || roll.evidencePath === null) return reply.code(404).send({ error: `no crop for roll "${req.params.rollId}" among the rolls the reader left unresolved` });
    const file = resolve(evidenceRoot, roll.evidencePath);
    if (!file.startsWith(evidenceRoot + sep)) return reply.code(404).send({ error: `the crop of roll ${roll.rollId} lies outside the store's folder` });
    try {
      return reply.type('image/png').header('Cache-Control', 'no-cache').send(readFileSync(file));
    } catch {
      return reply.code(404).send({ error: `the crop of roll ${roll.rollId} is missing (${roll.evidencePath})` });
    }
  });

  app.post<{ Params: { rollId: string }; Body: unknown }>('/api/rolls/:rollId/label', async (req, reply) => {
    const rollId = /^\d{1,12}$/.test(req.params.rollId) ? Number(req.params.rollId) : NaN;
    if (Number.isNaN(rollId)) return reply.code(404).send({ error: `no roll "${req.params.rollId}": a roll id is a whole number` });
    const answer = answerOf(req.body);
    if (answer === undefined) return reply.code(400).send({ error: 'say which face the die shows: {"face": "<face id>"}, or {"cannotTell": true} when the crop shows none you can tell' });
    try {
      const review = store.reviewRoll(sessionId, { rollId, faceId: answer.faceId, reviewer: options.reviewer, at: options.now() });
      verdicts = remake(review.at);
      return { review: answerView(review), dice: dieSummary(verdicts, open(), store.unresolvedRolls(sessionId)) };
    } catch (e) {
      if (e instanceof ReviewError) return reply.code(REFUSAL_STATUS[e.refusal]).send(refusalBody(e, e.message, standing([rollId])));
      throw e;
    }
  });

  // A correction of the answer that stands for one roll: `supersedes` names the answer the person saw, so one changed
  // meanwhile (another tab) is refused rather than overwritten.
  app.post<{ Params: { rollId: string }; Body: unknown }>('/api/rolls/:rollId/correct', async (req, reply) => {
    const rollId = /^\d{1,12}$/.test(req.params.rollId) ? Number(req.params.rollId) : NaN;
    if (Number.isNaN(rollId)) return reply.code(404).send({ error: `no roll "${req.params.rollId}": a roll id is a whole number` });
    const answer = answerOf(withoutSupersedes(req.body));
    const supersedes = (req.body as { supersedes?: unknown } | null)?.supersedes;
    if (answer === undefined || !Number.isSafeInteger(supersedes) || (supersedes as number) <= 0) {
      return reply.code(400).send({ error: 'say which answer you correct and the right one: {"supersedes": <review id>, "face": "<face id>"}, or {"supersedes": <review id>, "cannotTell": true}' });
    }
    try {
      const review = store.reviewLog.correct(sessionId, { rollId, faceId: answer.faceId, reviewer: options.reviewer, at: options.now(), supersedes: supersedes as number });
      verdicts = remake(review.at);
      return { review: answerViews(store, sessionId, [rollId])[0], dice: dieSummary(verdicts, open(), store.unresolvedRolls(sessionId)) };
    } catch (e) {
      if (!(e instanceof ReviewError)) throw e;
      const body = { error: e.message, refusal: e.refusal, stored: standing([rollId]) };
      return reply.code(REFUSAL_STATUS[e.refusal]).send(body);
    }
  });

  // One face for several crops a person selected (the same logo on every roll of a die, say): stored all or none, in
  // the order given, and the verdicts remade once.
  app.post<{ Body: unknown }>('/api/labels', async (req, reply) => {
    const body = req.body as { rolls?: unknown; face?: unknown } | null;
    const ids = body?.rolls;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_BATCH || !ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
      return reply.code(400).send({ error: `say which rolls: {"rolls": [<roll id>, ...], "face": "<face id>"}, with 1 to ${MAX_BATCH} roll ids` });
    }
    if (new Set(ids).size !== ids.length) return reply.code(400).send({ error: 'a roll id is named twice; each roll takes one label' });
    const answer = answerOf(body);
    if (answer === undefined) return reply.code(400).send({ error: 'say which face the dice show: {"rolls": [...], "face": "<face id>"}, or {"rolls": [...], "cannotTell": true}' });
    try {
      const at = options.now();
      const reviews = store.reviewRolls(sessionId, (ids as number[]).map((rollId) => ({ rollId, faceId: answer.faceId, reviewer: options.reviewer, at })));
      verdicts = remake(at);
      return { reviews: reviews.map((r) => answerView(r)), dice: dieSummary(verdicts, open(), store.unresolvedRolls(sessionId)) };
    } catch (e) {
      if (e instanceof ReviewError) return reply.code(REFUSAL_STATUS[e.refusal]).send(refusalBody(e, `${e.message} No label of this batch was stored.`, standing(ids as number[])));
      throw e;
    }
  });
  // Several labels corrected with one face (a range labelled 6 that shows 5): each names the answer the person saw,
  // stored all or none, and the verdicts remade once.
  app.post<{ Body: unknown }>('/api/corrections', async (req, reply) => {
    const body = req.body as { corrections?: unknown } | null;
    const items = correctionsOf(body?.corrections);
    if (items === undefined) {
      return reply.code(400).send({ error: `say which answers you correct: {"corrections": [{"roll": <roll id>, "supersedes": <review id>}, ...], "face": "<face id>"}, with 1 to ${MAX_BATCH} corrections` });
    }
    const ids = items.map((c) => c.roll);
    if (new Set(ids).size !== ids.length) return reply.code(400).send({ error: 'a roll is named twice; each roll takes one correction' });
    const answer = answerOf(body);
    if (answer === undefined) return reply.code(400).send({ error: 'say the right face: {"corrections": [...], "face": "<face id>"}, or {"corrections": [...], "cannotTell": true}' });
    try {
      const at = options.now();
      store.reviewLog.correctAll(sessionId, items.map((c) => ({ rollId: c.roll, supersedes: c.supersedes, faceId: answer.faceId, reviewer: options.reviewer, at })));
      verdicts = remake(at);
      const views = new Map(standing(ids).map((v) => [v.rollId, v]));
      return { reviews: ids.map((id) => views.get(id)), dice: dieSummary(verdicts, open(), store.unresolvedRolls(sessionId)) };
    } catch (e) {
      if (!(e instanceof ReviewError)) throw e;
      // The answers that stand and the counts as the server has them: a refusal can come of a change made elsewhere.
      // The store's "Nothing was stored." speaks of one roll; the batch says it of them all.
      const error = `${e.message.replace(/ Nothing was stored\.$/, '')} No correction of this batch was stored.`;
      return reply.code(REFUSAL_STATUS[e.refusal]).send({ error, refusal: e.refusal, stored: standing(ids), dice: dieSummary(current(), open(), store.unresolvedRolls(sessionId)) });
    }
  });

  /** A refusal as the page takes it: why, and (for a roll answered already) the answers stored, with the dice's counts now. */
  function refusalBody(e: ReviewError, error: string, stored: ReturnType<typeof standing>) {
    if (e.refusal !== 'already-reviewed') return { error, refusal: e.refusal };
    verdicts = recomputeVerdicts(store, sessionId);
    return { error, refusal: e.refusal, stored, dice: dieSummary(verdicts, open(), store.unresolvedRolls(sessionId)) };
  }
  return app;
}

/** A path as one word of a shell command (quoted when it holds anything but plain characters). */
function shellWord(path: string): string {
  return /^[\w./:@%+=,-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
