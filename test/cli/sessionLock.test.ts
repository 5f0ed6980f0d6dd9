import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDir } from '../store/support/fixtures.js';
import { DICERIG } from '../support/builtCli.js';
import { runCli } from './runCli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A `dicerig` process of its own: its pid, its output so far, a way to signal it once it has stored `n` throws, and its end. */
function dicerig(args: readonly string[]) {
  const child = spawn(process.execPath, [DICERIG, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { out: '', err: '' };
  const waiting: { n: number; resolve: () => void }[] = [];
  const throws = (): number => seen.out.split('\n').filter((l) => l.includes('"type":"throw"')).length;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    seen.out += c;
    for (const w of waiting.splice(0)) {
      if (throws() >= w.n) w.resolve();
      else waiting.push(w);
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => void (seen.err += c));
  const end = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    pid: child.pid as number,
    seen,
    end,
    stored: (n: number): Promise<void> => new Promise((resolve) => (throws() >= n ? resolve() : waiting.push({ n, resolve }))),
    kill: (signal: NodeJS.Signals) => child.kill(signal),
  };
}

/**
 * A one-die session on the simulated rig in real time (a few throws a second), so two processes overlap for seconds.
 * Its camera gives 120 frames a second, not 30: the dice are seen still a few frames after they settle, and at 30
 * those frames took some 120 ms of each throw (40 throws: 19.3 s of real time at 30, 14.5 s at 120), waiting that
 * nothing here is about.
 */
function simConfig(dir: string, budgetRolls: number): string {
  const cfg = join(dir, 'sim.yaml');
  writeFileSync(cfg, `seed: 4\nclock: system\ndice:\n  - { label: L1, type: d6 }\nrig:\n  driver: sim\n  sim: { timing: { flipMs: 60, settleMedianMs: 60, homeMinMs: 10, homeMaxMs: 20 } }\ncamera: { source: sim, fps: 120 }\nstopping: { budgetRolls: ${budgetRolls} }\n`);
  return cfg;
}

function lockRows(db: string): { session_id: number; pid: number }[] {
  const raw = openDatabase(db, { readonly: true });
  try {
    return raw.prepare<{ session_id: number; pid: number }>('SELECT session_id, pid FROM session_locks').all();
  } finally {
    raw.close();
  }
}

describe('one session, one writer', () => {
  it('refuses a resume of a session another live process is running, naming the session, the store and that process, and writes nothing; SIGTERM frees it', async () => {
    const dir = tempDir('dicerig-lock-');
    const cfg = simConfig(dir, 100_000);
    const db = join(dir, 'rolls.db');
    const first = dicerig(['run', cfg, '--db', db, '--events']);
    await first.stored(3);

    const second = await runCli('run', cfg, '--resume', '1', '--db', db);
    expect(second.code).not.toBe(0);
    expect(second.err).toContain(`Session 1 in ${db} is being run by process ${first.pid} on host ${hostname()}`);
    expect(second.err).toContain(`kill -INT ${first.pid}`);

    first.kill('SIGTERM');
    expect((await first.end).code).toBe(130);
    const store = RollStore.open(db, { mustExist: true });
    try {
      // The refused run logged no `resumed` event, and the first one's throws are each stored once.
      expect(store.events(1).filter((e) => e.kind === 'resumed')).toEqual([]);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
    expect(lockRows(db)).toEqual([]);
  }, 60_000);

  it('lets the next resume take over a session whose run was killed, saying so; of two resumes started at once, one runs and the other is refused', async () => {
    const dir = tempDir('dicerig-lock-');
    // 20 rolls, 17 after the killed run's 3: some 6 s of real time the winner holds the session, far longer than the
    // two processes' starts differ by; 40 held it twice as long, which is waiting and nothing the claim needs.
    const budget = 20;
    const cfg = simConfig(dir, budget);
    const db = join(dir, 'rolls.db');
    const killed = dicerig(['run', cfg, '--db', db, '--events']);
    await killed.stored(3);
    killed.kill('SIGKILL');
    await killed.end;
    expect(lockRows(db)).toEqual([{ session_id: 1, pid: killed.pid }]);

    const both = [dicerig(['run', cfg, '--resume', '1', '--db', db, '--plain']), dicerig(['run', cfg, '--resume', '1', '--db', db, '--plain'])];
    const ends = await Promise.all(both.map((p) => p.end));
    const ran = both.filter((_, i) => ends[i]?.code === 0);
    const refused = both.filter((_, i) => ends[i]?.code !== 0);
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const [winner, loser] = [ran[0], refused[0]] as [ReturnType<typeof dicerig>, ReturnType<typeof dicerig>];
    expect(winner.seen.out).toContain(`session 1 was left claimed by process ${killed.pid} on host ${hostname()}`);
    expect(winner.seen.out).toMatch(/no longer running .*: this run takes it over/);
    expect(loser.seen.err).toContain(`Session 1 in ${db} is being run by process ${winner.pid}`);

    const store = RollStore.open(db, { mustExist: true });
    try {
      // Each roll stored once: the die stopped at its budget, not at twice the rolls of two writers.
      const rolls = store.dieRolls(1)[0]?.faces.length ?? 0;
      expect(rolls).toBeLessThanOrEqual(budget);
      expect(store.events(1).filter((e) => e.kind === 'resumed')).toHaveLength(1);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
    expect(lockRows(db)).toEqual([]);
  }, 90_000);
});
