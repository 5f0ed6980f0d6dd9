import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

/** Runs the CLI in-process with captured output, as a user would from a shell. */
export async function runCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = {
    exitCode: 0,
    out: (s: string) => void (out += s),
    err: (s: string) => void (err += s),
    setExitCode(c: number) {
      io.exitCode = c;
    },
  };
  const code = await main(['node', 'dicerig', ...args], io);
  return { code, out, err };
}

/** runCli for a step a test builds on: fails the test, naming the command and what it wrote on stderr, unless it exits 0. */
export async function runCliOk(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(...args);
  expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
  return r;
}
