import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachFleetSync } from '../../src/cli/fleetSync.js';
import type { Clock } from '../../src/core/clock.js';
import { openFleet } from '../../src/fleet/connect.js';
import { startContinuousSync } from '../../src/fleet/continuousSync.js';
import { verifyFleet } from '../../src/fleet/fleetReader.js';
import { LocalRows } from '../../src/fleet/localRows.js';
import { syncStore } from '../../src/fleet/replicate.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { okThrow, storeWithSession, tamper, tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { fleetThrows, localThrows, sorted, waitForFleetThrows } from './support/compare.js';

let server: ScratchPostgres;
let dir: string;

/** A clock whose time moves, and whose sleeps end, only when the test says (or when their signal aborts). */
class HeldClock implements Clock {
  private t = 0;
  readonly sleeping: { ms: number; until: number; wake: () => void }[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const entry = {
        ms,
        until: this.t + ms,
        wake: () => {
          signal?.removeEventListener('abort', entry.wake);
          const i = this.sleeping.indexOf(entry);
          if (i >= 0) this.sleeping.splice(i, 1);
          resolve();
        },
      };
      signal?.addEventListener('abort', entry.wake, { once: true });
      this.sleeping.push(entry);
    });
  }

  advance(ms: number): void {
    this.t += ms;
    for (const e of [...this.sleeping]) if (e.until <= this.t) e.wake();
  }
}

/** Waits for `done()` to hold (looked at every 10 ms), failing after 20 s with `what`. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  const limit = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > limit) throw new Error(`still waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  server = await startScratchPostgres();
  dir = tempDir('dicerig-fleet-continuous-');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

describe('continuous replication passes (run --fleet) on a real PostgreSQL', () => {
  it('skips a session unchanged since a pass copied it, and still copies what comes after: throws, a review, new verdicts, its end', async () => {
    const path = join(dir, 'passes.db');
    const { store, dice, session } = storeWithSession(path);
    for (let i = 1; i <= 10; i++) store.recordThrow(session.id, okThrow(i, dice));
    const url = await server.createDatabase('passes');
    const fleet = await openFleet(url);
    const local = LocalRows.open(path);
    const copied = new Map<number, string>();
    const pass = () => syncStore(local, fleet, { copied });
    const fleetSession = async () =>
      (await fleet.pool.query<{ state: string; reviews: number; verdicts: string | null }>(
        'SELECT s.state, s.review_count AS reviews, v.verdicts_json AS verdicts FROM sessions s LEFT JOIN session_verdicts v ON v.session_id = s.id',
      )).rows[0];
    try {
      expect(await pass()).toMatchObject({ throws: 10, behind: 0 });
      // Nothing changed: not even one transaction is opened for the session...
      expect(await pass()).toMatchObject({ batches: 0, throws: 0 });
      // ...where a pass without that memory reads the fleet store to find it holds everything.
      expect(await syncStore(local, fleet)).toMatchObject({ batches: 1, throws: 0 });

      const declined = { ...okThrow(11, dice), rolls: okThrow(11, dice).rolls.map((r, i) => (i === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) };
      store.recordThrow(session.id, declined);
      for (let i = 12; i <= 13; i++) store.recordThrow(session.id, okThrow(i, dice));
      expect(await pass()).toMatchObject({ throws: 3, behind: 0 });

      const roll = store.unresolvedRolls(session.id)[0];
      store.reviewRoll(session.id, { rollId: roll?.rollId as number, faceId: 'hit-1', reviewer: 'ada', at: 1_700_000_900_000 });
      expect(await pass()).toMatchObject({ throws: 0, reviews: 1 });
      expect((await fleetSession())?.reviews).toBe(1);

      store.saveVerdicts(session.id, 1_700_001_000_000, [{ die: 'R1', kind: 'INCONCLUSIVE' }]);
      await pass();
      // Replaced under the same time: the pass must still see it changed.
      store.saveVerdicts(session.id, 1_700_001_000_000, [{ die: 'R1', kind: 'FAIR_WITHIN' }]);
      await pass();
      expect(JSON.parse((await fleetSession())?.verdicts ?? 'null')).toEqual([{ die: 'R1', kind: 'FAIR_WITHIN' }]);

      store.endSession(session.id, 1_700_002_000_000);
      await pass();
      expect((await fleetSession())?.state).toBe('finished');
      expect(await pass()).toMatchObject({ batches: 0 });
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
    } finally {
      local.close();
      store.close();
      await fleet.close();
    }
  }, 60_000);

  it('leaves out a session the fleet store refused while it stays as it was, copies the store\'s other session meanwhile, and tries it again once it changes', async () => {
    const path = join(dir, 'refused.db');
    const { store, dice, session, rig } = storeWithSession(path);
    for (let i = 1; i <= 5; i++) store.recordThrow(session.id, okThrow(i, dice));
    const raw = openDatabase(path);
    raw.prepare("UPDATE rolls SET face_id = 'crit', symbol = 'crit' WHERE seq = 0 AND throw_id = (SELECT id FROM throws WHERE session_id = ? AND idx = 2)").run(session.id);
    raw.close();
    const other = store.createSession({ name: 'after', config: { channels: 3 }, simulated: false, rigId: rig.id, startedAt: 1_700_100_000_000 });
    store.recordThrow(other.id, okThrow(1, dice));
    const url = await server.createDatabase('refused');
    const fleet = await openFleet(url);
    const local = LocalRows.open(path);
    const copied = new Map<number, string>();
    const told: string[] = [];
    const pass = () => syncStore(local, fleet, { copied, keepGoing: true, onRefused: (s, why) => told.push(`${s.name}: ${why}`) });
    try {
      expect(await pass()).toMatchObject({ throws: 1, behind: 0 });
      expect(told).toHaveLength(1);
      expect(told[0]).toMatch(/^session 1 \(bench-test\) of .*refused\.db: session 1 \(bench-test\) of .*: throw 2 does not match its hash/);
      // Nothing changed: the refused session is not read again, and the other goes on being copied.
      store.recordThrow(other.id, okThrow(2, dice));
      expect(await pass()).toMatchObject({ batches: 1, throws: 1 });
      expect(told).toHaveLength(1);
      // Changed (a throw more): tried again, and refused again.
      store.recordThrow(session.id, okThrow(6, dice));
      expect(await pass()).toMatchObject({ batches: 0, throws: 0, refused: [expect.stringMatching(/throw 2 does not match its hash/)] });
      expect(told).toHaveLength(2);
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path).filter((k) => k.startsWith(local.genesis(other.id) as string))));
    } finally {
      local.close();
      store.close();
      await fleet.close();
    }
  }, 60_000);

  it('copies in a continuous pass only what the local store held when the pass began, and the next pass copies the rest and only then completes the session', async () => {
    const path = join(dir, 'bounded.db');
    const { store, dice, session, rig } = storeWithSession(path);
    for (let i = 1; i <= 5; i++) store.recordThrow(session.id, okThrow(i, dice));
    store.recordEvent(session.id, { at: 1_700_000_005_900, kind: 'cocked', throwIndex: 5 });
    const url = await server.createDatabase('bounded');
    const fleet = await openFleet(url);
    // As a run's replicator reads its store: beside the writer, which goes on between the pass's batches.
    const local = LocalRows.open(path, { besideWriter: true });
    const copied = new Map<number, string>();
    const atStart = { events: local.eventCount(session.id) };
    const row = async () =>
      (await fleet.pool.query<{ throws: number; events: number; reviews: number; state: string; seal: string; head: string }>(
        'SELECT throw_count AS throws, event_count AS events, review_count AS reviews, state, seal, head_hash AS head FROM sessions WHERE local_id = $1',
        [session.id],
      )).rows[0];
    // After the first batch: throw 6 (one roll declined), an event and a review of that roll; after the second:
    // throw 7 and the session's end; after the third (the pass's last: its start held 5 throws), another session's throw.
    let written = 5;
    const writeOn = (): void => {
      if (written === 5) {
        const declined = { ...okThrow(6, dice), rolls: okThrow(6, dice).rolls.map((r, i) => (i === 0 ? { dieId: r.dieId, channel: 0, resolution: 'unresolved' as const } : r)) };
        store.recordThrow(session.id, declined);
        store.recordEvent(session.id, { at: 1_700_000_006_900, kind: 'cocked', throwIndex: 6 });
        store.reviewRoll(session.id, { rollId: store.unresolvedRolls(session.id)[0]?.rollId as number, faceId: 'hit-1', reviewer: 'ada', at: 1_700_000_006_950 });
      } else if (written === 6) {
        store.recordThrow(session.id, okThrow(7, dice));
        store.endSession(session.id, 1_700_002_000_000);
      } else if (written === 7) {
        const late = store.createSession({ name: 'late', config: { channels: 3 }, simulated: false, rigId: rig.id, startedAt: 1_700_003_000_000 });
        store.recordThrow(late.id, okThrow(1, dice));
      } else return;
      written++;
    };
    try {
      expect(await syncStore(local, fleet, { copied, upToStart: true, batchThrows: 2, onBatch: writeOn })).toMatchObject({ sessions: 1, batches: 3, throws: 5, events: atStart.events, reviews: 0, behind: 3 });
      expect(written).toBe(8);
      // The session moved on (and ended) during the pass: not marked finished, no seal, its chain whole as far as it goes.
      expect(await row()).toMatchObject({ throws: 5, events: atStart.events, reviews: 0, state: 'running', seal: '', head: local.throwHashAt(session.id, 5) });
      expect((await verifyFleet(fleet)).report).toMatchObject({ ok: true, throws: 5 });

      expect(await syncStore(local, fleet, { copied, upToStart: true })).toMatchObject({ sessions: 2, batches: 2, throws: 3, reviews: 1, behind: 0 });
      const ended = local.session(session.id);
      expect(await row()).toMatchObject({ throws: 7, events: atStart.events + 1, reviews: 1, state: 'finished', seal: ended?.seal, head: ended?.headHash });
      expect((await verifyFleet(fleet)).report).toMatchObject({ ok: true, throws: 8 });
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
      expect(await syncStore(local, fleet, { copied, upToStart: true })).toMatchObject({ batches: 0 });
    } finally {
      local.close();
      store.close();
      await fleet.close();
    }
  }, 60_000);

  it('marks a session copied only once the fleet caught up with it, not when a pass reached its start: an event of an unsealed session logged meanwhile goes with the next pass', async () => {
    const path = join(dir, 'unsealed.db');
    const { store, dice, session } = storeWithSession(path);
    // A session from before seals and chained events (chain version 1): its row does not count its events.
    tamper(path, (db) => db.prepare("UPDATE sessions SET chain_version = 1, seal = '' WHERE id = ?").run(session.id));
    for (let i = 1; i <= 3; i++) store.recordThrow(session.id, okThrow(i, dice));
    const url = await server.createDatabase('unsealed');
    const fleet = await openFleet(url);
    const local = LocalRows.open(path, { besideWriter: true });
    const copied = new Map<number, string>();
    const events = local.eventCount(session.id);
    let logged = false;
    const logOnce = (): void => {
      if (!logged) store.recordEvent(session.id, { at: 1_700_000_003_900, kind: 'fault', throwIndex: 3, detail: { message: 'jammed' } });
      logged = true;
    };
    try {
      // Logged after the first of two batches: the second reads it, and stops at the start's events.
      expect(await syncStore(local, fleet, { copied, upToStart: true, batchThrows: 2, onBatch: logOnce })).toMatchObject({ batches: 2, throws: 3, events, behind: 0 });
      expect(logged).toBe(true);
      expect(await syncStore(local, fleet, { copied, upToStart: true })).toMatchObject({ batches: 1, events: 1 });
      expect((await fleet.pool.query<{ n: number }>('SELECT event_count AS n FROM sessions')).rows[0]?.n).toBe(events + 1);
      expect(await syncStore(local, fleet, { copied, upToStart: true })).toMatchObject({ batches: 0 });
      // Logged once a pass had caught up with it: the next pass sees the session changed and copies the event.
      store.recordEvent(session.id, { at: 1_700_000_004_000, kind: 'fault', throwIndex: 3, detail: { message: 'jammed again' } });
      expect(await syncStore(local, fleet, { copied, upToStart: true })).toMatchObject({ batches: 1, events: 1 });
      expect((await fleet.pool.query<{ n: number }>('SELECT event_count AS n FROM sessions')).rows[0]?.n).toBe(events + 2);
    } finally {
      local.close();
      store.close();
      await fleet.close();
    }
  }, 60_000);

  it('starts the pass a poke asks for no sooner than minGapMs after the last pass began, copying what came meanwhile at once, and stop ends that wait at once', async () => {
    const path = join(dir, 'gap.db');
    const { store, dice, session } = storeWithSession(path);
    store.recordThrow(session.id, okThrow(1, dice));
    const url = await server.createDatabase('gap');
    const clock = new HeldClock();
    // Throws copied by each batch: one batch a pass, as each pass here has fewer throws to copy than a batch holds.
    const batches: number[] = [];
    const sync = startContinuousSync(path, url, { idleMs: 60_000, minGapMs: 250, clock, onBatch: (p) => void batches.push(p.throws) });
    let stopped = false;
    const waits = (): string => `passes ${batches.join(', ')}; clock waits ${clock.sleeping.map((s) => s.ms).join(', ')}`;
    try {
      await until(() => batches.length === 1, waits);
      // A rig commits throws 2 to 6, each with a poke, while the clock stands at the first pass's start.
      for (let i = 2; i <= 6; i++) {
        store.recordThrow(session.id, okThrow(i, dice));
        sync.poke();
      }
      await until(() => clock.sleeping.length === 1, waits);
      expect(clock.sleeping.map((s) => s.ms)).toEqual([250]);
      expect(batches).toEqual([1]);
      clock.advance(250);
      await until(() => batches.length === 2, waits);
      expect(batches).toEqual([1, 5]);

      // 100 ms after the second pass began, a throw: its pass waits the 150 ms left.
      clock.advance(100);
      store.recordThrow(session.id, okThrow(7, dice));
      sync.poke();
      await until(() => clock.sleeping.length === 1, waits);
      expect(clock.sleeping.map((s) => s.ms)).toEqual([150]);
      expect(batches).toEqual([1, 5]);
      // The clock stands still: only stop ends that wait, and its last pass copies throw 7.
      const stopping = sync.stop(5_000);
      stopped = true;
      expect(await stopping).toMatchObject({ behind: 0, error: null });
      expect(batches).toEqual([1, 5, 1]);
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
    } finally {
      if (!stopped) await sync.stop(5_000);
      store.close();
    }
  }, 60_000);

  it('makes its last pass when a run ends while PostgreSQL is down, as soon as the server is back within the flush time', async () => {
    const path = join(dir, 'ends-in-restart.db');
    const { store, dice, session } = storeWithSession(path);
    for (let i = 1; i <= 5; i++) store.recordThrow(session.id, okThrow(i, dice));
    const url = await server.createDatabase('ends_in_restart');
    const sync = startContinuousSync(path, url, { idleMs: 50, maxBackoffMs: 200 });
    try {
      await waitForFleetThrows(url, 5, 20_000);
      await server.stop('immediate');
      // The run's last throws, committed while the fleet store is down.
      for (let i = 6; i <= 8; i++) store.recordThrow(session.id, okThrow(i, dice));
      store.endSession(session.id, 1_700_002_000_000);
      const restarted = new Promise((r) => setTimeout(r, 1500)).then(() => server.start());
      const status = await sync.stop(30_000);
      await restarted;
      expect(status).toMatchObject({ error: null, behind: 0, refused: false });
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
    } finally {
      if (!server.running) await server.start();
      store.close();
    }
  }, 90_000);

  it('says how many throws wait while PostgreSQL is down (one throw, in the singular), again as they pile up', async () => {
    const path = join(dir, 'piles-up.db');
    const { store, dice, session } = storeWithSession(path);
    for (let i = 1; i <= 5; i++) store.recordThrow(session.id, okThrow(i, dice));
    const url = await server.createDatabase('piles_up');
    const lines: string[] = [];
    const sync = startContinuousSync(path, url, { idleMs: 50, maxBackoffMs: 100, repeatMs: 200, report: (line) => void lines.push(line) });
    const said = async (pattern: RegExp): Promise<void> => {
      const until = Date.now() + 20_000;
      while (!lines.some((l) => pattern.test(l))) {
        if (Date.now() > until) throw new Error(`never said ${pattern}: ${lines.join(' | ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await waitForFleetThrows(url, 5, 20_000);
      await new Promise((r) => setTimeout(r, 200));
      await server.stop('fast');
      store.recordThrow(session.id, okThrow(6, dice));
      await said(/^fleet: Cannot reach the fleet store .* retrying every \d+ s at most \(1 throw waiting\)\.$/);
      for (let i = 7; i <= 10; i++) store.recordThrow(session.id, okThrow(i, dice));
      await said(/\(5 throws waiting\)\.$/);
    } finally {
      if (!server.running) await server.start();
      await sync.stop(20_000);
      store.close();
    }
    expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
  }, 90_000);

  it('gives up its last pass when the flush time is spent with PostgreSQL still down, and the run says so with the command that catches up', async () => {
    const path = join(dir, 'ends-down.db');
    const { store, dice, session } = storeWithSession(path);
    store.recordThrow(session.id, okThrow(1, dice));
    const url = await server.createDatabase('ends_down');
    const lines: string[] = [];
    const fleet = attachFleetSync({ out: () => undefined, err: (text: string) => void lines.push(text), setExitCode: () => undefined }, path, url);
    try {
      fleet.poke();
      await waitForFleetThrows(url, 1, 20_000);
      await server.stop('immediate');
      store.recordThrow(session.id, okThrow(2, dice));
      // It gives up after its flush time (10 s) rather than waiting for the server: were it to wait, the test's own time would run out.
      const line = await fleet.finish();
      // (A pass of the running loop may have said the server is down first.)
      expect(lines.filter((l) => l.startsWith('fleet: the last copy'))).toEqual([expect.stringMatching(/^fleet: the last copy to postgres:\/\/\/ends_down\S* failed \(Cannot reach the fleet store .*\); trying again for up to \d+ s\. Every throw is safe in the local store\.\n$/)]);
      expect(line).toMatch(/^Fleet store postgres:\/\/\/ends_down\S*: could not confirm that every throw was copied \(Cannot reach the fleet store .*\); any not copied are safe in the local store: run `dicerig sync --db \S*ends-down\.db --to URL` later\.\n$/);
    } finally {
      if (!server.running) await server.start();
      store.close();
    }
    // And the command it names does catch up.
    const local = LocalRows.open(path);
    const db = await openFleet(url);
    try {
      // (An immediate stop may lose the server's last unsynced commits, as this scratch server runs without fsync: the count copied now varies, the end does not.)
      expect(await syncStore(local, db)).toMatchObject({ behind: 0 });
      expect(sorted(await fleetThrows(url))).toEqual(sorted(localThrows(path)));
    } finally {
      local.close();
      await db.close();
    }
  }, 90_000);
});
