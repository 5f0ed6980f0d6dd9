import type { ChainRows } from './chainRows.js';
import { genesisHash, throwHash } from './hashChain.js';
import type { ChainBreak, VerifyReport } from './records.js';
import type { Database } from './sqlite.js';

interface ThrowRow {
  id: number;
  idx: number;
  prevHash: string;
  hash: string;
}

/**
 * Walks every session's hash chain from its genesis and reports, per session,
 * the first throw that does not fit: a gap in the indices (a deleted throw),
 * a previous-hash that is not the hash before it (a throw deleted, inserted or
 * moved), a stored hash its rows no longer give (an edited throw or roll), or a
 * session head that is not its last throw (throws removed or appended at the end).
 */
export function verifyChains(db: Database, rows: ChainRows): VerifyReport {
  const sessions = db.prepare<{ id: number; name: string | null; headHash: string; throwCount: number }>(
    'SELECT id, name, head_hash AS headHash, throw_count AS throwCount FROM sessions ORDER BY id',
  ).all();
  const throwsOf = db.prepare<ThrowRow>('SELECT id, idx, prev_hash AS prevHash, hash FROM throws WHERE session_id = ? ORDER BY idx');
  const breaks: ChainBreak[] = [];
  let throwCount = 0;
  for (const s of sessions) {
    const problem = (throwIndex: number | null, text: string): void => {
      breaks.push({ sessionId: s.id, sessionName: s.name, throwIndex, problem: text });
    };
    const session = rows.session(s.id);
    if (session === undefined) continue; // deleted between the two reads; nothing to walk
    let expected = genesisHash(session);
    let expectedIndex = 1;
    let broken = false;
    for (const t of throwsOf.iterate(s.id)) {
      throwCount++;
      if (broken) continue;
      if (t.idx !== expectedIndex) {
        problem(expectedIndex, t.idx > expectedIndex ? `throw ${expectedIndex} is missing (the next stored throw is ${t.idx})` : `throw ${t.idx} is stored twice`);
        broken = true;
        continue;
      }
      const fields = rows.throwFields(t.id);
      const actual = fields === undefined ? '' : throwHash(t.prevHash, fields, rows.rolls(t.id));
      if (actual !== t.hash) {
        problem(t.idx, `throw ${t.idx} does not match its hash: the throw or its rolls were changed, or it was moved, after it was recorded`);
        broken = true;
      } else if (t.prevHash !== expected) {
        problem(t.idx, `throw ${t.idx} does not follow throw ${t.idx - 1} in the chain: a throw was deleted, inserted or moved`);
        broken = true;
      }
      expected = t.hash;
      expectedIndex++;
    }
    if (broken) continue;
    const last = expectedIndex - 1;
    if (last !== s.throwCount || expected !== s.headHash) {
      problem(
        null,
        last === s.throwCount
          ? `the session's head hash is not the hash of its last throw (${last}): the session record was changed`
          : `the session recorded ${s.throwCount} throws but ${last} are stored: throws were removed or added at the end`,
      );
    }
  }
  const rollCount = db.prepare<{ n: number }>('SELECT count(*) AS n FROM rolls').get()?.n ?? 0;
  const orphanRolls = db.prepare<{ n: number }>('SELECT count(*) AS n FROM rolls WHERE throw_id NOT IN (SELECT id FROM throws)').get()?.n ?? 0;
  return { ok: breaks.length === 0 && orphanRolls === 0, sessions: sessions.length, throws: throwCount, rolls: rollCount, orphanRolls, breaks };
}
