/**
 * bin/dicerig.js runs the CLI bundled into dist/cli by `npm run build` (scripts/bundle.mjs). An installed dicerig has
 * only what package.json's `files` packs, so the launcher and every file of the bundle must be among them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('the packed dicerig', () => {
  it('carries the launcher and every file of the bundled CLI it runs', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[];
    const paths = new Set(packed[0]?.files.map((f) => f.path));
    const bundle = filesUnder(join(root, 'dist', 'cli')).map((f) => relative(root, f));
    expect(bundle).toContain('dist/cli/main.js');
    expect(bundle.filter((f) => f.startsWith('dist/cli/chunks/')).length).toBeGreaterThan(10);
    expect(['bin/dicerig.js', ...bundle].filter((p) => !paths.has(p))).toEqual([]);
  });
});
