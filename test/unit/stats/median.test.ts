import { describe, expect, it } from 'vitest';
import { median } from '../../../src/stats/median.js';

// Goldens from NumPy:
//   python3 -c "import numpy as np; print(np.median([3,1,2]), np.median([4,1,3,2]), np.median([5.5]))"
//   -> 2.0 2.5 5.5
describe('median', () => {
  it('gives the middle value, or the mean of the two middle values, as NumPy does', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5.5])).toBe(5.5);
  });

  it('is NaN with nothing to take the median of, and leaves its input unsorted', () => {
    expect(median([])).toBeNaN();
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});
