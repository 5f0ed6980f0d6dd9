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
