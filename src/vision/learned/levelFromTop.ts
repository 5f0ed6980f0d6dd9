/**
 * A level set on the user's own labelled dice by share: the value that `share` of them lie over, counted from the top.
 * Calibration sets the outline check's level (`outlineLevel.ts`) and the blank witness's (`blankWitness.ts`) this way.
 */

/** The value at index floor(share x n) of `values` sorted from the highest (the last value when share x n reaches n). */
export function levelFromTop(values: readonly number[], share: number): number {
  if (values.length === 0) throw new RangeError('a level needs at least one value');
  const sorted = [...values].sort((a, b) => b - a);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}
