import { describe, expect, it } from 'vitest';
import { addConfusion } from '../../src/vision/calibration/checkedDice.js';

describe('confusion matrices of checked dice, added up', () => {
  it('adds cell by row and column name, whatever the order, keeping rows and columns only one of them has', () => {
    const a = { rows: ['red-hit', 'red-crit'], columns: ['red-hit', 'red-crit', 'declined'], counts: [[5, 1, 2], [0, 3, 1]] };
    const b = { rows: ['red-crit', 'cocked'], columns: ['declined', 'red-crit', 'cocked'], counts: [[4, 7, 0], [0, 0, 6]] };
    expect(addConfusion(a, b)).toEqual({
      rows: ['red-hit', 'red-crit', 'cocked'],
      columns: ['red-hit', 'red-crit', 'declined', 'cocked'],
      counts: [
        [5, 1, 2, 0],
        [0, 10, 5, 0],
        [0, 0, 0, 6],
      ],
    });
  });
});
