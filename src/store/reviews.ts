/**
 * Rolls the reader declined or the locator did not find, and the faces people
 * gave them. Such a roll is stored in its throw (resolution `unresolved`, its crop as evidence); a
 * review is a row of its own in an append-only table with its own hash chain
 * per session, so labelling a roll later never edits a hashed throw and
 * `verify` still walks both chains.
 */
import { createHash } from 'node:crypto';
import { getDieType } from '../dice/catalogue.js';
import type { DieType } from '../dice/types.js';
import { StoreError, type StoreErrorContext } from './errors.js';
import type { Database } from './sqlite.js';

export type ReviewRefusal = 'no-session' | 'no-roll' | 'not-unresolved' | 'already-reviewed' | 'bad-face' | 'bad-reviewer';

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
  readonly prevHash: string;
  readonly hash: string;
}

/** The fields a review's hash covers, in a fixed order (a stored format: never change it, add a new tag). */
export function reviewHash(prevHash: string, r: Omit<ReviewRecord, 'id' | 'prevHash' | 'hash'>): string {
  const text = JSON.stringify(['dicerig-review-v1', prevHash, r.sessionId, r.rollId, r.faceId, r.symbol, r.reviewer, r.at, r.afterThrow]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash a session's first review chains from (its throw chain's genesis, tagged). */
export function reviewGenesis(sessionGenesis: string): string {
  return createHash('sha256').update(`dicerig-reviews-v1:${sessionGenesis}`, 'utf8').digest('hex');
}

const REVIEW_COLUMNS = `id, session_id AS sessionId, roll_id AS rollId, face_id AS faceId, symbol, reviewer, at, after_throw AS afterThrow, prev_hash AS prevHash, hash`;

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
    this.requireSession(sessionId);
    const rows = this.db
      .prepare<Omit<UnresolvedRoll, 'reason' | 'cannotTell'> & { told: number }>(
        `SELECT r.id AS rollId, t.idx AS throwIndex, r.die_id AS dieId, d.label AS dieLabel, d.type_id AS dieType, r.channel,
                r.evidence_path AS evidencePath, r.evidence_hash AS evidenceHash, (rv.id IS NOT NULL) AS told
           FROM throws t JOIN rolls r ON r.throw_id = t.id JOIN dice d ON d.id = r.die_id LEFT JOIN reviews rv ON rv.roll_id = r.id
          WHERE t.session_id = ? AND t.status = 'ok' AND r.resolution = 'unresolved'
          ORDER BY t.idx, r.seq`,
      )
      .all(sessionId);
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

  /** Every review of the session, in the order they were given; with `afterId`, only those given after that one. */
  reviews(sessionId: number, afterId = 0): ReviewRecord[] {
    return this.db.prepare<ReviewRecord>(`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE session_id = ? AND id > ? ORDER BY id`).all(sessionId, afterId);
  }

  /** The answer that stands for each roll of the session a person answered (its latest review), in the order given. */
  answers(sessionId: number): ReviewRecord[] {
    return this.db.prepare<ReviewRecord>(`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE session_id = ? ORDER BY id`).all(sessionId);
  }

  /** The id of the session's last review (0 when none): a running session asks it after every throw, so it is one lookup. */
  lastReviewId(sessionId: number): number {
    return this.db.prepare<{ id: number | null }>('SELECT max(id) AS id FROM reviews WHERE session_id = ?').get(sessionId)?.id ?? 0;
  }

  /**
   * Stores a person's label for a declined roll (the roll becomes `reviewed`
   * and counts from now on), or their word that they cannot tell its face
   * (`faceId` null: the roll stays unresolved, off the review queue). Refuses,
   * with a `ReviewError`, a session that does not exist, a roll not in it, a
   * roll the reader read, a roll already labelled (or said untellable) and a
   * face the die does not have.
   */
  review(sessionId: number, input: ReviewInput): ReviewRecord {
    return this.db
      .transaction((): ReviewRecord => {
        const where = { db: this.path, session: sessionId, roll: input.rollId };
        const session = this.requireSession(sessionId);
        const who = input.reviewer.trim();
        if (who === '' || /[\r\n]/.test(who)) throw new ReviewError('bad-reviewer', 'A review needs the name of the person who gave it, on one line.', where);
        const roll = this.db
          .prepare<{ resolution: string; typeId: string; label: string }>(
            `SELECT r.resolution, d.type_id AS typeId, d.label FROM rolls r JOIN throws t ON t.id = r.throw_id JOIN dice d ON d.id = r.die_id
              WHERE r.id = ? AND t.session_id = ?`,
          )
          .get(input.rollId, sessionId);
        if (roll === undefined) throw new ReviewError('no-roll', `Session ${sessionId} has no roll ${input.rollId}.`, where);
        if (roll.resolution === 'reviewed') throw new ReviewError('already-reviewed', `Roll ${input.rollId} (die "${roll.label}") is already labelled; a label is given once.`, where);
        if (roll.resolution !== 'unresolved') throw new ReviewError('not-unresolved', `Roll ${input.rollId} (die "${roll.label}") was read by the reader; only unresolved rolls (declined, or the die not found) take a label.`, where);
        const told = this.db.prepare<{ reviewer: string }>('SELECT reviewer FROM reviews WHERE roll_id = ?').get(input.rollId);
        if (told !== undefined) {
          throw new ReviewError('already-reviewed', `Roll ${input.rollId} (die "${roll.label}") was looked at already: ${told.reviewer} could not tell its face; an answer is given once.`, where);
        }
        let type: DieType;
        try {
          type = getDieType(roll.typeId, this.types);
        } catch {
          throw new ReviewError('bad-face', `Die "${roll.label}" has type "${roll.typeId}", which this dicerig does not know; cannot check the face.`, where);
        }
        // A face id, or for dice read by symbol (faces alike but for their id) a symbol; or no face a person could tell.
        const wanted = input.faceId;
        const byId = wanted === null ? undefined : type.faces.find((f) => f.id === wanted);
        const face =
          wanted === null ? { id: null, symbol: CANNOT_TELL_SYMBOL } : (byId ?? (type.symbols.includes(wanted) ? { id: null, symbol: wanted } : undefined));
        if (face === undefined) {
          throw new ReviewError('bad-face', `A ${type.id} die has no face "${input.faceId}" (its faces: ${type.faces.map((f) => f.id).join(', ')}).`, where);
        }
        const last = this.db.prepare<{ hash: string }>('SELECT hash FROM reviews WHERE session_id = ? ORDER BY id DESC LIMIT 1').get(sessionId);
        const prevHash = last?.hash ?? reviewGenesis(this.genesis(sessionId));
        const fields = { sessionId, rollId: input.rollId, faceId: face.id, symbol: face.symbol, reviewer: who, at: input.at, afterThrow: session.throwCount };
        const hash = reviewHash(prevHash, fields);
        const info = this.db
          .prepare('INSERT INTO reviews (session_id, roll_id, face_id, symbol, reviewer, at, after_throw, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(sessionId, input.rollId, face.id, face.symbol, who, input.at, session.throwCount, prevHash, hash);
        if (wanted !== null) this.db.prepare("UPDATE rolls SET resolution = 'reviewed' WHERE id = ?").run(input.rollId);
        return { id: Number(info.lastInsertRowid), ...fields, prevHash, hash };
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

  /** The first review of the session that breaks its chain (edited, removed or inserted), as a sentence; null when the chain holds. */
  verify(sessionId: number, genesis: string): string | null {
    let expected = reviewGenesis(genesis);
    for (const r of this.reviews(sessionId)) {
      if (r.prevHash !== expected) return `review ${r.id} (roll ${r.rollId}) does not follow the review before it: a review was deleted or inserted`;
      if (reviewHash(r.prevHash, r) !== r.hash) return `review ${r.id} (roll ${r.rollId}) does not match its hash: it was changed after it was given`;
      expected = r.hash;
    }
    const stale = this.db
      .prepare<{ n: number }>(
        `SELECT count(*) AS n FROM rolls r JOIN throws t ON t.id = r.throw_id
          WHERE t.session_id = ? AND r.resolution = 'reviewed' AND r.id NOT IN (SELECT roll_id FROM reviews)`,
      )
      .get(sessionId)?.n ?? 0;
    if (stale > 0) return `${stale} roll(s) are marked reviewed without a stored review`;
    // A face labels the roll `reviewed`; "cannot tell" leaves it `unresolved`.
    const unmarked = this.db
      .prepare<{ rollId: number; resolution: string | null; told: number }>(
        `SELECT v.roll_id AS rollId, r.resolution, (v.face_id IS NULL AND v.symbol = ?) AS told FROM reviews v LEFT JOIN rolls r ON r.id = v.roll_id
          WHERE v.session_id = ? AND (r.resolution IS NULL OR r.resolution <> CASE WHEN v.face_id IS NULL AND v.symbol = ? THEN 'unresolved' ELSE 'reviewed' END)
          ORDER BY v.id LIMIT 1`,
      )
      .get(CANNOT_TELL_SYMBOL, sessionId, CANNOT_TELL_SYMBOL);
    if (unmarked !== undefined) {
      const given = unmarked.told === 1 ? 'a stored "cannot tell" answer' : 'a stored review';
      return `roll ${unmarked.rollId} has ${given} but is marked ${unmarked.resolution ?? 'missing'}: its resolution was changed after it was ${unmarked.told === 1 ? 'looked at' : 'labelled'}`;
    }
    return null;
  }
}
