import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DICERIG } from '../../support/builtCli.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The uid and gid of `nobody`, the user a root test process runs the CLI as, so that file permissions apply to it. */
const NOBODY = 65534;

/**
 * Runs the CLI in a child process as a user that file permissions bind: as
 * `nobody` when the tests run as root (root may write a file of mode 444), as
 * the current user otherwise.
 */
export function runCliAsUser(...args: string[]): { code: number | null; out: string; err: string } {
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(process.execPath, [DICERIG, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
    ...(asRoot ? { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: '/tmp' } } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
