import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The dicerig command as a user runs it: bin/dicerig.js, which runs the compiled dist/. */
export const DICERIG = join(root, 'bin', 'dicerig.js');

/** What `npm run build` compiles (tsconfig.build.json), and the settings it compiles with. */
const SOURCES = ['src', 'bench', 'test/support/postgres.ts', 'tsconfig.json', 'tsconfig.build.json'];
const BUILD_INFO = join(root, 'dist', '.tsbuildinfo');

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/**
 * Compiles dist/ again when a source is newer than the last build, so tests that start `dicerig` in a process of
 * its own run today's code. The set-up line has just built it on CI, so this is a check of file times there; after an
 * edit, tsc compiles incrementally. Starting the compiled command instead of the sources through tsx saves about a
 * second of CPU a process, and some 35 processes start in a run.
 */
export function ensureBuilt(): void {
  const built = existsSync(BUILD_INFO) ? statSync(BUILD_INFO).mtimeMs : 0;
  if (Math.max(...SOURCES.map((p) => newest(join(root, p)))) <= built) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // tsc leaves its build info alone when nothing it emits changed (a file saved unchanged): mark the check done.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
