/**
 * Rolls the reader declined or the locator did not find, and the faces people
 * gave them. Such a roll is stored in its throw (resolution `unresolved`, its crop as evidence); a
 * review is a row of its own in an append-only table with its own hash chain
 * per session, so labelling a roll later never edits a hashed throw and
 * `verify` still walks both chains.
 */
import { createHash } from 'node:crypto';
import { getDieType } from '../dice/catalogue.js';
import { storedDieTypes } from '../dice/dieTypeData.js';
import type { DieType } from '../dice/types.js';
import { StoreError, type StoreErrorContext } from './errors.js';
import type { Database, Statement } from './sqlite.js';

export type ReviewRefusal = 'no-session' | 'no-roll' | 'not-unresolved' | 'already-reviewed' | 'bad-face' | 'bad-reviewer' | 'not-reviewed' | 'stale' | 'same-answer';

/** A label the store refuses, with why (`refusal`) for a page to show. */
export class ReviewError extends StoreError {
  constructor(
    readonly refusal: ReviewRefusal,
    message: string,
    where: StoreErrorContext,
  ) {
    super(message, where);
  }
}

/**
 * A person's answer that the crop shows no face they can tell (the die cut off, blurred, hidden or not there). It is
 * stored as a review with no face (`faceId` null, `symbol` ''), so it takes the roll off the review queue for good; the
 * roll stays unresolved, and every verdict goes on holding whatever it was.
 */
export const CANNOT_TELL_SYMBOL = '';

/** Whether a stored review is a "cannot tell" answer rather than a face. */
export function isCannotTell(r: { readonly faceId: string | null; readonly symbol: string }): boolean {
  return r.faceId === null && r.symbol === CANNOT_TELL_SYMBOL;
}

/** A roll the reader declined or did not find and nobody labelled with a face. */
export interface UnresolvedRoll {
  readonly rollId: number;
  readonly throwIndex: number;
  readonly dieId: number;
  readonly dieLabel: string;
  readonly dieType: string;
  readonly channel: number | null;
  readonly evidencePath: string | null;
  readonly evidenceHash: string | null;
  /** Why it is unresolved (from the throw's `unreadable` or `missing` event). */
  readonly reason: string | null;
  /** A person looked and could not tell its face: it stays unresolved but is no longer waiting for a review. */
  readonly cannotTell: boolean;
}

export interface ReviewInput {
  readonly rollId: number;
  /** The face the person saw: a face id (or, for dice read by symbol, a symbol) of the die's type; null when they could not tell. */
  readonly faceId: string | null;
  /** Who labelled it. */
  readonly reviewer: string;
  /** When (ms since the epoch). */
  readonly at: number;
}

/** A person's correction of the answer that stands for a roll: the review it supersedes (which they saw) and the right answer. */
export interface CorrectionInput extends ReviewInput {
  readonly supersedes: number;
}

export interface ReviewRecord {
  readonly id: number;
  readonly sessionId: number;
  readonly rollId: number;
  readonly faceId: string | null;
  readonly symbol: string;
  readonly reviewer: string;
  readonly at: number;
  /** The session's last throw when the label was given: a replay applies it there. */
  readonly afterThrow: number;
  /** The earlier review of the same roll this one corrects (null: the roll's first answer). */
  readonly supersedes: number | null;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * The fields a review's hash covers, in a fixed order (a stored format: never change it, add a new tag). A first
 * answer is hashed as it always was ('dicerig-review-v1'); a correction under a tag of its own that covers the review
 * it supersedes too, so old stores verify as they did and a correction cannot pass for a first answer.
 */
export function reviewHash(prevHash: string, r: Omit<ReviewRecord, 'id' | 'prevHash' | 'hash' | 'supersedes'> & { readonly supersedes?: number | null }): string {
  const fields = [prevHash, r.sessionId, r.rollId, r.faceId, r.symbol, r.reviewer, r.at, r.afterThrow];
  const text = r.supersedes === null || r.supersedes === undefined ? JSON.stringify(['dicerig-review-v1', ...fields]) : JSON.stringify(['dicerig-review-correction-v1', ...fields, r.supersedes]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SQL: the review `rv` stands (no later review of its roll supersedes it). */
export const STANDING_REVIEW = 'NOT EXISTS (SELECT 1 FROM reviews sup WHERE sup.supersedes = rv.id)';

/** The hash a session's first review chains from (its throw chain's genesis, tagged). */
export function reviewGenesis(sessionGenesis: string): string {
  return createHash('sha256').update(`dicerig-reviews-v1:${sessionGenesis}`, 'utf8').digest('hex');
}

const REVIEW_COLUMNS = `rv.id, rv.session_id AS sessionId, rv.roll_id AS rollId, rv.face_id AS faceId, rv.symbol, rv.reviewer, rv.at, rv.after_throw AS afterThrow,
  rv.supersedes, rv.prev_hash AS prevHash, rv.hash`;

export class ReviewLog {
  constructor(
    private readonly db: Database,
    private readonly path: string,
    /** The session's throw-chain genesis, which its first review chains from. */
    private readonly genesis: (sessionId: number) => string,
    private readonly types: readonly DieType[] = [],
  ) {}

  private requireSession(sessionId: number): { throwCount: number } {
    const s = this.db.prepare<{ throwCount: number }>('SELECT throw_count AS throwCount FROM sessions WHERE id = ?').get(sessionId);
    if (s === undefined) throw new ReviewError('no-session', `There is no session ${sessionId} in ${this.path}.`, { db: this.path, session: sessionId });
    return s;
  }

  /**
   * The session's unresolved rolls (declined, or the die not found) nobody has labelled with a face, in throw order,
   * with their crops and why; those a person could not tell are among them (`cannotTell`), as every verdict counts them.
   */
  unresolved(sessionId: number): UnresolvedRoll[] {
    return this.declinedRows(sessionId, false);
  }

  /** Every roll of the session the reader left unresolved, labelled since or not (`cannotTell` as in `unresolved`): a labelled one can be corrected. */
  declined(sessionId: number): UnresolvedRoll[] {
    return this.declinedRows(sessionId, true);
  }

  private declinedRows(sessionId: number, labelledToo: boolean): UnresolvedRoll[] {
    this.requireSession(sessionId);
    const rows = this.db
      .prepare<Omit<UnresolvedRoll, 'reason' | 'cannotTell'> & { told: number }>(
        `SELECT r.id AS rollId, t.idx AS throwIndex, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel,
                r.evidence_path AS evidencePath, r.evidence_hash AS evidenceHash, (rv.id IS NOT NULL AND r.resolution = 'unresolved') AS told
           FROM throws t JOIN rolls r ON r.throw_id = t.id JOIN dice d ON d.id = r.die_id LEFT JOIN reviews rv ON rv.roll_id = r.id AND ${STANDING_REVIEW}
          WHERE t.session_id = ? AND t.status = 'ok' AND (r.resolution = 'unresolved' OR (? AND r.resolution = 'reviewed'))
          ORDER BY t.idx, r.seq`,
      )
      .all(sessionId, labelledToo ? 1 : 0);
    const reasonOf = this.db.prepare<{ detail: string }>(
      `SELECT detail_json AS detail FROM events WHERE session_id = ? AND kind IN ('unreadable', 'missing') AND throw_index = ? AND die_id = ? ORDER BY id LIMIT 1`,
    );
    return rows.map(({ told, ...r }) => {
      const e = reasonOf.get(sessionId, r.throwIndex, r.dieId);
      const detail = e === undefined ? {} : (JSON.parse(e.detail) as { reason?: unknown });
      return { ...r, reason: typeof detail.reason === 'string' ? detail.reason : null, cannotTell: told === 1 };
    });
  }

  /** The unresolved rolls still waiting for a person: those nobody has labelled or said they could not tell. */
  toReview(sessionId: number): UnresolvedRoll[] {
    return this.unresolved(sessionId).filter((r) => !r.cannotTell);
  }

  /** Every review of the session (corrections and the answers they superseded too), in the order they were given; with `afterId`, only those given after that one. */
  reviews(sessionId: number, afterId = 0): ReviewRecord[] {
    return this.db.prepare<ReviewRecord>(`SELECT ${REVIEW_COLUMNS} FROM reviews rv WHERE rv.session_id = ? AND rv.id > ? ORDER BY rv.id`).all(sessionId, afterId);
  }

  /** The id of the session's last review (0 when none): a running session asks it after every throw, so it is one lookup. */
  lastReviewId(sessionId: number): number {
    // Prepared once: preparing it at every throw was some 9 % of a simulated session's time.
    this.lastIdQuery ??= this.db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM reviews WHERE session_id = ?');
    return this.lastIdQuery.get(sessionId)?.id ?? 0;
  }

  private lastIdQuery: Statement<{ id: number | null }> | undefined;

  /**
   * Stores a person's label for a declined roll (the roll becomes `reviewed`
   * and counts from now on), or their word that they cannot tell its face
   * (`faceId` null: the roll stays unresolved, off the review queue). Refuses,
   * with a `ReviewError`, a session that does not exist, a roll not in it, a
   * roll the reader read, a roll already answered (that takes `correct`) and a
   * face the die does not have.
   */
  review(sessionId: number, input: ReviewInput): ReviewRecord {
    return this.db
      .transaction((): ReviewRecord => {
        const { where, roll, who } = this.rollToAnswer(sessionId, input);
        const standing = this.standingAnswer(input.rollId);
        if (standing !== undefined) {
          throw new ReviewError('already-reviewed', `Roll ${input.rollId} (die "${roll.label}") is already ${answerText(standing)}; correct it on its card to change it.`, where);
        }
        return this.append(sessionId, { ...input, reviewer: who }, this.faceOf(sessionId, roll, input.faceId, where), null);
      })
      .immediate();
  }

  /**
   * Stores a person's correction of the answer that stands for a roll: a new review that supersedes it (the chain
   * stays append-only; the earlier answer stays in it, as history). A face makes the roll `reviewed`, "cannot tell"
   * (`faceId` null) leaves it unresolved. Refuses a roll nobody answered ('not-reviewed'), an answer changed since the
   * person looked (`supersedes` is not the one that stands: 'stale') and the answer that stands already ('same-answer').
   */
  correct(sessionId: number, input: CorrectionInput): ReviewRecord {
    return this.db
      .transaction((): ReviewRecord => {
        const { where, roll, who } = this.rollToAnswer(sessionId, input);
        const standing = this.standingAnswer(input.rollId);
        if (standing === undefined) throw new ReviewError('not-reviewed', `Roll ${input.rollId} (die "${roll.label}") has no answer to correct: label it.`, where);
        if (standing.id !== input.supersedes) {
          throw new ReviewError('stale', `Roll ${input.rollId} (die "${roll.label}") was answered again since you looked: it is ${answerText(standing)} now. Nothing was stored.`, where);
        }
        const face = this.faceOf(sessionId, roll, input.faceId, where);
        if (face.id === standing.faceId && face.symbol === standing.symbol) throw new ReviewError('same-answer', `Roll ${input.rollId} (die "${roll.label}") is ${answerText(standing)} already.`, where);
        return this.append(sessionId, { ...input, reviewer: who }, face, standing.id);
      })
      .immediate();
  }

  /**
   * Stores one person's label for several declined rolls, in the order given, all or none: the first refusal (as
   * `review` refuses) rolls every one of them back, and its message names that roll.
   */
  reviewAll(sessionId: number, inputs: readonly ReviewInput[]): ReviewRecord[] {
    return this.db.transaction((): ReviewRecord[] => inputs.map((input) => this.review(sessionId, input))).immediate();
  }

  /**
   * Stores one person's corrections of several rolls' answers (a range labelled with the wrong face), in the order
   * given, all or none: each is checked and chained as `correct` checks and chains it, so the chain and its head move
   * once a correction, and the first refusal (an answer changed since the person looked, a face the die does not
   * have...) rolls every one of them back, its message naming that roll and its die.
   */
  correctAll(sessionId: number, inputs: readonly CorrectionInput[]): ReviewRecord[] {
    return this.db.transaction((): ReviewRecord[] => inputs.map((input) => this.correct(sessionId, input))).immediate();
  }

  /** The answer that stands for a roll (its review no later one supersedes), if any. */
  private standingAnswer(rollId: number): ReviewRecord | undefined {
    return this.db.prepare<ReviewRecord>(`SELECT ${REVIEW_COLUMNS} FROM reviews rv WHERE rv.roll_id = ? AND ${STANDING_REVIEW}`).get(rollId);
  }

  /** The checks every answer passes: the session, the reviewer's name, the roll in the session and unresolved when stored. */
  private rollToAnswer(sessionId: number, input: ReviewInput) {
    const where = { db: this.path, session: sessionId, roll: input.rollId };
    this.requireSession(sessionId);
    const who = input.reviewer.trim();
    if (who === '' || /[\r\n]/.test(who)) throw new ReviewError('bad-reviewer', 'A review needs the name of the person who gave it, on one line.', where);
    const roll = this.db
      .prepare<{ resolution: string; typeId: string; label: string }>(
        `SELECT r.resolution, d.type_id AS typeId, d.label FROM rolls r JOIN throws t ON t.id = r.throw_id JOIN dice d ON d.id = r.die_id
          WHERE r.id = ? AND t.session_id = ?`,
      )
      .get(input.rollId, sessionId);
    if (roll === undefined) throw new ReviewError('no-roll', `Session ${sessionId} has no roll ${input.rollId}.`, where);
    if (roll.resolution === 'read') throw new ReviewError('not-unresolved', `Roll ${input.rollId} (die "${roll.label}") was read by the reader; only unresolved rolls (declined, or the die not found) take a label.`, where);
    return { where, roll, who };
  }

  /** The face a person gave, checked against the die's type: a face id, or for dice read by symbol a symbol; or none (null). */
  private faceOf(sessionId: number, roll: { typeId: string; label: string }, wanted: string | null, where: StoreErrorContext): { id: string | null; symbol: string } {
    let type: DieType;
    try {
      type = getDieType(roll.typeId, [...this.sessionDieTypes(sessionId), ...this.types]);
    } catch {
      throw new ReviewError('bad-face', `Die "${roll.label}" has type "${roll.typeId}", which this dicerig does not know; cannot check the face.`, where);
    }
    const byId = wanted === null ? undefined : type.faces.find((f) => f.id === wanted);
    const face = wanted === null ? { id: null, symbol: CANNOT_TELL_SYMBOL } : (byId ?? (type.symbols.includes(wanted) ? { id: null, symbol: wanted } : undefined));
    if (face === undefined) throw new ReviewError('bad-face', `A ${type.id} die has no face "${wanted}" (its faces: ${type.faces.map((f) => f.id).join(', ')}).`, where);
    return face;
  }

  /** The die types the session's config defines (a die of the user's own): a review checks a face of such a die by them. */
  private sessionDieTypes(sessionId: number): DieType[] {
    const row = this.db.prepare<{ configJson: string }>('SELECT config_json AS configJson FROM sessions WHERE id = ?').get(sessionId);
    return row === undefined ? [] : storedDieTypes(JSON.parse(row.configJson) as unknown);
  }

  /** Appends a review to the session's chain, at the session's last throw, and marks the roll as its answer makes it. */
  private append(sessionId: number, input: ReviewInput, face: { id: string | null; symbol: string }, supersedes: number | null): ReviewRecord {
    const afterThrow = this.requireSession(sessionId).throwCount;
    const last = this.db.prepare<{ hash: string }>('SELECT hash FROM reviews WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(sessionId);
    const prevHash = last?.hash ?? reviewGenesis(this.genesis(sessionId));
    const fields = { sessionId, rollId: input.rollId, faceId: face.id, symbol: face.symbol, reviewer: input.reviewer, at: input.at, afterThrow, supersedes };
    const hash = reviewHash(prevHash, fields);
    const info = this.db
      .prepare('INSERT INTO reviews (session_id, roll_id, face_id, symbol, reviewer, at, after_throw, supersedes, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(sessionId, input.rollId, face.id, face.symbol, input.reviewer, input.at, afterThrow, supersedes, prevHash, hash);
    // The chain's head moves in the same transaction: a review deleted from the end no longer matches it.
    this.db.prepare('UPDATE sessions SET review_count = review_count + 1, reviews_head = ? WHERE id = ?').run(hash, sessionId);
    // A face makes the roll `reviewed`; "cannot tell" leaves it (or, corrected to it, makes it again) unresolved.
    this.db.prepare('UPDATE rolls SET resolution = ? WHERE id = ?').run(isCannotTell({ faceId: face.id, symbol: face.symbol }) ? 'unresolved' : 'reviewed', input.rollId);
    return { id: Number(info.lastInsertRowid), ...fields, prevHash, hash };
  }

  /** The head of the session's review chain as the session keeps it: how many reviews, and the last one's hash ('' when none). */
  head(sessionId: number): { count: number; hash: string } | undefined {
    return this.db.prepare<{ count: number; hash: string }>('SELECT review_count AS count, reviews_head AS hash FROM sessions WHERE id = ?').get(sessionId);
  }

  /** Where a review chain head written down elsewhere (`verify --expect`) is: the session and which of its reviews; undefined when no review has that hash. */
  findHead(hash: string): { sessionId: number; reviewIndex: number; reviewCount: number } | undefined {
    return this.db
      .prepare<{ sessionId: number; reviewIndex: number; reviewCount: number }>(
        `SELECT rv.session_id AS sessionId, (SELECT count(*) FROM reviews e WHERE e.session_id = rv.session_id AND e.id <= rv.id) AS reviewIndex,
                (SELECT count(*) FROM reviews e WHERE e.session_id = rv.session_id) AS reviewCount
           FROM reviews rv WHERE rv.hash = ?`,
      )
      .get(hash);
  }

  /** The first review of the session that breaks its chain (edited, removed or inserted), as a sentence; null when the chain holds. */
  verify(sessionId: number, genesis: string): string | null {
    let expected = reviewGenesis(genesis);
    // Each roll's answer standing so far: a correction must supersede it, a first answer must find none.
    const standing = new Map<number, number>();
    let count = 0;
    for (const r of this.reviews(sessionId)) {
      if (r.prevHash !== expected) return `review ${r.id} (roll ${r.rollId}) does not follow the review before it: a review was deleted or inserted`;
      if (reviewHash(r.prevHash, r) !== r.hash) return `review ${r.id} (roll ${r.rollId}) does not match its hash: it was changed after it was given`;
      const before = standing.get(r.rollId) ?? null;
      if (r.supersedes !== before) {
        return r.supersedes === null
          ? `review ${r.id} answers roll ${r.rollId} again without correcting review ${before}`
          : `review ${r.id} (roll ${r.rollId}) corrects review ${r.supersedes}, which is not the answer that stood for that roll`;
      }
      standing.set(r.rollId, r.id);
      expected = r.hash;
      count++;
    }
    // The head the session keeps: reviews cut off the end (the chain before them still holds) no longer reach it.
    const head = this.head(sessionId);
    if (head !== undefined && head.count !== count) return `the session recorded ${head.count} review(s) but ${count} are stored: reviews were removed or added at the end`;
    if (head !== undefined && head.hash !== (count === 0 ? '' : expected)) return "the session's reviews head is not the hash of its last review: the session record was changed";
    const stale = this.db
      .prepare<{ n: number }>(
        `SELECT count(*) AS n FROM rolls r JOIN throws t ON t.id = r.throw_id
          WHERE t.session_id = ? AND r.resolution = 'reviewed' AND r.id NOT IN (SELECT roll_id FROM reviews)`,
      )
      .get(sessionId)?.n ?? 0;
    if (stale > 0) return `${stale} roll(s) are marked reviewed without a stored review`;
    // The answer that stands decides: a face labels the roll `reviewed`; "cannot tell" leaves it `unresolved`.
    const unmarked = this.db
      .prepare<{ rollId: number; resolution: string | null; told: number }>(
        `SELECT rv.roll_id AS rollId, r.resolution, (rv.face_id IS NULL AND rv.symbol = ?) AS told FROM reviews rv LEFT JOIN rolls r ON r.id = rv.roll_id
          WHERE rv.session_id = ? AND ${STANDING_REVIEW}
            AND (r.resolution IS NULL OR r.resolution <> CASE WHEN rv.face_id IS NULL AND rv.symbol = ? THEN 'unresolved' ELSE 'reviewed' END)
          ORDER BY rv.id LIMIT 1`,
      )
      .get(CANNOT_TELL_SYMBOL, sessionId, CANNOT_TELL_SYMBOL);
    if (unmarked !== undefined) {
      const given = unmarked.told === 1 ? 'a stored "cannot tell" answer' : 'a stored review';
      return `roll ${unmarked.rollId} has ${given} but is marked ${unmarked.resolution ?? 'missing'}: its resolution was changed after it was ${unmarked.told === 1 ? 'looked at' : 'labelled'}`;
    }
    return null;
  }
}

/** An answer as a sentence's end: 'labelled 6 by ada', or 'answered "cannot tell" by ada'. */
export function answerText(r: Pick<ReviewRecord, 'faceId' | 'symbol' | 'reviewer'>): string {
  return isCannotTell(r) ? `answered "cannot tell" by ${r.reviewer}` : `labelled ${r.faceId ?? r.symbol} by ${r.reviewer}`;
}
