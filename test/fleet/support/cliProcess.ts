import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DICERIG } from '../../support/builtCli.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The dicerig command in a process of its own, as a rig host runs it (`env`: the process's environment). */
export function cliProcess(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const proc = spawn(process.execPath, [DICERIG, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => void (out += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => void (err += c));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
  return { proc, ended };
}
