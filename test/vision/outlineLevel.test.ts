import { describe, expect, it } from 'vitest';
import { OUTLINE_MAX, OUTLINE_MIN_COCKED, OUTLINE_MIN_FLAT, outlineLevel } from '../../src/vision/learned/outlineLevel.js';

/** `n` flat scores: all 0.1 but the given high ones. */
function flat(n: number, high: readonly number[]): number[] {
  return [...high, ...Array.from({ length: n - high.length }, () => 0.1)];
}

/** Ten labelled cocked dice the check finds plainly tilted, and `extra` more. */
function cocked(...extra: number[]): number[] {
  return [...Array.from({ length: 10 }, () => 0.99), ...extra];
}

describe('the outline check level set on a user’s labelled dice', () => {
  it('keeps the shipped level with fewer than 200 labelled flat dice, however tilted they look', () => {
    expect(OUTLINE_MIN_FLAT).toBe(200);
    expect(outlineLevel(flat(199, [0.9, 0.9, 0.9, 0.9, 0.9]), cocked(), 0.45)).toEqual({});
  });

  it('sets the level at the score at or over which 1 % of the flat dice lie', () => {
    // 300 flat dice: 1 % is 3, so the level is the 4th highest score, and 4 dice lie at or over it.
    const scores = flat(300, [0.54, 0.53, 0.52, 0.51, 0.5]);
    const { at, warning } = outlineLevel(scores, cocked(), 0.45);
    expect(at).toBe(0.51);
    expect(warning).toBeUndefined();
    expect(scores.filter((s) => s >= (at as number)).length).toBe(4);
  });

  it('never sets it at or under the shipped level', () => {
    expect(outlineLevel(flat(300, [0.44, 0.44, 0.44, 0.44]), cocked(), 0.45)).toEqual({});
    expect(outlineLevel(flat(300, [0.45, 0.45, 0.45, 0.45]), cocked(), 0.45)).toEqual({});
  });

  it('lowers it to the lowest-scoring labelled cocked die the shipped level catches, and ignores cocked dice it misses anyway', () => {
    const scores = flat(300, [0.54, 0.53, 0.52, 0.51]);
    expect(outlineLevel(scores, cocked(0.2, 0.48), 0.45).at).toBe(0.48);
    expect(outlineLevel(scores, cocked(0.2, 0.3), 0.45).at).toBe(0.51);
    // A cocked die caught just over the shipped level leaves nothing to raise.
    expect(outlineLevel(scores, cocked(0.450001), 0.45).at).toBe(0.450001);
    expect(outlineLevel(scores, cocked(0.4500001), 0.45).at).toBeUndefined();
  });

  it('keeps the shipped level, and says why, with fewer than 10 labelled cocked dice to show a higher one still catches them', () => {
    expect(OUTLINE_MIN_COCKED).toBe(10);
    const { at, warning } = outlineLevel(flat(300, [0.54, 0.53, 0.52, 0.51]), [0.99, 0.98], 0.45);
    expect(at).toBeUndefined();
    expect(warning).toBe(
      "4 of your 300 labelled flat dice score at or over the outline check's shipped threshold 0.45 and are declined as tilted (1 % of them score 0.510 or more); with only 2 labelled cocked dice (at least 10 are needed) nothing shows a higher threshold would still catch yours, so the shipped one stands: label more cocked dice.",
    );
  });

  it('stops at 0.55, and says why, when the flat dice look more tilted than that', () => {
    expect(OUTLINE_MAX).toBe(0.55);
    const { at, warning } = outlineLevel(flat(300, [0.9, 0.8, 0.7, 0.6]), cocked(), 0.45);
    expect(at).toBe(0.55);
    expect(warning).toMatch(/^4 of your 300 labelled flat dice .* \(1 % of them score 0\.600 or more\); the threshold stops at 0\.55: flat dice that look this tilted suggest a camera not looking straight down, or cocked dice labelled as faces\.$/);
  });

  it('rounds the level down to 6 decimals, so a cocked die scoring exactly it is still caught', () => {
    const { at } = outlineLevel(flat(300, [0.54, 0.54, 0.54, 0.54]), cocked(0.5000004), 0.45);
    expect(at).toBe(0.5);
    expect(0.5000004).toBeGreaterThanOrEqual(at as number);
  });
});
