/**
 * The direction die: a D6 whose result is an arrow on the table (see the
 * catalogue's `direction` die). The arrow points from the die's centre towards
 * the side showing the single pip of the 1; when the 1 is up or down (a 1 or a
 * 6 rolled) it points towards the side whose centre pip is the 5.
 *
 * From above only the top face shows, so the arrow follows from the top face's
 * pip pattern, how that pattern is turned, and the die's face layout: which
 * face lies beside each edge of each face. Ordinary pips are symmetric (a 2, 3
 * or 6 looks the same after a half turn; a 1, 4 or 5 after a quarter turn), so
 * an overhead view pins the arrow down only to that symmetry: two candidate
 * directions half a turn apart, or four a quarter turn apart. Reading it fully
 * needs a view of a side face (an angled camera, a mirror) or a die with an
 * asymmetric mark.
 */
import { D6_PATTERN_SYMMETRY_DEG } from './patterns.js';

/**
 * A die's face layout in the frame of each face's pip pattern: for each face,
 * the faces beside its pattern's +u, +v, -u and -v edges (pattern coordinates
 * as in `D6_PATTERNS`; in the image, +v is a quarter turn from +u in the
 * direction image angles grow).
 */
export interface D6FaceLayout {
  readonly neighbours: Readonly<Record<string, readonly [string, string, string, string]>>;
}

/**
 * The layout of the simulated camera's dice (and a common one): 1 opposite 6,
 * 2 opposite 5, 3 opposite 4, with 2, 3, 6 patterns turned as listed. A real
 * die's layout is read off the die once (or calibrated) and passed instead.
 */
export const standardD6Layout: D6FaceLayout = {
  neighbours: {
    '1': ['2', '3', '5', '4'],
    '2': ['3', '1', '4', '6'],
    '3': ['1', '2', '6', '5'],
    '4': ['1', '5', '6', '2'],
    '5': ['3', '6', '4', '1'],
    '6': ['2', '4', '5', '3'],
  },
};

/** The face whose pip carries the arrow when `top` is up: the 1, or the 5 when the 1 is up or down. */
export function arrowFace(top: string): string {
  return top === '1' || top === '6' ? '5' : '1';
}

/**
 * The arrow's angle relative to the top face's pattern +u axis (degrees, 0, 90,
 * 180 or 270 in the direction image angles grow), from the layout.
 */
export function arrowFromPattern(top: string, layout: D6FaceLayout = standardD6Layout): number {
  const around = layout.neighbours[top];
  if (!around) throw new RangeError(`The face layout has no face "${top}".`);
  const k = around.indexOf(arrowFace(top));
  if (k < 0) throw new RangeError(`In the face layout, face ${arrowFace(top)} is not beside face ${top}: a D6 layout must put it there.`);
  return k * 90;
}

const wrap = (deg: number): number => ((deg % 360) + 360) % 360;

export interface DirectionRead {
  /** Every arrow angle the top face allows (degrees in image coordinates, [0, 360)), one per symmetric turn of its pattern. */
  readonly candidatesDeg: readonly number[];
  /** Turn (degrees) after which the top face looks the same: 180 for a 2, 3 or 6, 90 for a 1, 4 or 5. */
  readonly symmetryDeg: number;
  /** The arrow's angle modulo `symmetryDeg` (the smallest candidate): what an overhead view measures for certain. */
  readonly axisDeg: number;
}

/**
 * The arrow directions consistent with a top face `top` whose pattern's +u axis
 * lies at `patternDeg` in the image (known only modulo the pattern's symmetry).
 */
export function directionCandidates(top: string, patternDeg: number, layout: D6FaceLayout = standardD6Layout): DirectionRead {
  const symmetryDeg = D6_PATTERN_SYMMETRY_DEG[top];
  if (symmetryDeg === undefined) throw new RangeError(`"${top}" is not a D6 face.`);
  const first = wrap(patternDeg + arrowFromPattern(top, layout)) % symmetryDeg;
  const candidatesDeg: number[] = [];
  for (let a = first; a < 360 - 1e-9; a += symmetryDeg) candidatesDeg.push(a);
  return { candidatesDeg, symmetryDeg, axisDeg: first };
}

/** Smallest angle between two directions (degrees, 0..180). */
export function angleBetween(a: number, b: number): number {
  const d = wrap(a - b);
  return Math.min(d, 360 - d);
}

/**
 * Least `outlineFit` (the face mask against a square, intersection over union) at which the turn of
 * a 1, which only its outline shows, is trusted. On the four tuning lighting presets (375 ones, die
 * sizes 48-96 px) every arrow off by more than 2 degrees had a fit of 0.81 or less (a face merging
 * with a platform of its colour); every other fit was 0.90 or more.
 */
export const MIN_OUTLINE_FIT = 0.86;

/**
 * The arrow directions of a die the D6 reader has read (its `patternDeg`
 * detail says how the top face is turned); undefined when it was not read,
 * or when it shows a 1 whose outline is too far from a square to say how it
 * is turned (its `outlineFit` detail under MIN_OUTLINE_FIT, or none: the pips counted no 1).
 */
export function readArrow(read: { readonly status: string; readonly symbol?: string; readonly details?: Readonly<Record<string, number>> }, layout: D6FaceLayout = standardD6Layout): DirectionRead | undefined {
  const patternDeg = read.details?.['patternDeg'];
  if (read.status !== 'read' || read.symbol === undefined || patternDeg === undefined) return undefined;
  if (read.symbol === '1' && (read.details?.['outlineFit'] ?? 0) < MIN_OUTLINE_FIT) return undefined;
  return directionCandidates(read.symbol, patternDeg, layout);
}
