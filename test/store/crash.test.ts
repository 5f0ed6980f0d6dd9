import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/stats/random.js';
import type { DieRecord } from '../../src/store/records.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { crashThrow, CRASH_SESSION } from './support/crashThrows.js';
import { tempDbPath } from './support/fixtures.js';
import { runKillableChild } from '../support/killableChild.js';
import { compiledChild } from '../support/compiledChild.js';

// Started 20 times: as JavaScript on the compiled sources, each start costs about half the CPU it does through tsx.
const child = compiledChild(['crashChild.ts', 'crashThrows.ts', 'fixtures.ts'].map((f) => fileURLToPath(new URL(`./support/${f}`, import.meta.url))));

/** The dice the child registers, in order, on an empty store (ids 1..4). */
const CHILD_DICE: DieRecord[] = ['R1', 'R2', 'G1', 'G2'].map((label, i) => ({ id: i + 1, label, typeId: i < 2 ? 'red' : 'green', set: null, notes: null }));

interface Run {
  /** Indices whose `recordThrow` returned before the kill. */
  committed: number[];
  ready: boolean;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Starts the writer and kills it with SIGKILL `delayMs` after it is ready (or after it starts, if `beforeReady`). */
async function runAndKill(db: string, delayMs: number, beforeReady: boolean): Promise<Run> {
  const committed: number[] = [];
  let ready = false;
  const end = await runKillableChild(
    child,
    [db],
    (line, killAfter) => {
      const m = /^committed (\d+)$/.exec(line);
      if (m) committed.push(Number(m[1]));
      else if (line.startsWith('ready')) {
        ready = true;
        if (!beforeReady) killAfter(delayMs);
      }
    },
    (killAfter) => {
      if (beforeReady) killAfter(delayMs);
    },
  );
  return { committed, ready, signal: end.signal, stderr: end.stderr };
}

/** Every stored throw of the crash session, with its rolls, straight from the file. */
function storedThrows(db: string) {
  const raw = openDatabase(db, { readonly: true });
  try {
    return raw
      .prepare<{ idx: number; status: string; startedAt: number; rolls: number; faces: string | null }>(
        `SELECT t.idx, t.status, t.started_at AS startedAt, count(r.id) AS rolls, group_concat(r.face_id, ' ') AS faces
           FROM throws t JOIN sessions s ON s.id = t.session_id LEFT JOIN rolls r ON r.throw_id = t.id
          WHERE s.name = ? GROUP BY t.id ORDER BY t.idx`,
      )
      .all(CRASH_SESSION);
  } finally {
    raw.close();
  }
}

describe('the roll store under SIGKILL', () => {
  it('keeps every throw whose recordThrow returned, none twice, none half-written, and the chain verifies', async () => {
    const db = tempDbPath();
    const random = seededRandom(20250531);
    let committedSoFar = 0;
    let killedWhileWriting = 0;
    for (let run = 0; run < 20; run++) {
      const beforeReady = random() < 0.2;
      // Some kills land in start-up (open, migrations, session creation), most while throws are being written.
      const delay = beforeReady ? random() * 600 : random() * 250;
      const r = await runAndKill(db, delay, beforeReady);
      expect(r.signal, `run ${run} ended by itself: ${r.stderr}`).toBe('SIGKILL');
      if (r.committed.length > 0) killedWhileWriting++;
      // This run continued exactly after the last throw any earlier run committed.
      if (r.committed.length > 0) expect(r.committed[0]).toBe(committedSoFar + 1);
      committedSoFar = Math.max(committedSoFar, ...r.committed);

      const throws = storedThrows(db);
      // Present: indices 1..L with no gap or repeat, and L is at least the last index reported committed
      // (at most one more: a throw can commit in the instant before its line is printed).
      expect(throws.map((t) => t.idx)).toEqual(throws.map((_, i) => i + 1));
      const last = throws.length;
      expect(last).toBeGreaterThanOrEqual(committedSoFar);
      expect(last).toBeLessThanOrEqual(committedSoFar + 1);
      committedSoFar = last;
      // Whole: each stored throw is exactly throw n, with all of its rolls (every throw in one comparison: there are thousands).
      expect(throws.map((t) => ({ idx: t.idx, status: t.status, startedAt: t.startedAt, rolls: t.rolls, faces: t.faces }))).toEqual(
        throws.map((t) => {
          const want = crashThrow(t.idx, CHILD_DICE);
          return { idx: t.idx, status: want.status, startedAt: want.startedAt, rolls: want.rolls.length, faces: want.rolls.length === 0 ? null : want.rolls.map((x) => x.faceId).join(' ') };
        }),
      );
    }
    expect(killedWhileWriting).toBeGreaterThanOrEqual(8);
    expect(committedSoFar).toBeGreaterThan(20);

    const store = RollStore.open(db, { mustExist: true });
    const report = store.verify();
    expect(report).toMatchObject({ ok: true, breaks: [], orphanRolls: 0 });
    const session = store.findSession(CRASH_SESSION);
    expect(store.lastThrowIndex(session.id)).toBe(committedSoFar);
    store.close();
    const raw = openDatabase(db, { readonly: true });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
  }, 90_000);
});
