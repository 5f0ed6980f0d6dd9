/**
 * A stored demo session with declined dice kept unresolved, made by the CLI as
 * a user makes one (`dicerig demo --declines`): the reader declines most sixes
 * and many ones, so some stay unresolved after their re-reads.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DICERIG } from '../../support/builtCli.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs the `dicerig` command (as the e2e tests do); returns its stdout. */
export function dicerig(args: readonly string[]): string {
  return execFileSync(process.execPath, [DICERIG, ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes session 1 in `dir`/rolls.db (60 rolls a die, declines 6=0.9,1=0.6 unless told) and returns the store's path. */
export function declinedSession(dir: string, declines = '6=0.9,1=0.6', dice: 'd6' | 'xwing' = 'd6'): string {
  const db = join(dir, 'rolls.db');
  dicerig(['demo', '--dice', dice, '--declines', declines, '--budget', '60', '--db', db]);
  return db;
}
