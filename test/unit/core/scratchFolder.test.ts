import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeScratchFolder } from '../../support/scratchFolder.js';

const mountedAt = (path: string): string | undefined =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .find((f) => f[1] === path)?.[2];

describe('the test run\'s scratch folder', () => {
  it('is a writable folder open to every user, and is gone, mount and all, once removed', () => {
    const scratch = makeScratchFolder();
    try {
      writeFileSync(join(scratch.path, 'rolls.db'), 'x');
      expect(existsSync(join(scratch.path, 'rolls.db'))).toBe(true);
      if (scratch.kind === 'tmpfs mounted for the run') expect(mountedAt(scratch.path)).toBe('tmpfs');
    } finally {
      scratch.remove();
    }
    expect(existsSync(scratch.path)).toBe(false);
    expect(mountedAt(scratch.path)).toBeUndefined();
  });
});
