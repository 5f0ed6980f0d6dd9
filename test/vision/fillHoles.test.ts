import { describe, expect, it } from 'vitest';
import { fillHoles } from '../../src/vision/fillHoles.js';

/** A `w` x `h` mask from rows of '#' (set) and '.' (clear). */
function mask(rows: string[]): { m: Uint8Array; w: number; h: number } {
  const w = (rows[0] as string).length;
  const m = new Uint8Array(w * rows.length);
  rows.forEach((r, y) => [...r].forEach((c, x) => (m[y * w + x] = c === '#' ? 1 : 0)));
  return { m, w, h: rows.length };
}

const text = (m: Uint8Array, w: number): string[] => Array.from({ length: m.length / w }, (_, y) => [...m.subarray(y * w, (y + 1) * w)].map((v) => (v ? '#' : '.')).join(''));

describe('filling the holes of a foreground mask', () => {
  it('fills a hole enclosed by the blob and says how many pixels it set', () => {
    const { m, w, h } = mask(['.......', '.#####.', '.#..##.', '.#..##.', '.#####.', '.......']);
    expect(fillHoles(m, w, h, 10)).toBe(4);
    expect(text(m, w)).toEqual(['.......', '.#####.', '.#####.', '.#####.', '.#####.', '.......']);
  });

  it('leaves background that reaches the border, and a hole as large as the limit or larger', () => {
    const open = mask(['.......', '.#####.', '.#....', '.#####.', '.......']);
    const before = text(open.m, open.w);
    expect(fillHoles(open.m, open.w, open.h, 100)).toBe(0);
    expect(text(open.m, open.w)).toEqual(before);
    const big = mask(['######', '#....#', '#....#', '######']);
    expect(fillHoles(big.m, big.w, big.h, 8)).toBe(0);
    expect(fillHoles(big.m, big.w, big.h, 9)).toBe(8);
  });

  it('fills a mask the same after filling a larger one with its holes elsewhere (the scratch carried from call to call holds nothing of it)', () => {
    // The larger mask: blobs with 1-pixel holes all over, so every part of the scratch was a hole's label once.
    const large = mask(Array.from({ length: 12 }, (_, y) => (y % 3 === 1 ? '#.#'.repeat(6) : '###'.repeat(6))));
    expect(fillHoles(large.m, large.w, large.h, 2)).toBe(24);
    const { m, w, h } = mask(['.......', '.#####.', '.#..##.', '.#..##.', '.#####.', '.......']);
    expect(fillHoles(m, w, h, 10)).toBe(4);
    expect(text(m, w)).toEqual(['.......', '.#####.', '.#####.', '.#####.', '.#####.', '.......']);
  });

  it('takes background joined only at a corner as two holes, as the holes of an 8-connected blob are', () => {
    // Two 1-pixel holes touching diagonally: each is smaller than 2 pixels, so both are filled.
    const { m, w, h } = mask(['####', '#.##', '##.#', '####']);
    expect(fillHoles(m, w, h, 2)).toBe(2);
    expect(m.every((v) => v === 1)).toBe(true);
  });
});
