import { hostname } from 'node:os';
import type pg from 'pg';
import { eventHash, sealHash, throwHash } from '../store/hashChain.js';
import { reviewGenesis } from '../store/reviews.js';
import { checkout, fleetFailure, type FleetDb } from './connect.js';
import { FleetError, FleetIntegrityError } from './errors.js';
import { lockFleetSession, type FleetSessionState, type Origin } from './fleetSession.js';
import { insertReviews, takeReviews } from './fleetReviews.js';
import { checkHostName } from './hostName.js';
import type { LocalEvent, LocalRows, LocalSession, LocalThrow } from './localRows.js';

/**
 * The replicator: copies a local roll store's committed throws (with their
 * sessions, rigs, dice, events, reviews and verdicts) into the fleet store.
 *
 * - Idempotent: a throw is identified by its session (the genesis hash of its
 *   chain) and its index; one already there is skipped when it is the same
 *   throw (same hash) and refused when it is another.
 * - Resumable: where to go on is read from the fleet store itself (how many
 *   throws, events and reviews of each session it holds), never from a file on
 *   the rig host; each batch is one PostgreSQL transaction, so a crash on
 *   either side leaves the fleet at a batch boundary.
 * - Verified on arrival: every throw's hash is recomputed from the rows being
 *   copied and must follow the last hash the fleet holds for its session (the
 *   genesis for the first), and likewise events and reviews; a batch that
 *   breaks its chain is refused as a whole, naming session and throw.
 */
export interface SyncOptions {
  /** Throws per batch (one transaction each); default 500. */
  readonly batchThrows?: number;
  /** Events per batch; default 2000. */
  readonly batchEvents?: number;
  /** The rig host's name as the fleet records it (default: this machine's hostname). */
  readonly host?: string;
  /** Wall clock (ms) for `synced_at`. */
  readonly now?: () => number;
  /**
   * Sessions found fully copied (or, with `keepGoing`, refused) by an earlier
   * pass of this process, by local id, with the local state they had then
   * (`LocalRows.stamp`): skipped while that state is unchanged (continuous sync
   * passes often). Only a shortcut: where to resume is always read from the
   * fleet store.
   */
  readonly copied?: Map<number, string>;
  /** Called after each committed batch. */
  readonly onBatch?: (progress: BatchProgress) => void;
  /**
   * Go on past a session the fleet store refuses (a fork, a changed throw: `FleetIntegrityError`), copying the
   * others, and list the refusals in the result; without it the first refusal ends the pass. With `copied`, a refused
   * session is skipped too while unchanged: it would only be refused again.
   */
  readonly keepGoing?: boolean;
  /** With `keepGoing`: told each session the fleet store refuses, with why (the result's `refused` line). */
  readonly onRefused?: (session: { readonly id: number; readonly name: string }, why: string) => void;
  /**
   * Copy at most what the local store held when the pass began (each session's throws, events and reviews, as of one
   * read), then end. Beside a rig that commits a throw every few ms, a pass that read the newest head at each batch
   * chased the writer, one small batch (one transaction) per throw; what comes after the start waits for the next
   * pass, which copies it in bigger batches. Without it (`dicerig sync`) a pass goes on until the fleet holds what
   * the local store held at its last batch's read.
   */
  readonly upToStart?: boolean;
}

/** The most a bounded pass copies of one session: the local counts at the pass's start. */
interface Bound {
  readonly throws: number;
  readonly events: number;
  readonly reviews: number;
}

export interface BatchProgress {
  readonly localSession: number;
  readonly fleetSession: number;
  /** Throws this batch copied. */
  readonly throws: number;
  /** Throws of the session the fleet now holds, and the local store holds. */
  readonly fleetThrows: number;
  readonly localThrows: number;
}

export interface SyncResult {
  readonly sessions: number;
  readonly batches: number;
  readonly throws: number;
  readonly rolls: number;
  readonly events: number;
  readonly reviews: number;
  /** Throws found already stored (the same throw copied before). */
  readonly duplicates: number;
  /**
   * Local throws not in the fleet store when the pass ended (0 when it caught up); with `upToStart`, read at the end
   * of the pass, so throws committed during it count too.
   */
  readonly behind: number;
  /** Said to the user: sessions the local store holds fewer throws of than the fleet (a restored backup?). */
  readonly notes: readonly string[];
  /** With `keepGoing`: why each session the fleet store refused was not copied (from its refused batch on). */
  readonly refused: readonly string[];
}

interface BatchResult {
  readonly done: boolean;
  /** The fleet holds everything of the session the local store held at this batch's read (or nothing was left to copy). */
  readonly caughtUp: boolean;
  readonly throws: number;
  readonly rolls: number;
  readonly events: number;
  readonly reviews: number;
  readonly duplicates: number;
  readonly behind: number;
  /** Throws of the session the fleet store holds after the batch. */
  readonly held: number;
  readonly note?: string;
}

const sessionName = (s: LocalSession, db: string): string => `session ${s.id}${s.name !== null ? ` (${s.name})` : ''} of ${db}`;

/** One pass over every session of the local store: copies what the fleet does not hold yet. */
export async function syncStore(local: LocalRows, fleet: FleetDb, options: SyncOptions = {}): Promise<SyncResult> {
  const origin: Origin = { host: options.host !== undefined ? checkHostName(options.host) : hostname(), db: local.path };
  const totals = { sessions: 0, batches: 0, throws: 0, rolls: 0, events: 0, reviews: 0, duplicates: 0, behind: 0 };
  const notes: string[] = [];
  const refused: string[] = [];
  const bounded = options.upToStart === true;
  // One read of every session's state (and, bounded, of how far this pass copies it).
  const start = local.snapshot(() =>
    local.sessions().map((s) => {
      const stamp = local.stamp(s);
      const skip = options.copied?.get(s.id) === stamp;
      const bound: Bound | undefined = bounded && !skip ? { throws: s.throwCount, events: local.eventCount(s.id), reviews: local.reviewCount(s.id) } : undefined;
      return { s, stamp, skip, bound };
    }),
  );
  // Bounded: the throws the fleet holds of each session at the end, for `behind` as of then (refused ones left out, as unbounded).
  const held = new Map<number, number>();
  const refusedIds = new Set<number>();
  for (const { s, stamp, skip, bound } of start) {
    totals.sessions++;
    if (skip) {
      held.set(s.id, s.throwCount);
      continue;
    }
    for (;;) {
      let r: BatchResult;
      try {
        r = await copyBatch(local, fleet, s.id, origin, options, bound);
      } catch (e) {
        // One session refused (its refused batch rolled back) need not keep the store's other sessions out.
        if (options.keepGoing !== true || !(e instanceof FleetIntegrityError)) throw e;
        refused.push(e.message);
        options.copied?.set(s.id, stamp);
        options.onRefused?.({ id: s.id, name: sessionName(s, local.path) }, e.message);
        refusedIds.add(s.id);
        break;
      }
      totals.batches++;
      totals.throws += r.throws;
      totals.rolls += r.rolls;
      totals.events += r.events;
      totals.reviews += r.reviews;
      totals.duplicates += r.duplicates;
      if (r.note !== undefined) notes.push(r.note);
      if (r.done) {
        totals.behind += r.behind;
        held.set(s.id, r.held);
        // Not on reaching a bound alone: what came after it (events of an unsealed session, say) may not change the stamp.
        if (r.caughtUp && r.note === undefined) options.copied?.set(s.id, stamp);
        break;
      }
    }
  }
  if (bounded) {
    // What the local store holds now that the fleet does not: throws committed since a session's last batch, and
    // sessions opened since the start, wait for the next pass.
    totals.behind = local.sessions().reduce((n, s) => n + (refusedIds.has(s.id) ? 0 : Math.max(0, s.throwCount - (held.get(s.id) ?? 0))), 0);
  }
  return { ...totals, notes, refused };
}

/**
 * Copies the next batch of one session in one transaction; `done` when the fleet holds all of it (as of this batch's
 * read) or, given a `bound`, all that the bound covers.
 */
async function copyBatch(local: LocalRows, fleet: FleetDb, sessionId: number, origin: Origin, options: SyncOptions, bound: Bound | undefined): Promise<BatchResult> {
  const first = local.session(sessionId);
  const genesis = local.genesis(sessionId);
  if (first === undefined || genesis === undefined) return { done: true, caughtUp: true, throws: 0, rolls: 0, events: 0, reviews: 0, duplicates: 0, behind: 0, held: 0 };
  const name = sessionName(first, local.path);
  const now = options.now?.() ?? Date.now();
  let client: pg.PoolClient;
  let release: (broken?: boolean) => void;
  try {
    ({ client, release } = await checkout(fleet.pool));
  } catch (e) {
    throw fleetFailure(e, fleet.where, fleet.where, `copying ${name}`);
  }
  let broken = false;
  try {
    await client.query('BEGIN');
    const fs = await lockFleetSession(client, local, first, genesis, origin, now);
    const result = await copyInto(client, local, sessionId, genesis, fs, name, now, options, bound);
    await client.query('COMMIT');
    if (result.throws > 0 || result.events > 0) {
      options.onBatch?.({ localSession: sessionId, fleetSession: fs.id, throws: result.throws, fleetThrows: fs.throwCount + result.throws, localThrows: fs.throwCount + result.throws + result.behind });
    }
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    if (e instanceof FleetError) throw e;
    const failure = fleetFailure(e, fleet.where, fleet.where, `copying ${name}`);
    if (failure instanceof FleetError) broken = true;
    throw failure;
  } finally {
    release(broken);
  }
}

async function copyInto(
  client: pg.ClientBase,
  local: LocalRows,
  sessionId: number,
  genesis: string,
  fs: FleetSessionState,
  name: string,
  now: number,
  options: SyncOptions,
  bound: Bound | undefined,
): Promise<BatchResult> {
  const batchThrows = options.batchThrows ?? 500;
  const batchEvents = Math.max(0, Math.min(options.batchEvents ?? 2000, (bound?.events ?? Infinity) - fs.eventCount));
  const lastThrow = Math.min(fs.throwCount + batchThrows, bound?.throws ?? Infinity);
  // One consistent state of the local store for the whole batch.
  const read = local.snapshot(() => {
    const s = local.session(sessionId) as LocalSession;
    return {
      s,
      atHead: fs.throwCount === 0 ? genesis : local.throwHashAt(sessionId, fs.throwCount),
      localHead: s.throwCount === 0 ? genesis : local.throwHashAt(sessionId, s.throwCount),
      throws: local.throws(sessionId, fs.throwCount + 1, lastThrow),
      events: local.events(sessionId, fs.eventCount, batchEvents),
      localEvents: local.eventCount(sessionId),
      reviews: local.reviews(sessionId, fs.reviewCount).slice(0, bound === undefined ? undefined : Math.max(0, bound.reviews - fs.reviewCount)),
      verdicts: local.verdicts(sessionId),
    };
  });
  const { s } = read;
  if (read.atHead === undefined) {
    // The local store holds fewer throws than the fleet. A restored backup holds the start of what the fleet holds:
    // copy nothing, say so. A copy of the store rolled on apart from the one synced holds other throws: a fork, refused.
    const fleetThere = await fleetThrowHash(client, fs.id, s.throwCount);
    if (s.throwCount > 0 && fleetThere !== read.localHead) throw await forked(client, local, sessionId, fs, s.throwCount, name);
    return { done: true, caughtUp: false, throws: 0, rolls: 0, events: 0, reviews: 0, duplicates: 0, behind: 0, held: fs.throwCount, note: `${name} holds ${s.throwCount} throws but the fleet store already holds ${fs.throwCount}: nothing was copied (is this a restored backup?).` };
  }
  if (read.atHead !== fs.headHash) throw await forked(client, local, sessionId, fs, fs.throwCount, name);

  const head = checkThrows(read.throws, fs.throwCount, fs.headHash, name);
  const eventsHead = checkEvents(s, read.events, fs.eventCount, fs.eventsHead, name);
  const throwCount = fs.throwCount + read.throws.length;
  const reviews = takeReviews(read.reviews, throwCount, fs.reviewCount, fs.reviewsHead ?? reviewGenesis(genesis), name);

  const dice = await fleetDice(client, local, [...read.throws.flatMap((t) => t.rolls.map((r) => r.dieId)), ...read.events.flatMap((e) => (e.dieId === null ? [] : [e.dieId]))], name);
  const copied = await insertThrows(client, fs.id, read.throws, dice, now, name);
  await insertEvents(client, fs.id, read.events, fs.eventCount, dice);
  await insertReviews(client, fs.id, reviews, fs.reviewCount, local, sessionId, name);

  const eventCount = fs.eventCount + read.events.length;
  // Against the local store as this batch read it, never the bound: a session that moved on since the pass began is
  // not complete, and its seal and heads (which cover what came after) are not checked yet.
  const complete = throwCount === s.throwCount && eventCount === read.localEvents;
  if (complete) checkSessionRow(s, head, eventsHead, name);
  await client.query(
    `UPDATE sessions SET name = $2, state = CASE WHEN $11 THEN $3 ELSE state END, ended_at = CASE WHEN $11 THEN $4::float8 ELSE ended_at END,
            head_hash = $5, throw_count = $6, events_head = $7, event_count = $8, review_count = review_count + $9, seal = $10,
            local_throw_count = $12, local_event_count = $13, synced_at = $14
      WHERE id = $1`,
    [fs.id, s.name, s.state, s.endedAt, head, throwCount, eventsHead, eventCount, reviews.length, complete && s.chainVersion === 2 ? s.seal : '', complete, s.throwCount, read.localEvents, now],
  );
  const verdictsDue = complete && read.verdicts !== undefined && (read.verdicts.at !== fs.verdictsAt || read.verdicts.json !== fs.verdictsJson);
  if (verdictsDue && read.verdicts !== undefined) {
    await client.query(
      `INSERT INTO session_verdicts (session_id, at, verdicts_json) VALUES ($1, $2, $3)
       ON CONFLICT (session_id) DO UPDATE SET at = excluded.at, verdicts_json = excluded.verdicts_json`,
      [fs.id, read.verdicts.at, read.verdicts.json],
    );
  }
  const reviewsLeft = read.reviews.length - reviews.length;
  const progressed = read.throws.length > 0 || read.events.length > 0 || reviews.length > 0;
  const caughtUp = !progressed || (complete && reviewsLeft === 0);
  const reachedBound = bound !== undefined && throwCount >= bound.throws && eventCount >= bound.events && reviewsLeft === 0;
  return {
    done: caughtUp || reachedBound,
    caughtUp,
    throws: copied.inserted,
    rolls: copied.rolls,
    events: read.events.length,
    reviews: reviews.length,
    duplicates: copied.duplicates,
    behind: s.throwCount - throwCount,
    held: throwCount,
  };
}

const fleetThrowHash = async (client: pg.ClientBase, fleetSession: number, index: number): Promise<string | undefined> =>
  (await client.query<{ hash: string }>('SELECT hash FROM throws WHERE session_id = $1 AND idx = $2', [fleetSession, index])).rows[0]?.hash;

/**
 * The refusal of a local session whose throws part from the fleet's within the first `upTo`: it names the first
 * throw that differs, found by halving (each hash covers the one before, so once two differ every later pair does).
 * Naming the last one would read as if the throws before it agreed.
 */
async function forked(client: pg.ClientBase, local: LocalRows, sessionId: number, fs: FleetSessionState, upTo: number, name: string): Promise<FleetIntegrityError> {
  let lo = 1;
  let hi = upTo;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await fleetThrowHash(client, fs.id, mid)) === local.throwHashAt(sessionId, mid)) lo = mid + 1;
    else hi = mid;
  }
  return new FleetIntegrityError(
    `${name}: throw ${lo} in the fleet store is not the local throw ${lo} (their hashes differ)${lo > 1 ? `; throws 1 to ${lo - 1} agree` : ''}: ` +
      `the fleet store holds ${fs.throwCount} throws of this session, from throw ${lo} on rolled in another copy of the store (or changed here after they were synced); nothing was copied.`,
    { session: name, throwIndex: lo },
  );
}

/** Recomputes each throw's hash from the rows being copied and checks it follows the one before; returns the new head. */
function checkThrows(throws: readonly LocalThrow[], after: number, headHash: string, name: string): string {
  let prev = headHash;
  let expected = after + 1;
  for (const t of throws) {
    const where = { session: name, throwIndex: t.index };
    if (t.index !== expected) throw new FleetIntegrityError(`${name}: throw ${expected} is missing (the next stored throw is ${t.index}); nothing of this batch was copied.`, where);
    if (t.prevHash !== prev) {
      throw new FleetIntegrityError(`${name}: throw ${t.index} does not follow throw ${t.index - 1} in the hash chain (a throw was deleted, inserted or moved); nothing of this batch was copied.`, where);
    }
    if (t.rolls.some((r) => r.dieLabel === null)) throw new FleetIntegrityError(`${name}: throw ${t.index} has a roll of a die that is not in the store; nothing of this batch was copied.`, where);
    if (throwHash(prev, t, t.rolls) !== t.hash) {
      throw new FleetIntegrityError(`${name}: throw ${t.index} does not match its hash: the throw or its rolls were changed after it was recorded; nothing of this batch was copied.`, where);
    }
    prev = t.hash;
    expected++;
  }
  return prev;
}

function checkEvents(s: LocalSession, events: readonly LocalEvent[], after: number, head: string, name: string): string {
  if (s.chainVersion !== 2) return head;
  let prev = head;
  events.forEach((e, i) => {
    const n = after + i + 1;
    if (e.hash === null || e.prevHash !== prev || eventHash(prev, e) !== e.hash) {
      throw new FleetIntegrityError(`${name}: event ${n} (${e.kind}) does not fit the session's event chain: it was changed, deleted or inserted after it was recorded; nothing of this batch was copied.`, {
        session: name,
        ...(e.throwIndex !== null ? { throwIndex: e.throwIndex } : {}),
      });
    }
    prev = e.hash;
  });
  return prev;
}

/** The session row's own fields, checked once the fleet holds everything they cover: its heads and its seal. */
function checkSessionRow(s: LocalSession, head: string, eventsHead: string, name: string): void {
  if (s.headHash !== head) throw new FleetIntegrityError(`${name}: the session's head hash is not the hash of its last throw (${s.throwCount}): the session record was changed; it was not copied.`, { session: name });
  if (s.chainVersion !== 2) return;
  if (s.eventsHead !== eventsHead) throw new FleetIntegrityError(`${name}: the session's events head is not the hash of its last event: the session record was changed; it was not copied.`, { session: name });
  const seal = sealHash({ id: s.id, name: s.name, state: s.state, endedAt: s.endedAt, headHash: s.headHash, throwCount: s.throwCount, eventsHead: s.eventsHead, eventCount: s.eventCount });
  if (seal !== s.seal) {
    throw new FleetIntegrityError(`${name}: the session's name, state, end time or heads were changed after they were recorded (its seal does not match); it was not copied.`, { session: name });
  }
}

/** Fleet die ids for local die ids: one die per label across the fleet; a label the fleet knows as another type is refused. */
async function fleetDice(client: pg.ClientBase, local: LocalRows, localIds: readonly number[], name: string): Promise<Map<number, number>> {
  const ids = [...new Set(localIds)];
  const map = new Map<number, number>();
  if (ids.length === 0) return map;
  const dice = ids.map((id) => {
    const d = local.die(id);
    if (d === undefined) throw new FleetIntegrityError(`${name}: die ${id} is referred to but not in the store; nothing of this batch was copied.`, { session: name });
    return d;
  });
  await client.query(
    `INSERT INTO dice (label, type_id, set_name, notes) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT (label) DO NOTHING`,
    [dice.map((d) => d.label), dice.map((d) => d.typeId), dice.map((d) => d.set), dice.map((d) => d.notes)],
  );
  const rows = await client.query<{ id: number; label: string; type_id: string }>('SELECT id, label, type_id FROM dice WHERE label = ANY($1::text[])', [dice.map((d) => d.label)]);
  const byLabel = new Map(rows.rows.map((r) => [r.label, r]));
  for (const d of dice) {
    const f = byLabel.get(d.label) as { id: number; type_id: string };
    if (f.type_id !== d.typeId) {
      throw new FleetIntegrityError(`${name}: die "${d.label}" is a ${d.typeId} here but the fleet store knows it as a ${f.type_id}: a label names one physical die across the fleet; relabel one of them.`, { session: name });
    }
    map.set(d.id, f.id);
  }
  return map;
}

async function insertThrows(client: pg.ClientBase, sessionId: number, throws: readonly LocalThrow[], dice: Map<number, number>, now: number, name: string): Promise<{ inserted: number; rolls: number; duplicates: number }> {
  if (throws.length === 0) return { inserted: 0, rolls: 0, duplicates: 0 };
  const col = <T>(f: (t: LocalThrow) => T): T[] => throws.map(f);
  const inserted = await client.query<{ id: number; idx: number }>(
    `INSERT INTO throws (session_id, idx, started_at, ended_at, status, why, prev_hash, hash, synced_at)
     SELECT $1, u.idx, u.s, u.e, u.st, u.w, u.p, u.h, $9 FROM unnest($2::int[], $3::float8[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(idx, s, e, st, w, p, h)
     ON CONFLICT (session_id, idx) DO NOTHING RETURNING id, idx`,
    [sessionId, col((t) => t.index), col((t) => t.startedAt), col((t) => t.endedAt), col((t) => t.status), col((t) => t.why), col((t) => t.prevHash), col((t) => t.hash), now],
  );
  const idOf = new Map(inserted.rows.map((r) => [r.idx, r.id]));
  const skipped = throws.filter((t) => !idOf.has(t.index));
  if (skipped.length > 0) {
    // Already stored under the same id: the same throw (same hash) is a duplicate; another throw is an error.
    const stored = await client.query<{ idx: number; hash: string }>('SELECT idx, hash FROM throws WHERE session_id = $1 AND idx = ANY($2::int[])', [sessionId, skipped.map((t) => t.index)]);
    const hashOf = new Map(stored.rows.map((r) => [r.idx, r.hash]));
    for (const t of skipped) {
      if (hashOf.get(t.index) !== t.hash) {
        throw new FleetIntegrityError(`${name}: another throw ${t.index} is already in the fleet store (the hashes differ); nothing of this batch was copied.`, { session: name, throwIndex: t.index });
      }
    }
  }
  const rolls = throws.filter((t) => idOf.has(t.index)).flatMap((t) => t.rolls.map((r) => ({ throwId: idOf.get(t.index) as number, r })));
  if (rolls.length > 0) {
    const c = <T>(f: (x: (typeof rolls)[number]) => T): T[] => rolls.map(f);
    await client.query(
      `INSERT INTO rolls (throw_id, local_id, seq, die_id, local_die_id, channel, face_id, symbol, confidence, cocked, classifier_version, evidence_path, evidence_hash, simulated, resolution)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::bigint[], $5::int[], $6::int[], $7::text[], $8::text[], $9::float8[], $10::int[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[])`,
      [
        c((x) => x.throwId),
        c((x) => x.r.id),
        c((x) => x.r.seq),
        c((x) => dice.get(x.r.dieId)),
        c((x) => x.r.dieId),
        c((x) => x.r.channel),
        c((x) => x.r.faceId),
        c((x) => x.r.symbol),
        c((x) => x.r.confidence),
        c((x) => x.r.cocked),
        c((x) => x.r.classifierVersion),
        c((x) => x.r.evidencePath),
        c((x) => x.r.evidenceHash),
        c((x) => x.r.simulated),
        // A roll labelled since is copied as declined; its review, when it arrives, makes it `reviewed` (as the local store did).
        c((x) => (x.r.resolution === 'read' ? 'read' : 'unresolved')),
      ],
    );
  }
  return { inserted: idOf.size, rolls: rolls.length, duplicates: skipped.length };
}

async function insertEvents(client: pg.ClientBase, sessionId: number, events: readonly LocalEvent[], after: number, dice: Map<number, number>): Promise<void> {
  if (events.length === 0) return;
  const c = <T>(f: (e: LocalEvent) => T): T[] => events.map(f);
  await client.query(
    `INSERT INTO events (session_id, n, at, kind, throw_index, die_id, local_die_id, detail_json, prev_hash, hash)
     SELECT $1, * FROM unnest($2::int[], $3::float8[], $4::text[], $5::int[], $6::bigint[], $7::int[], $8::text[], $9::text[], $10::text[])`,
    [
      sessionId,
      events.map((_, i) => after + i + 1),
      c((e) => e.at),
      c((e) => e.kind),
      c((e) => e.throwIndex),
      c((e) => (e.dieId === null ? null : (dice.get(e.dieId) ?? null))),
      c((e) => e.dieId),
      c((e) => e.detailJson),
      c((e) => e.prevHash),
      c((e) => e.hash),
    ],
  );
}
