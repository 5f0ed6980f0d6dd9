import type { ChainRows } from './chainRows.js';
import { eventHash, genesisHash, resolutionHash, sealHash, throwHash, throwHashV1, type ChainRoll, type ChainThrow } from './hashChain.js';
import type { ChainBreak, VerifyReport } from './records.js';
import { verdictsDigest, VERDICTS_EVENT } from './sessionVerdictRows.js';
import type { Database } from './sqlite.js';

interface ThrowRow {
  id: number;
  idx: number;
  prevHash: string;
  hash: string;
}

/**
 * Walks every session's hash chains from their genesis and reports every
 * place that does not fit: a gap in the throw indices (a deleted throw), a
 * previous-hash that is not the hash before it (a throw deleted, inserted or
 * moved), a stored hash its rows no longer give (an edited throw or roll), a
 * session head that is not its last throw (throws removed or appended at the
 * end), and for sealed sessions (chain version 2) the same over its events
 * and a seal that no longer matches the session row (its name, state or end
 * time edited, or its heads moved to hide a cut-off tail).
 */
export function verifyChains(db: Database, rows: ChainRows): VerifyReport {
  const sessions = db.prepare<{ id: number; name: string | null; headHash: string; throwCount: number }>(
    'SELECT id, name, head_hash AS headHash, throw_count AS throwCount FROM sessions ORDER BY id',
  ).all();
  const throwsOf = db.prepare<ThrowRow>('SELECT id, idx, prev_hash AS prevHash, hash FROM throws WHERE session_id = ? ORDER BY idx');
  const breaks: ChainBreak[] = [];
  const notes: string[] = [];
  const legacy = rows.legacyResolutions();
  let throwCount = 0;
  for (const s of sessions) {
    const named = `session ${s.id}${s.name !== null ? ` (${s.name})` : ''}`;
    const problem = (throwIndex: number | null, text: string): void => {
      breaks.push({ sessionId: s.id, sessionName: s.name, throwIndex, problem: text });
    };
    const session = rows.session(s.id);
    if (session === undefined) continue; // deleted between the two reads; nothing to walk
    let expected = genesisHash(session);
    let expectedIndex = 1;
    let previousStored = expected;
    for (const t of throwsOf.iterate(s.id)) {
      throwCount++;
      const fields = rows.throwFields(t.id);
      const rolls = rows.rolls(t.id);
      const checked = fields === undefined ? { actual: '' } : checkThrow(t, fields, rolls, legacy);
      const actual = checked.actual;
      if (t.idx !== expectedIndex) {
        problem(expectedIndex, t.idx > expectedIndex ? `throw ${expectedIndex} is missing (the next stored throw is ${t.idx})` : `throw ${t.idx} is stored twice`);
      } else if (checked.resolutionChanged === true) {
        problem(t.idx, `throw ${t.idx}: a roll's resolution (read or unresolved) was changed after migration 5 covered it`);
      } else if (actual !== t.hash) {
        problem(t.idx, `throw ${t.idx} does not match its hash: the throw or its rolls were changed, or it was moved, after it was recorded`);
      } else if (t.prevHash !== previousStored) {
        problem(t.idx, `throw ${t.idx} does not follow throw ${t.idx - 1} in the chain: a throw was deleted, inserted or moved`);
      }
      // Go on from what is stored, so each later break is reported once, where it is.
      previousStored = t.hash;
      expected = t.hash;
      expectedIndex = t.idx + 1;
    }
    const last = expectedIndex - 1;
    if (last !== s.throwCount) problem(null, `the session recorded ${s.throwCount} throws but ${last} are stored: throws were removed or added at the end`);
    else if (expected !== s.headHash) problem(null, `the session's head hash is not the hash of its last throw (${last}): the session record was changed`);

    const seal = rows.seal(s.id);
    if (seal === undefined) continue;
    if (seal.chainVersion !== 2) {
      notes.push(
        `${named} was recorded before dicerig sealed sessions: its chain covers its throws, rolls and identity, not its name, state, end time or events`,
      );
      continue;
    }
    let eventsHead = '';
    let n = 0;
    let sealedVerdicts: string | undefined;
    for (const e of rows.events(s.id)) {
      n++;
      if (e.kind === VERDICTS_EVENT) sealedVerdicts = sealedDigest(e.detailJson);
      if (e.hash === null || eventHash(e.prevHash ?? '', e) !== e.hash) problem(null, `event ${n} (${e.kind}) does not match its hash: it was changed after it was recorded`);
      else if (e.prevHash !== eventsHead) problem(null, `event ${n} (${e.kind}) does not follow event ${n - 1}: an event was deleted, inserted or moved`);
      eventsHead = e.hash ?? '';
    }
    if (n !== seal.eventCount) problem(null, `the session logged ${seal.eventCount} events but ${n} are stored: events were removed or added at the end`);
    else if (eventsHead !== seal.eventsHead) problem(null, "the session's events head is not the hash of its last event: the session record was changed");
    if (sealHash(seal) !== seal.seal) problem(null, "the session's name, state, end time or heads were changed after they were recorded (its seal does not match)");
    const verdicts = rows.verdictsJson(s.id);
    if (sealedVerdicts !== undefined && verdicts === undefined) problem(null, 'its stored verdicts were removed (its events chain sealed the ones it made)');
    else if (sealedVerdicts !== undefined && verdictsDigest(verdicts as string) !== sealedVerdicts) {
      problem(null, 'its stored verdicts are not the ones it made: they were changed after it stored them (their SHA-256 is not the one its events chain sealed)');
    } else if (sealedVerdicts === undefined && verdicts !== undefined) {
      notes.push(`${named} stored its verdicts before dicerig sealed them in its events chain: whether they were changed since cannot be told`);
    }
  }
  const rollCount = db.prepare<{ n: number }>('SELECT count(*) AS n FROM rolls').get()?.n ?? 0;
  const orphanRolls = db.prepare<{ n: number }>('SELECT count(*) AS n FROM rolls WHERE throw_id NOT IN (SELECT id FROM throws)').get()?.n ?? 0;
  return {
    ok: breaks.length === 0 && orphanRolls === 0,
    sessions: sessions.length,
    throws: throwCount,
    rolls: rollCount,
    orphanRolls,
    breaks,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * A throw's hash as it should be stored, and for a throw migration 5 covered
 * (hashed before resolutions were, 'dicerig-throw-v1') whether its rolls'
 * resolutions still match the cover. (A file is verified at the current
 * schema: an older one is refused read-only and migrated when opened for writing.)
 */
function checkThrow(t: ThrowRow, fields: ChainThrow, rolls: readonly ChainRoll[], legacy: ReadonlyMap<number, string> | null): { actual: string; resolutionChanged?: boolean } {
  const cover = legacy?.get(t.id);
  if (cover === undefined) return { actual: throwHash(t.prevHash, fields, rolls) };
  const actual = throwHashV1(t.prevHash, fields, rolls);
  return { actual, resolutionChanged: actual === t.hash && resolutionHash(t.hash, rolls) !== cover };
}

/** The digest a verdicts event sealed (undefined when its detail does not name one). */
function sealedDigest(detailJson: string): string | undefined {
  try {
    const d = JSON.parse(detailJson) as { sha256?: unknown };
    return typeof d.sha256 === 'string' ? d.sha256 : undefined;
  } catch {
    return undefined;
  }
}
