/**
 * Roll-store figures: throws (4 rolls each) committed per second, one
 * transaction per throw as the session runner does it, with synchronous=FULL
 * (what dicerig runs: a committed throw survives power loss) and with NORMAL
 * (what FULL costs); per-throw latency percentiles; bulk import (one
 * transaction); a full hash-chain verify. Prints; asserts nothing. The fsync
 * cost depends on the disk under the temp folder: compare figures from one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RollStore } from '../src/store/rollStore.js';
import { BENCH_RIG, benchThrow } from './benchThrows.js';
import { median, percentile, report } from './measure.js';

function openBench(dir: string, name: string, synchronous: 'full' | 'normal') {
  const store = RollStore.open(join(dir, name), { synchronous });
  const rig = store.registerRig(BENCH_RIG);
  const dice = [1, 2, 3, 4].map((i) => store.registerDie({ label: `D${i}`, typeId: 'red' }));
  const session = store.createSession({ config: {}, simulated: true, rigId: rig.id, startedAt: 0 });
  return { store, dice, session };
}

/** Commits throws one transaction each for about `seconds` (at most `max` throws); returns each commit's ms. */
function commitLoop(synchronous: 'full' | 'normal', dir: string, seconds: number, max: number): number[] {
  const { store, dice, session } = openBench(dir, `${synchronous}.db`, synchronous);
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let n = 1; n <= max && performance.now() < end; n++) {
    const t0 = performance.now();
    store.recordThrow(session.id, benchThrow(n, dice));
    times.push(performance.now() - t0);
  }
  store.close();
  return times;
}

function rate(count: number, ms: number): string {
  return `${Math.round((count / ms) * 1000).toLocaleString('en-US')}/s`;
}

export async function runStoreBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-store-bench-'));
  try {
    const rows: string[][] = [];
    for (const sync of ['full', 'normal'] as const) {
      const times = commitLoop(sync, dir, 2, 20_000);
      const total = times.reduce((a, b) => a + b, 0);
      rows.push([
        `synchronous=${sync.toUpperCase()}`,
        `${rate(times.length, total)} throws`,
        `${rate(times.length * 4, total)} rolls; per throw median ${median(times).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms (${times.length} throws)`,
      ]);
    }
    report('roll store: one transaction per throw of 4 rolls (target: far above the rig’s ~1 throw/s)', rows);

    // Bulk: the import path, every throw in one transaction.
    const { store, dice, session } = openBench(dir, 'bulk.db', 'full');
    const n = 20_000;
    const t0 = performance.now();
    store.atomically(() => {
      for (let i = 1; i <= n; i++) store.recordThrow(session.id, benchThrow(i, dice));
    });
    const bulkMs = performance.now() - t0;
    const t1 = performance.now();
    const verified = store.verify();
    const verifyMs = performance.now() - t1;
    store.close();
    report('roll store: bulk and verify', [
      ['import-style, one transaction', `${rate(n, bulkMs)} throws`, `${rate(n * 4, bulkMs)} rolls (${n.toLocaleString('en-US')} throws in ${bulkMs.toFixed(0)} ms)`],
      ['verify (hash chain)', `${rate(verified.throws, verifyMs)} throws`, `${verified.ok ? 'ok' : 'BROKEN'}, ${verifyMs.toFixed(0)} ms`],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
