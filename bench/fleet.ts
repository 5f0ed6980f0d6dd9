/**
 * Fleet-store figures on a scratch PostgreSQL (the tests' server: its own
 * cluster on a unix socket, fsync off, so these are CPU and protocol costs,
 * not disk): throws (4 rolls each) replicated per second by `dicerig sync`
 * from a local store of 20,000 throws, and the lag from a local commit to the
 * throw being committed in the fleet store while a writer commits throws at a
 * steady rate and continuous replication (as `run --fleet`) runs beside it in
 * the same process; one rig, then eight rig stores writing into one fleet
 * store at once (all in this process, so they also share its CPU). Lag = time the replicator's batch committed in PostgreSQL
 * minus time the throw's local commit returned. Prints; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openFleet } from '../src/fleet/connect.js';
import { startContinuousSync } from '../src/fleet/continuousSync.js';
import { LocalRows } from '../src/fleet/localRows.js';
import { syncStore } from '../src/fleet/replicate.js';
import { RollStore } from '../src/store/rollStore.js';
import { startScratchPostgres } from '../test/support/postgres.js';
import { BENCH_RIG, benchThrow } from './benchThrows.js';
import { median, percentile, report } from './measure.js';

function openBench(path: string, rigKey: string) {
  const store = RollStore.open(path, { synchronous: 'normal' });
  const rig = store.registerRig({ ...BENCH_RIG, rigId: rigKey });
  const dice = [1, 2, 3, 4].map((i) => store.registerDie({ label: `${rigKey}-D${i}`, typeId: 'red' }));
  const session = store.createSession({ config: {}, simulated: true, rigId: rig.id, startedAt: 0 });
  return { store, dice, session };
}

/** A rig's pace (issue 12): ~6,000 die-rolls an hour; with these 4-die throws, a throw every 2.4 s. */
const RIG_ROLLS_PER_S = 6000 / 3600;
const RIG_THROW_MS = (4 / RIG_ROLLS_PER_S) * 1000;

const rate = (count: number, ms: number): string => `${Math.round((count / ms) * 1000).toLocaleString('en-US')}/s`;

/** One rig host: its own local store, a writer committing throws at `perSecond`, and continuous replication beside it. */
async function rigUnderLoad(dir: string, url: string, key: string, perSecond: number, seconds: number): Promise<{ lags: number[]; expected: number }> {
  const path = join(dir, `${key}.db`);
  const { store, dice, session } = openBench(path, key);
  const committedAt: number[] = [];
  const lags: number[] = [];
  const sync = startContinuousSync(path, url, {
    idleMs: 1000,
    host: key,
    onBatch: (p) => {
      const now = performance.now();
      for (let i = lags.length; i < p.fleetThrows && i < committedAt.length; i++) lags.push(now - (committedAt[i] as number));
    },
  });
  const total = perSecond * seconds;
  const t0 = performance.now();
  for (let n = 1; n <= total; n++) {
    const wait = t0 + (n * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    store.recordThrow(session.id, benchThrow(n, dice));
    committedAt.push(performance.now());
    sync.poke();
  }
  const until = performance.now() + 30_000;
  while (lags.length < total && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
  await sync.stop();
  store.close();
  return { lags, expected: total };
}

/**
 * `rigs` rig hosts (in this one process) each commit `perSecond` throws a second for
 * `seconds` into their own store, replicating into one fleet store; returns every
 * throw's commit-to-fleet lag (ms) and how many throws were committed.
 */
async function lagUnderLoad(dir: string, url: string, rigs: number, perSecond: number, seconds: number): Promise<{ lags: number[]; expected: number }> {
  const each = await Promise.all(Array.from({ length: rigs }, (_, i) => rigUnderLoad(dir, url, `lag-${rigs}x${perSecond}-rig${i + 1}`, perSecond, seconds)));
  return { lags: each.flatMap((r) => r.lags), expected: each.reduce((a, r) => a + r.expected, 0) };
}

export async function runFleetBench(): Promise<void> {
  let server;
  try {
    server = await startScratchPostgres();
  } catch (e) {
    report('fleet store (PostgreSQL)', [['skipped', '', (e as Error).message.split('\n')[0] ?? '']]);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-fleet-bench-'));
  try {
    const n = 20_000;
    const path = join(dir, 'bulk.db');
    const { store, dice, session } = openBench(path, 'bulk');
    store.atomically(() => {
      for (let i = 1; i <= n; i++) store.recordThrow(session.id, benchThrow(i, dice));
    });
    store.close();
    const rows: string[][] = [];
    for (const batch of [500, 100]) {
      const fleet = await openFleet(await server.createDatabase(`bulk${batch}`));
      const local = LocalRows.open(path);
      const t0 = performance.now();
      const r = await syncStore(local, fleet, { batchThrows: batch });
      const ms = performance.now() - t0;
      local.close();
      await fleet.close();
      rows.push([
        `sync, ${batch} throws a batch`,
        `${rate(r.throws, ms)} throws`,
        `${rate(r.rolls, ms)} rolls = ${Math.round(((r.rolls / ms) * 1000) / RIG_ROLLS_PER_S).toLocaleString('en-US')} rigs' worth (${r.throws.toLocaleString('en-US')} throws, ${r.batches} transactions, ${ms.toFixed(0)} ms)`,
      ]);
    }
    report('fleet store: throws replicated per second by dicerig sync, chain recomputed on arrival (target: far above a fleet of rigs, ~6,000 die-rolls an hour each)', rows);

    const lagRows: string[][] = [];
    for (const [rigs, perSecond] of [[1, 20], [1, 200], [8, 25]] as const) {
      const url = await server.createDatabase(`lag${rigs}x${perSecond}`);
      const { lags, expected } = await lagUnderLoad(dir, url, rigs, perSecond, 5);
      const p99 = percentile(lags, 0.99);
      const missing = expected - lags.length;
      lagRows.push([
        `${rigs} rig${rigs > 1 ? 's' : ''} × ${perSecond} throws/s for 5 s`,
        `median ${median(lags).toFixed(1)} ms`,
        `p99 ${p99.toFixed(1)} ms = ${(p99 / RIG_THROW_MS).toFixed(3)} of a rig's throw (${lags.length} throws${missing > 0 ? `, ${missing} NOT in the fleet store after 30 s` : ''})`,
      ]);
    }
    report(`fleet store: lag from a local commit to the fleet store under load, continuous sync beside each writer as in run --fleet (target: p99 well under one rig throw, ${RIG_THROW_MS / 1000} s)`, lagRows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.remove();
  }
}
