import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolders } from '../../../src/core/makeFolders.js';

describe('making an output folder', () => {
  it('makes the missing folders one below the other, and leaves one that exists', () => {
    const root = mkdtempSync(join(tmpdir(), 'dicerig-folders-'));
    const deep = join(root, 'a', 'b', 'c');
    makeFolders(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    makeFolders(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it('fails at once, naming the folder, where the file system refuses it under a parent that exists (where mkdir -p in Node loops for ever)', () => {
    // /proc refuses new entries with ENOENT though it exists; Node's recursive mkdirSync spins on it.
    expect(existsSync('/proc')).toBe(true);
    expect(() => makeFolders('/proc/dicerig-nope/x')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/dicerig-nope' }));
    const file = join(mkdtempSync(join(tmpdir(), 'dicerig-folders-')), 'plain.txt');
    writeFileSync(file, 'x');
    expect(() => makeFolders(join(file, 'sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
