import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { DICERIG } from '../support/builtCli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `dicerig run` in a child process and sends it `signal` once it has stored its third throw. */
function runAndSignal(config: string, db: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DICERIG, 'run', config, '--db', db, '--events'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let sent = false;
    let buffer = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const throws = buffer.split('\n').filter((l) => l.includes('"type":"throw"')).length;
      if (!sent && throws >= 3) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => void (stderr += c));
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr }));
  });
}

describe.each(['SIGTERM', 'SIGHUP'] as const)('%s during a run', (signal) => {
  it('stops after the current throw like Ctrl-C: the session is stopped and its chain verifies', async () => {
    const dir = tempDir('dicerig-signal-');
    const cfg = join(dir, 'sim.yaml');
    // The emulated firmware in real time would be slow; the simulated rig on the real clock gives throws a few per second.
    writeFileSync(cfg, `seed: 9\nclock: system\ndice:\n  - { label: S1, type: d6 }\nrig:\n  driver: sim\n  sim: { timing: { flipMs: 60, settleMedianMs: 60, homeMinMs: 10, homeMaxMs: 20 } }\nstopping: { budgetRolls: 100000 }\n`);
    const db = join(dir, 'rolls.db');
    const end = await runAndSignal(cfg, db, signal);
    expect(end.signal).toBeNull();
    expect(end.code).toBe(130);
    expect(end.stderr).toMatch(/Stopping after the current throw/);
    const store = RollStore.open(db, { mustExist: true });
    try {
      const s = store.getSession(1);
      expect(s?.state).toBe('stopped');
      expect(s?.throwCount).toBeGreaterThanOrEqual(3);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
  }, 60_000);
});

describe('a second Ctrl-C during a run', () => {
  it('quits at once, closing the store first: no write-ahead log is left, a copy of the store file alone holds the throws, and the session can be resumed', async () => {
    const dir = tempDir('dicerig-signal-twice-');
    const cfg = join(dir, 'sim.yaml');
    writeFileSync(cfg, `seed: 9\nclock: system\ndice:\n  - { label: S1, type: d6 }\nrig:\n  driver: sim\n  sim: { timing: { flipMs: 60, settleMedianMs: 60, homeMinMs: 10, homeMaxMs: 20 } }\nstopping: { budgetRolls: 100000 }\n`);
    const db = join(dir, 'rolls.db');
    const end = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [DICERIG, 'run', cfg, '--db', db, '--events'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let buffer = '';
      let stderr = '';
      let sent = false;
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        if (!sent && buffer.split('\n').filter((l) => l.includes('"type":"throw"')).length >= 3) {
          sent = true;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 20);
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c: string) => void (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(end.code).toBe(130);
    expect(end.stderr).toMatch(/press Ctrl-C again to quit at once/);
    expect(existsSync(`${db}-wal`)).toBe(false);
    // The store file alone, copied as a user backing it up would.
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    const store = RollStore.open(copy, { mustExist: true });
    try {
      expect(store.getSession(1)?.throwCount).toBeGreaterThanOrEqual(3);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
    // Its lock was freed with the store: a resume is not refused as if it still ran.
    const resumed = RollStore.open(db);
    try {
      expect(() => resumed.resumeSession(1, Date.now())).not.toThrow();
    } finally {
      resumed.close();
    }
  }, 60_000);
});

describe('Ctrl-C at a terminal during a run on the emulated board', () => {
  it('stops after the current throw: the terminal signals the whole foreground group, and the board (simavr) is not in it, so no throw is void for a lost board', async () => {
    const dir = tempDir('dicerig-signal-group-');
    const cfg = join(dir, 'emulated.yaml');
    writeFileSync(cfg, `seed: 4\ndice:\n  - { label: E1, type: d6 }\nrig: { driver: emulated }\nstopping: { budgetRolls: 100000 }\n`);
    const db = join(dir, 'rolls.db');
    const end = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      // A group of its own, as a shell gives a foreground job: the signal goes to every process in it.
      const child = spawn(process.execPath, [DICERIG, 'run', cfg, '--db', db, '--events'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        // Once a throw is stored: the run is under way, the next throw's tumble about to start (each takes over a second).
        if (!sent && stdout.includes('"type":"throw"')) {
          sent = true;
          process.kill(-(child.pid as number), 'SIGINT');
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c: string) => void (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toMatch(/Stopping after the current throw/);
    expect(`${end.stdout}${end.stderr}`).not.toMatch(/was lost|"status":"void"/);
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(store.getSession(1)?.state).toBe('stopped');
      expect(store.counts(1)).toMatchObject({ void: 0 });
    } finally {
      store.close();
    }
  }, 90_000);
});
