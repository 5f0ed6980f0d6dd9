import { describe, expect, it } from 'vitest';
import { levelFromTop } from '../../src/vision/learned/levelFromTop.js';

describe('a level set by the share of values over it', () => {
  it('takes the value at floor(share x n) from the top, whatever the order given', () => {
    const values = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) / 100); // 0.00 .. 0.99, shuffled
    expect(levelFromTop(values, 0.01)).toBe(0.98);
    expect(values.filter((v) => v > levelFromTop(values, 0.01))).toHaveLength(1);
    expect(levelFromTop(values, 0.02)).toBe(0.97);
    expect(levelFromTop(values, 0)).toBe(0.99);
    // A share reaching every value gives the lowest.
    expect(levelFromTop([0.3, 0.1, 0.2], 1)).toBe(0.1);
  });

  it('refuses to set a level on no values', () => {
    expect(() => levelFromTop([], 0.01)).toThrow(/a level needs at least one value/);
  });
});
