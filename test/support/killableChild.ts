import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** How a killable child ended. */
export interface ChildEnd {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stderr: string;
}

/** Lets the caller SIGKILL the child `afterMs` from now (only the first call counts). */
export type KillAfter = (afterMs: number) => void;

/**
 * Runs a script from the repository root (a TypeScript one with tsx, a JavaScript one such as bin/dicerig.js with node), hands each line
 * it prints to `onLine` (with a way to SIGKILL it after a delay), and resolves
 * when it ends. `onStart` runs once the process is spawned (to kill it during
 * its start-up).
 */
export function runKillableChild(script: string, args: readonly string[], onLine: (line: string, killAfter: KillAfter) => void, onStart?: (killAfter: KillAfter) => void): Promise<ChildEnd> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let killing = false;
    const killAfter: KillAfter = (ms) => {
      if (killing) return;
      killing = true;
      setTimeout(() => proc.kill('SIGKILL'), ms);
    };
    let buffer = '';
    let stderr = '';
    onStart?.(killAfter);
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        onLine(line, killAfter);
      }
    });
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (c: string) => void (stderr += c));
    proc.on('error', reject);
    proc.on('close', (code, signal) => resolve({ signal, code, stderr }));
  });
}
