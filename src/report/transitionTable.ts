import { contingencyTest } from '../stats/homogeneity.js';

/** How often each face followed each face, with the cells that stand out. */
export interface TransitionTable {
  readonly level: 'face' | 'symbol';
  readonly labels: readonly string[];
  /** counts[i][j]: throws showing j right after a throw showing i. */
  readonly counts: readonly (readonly number[])[];
  /**
   * Adjusted standardized residual of each cell against independence (about
   * standard normal for a good rig); null where the face never came up in
   * that position, so the cell carries no information.
   */
  readonly residuals: readonly (readonly (number | null)[])[];
  /** Consecutive pairs: rolls − 1. */
  readonly pairs: number;
}

/**
 * The k × k table of (previous, next) outcomes of one die in throw order, the
 * table the serial "transitions" check tests, with its residuals from the
 * same contingency test.
 */
export function transitionTable(sequence: ArrayLike<number>, labels: readonly string[], level: 'face' | 'symbol'): TransitionTable {
  const k = labels.length;
  const counts = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 1; i < sequence.length; i++) (counts[sequence[i - 1] as number] as number[])[sequence[i] as number]! += 1;
  const residuals: (number | null)[][] = Array.from({ length: k }, () => new Array<number | null>(k).fill(null));
  const pairs = Math.max(0, sequence.length - 1);
  if (pairs > 0) {
    const test = contingencyTest(counts);
    test.rowsUsed.forEach((row, i) => test.columnsUsed.forEach((col, j) => ((residuals[row] as (number | null)[])[col] = (test.residuals[i] as number[])[j] as number)));
  }
  return { level, labels, counts, residuals, pairs };
}
