/**
 * A figure over a die's counted rolls, as a share of all its rolls whatever its unresolved rolls were. A reader's
 * declines can depend on the face (a logo it cannot read), so the counted rolls alone can show a fair die's sixes at
 * half their odds: the honest figure is the range from none of the unresolved rolls having counted towards it to all.
 */
import { formatCount, formatProbability } from '../core/format.js';

export interface UnresolvedRange {
  readonly low: number;
  readonly high: number;
}

/** `rate` of `counted` rolls, over `counted + unresolved` rolls: from none of the unresolved ones counting to all. */
export function unresolvedRange(rate: number, counted: number, unresolved: number): UnresolvedRange {
  const total = counted + unresolved;
  const hits = rate * counted;
  return { low: hits / total, high: (hits + unresolved) / total };
}

/** ", 0.063 to 0.175 whatever its 195 unresolved rolls were" (empty when there are none). */
export function unresolvedRangeClause(rate: number, counted: number, unresolved: number): string {
  if (unresolved <= 0 || counted + unresolved <= 0) return '';
  const r = unresolvedRange(rate, counted, unresolved);
  return `, ${formatProbability(r.low)} to ${formatProbability(r.high)} whatever its ${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll was' : 'rolls were'}`;
}
