import { existsSync } from 'node:fs';
import { systemClock, type Clock } from '../core/clock.js';
import { formatCountOf } from '../core/format.js';
import { openFleet, redactUrl, type FleetDb } from './connect.js';
import { FleetIntegrityError, FleetLoginError } from './errors.js';
import { LocalRows } from './localRows.js';
import { syncStore, type SyncOptions } from './replicate.js';

/**
 * Replication running beside a session (`run --fleet URL`): after commits it
 * copies what the fleet store lacks, in the background. It never blocks or
 * fails the rig's local commit: the rig writes its local store as always, and
 * when PostgreSQL is down this loop retries with backoff (0.5 s doubling to
 * 30 s) and reports how many throws are waiting. At the run's end `stop`
 * keeps trying its last pass for the flush time, so a server restarting just
 * then still gets every throw. A session the fleet refuses (a broken chain: an
 * older session of the store changed since it was recorded, say) is reported
 * once and left out while it stays as it is; the other sessions, the running
 * one among them, go on being copied. A login the fleet refuses (no password, a
 * wrong one) is reported once and stops replication for the run.
 */
export interface ContinuousSyncStatus {
  /** Local throws the fleet store did not hold at the last pass (unknown before the first). */
  readonly behind: number | null;
  readonly throwsCopied: number;
  /** The last failure, while it lasts. */
  readonly error: string | null;
  /** True once a refusal stopped replication for this run. */
  readonly refused: boolean;
  /** The sessions the fleet store refused (each named as `session N (NAME) of PATH`), left out while unchanged; the others are copied. */
  readonly refusedSessions: readonly string[];
  /** True once the fleet store would not let this host log in: replication stopped for this run, and a later `dicerig sync` can copy it all once the login is fixed. */
  readonly loginRefused: boolean;
}

export interface ContinuousSync {
  /** Asks for a pass soon (after a commit). */
  poke(): void;
  status(): ContinuousSyncStatus;
  /** Stops the loop after a last pass (at most `flushMs`), and says where it got. */
  stop(flushMs?: number): Promise<ContinuousSyncStatus>;
}

export interface ContinuousSyncOptions extends SyncOptions {
  /** Passes when nothing pokes (ms; default 1000). */
  readonly idleMs?: number;
  /**
   * Least time from a pass's start to the next one a poke asks for (ms; default 250): each pass costs both ends a few
   * queries, and a simulated rig commits a throw every few ms; a real rig's throws take seconds. Idle passes, the
   * backoff and stop's last pass do not wait for it.
   */
  readonly minGapMs?: number;
  /** Times the least gap between passes (default: the wall clock). */
  readonly clock?: Clock;
  /** Told about lag and failures, one line each, when they change. */
  readonly report?: (line: string) => void;
  readonly maxBackoffMs?: number;
  /** While the fleet store stays unreachable, how often the line saying so is repeated with the throws waiting (ms; default 60 s). */
  readonly repeatMs?: number;
}

const sleep = (ms: number, wake: { fn?: () => void }): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    wake.fn = () => {
      clearTimeout(t);
      resolve();
    };
  });

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The last pass's first wait before trying again (doubling to 2 s); the user is told once, on the first. */
const LAST_PASS_FIRST_WAIT_MS = 250;

export function startContinuousSync(localPath: string, url: string, options: ContinuousSyncOptions = {}): ContinuousSync {
  const where = redactUrl(url);
  const report = options.report ?? (() => undefined);
  let status: ContinuousSyncStatus = { behind: null, throwsCopied: 0, error: null, refused: false, loginRefused: false, refusedSessions: [] };
  // Why each refused session was refused, as last said: a session refused again for the same reason is not said again.
  const refusals = new Map<number, { name: string; why: string }>();
  let stopping = false;
  let poked = false;
  const wake: { fn?: () => void } = {};
  const clock = options.clock ?? systemClock;
  // Ends the wait for the least gap between passes: `stop` does, not a poke.
  const gap = new AbortController();
  let fleet: FleetDb | undefined;
  // A broken connection pool is rebuilt on the next pass.
  const dropFleet = async (): Promise<void> => {
    await fleet?.close().catch(() => undefined);
    fleet = undefined;
  };
  let local: LocalRows | undefined;
  let backoff = 0;
  const copied = new Map<number, string>();
  // Throws the fleet held after the last pass that got through: with the local count, what waits while it is down.
  let fleetHeld: number | undefined;
  const waiting = (): number | undefined => {
    try {
      return fleetHeld === undefined || local === undefined ? undefined : Math.max(0, local.throwTotal() - fleetHeld);
    } catch {
      return undefined;
    }
  };
  let saidAt = 0;

  const pass = async (): Promise<void> => {
    if (local === undefined) {
      if (!existsSync(localPath)) return;
      local = LocalRows.open(localPath, { besideWriter: true });
    }
    fleet ??= await openFleet(url, { max: 2, connectTimeoutMs: 5000 });
    // Each pass copies what the store held at its start: the throws committed meanwhile go with the next one.
    const r = await syncStore(local, fleet, {
      ...options,
      copied,
      upToStart: true,
      keepGoing: true,
      onRefused: (session, why) => {
        if (refusals.get(session.id)?.why === why) return;
        refusals.set(session.id, { name: session.name, why });
        status = { ...status, refusedSessions: [...refusals.values()].map((x) => x.name) };
        report(`fleet: ${where} refused ${why} It stays in the local store (\`dicerig verify\` checks it); the other sessions go on being copied.`);
      },
    });
    fleetHeld = local.throwTotal() - r.behind;
    const wasFailing = status.error !== null;
    status = { ...status, behind: r.behind, throwsCopied: status.throwsCopied + r.throws, error: null };
    if (wasFailing) report(`fleet: ${where} reachable again; ${r.behind === 0 ? 'caught up' : `${r.behind} throws still to copy`}.`);
  };

  const loop = (async () => {
    while (!stopping && !status.refused && !status.loginRefused) {
      poked = false;
      const began = clock.now();
      try {
        await pass();
        backoff = 0;
      } catch (e) {
        const message = messageOf(e);
        if (e instanceof FleetIntegrityError) {
          status = { ...status, error: message, refused: true };
          report(`fleet: replication to ${where} stopped: ${message} The session goes on; its throws stay in the local store.`);
          break;
        }
        if (e instanceof FleetLoginError) {
          status = { ...status, error: message, loginRefused: true };
          await dropFleet();
          report(`fleet: replication to ${where} stopped: ${message} The session goes on; its throws stay in the local store, to copy with \`dicerig sync\` once the login works.`);
          break;
        }
        backoff = Math.min(backoff === 0 ? 500 : backoff * 2, options.maxBackoffMs ?? 30_000);
        if (message !== status.error || Date.now() - saidAt >= (options.repeatMs ?? 60_000)) {
          const w = waiting();
          report(`fleet: ${message} The session goes on; retrying every ${Math.round(backoff / 1000)} s at most${w !== undefined ? ` (${formatCountOf(w, 'throw')} waiting)` : ''}.`);
          saidAt = Date.now();
        }
        status = { ...status, error: message };
        await dropFleet();
        await sleep(backoff, wake);
        continue;
      }
      if (!poked && !stopping) await sleep(options.idleMs ?? 1000, wake);
      // Pokes during this wait only say a pass is due.
      const due = began + (options.minGapMs ?? 250) - clock.now();
      if (poked && !stopping && due > 0) await clock.sleep(due, gap.signal);
    }
  })();

  return {
    poke() {
      poked = true;
      if (backoff === 0) wake.fn?.();
    },
    status: () => status,
    async stop(flushMs = 10_000) {
      const deadline = Date.now() + flushMs;
      const left = (): number => Math.max(0, deadline - Date.now());
      stopping = true;
      wake.fn?.();
      gap.abort();
      const ended = await Promise.race([loop.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), flushMs).unref())]);
      // A last pass, so throws committed at the very end get out too. A server
      // that is down or still starting up (a run can end within a restart) is
      // tried again until the flush time is spent; a refusal is not.
      let wait = LAST_PASS_FIRST_WAIT_MS;
      while (ended && !status.refused && !status.loginRefused) {
        try {
          await Promise.race([
            pass(),
            new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`no answer from ${where} within ${Math.round(flushMs / 1000)} s`)), left()).unref()),
          ]);
          break;
        } catch (e) {
          const message = messageOf(e);
          status = { ...status, error: message, refused: e instanceof FleetIntegrityError, loginRefused: e instanceof FleetLoginError };
          await dropFleet();
          if (status.refused || status.loginRefused || left() <= wait) break;
          // Said once, so a run that does not exit at once says why (its throws are safe either way).
          if (wait === LAST_PASS_FIRST_WAIT_MS) report(`fleet: the last copy to ${where} failed (${message}); trying again for up to ${Math.ceil(left() / 1000)} s. Every throw is safe in the local store.`);
          // Not `sleep`: its timer is unref'd, and here the run waits on this alone (the process must not exit mid-wait).
          await new Promise((r) => setTimeout(r, wait));
          wait = Math.min(wait * 2, 2000);
        }
      }
      await dropFleet();
      local?.close();
      return status;
    },
  };
}
