import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/events.js';
import { seededRandom } from '../../src/stats/random.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDbPath } from '../store/support/fixtures.js';
import { runKillableChild } from '../support/killableChild.js';
import type { ChildEnd } from '../support/killableChild.js';
import { DICERIG } from '../support/builtCli.js';

type ThrowEvent = Extract<SessionEvent, { type: 'throw' }>;

interface Run extends ChildEnd {
  started?: Extract<SessionEvent, { type: 'started' }>;
  throws: ThrowEvent[];
  summary?: { dice: { label: string; rolls: number; verdict: { kind: string } }[]; state: string };
}

/** When to SIGKILL a run: `afterMs` after it starts, or `extraMs` after it reports its `afterThrows`-th throw. */
type Kill = { afterMs: number } | { afterThrows: number; extraMs: number };

/** Runs `dicerig demo ... --events`, killing it as `kill` says (never, if undefined). */
async function runDemo(args: string[], kill: Kill | undefined): Promise<Run> {
  const run: Omit<Run, keyof ChildEnd> = { throws: [] };
  const end = await runKillableChild(
    DICERIG,
    ['demo', ...args, '--events'],
    (line, killAfter) => {
      if (!line.startsWith('{')) return;
      const e = JSON.parse(line) as { type: string };
      if (e.type === 'started') run.started = e as Run['started'];
      else if (e.type === 'throw') {
        run.throws.push(e as ThrowEvent);
        // Counted in throws, not time, so a fast machine cannot finish the session before the kill.
        if (kill !== undefined && 'afterThrows' in kill && run.throws.length >= kill.afterThrows) killAfter(kill.extraMs);
      } else if (e.type === 'summary') run.summary = e as unknown as Run['summary'];
    },
    (killAfter) => {
      if (kill !== undefined && 'afterMs' in kill) killAfter(kill.afterMs);
    },
  );
  return { ...run, ...end };
}

interface StoredThrow {
  idx: number;
  status: string;
  rolls: { label: string; symbol: string | null; cocked: boolean }[];
}

/** Every stored throw of the file's one session, with its rolls in order, read straight from the file. */
function storedThrows(db: string): StoredThrow[] {
  // Killed before the store was created, or before its schema was: nothing was committed.
  if (!existsSync(db)) return [];
  const raw = openDatabase(db, { readonly: true });
  try {
    if (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'throws'").get() === undefined) return [];
    const throws = raw.prepare<{ id: number; idx: number; status: string }>('SELECT id, idx, status FROM throws ORDER BY idx').all();
    const rolls = raw
      .prepare<{ throwId: number; label: string; symbol: string | null; cocked: number }>(
        'SELECT r.throw_id AS throwId, d.label, r.symbol, r.cocked FROM rolls r JOIN dice d ON d.id = r.die_id ORDER BY r.throw_id, r.seq',
      )
      .all();
    return throws.map((t) => ({
      idx: t.idx,
      status: t.status,
      rolls: rolls.filter((r) => r.throwId === t.id).map((r) => ({ label: r.label, symbol: r.symbol, cocked: r.cocked === 1 })),
    }));
  } finally {
    raw.close();
  }
}

describe('a session killed at random points', () => {
  it('keeps every committed roll, counts none twice, and --resume continues from the last stored throw', async () => {
    const db = tempDbPath();
    const base = ['--seed', '21', '--dice', 'd6', '--budget', '60', '--db', db];
    const random = seededRandom(20260601);
    let sessionId: string | undefined;
    let lastStored = 0;
    let killedMidSession = 0;
    for (let run = 0; run < 7; run++) {
      // Two runs die during start-up (compiling, the camera, the store: about a second); the others after a
      // random 1..6 reported throws plus 0..40 ms, so kills land during and between throws. At most 7 x 6
      // throws are reported before the last run: the 60-roll budget cannot end the session early.
      const kill: Kill = run === 0 || run === 4 ? { afterMs: 300 + random() * 700 } : { afterThrows: 1 + Math.floor(random() * 6), extraMs: random() * 40 };
      const resuming = sessionId !== undefined;
      const r = await runDemo([...base, ...(sessionId !== undefined ? ['--resume', sessionId] : [])], kill);
      expect(r.signal, `run ${run} ended by itself (code ${r.code}): ${r.stderr}`).toBe('SIGKILL');
      if (r.started) {
        sessionId = String(r.started.sessionId);
        // A resumed run starts exactly after the last throw stored before it.
        expect(r.started.lastThrowIndex).toBe(lastStored);
        expect(r.started.resumed).toBe(resuming);
      }
      if (r.throws.length > 0) {
        killedMidSession++;
        expect(r.throws[0]?.index).toBe(lastStored + 1);
      }
      const stored = storedThrows(db);
      // Indices 1..L, no gap or repeat; L covers every throw the run reported committed (at most one more).
      expect(stored.map((t) => t.idx)).toEqual(stored.map((_, i) => i + 1));
      const reported = r.throws.at(-1)?.index ?? lastStored;
      expect(stored.length).toBeGreaterThanOrEqual(reported);
      expect(stored.length).toBeLessThanOrEqual(reported + 1);
      // Each reported throw is stored exactly as reported: status and every die's roll.
      for (const e of r.throws) {
        const s = stored[e.index - 1] as StoredThrow;
        expect({ idx: s.idx, status: s.status, rolls: s.rolls }).toEqual({
          idx: e.index,
          status: e.status,
          rolls: e.rolls.map((x) => ({ label: x.label, symbol: x.symbol ?? null, cocked: x.cocked })),
        });
      }
      lastStored = stored.length;
      if (sessionId === undefined && lastStored === 0) {
        // Killed before the session existed, or before its start was printed: find it in the file, if any.
        const store = RollStore.open(db);
        sessionId = store.sessions()[0]?.id.toString();
        store.close();
      }
    }
    expect(killedMidSession).toBeGreaterThanOrEqual(3);
    expect(sessionId).toBeDefined();

    // The last run goes to the end of the session.
    const last = await runDemo([...base, '--resume', sessionId as string], undefined);
    expect(last.code, last.stderr).toBe(0);
    expect(last.summary?.state).toBe('finished');
    const store = RollStore.open(db, { mustExist: true });
    const id = Number(sessionId);
    expect(store.verify()).toMatchObject({ ok: true, breaks: [], orphanRolls: 0 });
    // Every counted roll in the file was counted once by the monitors, across all the runs.
    const counted = store.dieRolls(id);
    for (const d of last.summary?.dice ?? []) {
      expect(d.rolls, d.label).toBe(counted.find((c) => c.die.label === d.label)?.symbols.length);
    }
    // The fair dice reached the budget: 60 counted rolls each, no more.
    expect(Math.max(...(last.summary?.dice ?? []).map((d) => d.rolls))).toBe(60);
    expect(store.getSession(id)?.state).toBe('finished');
    expect(store.events(id).filter((e) => e.kind === 'resumed').length).toBeGreaterThanOrEqual(3);
    store.close();
  }, 180_000);
});
