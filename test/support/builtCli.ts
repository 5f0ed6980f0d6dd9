import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The dicerig command as a user runs it: bin/dicerig.js, which runs the bundled CLI in dist/cli/. */
export const DICERIG = join(root, 'bin', 'dicerig.js');

/** What `npm run build` compiles (tsconfig.build.json) and bundles (scripts/bundle.mjs), and the settings it does it with. */
const SOURCES = ['src', 'bench', 'test/support/postgres.ts', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'];
const BUILD_INFO = join(root, 'dist', '.tsbuildinfo');
/** The bundle's entry, written after the compile: a build stopped between the two leaves it older than BUILD_INFO. */
const BUNDLE = join(root, 'dist', 'cli', 'main.js');

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

const mtime = (path: string): number => (existsSync(path) ? statSync(path).mtimeMs : 0);

/**
 * Builds dist/ again, as `npm run build` does, when a source is newer than the last build, so tests that start
 * `dicerig` in a process of its own run today's code. The set-up line has just built it on CI, so this is a check of
 * file times there; after an edit, tsc compiles incrementally and esbuild bundles in a few seconds. Starting
 * the built command instead of the sources through tsx saves about a second of CPU a process, and the bundle
 * (one file per command instead of some 1,400 modules) most of what was left of its start.
 */
export function ensureBuilt(): void {
  const built = Math.min(mtime(BUILD_INFO), mtime(BUNDLE));
  if (Math.max(...SOURCES.map((p) => newest(join(root, p)))) <= built) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // tsc leaves its build info alone when nothing it emits changed (a file saved unchanged): mark the compile done.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
}
