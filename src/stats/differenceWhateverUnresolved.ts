/**
 * Whether one group of rolls differs from the rest whatever faces their unresolved rolls had: a rig from the other
 * rigs on the same dice (strata: the dice), or a die from the other dice of its type (one stratum). A camera can
 * decline one face more than another camera does (a logo it cannot read under its light), and one die's logo can be
 * unreadable where the others' faces are not: on read rolls alone that rig or die then shows the face less than the
 * rest, and a test on them calls it different when only its reader is. So a difference found on read rolls is
 * confirmed only if, for some face and direction, the Mantel–Haenszel test of that face (group vs rest, one 2 × 2
 * table per stratum) rejects under every assignment of the unresolved rolls, at the level split over the faces and
 * both directions (Bonferroni).
 *
 * The bound: per stratum, with N_r rolls in the group and N rolls in all (unresolved counted), the statistic's numerator
 * Σ (a − (a + c) N_r / N) grows with the group's count a of the face and falls with the rest's count c; its variance
 * Σ N_r (N − N_r) m (N − m) / (N² (N − 1)), m = a + c, is largest where m is nearest N / 2 and smallest at an end of
 * m's range. The smallest numerator over the greatest variance (the least, when that numerator is negative) bounds the
 * z of every assignment from below.
 */
import { normalQuantile } from './special.js';

export interface VersusRestStratum {
  /** Read rolls of the group (the rig's of this die, or the die's), per face. */
  readonly mine: readonly number[];
  /** Read rolls of the rest (the other rigs' of this die, or the other dice's), per face. */
  readonly rest: readonly number[];
  /** Unresolved rolls of the group, and of the rest. */
  readonly mineUnresolved: number;
  readonly restUnresolved: number;
}

export interface FaceBound {
  readonly face: number;
  /** +1: the group shows the face more than the rest, whatever the unresolved were; −1: less. */
  readonly direction: 1 | -1;
  /** The smallest |z| over every assignment of the unresolved rolls. */
  readonly z: number;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The smallest z of face `f` in `direction` over every assignment of the unresolved rolls (−Infinity when some assignment leaves nothing to compare). */
export function faceZWhateverUnresolved(strata: readonly VersusRestStratum[], f: number, direction: 1 | -1): number {
  let numerator = 0;
  let most = 0;
  let least = 0;
  for (const s of strata) {
    const nr = sum(s.mine) + s.mineUnresolved;
    const n = nr + sum(s.rest) + s.restUnresolved;
    if (nr === 0 || nr === n || n < 2) continue;
    const a0 = s.mine[f] as number;
    const c0 = s.rest[f] as number;
    // The assignment least in the direction: the group's unresolved rolls never this face and the rest's all of it (or the reverse).
    const a = direction === 1 ? a0 : a0 + s.mineUnresolved;
    const c = direction === 1 ? c0 + s.restUnresolved : c0;
    numerator += direction * (a - ((a + c) * nr) / n);
    const lo = a0 + c0;
    const hi = lo + s.mineUnresolved + s.restUnresolved;
    const v = (m: number): number => (nr * (n - nr) * m * (n - m)) / (n * n * (n - 1));
    most += v(Math.min(hi, Math.max(lo, n / 2)));
    least += Math.min(v(lo), v(hi));
  }
  // A positive numerator is smallest over the largest variance; a negative one, over the smallest.
  const variance = numerator >= 0 ? most : least;
  if (variance <= 0) return -Infinity;
  return numerator / Math.sqrt(variance);
}

/**
 * The face and direction in which the group differs from the rest at level `alpha` whatever the unresolved rolls were,
 * the one with the largest bound; undefined when no face does (the read rolls' difference could be the reader's).
 */
export function differenceWhateverUnresolved(strata: readonly VersusRestStratum[], faces: number, alpha: number): FaceBound | undefined {
  const critical = normalQuantile(1 - alpha / (2 * faces));
  let best: FaceBound | undefined;
  for (let f = 0; f < faces; f += 1) {
    for (const direction of [1, -1] as const) {
      const z = faceZWhateverUnresolved(strata, f, direction);
      if (z >= critical && (best === undefined || z > best.z)) best = { face: f, direction, z };
    }
  }
  return best;
}
