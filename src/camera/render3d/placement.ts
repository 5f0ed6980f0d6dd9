/**
 * Where dice may rest on the platform, in the table plane (x, z): each die's
 * footprint is the convex hull of its outline seen from straight above, so
 * dice placed here never interpenetrate (a leaning die's footprint includes
 * its overhang). Touching is found by sliding a die towards a wall or another
 * die until the footprints meet.
 */
export type P2 = readonly [number, number];
export type Polygon = readonly P2[];

/** Convex hull (Andrew's monotone chain), counter-clockwise, no repeated end point. */
export function convexHull(points: readonly P2[]): P2[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const crossZ = (o: P2, a: P2, b: P2): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && crossZ(lower[lower.length - 2] as P2, lower[lower.length - 1] as P2, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: P2[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i] as P2;
    while (upper.length >= 2 && crossZ(upper[upper.length - 2] as P2, upper[upper.length - 1] as P2, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return [...lower, ...upper];
}

export function translate(poly: Polygon, dx: number, dz: number): P2[] {
  return poly.map(([x, z]) => [x + dx, z + dz]);
}

/** [min x, min z, max x, max z] of a polygon. */
function bounds(poly: Polygon): [number, number, number, number] {
  let x0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let z1 = -Infinity;
  for (const [x, z] of poly) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return [x0, z0, x1, z1];
}

/** How far apart two polygons' bounding boxes must be for the box test alone to say they are apart (cm). */
const BOX_CLEARANCE = 1e-6;

/** Separating-axis test for convex polygons; `gap` > 0 demands at least that clearance. */
export function overlaps(a: Polygon, b: Polygon, gap = 0): boolean {
  // Most pairs placement asks about (a die slid towards a wall, step by step) lie well apart. Bounding boxes apart
  // mean the polygons are, and some edge's normal then separates them too, so the answer is the one the edges give;
  // only for gap 0, since the edges' normals need not separate by a gap the boxes do.
  if (gap === 0 && boxesApart(bounds(a), bounds(b))) return false;
  return separatingEdge(a, b, gap) < 0;
}

function boxesApart([ax0, az0, ax1, az1]: readonly number[], [bx0, bz0, bx1, bz1]: readonly number[]): boolean {
  return (ax1 as number) + BOX_CLEARANCE < (bx0 as number) || (bx1 as number) + BOX_CLEARANCE < (ax0 as number) || (az1 as number) + BOX_CLEARANCE < (bz0 as number) || (bz1 as number) + BOX_CLEARANCE < (az0 as number);
}

/**
 * An edge (numbered through `a`'s edges, then `b`'s) whose normal separates the polygons by `gap`, or -1 when none
 * does. Edge `first` is tried before the others: which is tried first changes only how soon one is found.
 */
function separatingEdge(a: Polygon, b: Polygon, gap: number, first = -1): number {
  if (first >= 0 && separates(a, b, gap, first)) return first;
  const edges = a.length + b.length;
  for (let e = 0; e < edges; e++) if (e !== first && separates(a, b, gap, e)) return e;
  return -1;
}

function separates(a: Polygon, b: Polygon, gap: number, edge: number): boolean {
  const poly = edge < a.length ? a : b;
  const i = edge < a.length ? edge : edge - a.length;
  const p = poly[i] as P2;
  const q = poly[(i + 1) % poly.length] as P2;
  let ax = q[1] - p[1];
  let az = p[0] - q[0];
  const len = Math.hypot(ax, az);
  if (len < 1e-12) return false;
  ax /= len;
  az /= len;
  // Each polygon's span along the normal, without making pairs: scene building's innermost loop. The two are scanned
  // side by side, and the scan stops once the spans seen so far already overlap: the whole spans hold these, so they
  // overlap too (rounding is monotone, so `hi + gap` only grows with `hi`) and the answer is the one full spans give.
  // Most edges asked about do not separate, and their answer comes after a few points instead of all of both.
  let alo = Infinity;
  let ahi = -Infinity;
  let blo = Infinity;
  let bhi = -Infinity;
  const na = a.length;
  const nb = b.length;
  for (let k = 0; k < na || k < nb; k++) {
    if (k < na) {
      const [x, z] = a[k] as P2;
      const d = x * ax + z * az;
      if (d < alo) alo = d;
      if (d > ahi) ahi = d;
    }
    if (k < nb) {
      const [x, z] = b[k] as P2;
      const d = x * ax + z * az;
      if (d < blo) blo = d;
      if (d > bhi) bhi = d;
    }
    if (ahi + gap > blo && bhi + gap > alo) return false;
  }
  return ahi + gap <= blo || bhi + gap <= alo;
}

/** An axis-aligned rectangle as a polygon. */
export function rectPolygon(x0: number, z0: number, x1: number, z1: number): P2[] {
  return [
    [x0, z0],
    [x1, z0],
    [x1, z1],
    [x0, z1],
  ];
}

/**
 * Slides `footprint` (centred at the origin) from `start` along unit `dir`
 * until it touches `target`, within `maxDistance`. Returns the touching
 * position (a hair's width away), or undefined if it starts overlapping or
 * never meets the target.
 */
export function slideToContact(footprint: Polygon, start: P2, dir: P2, target: Polygon, maxDistance: number, gap = 0.01): P2 | undefined {
  const at = (t: number): P2[] => translate(footprint, start[0] + dir[0] * t, start[1] + dir[1] * t);
  // Most steps of the scan leave the footprint's box apart from the target's, which `overlaps` answers first: here
  // that is asked without translating the footprint. Rounding is monotone, so the translated footprint's box is its
  // box translated, to the bit, and the answer is the one `overlaps` gives.
  // Near contact, step after step is told apart by the same edge, which is tried first.
  const [fx0, fz0, fx1, fz1] = bounds(footprint);
  const targetBox = bounds(target);
  let lastEdge = -1;
  const overlapsAt = (t: number): boolean => {
    const dx = start[0] + dir[0] * t;
    const dz = start[1] + dir[1] * t;
    if (boxesApart([fx0 + dx, fz0 + dz, fx1 + dx, fz1 + dz], targetBox)) return false;
    const edge = separatingEdge(at(t), target, 0, lastEdge);
    if (edge >= 0) lastEdge = edge;
    return edge < 0;
  };
  if (overlapsAt(0)) return undefined;
  const step = 0.1;
  let lo = 0;
  let hi = -1;
  for (let t = step; t <= maxDistance + 1e-9; t += step) {
    if (overlapsAt(t)) {
      hi = t;
      break;
    }
    lo = t;
  }
  if (hi < 0) return undefined;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (overlapsAt(mid)) hi = mid;
    else lo = mid;
  }
  const t = Math.max(0, lo - gap);
  return [start[0] + dir[0] * t, start[1] + dir[1] * t];
}
