/**
 * `dicerig serve` and `dicerig review` send pages read from src/server/public
 * at run time (the compiled server finds them there). An installed dicerig has
 * only what package.json's `files` packs, so the pages must be among them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the packed dicerig', () => {
  it('carries every page file serve and review send, beside the compiled server', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[];
    const paths = new Set(packed[0]?.files.map((f) => f.path));
    const pages = readdirSync(`${root}src/server/public`);
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((p) => !paths.has(`src/server/public/${p}`))).toEqual([]);
  });
});
