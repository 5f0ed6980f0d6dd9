import { describe, expect, it } from 'vitest';
import { OUTLINE_MIN_FLAT, outlineLevel } from '../../src/vision/learned/outlineLevel.js';

/** `n` flat scores: all 0.1 but the given high ones. */
function flat(n: number, high: readonly number[]): number[] {
  return [...high, ...Array.from({ length: n - high.length }, () => 0.1)];
}

describe('the outline check level set on a user’s labelled dice', () => {
  it('keeps the shipped level with fewer than 200 labelled flat dice, however tilted they look', () => {
    expect(OUTLINE_MIN_FLAT).toBe(200);
    expect(outlineLevel(flat(199, [0.9, 0.9, 0.9, 0.9, 0.9]), [], 0.45)).toBeUndefined();
  });

  it('sets the level at the score at or over which 1 % of the flat dice lie', () => {
    // 300 flat dice: 1 % is 3, so the level is the 4th highest score, and 4 dice lie at or over it.
    const scores = flat(300, [0.91, 0.8, 0.72, 0.61, 0.55]);
    const level = outlineLevel(scores, [], 0.45);
    expect(level).toBe(0.61);
    expect(scores.filter((s) => s >= (level as number)).length).toBe(4);
  });

  it('never sets it at or under the shipped level', () => {
    expect(outlineLevel(flat(300, [0.44, 0.44, 0.44, 0.44]), [], 0.45)).toBeUndefined();
    expect(outlineLevel(flat(300, [0.45, 0.45, 0.45, 0.45]), [], 0.45)).toBeUndefined();
  });

  it('lowers it to the lowest-scoring labelled cocked die the shipped level catches, and ignores cocked dice it misses anyway', () => {
    const scores = flat(300, [0.91, 0.8, 0.72, 0.61]);
    expect(outlineLevel(scores, [0.2, 0.99, 0.55], 0.45)).toBe(0.55);
    expect(outlineLevel(scores, [0.2, 0.3], 0.45)).toBe(0.61);
    // A cocked die caught just over the shipped level leaves nothing to raise.
    expect(outlineLevel(scores, [0.450001, 0.9], 0.45)).toBe(0.450001);
    expect(outlineLevel(scores, [0.4500001, 0.9], 0.45)).toBeUndefined();
  });

  it('rounds the level down to 6 decimals, so a cocked die scoring exactly it is still caught', () => {
    const level = outlineLevel(flat(300, [0.9, 0.9, 0.9, 0.9]), [0.5500004], 0.45) as number;
    expect(level).toBe(0.55);
    expect(0.5500004).toBeGreaterThanOrEqual(level);
  });
});
