/**
 * Touching dice apart. Dice lying against each other are one blob of the foreground mask; when the blob's area says it
 * holds k dice, its pixels are grouped around k centres (Lloyd's k-means on their positions, seeded by farthest
 * points). For dice of one size that touch, the line between two centres' groups is the bisector between them, which
 * runs through the contact; each group's centroid is then its die's centre. A split is refused (the blob stays one,
 * declined as touching) when a group's area is not that of one die: a die joined by a shadow or a wall's edge makes a
 * sliver, not a die.
 *
 * The area's count can be one off: dice seen in perspective or leaning look larger than the die size, dice far from the
 * lens smaller. So one die fewer and one more are tried too, and the count whose groups are most compact wins: a whole
 * die is about as compact as a disc, while half a die or a die and a half is not.
 */
import type { Blob } from './components.js';
import type { Point, Rect } from '../core/image.js';

export interface SplitLimits {
  /** Each part's area as a fraction of one die's, low and high; outside, the blob is not split. */
  readonly partArea: readonly [number, number];
  /**
   * With `strong` given to `splitBlob`: the least share of each part's pixels that are of the dice's strong colour. A
   * part of a shadow or a wall's edge left in the mask is the platform's colour, darker; a red or green die is not.
   */
  readonly minStrongShare?: number;
}

export interface BlobPart {
  readonly area: number;
  readonly centroid: Point;
  readonly bbox: Rect;
  readonly mxx: number;
  readonly myy: number;
  readonly mxy: number;
}

/**
 * The split for red and green d8s (`saturatedDiceLocateOptions`). Chosen on six free-form dev sets (training/README.md):
 * a part under 0.7 of a die is half a die of an over-counted blob (dice in perspective or leaning look larger), and
 * one with under 40 % of its blocks of a strong colour is a shadow's or a wall's part.
 */
export const d8SplitLimits: SplitLimits = { partArea: [0.7, 1.6], minStrongShare: 0.4 };

/** How compact a part is: its second moment about its centroid over its area squared (a disc 0.159, a hexagon 0.160). */
const spreadOf = (p: BlobPart): number => (p.mxx + p.myy) / p.area;

/**
 * Splits a blob whose area amounts to `k` dice into dice: `k - 1`, `k` and `k + 1` parts are tried (none over
 * `maxDice`, none under 2), and of the splits whose parts pass `limits`, the one with the most compact parts is taken.
 * Undefined when none passes.
 */
export function splitTouchingDice(labels: Int32Array, width: number, blob: Blob, k: number, maxDice: number, dieArea: number, limits: SplitLimits, strong?: (x: number, y: number) => boolean): BlobPart[] | undefined {
  let best: BlobPart[] | undefined;
  let bestSpread = Infinity;
  for (const n of [k, k - 1, k + 1]) {
    if (n < 2 || n > maxDice) continue;
    const parts = splitBlob(labels, width, blob, n, dieArea, limits, strong);
    if (parts === undefined) continue;
    const spread = parts.reduce((s, p) => s + spreadOf(p), 0) / parts.length;
    if (spread < bestSpread) {
      best = parts;
      bestSpread = spread;
    }
  }
  return best;
}

/** Lloyd iterations; dice-sized groups settle in a handful. */
const ITERATIONS = 12;

/**
 * Splits `blob` (its pixels are those labelled `blob.label` in `labels`, `width` wide) into `k` parts, or returns
 * undefined when a part is not `limits.partArea` dice of `dieArea` pixels, or has too few pixels `strong` says are of
 * the dice's colour.
 */
export function splitBlob(labels: Int32Array, width: number, blob: Blob, k: number, dieArea: number, limits: SplitLimits, strong?: (x: number, y: number) => boolean): BlobPart[] | undefined {
  if (k < 2) return undefined;
  const xs: number[] = [];
  const ys: number[] = [];
  const { x: bx, y: by, width: bw, height: bh } = blob.bbox;
  for (let y = by; y < by + bh; y++) {
    for (let x = bx; x < bx + bw; x++) {
      if (labels[y * width + x] === blob.label) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  const n = xs.length;
  if (n < 2 * k) return undefined;
  // Seeds: the pixel farthest from the centroid, then each next the one farthest from the seeds so far (deterministic).
  const cx: number[] = [];
  const cy: number[] = [];
  const nearest = new Float64Array(n);
  for (let i = 0; i < n; i++) nearest[i] = ((xs[i] as number) - blob.centroid.x) ** 2 + ((ys[i] as number) - blob.centroid.y) ** 2;
  for (let c = 0; c < k; c++) {
    let best = 0;
    for (let i = 1; i < n; i++) if ((nearest[i] as number) > (nearest[best] as number)) best = i;
    const sx = xs[best] as number;
    const sy = ys[best] as number;
    cx.push(sx);
    cy.push(sy);
    for (let i = 0; i < n; i++) {
      const d = ((xs[i] as number) - sx) ** 2 + ((ys[i] as number) - sy) ** 2;
      if (c === 0 || d < (nearest[i] as number)) nearest[i] = d;
    }
  }
  const group = new Int32Array(n);
  for (let it = 0; it < ITERATIONS; it++) {
    const sx = new Float64Array(k);
    const sy = new Float64Array(k);
    const cnt = new Float64Array(k);
    let moved = false;
    for (let i = 0; i < n; i++) {
      let g = 0;
      let gd = Infinity;
      for (let c = 0; c < k; c++) {
        const d = ((xs[i] as number) - (cx[c] as number)) ** 2 + ((ys[i] as number) - (cy[c] as number)) ** 2;
        if (d < gd) {
          gd = d;
          g = c;
        }
      }
      if (group[i] !== g) moved = true;
      group[i] = g;
      sx[g] = (sx[g] as number) + (xs[i] as number);
      sy[g] = (sy[g] as number) + (ys[i] as number);
      cnt[g] = (cnt[g] as number) + 1;
    }
    for (let c = 0; c < k; c++) {
      if ((cnt[c] as number) === 0) return undefined;
      cx[c] = (sx[c] as number) / (cnt[c] as number);
      cy[c] = (sy[c] as number) / (cnt[c] as number);
    }
    if (!moved && it > 0) break;
  }
  // Each part's area, strong pixels, sums and box in one pass, then its central moments in another (each group summed
  // in pixel order, as it would be alone).
  const area = new Float64Array(k);
  const strongN = new Float64Array(k);
  const mx = new Float64Array(k);
  const my = new Float64Array(k);
  const x0 = new Float64Array(k).fill(Infinity);
  const y0 = new Float64Array(k).fill(Infinity);
  const x1 = new Float64Array(k).fill(-Infinity);
  const y1 = new Float64Array(k).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const c = group[i] as number;
    const x = xs[i] as number;
    const y = ys[i] as number;
    area[c] = (area[c] as number) + 1;
    if (strong?.(x, y) === true) strongN[c] = (strongN[c] as number) + 1;
    mx[c] = (mx[c] as number) + x;
    my[c] = (my[c] as number) + y;
    if (x < (x0[c] as number)) x0[c] = x;
    if (x > (x1[c] as number)) x1[c] = x;
    if (y < (y0[c] as number)) y0[c] = y;
    if (y > (y1[c] as number)) y1[c] = y;
  }
  for (let c = 0; c < k; c++) {
    const a = area[c] as number;
    const share = a / dieArea;
    if (share < (limits.partArea[0] as number) || share > (limits.partArea[1] as number)) return undefined;
    if (strong !== undefined && limits.minStrongShare !== undefined && (strongN[c] as number) < limits.minStrongShare * a) return undefined;
    mx[c] = (mx[c] as number) / a;
    my[c] = (my[c] as number) / a;
  }
  const mxx = new Float64Array(k);
  const myy = new Float64Array(k);
  const mxy = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const c = group[i] as number;
    const dx = (xs[i] as number) - (mx[c] as number);
    const dy = (ys[i] as number) - (my[c] as number);
    mxx[c] = (mxx[c] as number) + dx * dx;
    myy[c] = (myy[c] as number) + dy * dy;
    mxy[c] = (mxy[c] as number) + dx * dy;
  }
  const parts: BlobPart[] = [];
  for (let c = 0; c < k; c++) {
    const a = area[c] as number;
    const box = { x: x0[c] as number, y: y0[c] as number, width: (x1[c] as number) - (x0[c] as number) + 1, height: (y1[c] as number) - (y0[c] as number) + 1 };
    parts.push({ area: a, centroid: { x: mx[c] as number, y: my[c] as number }, bbox: box, mxx: (mxx[c] as number) / a, myy: (myy[c] as number) / a, mxy: (mxy[c] as number) / a });
  }
  return parts;
}
