import { createHash } from 'node:crypto';

/**
 * The hash chain over a session's throws. Each throw stores the hash of the
 * throw before it (the session's genesis hash for throw 1) and its own hash over
 * that previous hash, its fields and its rolls' fields. Editing a roll, deleting,
 * inserting or moving a throw, or changing the session's identity (its config,
 * its simulated flag, its rig) breaks the chain at the first throw affected.
 *
 * It detects tampering by anyone who does not recompute the chain; it is not a
 * signature. The encodings below are a stored format: never change one, add a
 * new tag instead.
 */

/** The session fields the genesis hash covers, as stored. */
export interface ChainSession {
  readonly id: number;
  readonly origin: string;
  readonly configJson: string;
  readonly softwareVersion: string;
  readonly simulated: number;
  readonly startedAt: number;
  readonly rigId: number | null;
  /** The rig row's identity fields, null where there is no rig (or the row is gone). */
  readonly rig: readonly (string | number | null)[];
}

/** The throw fields a throw's hash covers, as stored. */
export interface ChainThrow {
  readonly sessionId: number;
  readonly index: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly status: string;
  readonly why: string | null;
}

/** A roll's fields as stored, with its die's label and type (null when the die row is gone). */
export interface ChainRoll {
  readonly seq: number;
  readonly dieId: number;
  readonly dieLabel: string | null;
  readonly dieType: string | null;
  readonly channel: number | null;
  readonly faceId: string | null;
  readonly symbol: string | null;
  readonly confidence: number | null;
  readonly cocked: number;
  readonly classifierVersion: string | null;
  readonly evidencePath: string | null;
  readonly evidenceHash: string | null;
  readonly simulated: number;
  /** `read`, `unresolved` or `reviewed` (schema 4); absent in older files, where every roll was read. */
  readonly resolution?: string | null;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash a session's first throw chains from. */
export function genesisHash(s: ChainSession): string {
  // A JSON array of scalars in a fixed order is an unambiguous encoding: strings are quoted and escaped.
  return sha256(JSON.stringify(['dicerig-session-v1', s.id, s.origin, s.configJson, s.softwareVersion, s.simulated, s.startedAt, s.rigId, s.rig]));
}

/**
 * A roll's resolution as it was when its throw was recorded: `read` or
 * `unresolved`. A review later turns `unresolved` into `reviewed` without
 * touching the throw (the review has its own chain, `reviews.ts`), so both
 * hash alike.
 */
export function recordedResolution(r: Pick<ChainRoll, 'resolution'>): 'read' | 'unresolved' | string {
  const res = r.resolution ?? 'read';
  return res === 'reviewed' ? 'unresolved' : res;
}

function rollFields(r: ChainRoll): unknown[] {
  return [r.seq, r.dieId, r.dieLabel, r.dieType, r.channel, r.faceId, r.symbol, r.confidence, r.cocked, r.classifierVersion, r.evidencePath, r.evidenceHash, r.simulated];
}

/**
 * The throw's hash in the first encoding ('dicerig-throw-v1'), which does not
 * cover a roll's resolution. Every throw whose rolls were all read is still
 * hashed this way (stores written before resolutions existed verify as they
 * did); `verify` uses it alone for the throws migration 5 found with declined
 * rolls, whose resolution it covers by `resolutionHash` instead.
 */
export function throwHashV1(prevHash: string, t: ChainThrow, rolls: readonly ChainRoll[]): string {
  return sha256(JSON.stringify(['dicerig-throw-v1', prevHash, t.sessionId, t.index, t.startedAt, t.endedAt, t.status, t.why, rolls.map(rollFields)]));
}

/**
 * The hash of one throw given the hash before it. `rolls` in stored order (by
 * `seq`). A throw with a declined roll ('dicerig-throw-v2') also covers each
 * roll's recorded resolution, so a roll turned from read to unresolved or back
 * by hand breaks the chain.
 */
export function throwHash(prevHash: string, t: ChainThrow, rolls: readonly ChainRoll[]): string {
  if (rolls.every((r) => recordedResolution(r) === 'read')) return throwHashV1(prevHash, t, rolls);
  return sha256(
    JSON.stringify(['dicerig-throw-v2', prevHash, t.sessionId, t.index, t.startedAt, t.endedAt, t.status, t.why, rolls.map((r) => [...rollFields(r), recordedResolution(r)])]),
  );
}

/**
 * Migration 5's cover for a throw recorded (and hashed 'dicerig-throw-v1')
 * with declined rolls before resolutions were hashed: the throw's stored hash
 * and each roll's recorded resolution. Changes made before the migration cannot be seen.
 */
export function resolutionHash(storedThrowHash: string, rolls: readonly Pick<ChainRoll, 'seq' | 'resolution'>[]): string {
  return sha256(JSON.stringify(['dicerig-resolution-v1', storedThrowHash, rolls.map((r) => [r.seq, recordedResolution(r)])]));
}

/**
 * Chain version 2 (sessions created since schema 2) adds two things to the
 * throw chain above: a chain over the session's events, and a seal over what
 * the session row says that no throw covers (name, state, end time) together
 * with the heads and lengths of both chains. A session row or event edited
 * by hand, or the tail of the throws cut off with the head moved back, no
 * longer matches its seal.
 */
export interface ChainEvent {
  readonly sessionId: number;
  readonly at: number;
  readonly kind: string;
  readonly throwIndex: number | null;
  readonly dieId: number | null;
  readonly detailJson: string;
}

/** The hash of one event given the hash of the session's event before it ('' for its first). */
export function eventHash(prevHash: string, e: ChainEvent): string {
  return sha256(JSON.stringify(['dicerig-event-v2', prevHash, e.sessionId, e.at, e.kind, e.throwIndex, e.dieId, e.detailJson]));
}

export interface ChainSeal {
  readonly id: number;
  readonly name: string | null;
  readonly state: string;
  readonly endedAt: number | null;
  readonly headHash: string;
  readonly throwCount: number;
  readonly eventsHead: string;
  readonly eventCount: number;
}

/** The seal of a session row (chain version 2). */
export function sealHash(s: ChainSeal): string {
  return sha256(JSON.stringify(['dicerig-seal-v2', s.id, s.name, s.state, s.endedAt, s.headHash, s.throwCount, s.eventsHead, s.eventCount]));
}
