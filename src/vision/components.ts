/**
 * Connected components of a binary mask, with the shape statistics the locator,
 * the cocked check and the pip counter need (area, box, centroid, second moments).
 */
import type { Point, Rect } from '../core/image.js';

export interface Blob {
  /** Label in the label map (1-based). */
  readonly label: number;
  readonly area: number;
  readonly bbox: Rect;
  readonly centroid: Point;
  /** Central second moments (pixels²): the blob's covariance. */
  readonly mxx: number;
  readonly myy: number;
  readonly mxy: number;
  /** Whether the blob touches the mask border. */
  readonly touchesBorder: boolean;
}

export interface Components {
  readonly blobs: Blob[];
  /** Label per pixel, 0 = background. */
  readonly labels: Int32Array;
  readonly width: number;
  readonly height: number;
}

/*
 * Scratch for the run-based labelling, reused from call to call (grown when a larger mask comes);
 * none of it leaves this module. Per run of set pixels: its row, first and last column, and its
 * parent in a union-find forest whose roots are the components.
 */
let runRow = new Int32Array(0);
let runStart = new Int32Array(0);
let runEnd = new Int32Array(0);
let runParent = new Int32Array(0);
let runLabel = new Int32Array(0);

/** Makes room for at least `runs` runs, keeping the runs already found. */
function growScratch(runs: number): void {
  if (runRow.length >= runs) return;
  const size = Math.max(runs, 2 * runRow.length, 256);
  const grown = (old: Int32Array): Int32Array<ArrayBuffer> => {
    const a = new Int32Array(size);
    a.set(old);
    return a;
  };
  runRow = grown(runRow);
  runStart = grown(runStart);
  runEnd = grown(runEnd);
  runParent = grown(runParent);
  runLabel = new Int32Array(size);
}

function findRoot(r: number): number {
  let root = r;
  while ((runParent[root] as number) !== root) root = runParent[root] as number;
  // Path compression: later look-ups of this run's tree take one step.
  while ((runParent[r] as number) !== root) {
    const up = runParent[r] as number;
    runParent[r] = root;
    r = up;
  }
  return root;
}

/** Sum of the squares 0²..n² (n >= 0). */
const sumSquaresTo = (n: number): number => (n * (n + 1) * (2 * n + 1)) / 6;

/**
 * Labels the non-zero pixels of `mask` (`width` x `height`, row-major) into
 * 8-connected (or 4-connected) components. Labels are numbered in the order of
 * each component's first pixel in raster order, and `blobs` follow that order.
 *
 * Works on runs of set pixels (one union-find node per run, not per pixel): a
 * face or a die is a few dozen runs, so large blobs cost little more than the
 * scan that finds the runs. The labels are written into `into` when it has the
 * right length (a caller that labels every frame and keeps no labels), else
 * into a new array.
 */
export function connectedComponents(mask: Uint8Array, width: number, height: number, connectivity: 4 | 8 = 8, into?: Int32Array): Components {
  const labels = into !== undefined && into.length === width * height ? into.fill(0) : new Int32Array(width * height);
  // Room for the runs of a few rows to start with; grown (doubling) as more are found, so the scratch
  // stays the size of the largest masks' runs, not of their pixels.
  growScratch(2 * width + 2);
  let rows = runRow;
  let starts = runStart;
  let ends = runEnd;
  let parent = runParent;
  // Runs touching diagonally join only under 8-connectivity.
  const reach = connectivity === 8 ? 1 : 0;
  // The mask as 32-bit words, when it starts on a word's boundary.
  const words = mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >> 2) : undefined;

  // 1. Runs, row by row; each joins the runs of the row above that it touches.
  let runs = 0;
  let above = 0;
  for (let y = 0; y < height; y++) {
    const rowFirst = runs;
    const o = y * width;
    let x = 0;
    while (x < width) {
      if (mask[o + x] === 0) {
        x++;
        // Four unset pixels at a time where the mask's words allow (most of a locator's mask is background).
        if (words !== undefined) while (((o + x) & 3) === 0 && x + 4 <= width && words[(o + x) >> 2] === 0) x += 4;
        continue;
      }
      const x0 = x;
      while (x < width && mask[o + x] !== 0) x++;
      const x1 = x - 1;
      if (runs === rows.length) {
        growScratch(runs + 1);
        rows = runRow;
        starts = runStart;
        ends = runEnd;
        parent = runParent;
      }
      const r = runs++;
      rows[r] = y;
      starts[r] = x0;
      ends[r] = x1;
      parent[r] = r;
      // Runs of the row above lie in x order: skip those ending before this one's reach (no later
      // run of this row reaches them either), then join those starting within it.
      while (above < rowFirst && (ends[above] as number) + reach < x0) above++;
      for (let a = above; a < rowFirst && (starts[a] as number) <= x1 + reach; a++) {
        const ra = findRoot(a);
        const rb = findRoot(r);
        // The earlier run stays the root.
        if (ra < rb) parent[rb] = ra;
        else if (rb < ra) parent[ra] = rb;
      }
    }
    above = rowFirst;
  }

  // 2. Labels in order of each component's first run (its first pixel in raster order), and statistics.
  const label = runLabel;
  let next = 0;
  for (let r = 0; r < runs; r++) {
    const root = findRoot(r);
    label[r] = root === r ? ++next : (label[root] as number);
  }
  const area = new Float64Array(next + 1);
  const sx = new Float64Array(next + 1);
  const sy = new Float64Array(next + 1);
  const sxx = new Float64Array(next + 1);
  const syy = new Float64Array(next + 1);
  const sxy = new Float64Array(next + 1);
  const minX = new Int32Array(next + 1).fill(width);
  const minY = new Int32Array(next + 1).fill(height);
  const maxX = new Int32Array(next + 1).fill(-1);
  const maxY = new Int32Array(next + 1).fill(-1);
  const border = new Uint8Array(next + 1);
  for (let r = 0; r < runs; r++) {
    const l = label[r] as number;
    const y = rows[r] as number;
    const x0 = starts[r] as number;
    const x1 = ends[r] as number;
    const n = x1 - x0 + 1;
    labels.fill(l, y * width + x0, y * width + x1 + 1);
    // Integer sums, exact in doubles: the same whatever order the pixels are visited in.
    const xs = ((x0 + x1) * n) / 2;
    area[l] = (area[l] as number) + n;
    sx[l] = (sx[l] as number) + xs;
    sy[l] = (sy[l] as number) + y * n;
    sxx[l] = (sxx[l] as number) + sumSquaresTo(x1) - (x0 > 0 ? sumSquaresTo(x0 - 1) : 0);
    syy[l] = (syy[l] as number) + y * y * n;
    sxy[l] = (sxy[l] as number) + y * xs;
    if (x0 < (minX[l] as number)) minX[l] = x0;
    if (x1 > (maxX[l] as number)) maxX[l] = x1;
    if (y < (minY[l] as number)) minY[l] = y;
    if (y > (maxY[l] as number)) maxY[l] = y;
    if (x0 === 0 || x1 === width - 1 || y === 0 || y === height - 1) border[l] = 1;
  }
  const blobs: Blob[] = [];
  for (let l = 1; l <= next; l++) {
    const a = area[l] as number;
    const cx = (sx[l] as number) / a;
    const cy = (sy[l] as number) / a;
    const x0 = minX[l] as number;
    const y0 = minY[l] as number;
    blobs.push({
      label: l,
      area: a,
      bbox: { x: x0, y: y0, width: (maxX[l] as number) - x0 + 1, height: (maxY[l] as number) - y0 + 1 },
      centroid: { x: cx, y: cy },
      mxx: (sxx[l] as number) / a - cx * cx,
      myy: (syy[l] as number) / a - cy * cy,
      mxy: (sxy[l] as number) / a - cx * cy,
      touchesBorder: border[l] === 1,
    });
  }
  return { blobs, labels, width, height };
}

/** Principal axes of a blob: standard deviations along its major and minor axes and the major axis angle (radians). */
export function principalAxes(blob: Pick<Blob, 'mxx' | 'myy' | 'mxy'>): { major: number; minor: number; angle: number } {
  const tr = blob.mxx + blob.myy;
  const det = blob.mxx * blob.myy - blob.mxy * blob.mxy;
  const disc = Math.sqrt(Math.max(0, (tr * tr) / 4 - det));
  const l1 = tr / 2 + disc;
  const l2 = Math.max(0, tr / 2 - disc);
  return { major: Math.sqrt(l1), minor: Math.sqrt(l2), angle: 0.5 * Math.atan2(2 * blob.mxy, blob.mxx - blob.myy) };
}
