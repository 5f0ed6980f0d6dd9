import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStoreForReading } from '../../../src/store/openStore.js';
import { DICERIG } from '../../support/builtCli.js';
import { repoRoot, type CliEnd } from './campaignCli.js';

/**
 * A rig host's session config on the simulated rig in real time (a few throws a second), so a test can stop the
 * run part-way through a batch of a small budget.
 */
export function slowRig(dir: string): string {
  const file = join(dir, 'slow-rig.yaml');
  writeFileSync(file, 'clock: system\ndice:\n  - { label: placeholder, type: d6 }\nrig:\n  driver: sim\n  sim: { timing: { flipMs: 60, settleMedianMs: 120, homeMinMs: 10, homeMaxMs: 20 } }\nevidence: none\n');
  return file;
}

/** Throws stored in the local store's campaign sessions so far (0 while it is being created). */
function storedThrows(db: string): number {
  if (!existsSync(db)) return 0;
  try {
    const opened = openStoreForReading(db);
    try {
      return opened.store.sessions().reduce((n, s) => n + (s.state === 'running' ? s.throwCount : 0), 0);
    } finally {
      opened.close();
    }
  } catch {
    return 0; // the store is being created: look again
  }
}

/**
 * Runs `dicerig ARGS` (a rig host) in a process of its own and, once its running session in `db` has stored `throws`
 * throws, sends it `signals` one after another (a second Ctrl-C 30 ms after the first, while the throw is under way).
 */
export function rigHostStoppedAt(args: readonly string[], db: string, throws: number, signals: readonly NodeJS.Signals[]): Promise<CliEnd & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DICERIG, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => void (stdout += c));
    child.stderr.on('data', (c: string) => void (stderr += c));
    const watch = setInterval(() => {
      if (storedThrows(db) < throws) return;
      clearInterval(watch);
      // Each signal after the first once the host has said it is stopping: two sent 30 ms apart could reach it as
      // one under load (or the second before its handler was in place), and it then stopped gracefully.
      const send = (i: number): void => {
        const signal = signals[i];
        if (signal === undefined) return;
        const said = stderr.length;
        child.kill(signal);
        if (i + 1 >= signals.length) return;
        const waitForWord = (tries: number): void => {
          if (/Stopping/.test(stderr.slice(said)) || tries <= 0) send(i + 1);
          else setTimeout(() => waitForWord(tries - 1), 10);
        };
        waitForWord(500);
      };
      send(0);
    }, 50);
    child.on('error', (e) => {
      clearInterval(watch);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearInterval(watch);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
