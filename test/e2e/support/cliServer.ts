/**
 * A `dicerig` server command (serve, review) run from source in a process of its own, as a user starts it:
 * ready once it prints "Ctrl-C stops.", its address taken from what it printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DICERIG } from '../../support/builtCli.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface CliServer {
  readonly proc: ChildProcess;
  /** The first address `urlPattern` found in the output (its first group), once ready. */
  readonly url: string;
  /** Everything it printed so far, stdout and stderr (it keeps growing after start). */
  output(): string;
}

export function startCliServer(
  args: readonly string[],
  options: { readonly timeoutMs: number; readonly urlPattern?: RegExp; readonly env?: NodeJS.ProcessEnv },
): Promise<CliServer> {
  const pattern = options.urlPattern ?? /(http:\/\/127\.0\.0\.1:\d+)\//;
  const name = `dicerig ${args[0] ?? ''}`;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [DICERIG, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    let printed = '';
    const output = (): string => printed;
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${printed}`)), options.timeoutMs);
    proc.stdout?.setEncoding('utf8');
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (c: string) => (printed += c));
    proc.stdout?.on('data', (c: string) => {
      printed += c;
      const found = pattern.exec(printed);
      if (found && printed.includes('Ctrl-C stops.')) {
        clearTimeout(timer);
        resolve({ proc, url: found[1] as string, output });
      }
    });
    proc.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${printed}`)));
  });
}

/** Stops a server started by `startCliServer` as Ctrl-C would, and waits for it to close (nothing to do if it has ended). */
export async function stopCliServer(proc: ChildProcess | undefined): Promise<void> {
  if (proc === undefined || proc.exitCode !== null) return;
  const ended = new Promise((r) => proc.once('close', r));
  proc.kill('SIGTERM');
  await ended;
}
