/**
 * What the learned reader sees: a square around the top face's centre,
 * resampled to a small fixed size and normalised by its own brightness and
 * contrast (one mean and one spread for all three channels), so lighting level
 * drops out but colour stays: a red die and a green die still differ.
 */
import type { Point, RgbImage } from '../../core/image.js';
import { RADIAL_DOWN } from './topFace.js';

/** Cells x0..x1-1 of rows y0..y1-1 of a resampled square: the only ones computed when given (the rest stay 0). */
export interface CellBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Per row y of a resampled square, its cells from[y]..to[y]-1 (none when to[y] <= from[y]). */
export interface RowSpans {
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/**
 * The square of `side` pixels centred at `centre`, box-averaged down to
 * `size`x`size` channel-first planes: each output cell averages the image
 * pixels whose centres fall in it (the nearest pixel when a cell holds none);
 * outside the image, the nearest edge pixel. Each image pixel is read once per
 * cell it falls in, however often the square repeats it past the image's edge.
 * With `cells`, only those cells are computed: a caller that reads no other cell; with `spans`, of those only the
 * cells in each row's span. With `into` (3 x size x size floats), written there (the other cells set to 0) rather than
 * into a new array.
 */
export function areaResample(image: RgbImage, centre: Point, side: number, size: number, cells: CellBox = { x0: 0, y0: 0, x1: size, y1: size }, into?: Float32Array, spans?: RowSpans): Float32Array {
  const { width: w, height: h, data } = image;
  const plane = size * size;
  const x0 = centre.x - side / 2;
  const y0 = centre.y - side / 2;
  const scale = size / side;
  // Each cell's source columns and rows, as runs of one pixel: outside the image the edge pixel repeats (a radial
  // input's context reaches well past its crop), so it is summed once and weighted by how often it repeats.
  // Byte offsets of the runs' pixels and rows (`at`), worked out once rather than per cell.
  const cols = cellRuns(Math.floor(x0), Math.ceil(x0 + side), x0, scale, size, w, 3, colScratch);
  const rows = cellRuns(Math.floor(y0), Math.ceil(y0 + side), y0, scale, size, h, 3 * w, rowScratch);
  const { start: cs, times: ct, at: colAt, count: colCount } = cols;
  const { start: rs, times: rt, at: rowAt, count: rowCounts } = rows;
  const out = into ?? new Float32Array(3 * plane);
  if (into !== undefined && (spans !== undefined || cells.x0 > 0 || cells.y0 > 0 || cells.x1 < size || cells.y1 < size)) out.fill(0);
  // Sums of bytes times whole weights are integers, exact in doubles: neither the order nor the weighting can change the mean.
  for (let oy = cells.y0; oy < cells.y1; oy++) {
    const rowCount = rowCounts[oy] as number;
    const from = spans === undefined ? cells.x0 : Math.max(cells.x0, spans.from[oy] as number);
    const to = spans === undefined ? cells.x1 : Math.min(cells.x1, spans.to[oy] as number);
    for (let ox = from; ox < to; ox++) {
      const o = oy * size + ox;
      const n = rowCount * (colCount[ox] as number);
      if (n === 0) {
        // A cell smaller than a pixel: the nearest pixel.
        const px = Math.min(w - 1, Math.max(0, Math.floor(x0 + (ox + 0.5) / scale)));
        const py = Math.min(h - 1, Math.max(0, Math.floor(y0 + (oy + 0.5) / scale)));
        for (let c = 0; c < 3; c++) out[c * plane + o] = data[(py * w + px) * 3 + c] as number;
        continue;
      }
      const i0 = cs[ox] as number;
      const i1 = cs[ox + 1] as number;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = rs[oy] as number, jEnd = rs[oy + 1] as number; j < jEnd; j++) {
        const row = rowAt[j] as number;
        let rr = 0;
        let gg = 0;
        let bb = 0;
        for (let i = i0; i < i1; i++) {
          const si = row + (colAt[i] as number);
          const k = ct[i] as number;
          rr += k * (data[si] as number);
          gg += k * (data[si + 1] as number);
          bb += k * (data[si + 2] as number);
        }
        const t = rt[j] as number;
        r += t * rr;
        g += t * gg;
        b += t * bb;
      }
      out[o] = r / n;
      out[plane + o] = g / n;
      out[2 * plane + o] = b / n;
    }
  }
  return out;
}

/** One axis of `areaResample`: each cell's image pixels (clamped to 0..limit-1), each once with how often it repeats. */
interface CellRuns {
  /** Cell c's runs are `start[c]` to `start[c + 1]` - 1. */
  start: Int32Array;
  /** Each run's pixel times the axis's byte step (3 across a row, 3 x width down a column). */
  at: Int32Array;
  times: Int32Array;
  /** Pixel centres in each cell, repeats included. */
  count: Int32Array;
}

/**
 * The two axes' runs, reused from call to call: a die is resampled for three networks, and arrays made for each took
 * a tenth of the resampling's time and kept the garbage collector busy. Only `areaResample` reads them, before it
 * returns.
 */
const colScratch: CellRuns = { start: new Int32Array(0), at: new Int32Array(0), times: new Int32Array(0), count: new Int32Array(0) };
const rowScratch: CellRuns = { start: new Int32Array(0), at: new Int32Array(0), times: new Int32Array(0), count: new Int32Array(0) };

/**
 * The cells of pixels `from`..`to`-1 whose centres fall in cells 0..size-1 (cell = floor((v + 0.5 - origin) * scale)),
 * written into `runs` (grown when too short; only the entries for these cells and pixels are meaningful).
 */
function cellRuns(from: number, to: number, origin: number, scale: number, size: number, limit: number, step: number, runs: CellRuns): CellRuns {
  const pixels = Math.max(0, to - from);
  if (runs.start.length < size + 1) {
    runs.start = new Int32Array(size + 1);
    runs.count = new Int32Array(size);
  }
  if (runs.at.length < pixels) {
    runs.at = new Int32Array(pixels);
    runs.times = new Int32Array(pixels);
  }
  const { start, at, times, count } = runs;
  start.fill(0, 0, size + 1);
  count.fill(0, 0, size);
  let n = 0;
  let cell = 0;
  let last = -1;
  for (let v = from; v < to; v++) {
    const c = Math.floor((v + 0.5 - origin) * scale);
    if (c < 0 || c >= size) continue;
    const p = v < 0 ? 0 : v >= limit ? limit - 1 : v;
    // Pixels come in cell order: the cells passed over are closed (empty ones included).
    while (cell < c) start[++cell] = n;
    if (n > (start[c] as number) && last === p) times[n - 1] = (times[n - 1] as number) + 1;
    else {
      at[n] = step * p;
      times[n] = 1;
      last = p;
      n++;
    }
    count[c] = (count[c] as number) + 1;
  }
  while (cell < size) start[++cell] = n;
  return runs;
}

/** Channel-first planes of `size`x`size`, normalised. `side` is the sampled square's side in image pixels. */
export function learnedInput(image: RgbImage, centre: Point, side: number, size: number): Float32Array {
  return normalised(areaResample(image, centre, side, size));
}

/**
 * Where `turnedCentre`'s output cells sample the context square: for cell o its four neighbours' columns x0[o], x1[o]
 * and rows y0[o], y1[o] with weights fx[o], fy[o], and per row of the square the span of columns read there. Reused
 * from call to call (see `turnTaps`).
 */
interface TurnTaps extends RowSpans {
  readonly x0: Int32Array;
  readonly x1: Int32Array;
  readonly y0: Int32Array;
  readonly y1: Int32Array;
  readonly fx: Float64Array;
  readonly fy: Float64Array;
}

let taps: TurnTaps | undefined;
/** `turnTaps`'s column terms, reused. */
let columnTerms = new Float64Array(0);

/**
 * The taps of `turnedCentre` for this turn (valid until the next call: the arrays are reused). A radial input reads
 * only the cells its taps read: about two thirds of the box around them, turned a quarter turn off the axes.
 */
function turnTaps(context: number, size: number, angle: number): TurnTaps {
  const plane = size * size;
  if (taps === undefined || taps.x0.length !== plane || taps.from.length !== context) {
    const ints = (n: number): Int32Array => new Int32Array(n);
    taps = { x0: ints(plane), x1: ints(plane), y0: ints(plane), y1: ints(plane), fx: new Float64Array(plane), fy: new Float64Array(plane), from: ints(context), to: ints(context) };
  }
  const t = taps;
  t.from.fill(context);
  t.to.fill(0);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const k = size / context;
  const last = context - 1;
  // The products of each column's normalised x with cos and sin, made once for all rows: the same doubles as made
  // per output cell, so the same coordinates.
  if (columnTerms.length < 2 * size) columnTerms = new Float64Array(2 * size);
  const terms = columnTerms;
  for (let j = 0; j < size; j++) {
    const xn = (2 * j + 1) / size - 1;
    terms[2 * j] = cos * xn;
    terms[2 * j + 1] = sin * xn;
  }
  for (let i = 0; i < size; i++) {
    const yn = (2 * i + 1) / size - 1;
    const sinY = sin * yn;
    const cosY = cos * yn;
    for (let j = 0, o = i * size; j < size; j++, o++) {
      // Normalised output -> normalised input -> input pixel coordinates (align_corners false), clamped (border).
      const u = ((((terms[2 * j] as number) - sinY) * k + 1) * context - 1) / 2;
      const v = ((((terms[2 * j + 1] as number) + cosY) * k + 1) * context - 1) / 2;
      const ix = u < 0 ? 0 : u > last ? last : u;
      const iy = v < 0 ? 0 : v > last ? last : v;
      // core/image.ts's `bilinearAt`'s taps and weights.
      const x0 = Math.floor(ix);
      const y0 = Math.floor(iy);
      const x1 = x0 + 1 < last ? x0 + 1 : last;
      const y1 = y0 + 1 < last ? y0 + 1 : last;
      t.x0[o] = x0;
      t.x1[o] = x1;
      t.y0[o] = y0;
      t.y1[o] = y1;
      t.fx[o] = ix - x0;
      t.fy[o] = iy - y0;
      // Rows y0 and y1 read columns x0..x1.
      if (x0 < (t.from[y0] as number)) t.from[y0] = x0;
      if (x1 + 1 > (t.to[y0] as number)) t.to[y0] = x1 + 1;
      if (x0 < (t.from[y1] as number)) t.from[y1] = x0;
      if (x1 + 1 > (t.to[y1] as number)) t.to[y1] = x1 + 1;
    }
  }
  return t;
}

/** `turnedCentre`'s blend of the context square `raw` at its taps, into `out`. */
function blendTaps(raw: Float32Array, context: number, size: number, t: TurnTaps, out: Float32Array): Float32Array {
  const plane = size * size;
  const p1 = context * context;
  const p2 = 2 * p1;
  for (let o = 0; o < plane; o++) {
    // `bilinearAt` for the three planes, the taps and weights worked out once for all three (the same values, blended
    // in the same order).
    const fx = t.fx[o] as number;
    const fy = t.fy[o] as number;
    const gx = 1 - fx;
    const gy = 1 - fy;
    const r0 = (t.y0[o] as number) * context;
    const r1 = (t.y1[o] as number) * context;
    const x0 = t.x0[o] as number;
    const x1 = t.x1[o] as number;
    const a = r0 + x0;
    const b = r0 + x1;
    const d = r1 + x0;
    const e = r1 + x1;
    out[o] = ((raw[a] as number) * gx + (raw[b] as number) * fx) * gy + ((raw[d] as number) * gx + (raw[e] as number) * fx) * fy;
    out[plane + o] = ((raw[p1 + a] as number) * gx + (raw[p1 + b] as number) * fx) * gy + ((raw[p1 + d] as number) * gx + (raw[p1 + e] as number) * fx) * fy;
    out[2 * plane + o] = ((raw[p2 + a] as number) * gx + (raw[p2 + b] as number) * fx) * gy + ((raw[p2 + d] as number) * gx + (raw[p2 + e] as number) * fx) * fy;
  }
  return out;
}

/**
 * The central `size`x`size` cells of a `context`x`context` channel-first square, turned by `angle` radians about its
 * centre (output cell (i, j) samples the square at the centre plus R(angle) times the cell's offset): bilinear, the
 * border repeated outside. Exactly torch's affine_grid + grid_sample (align_corners false, border padding) as
 * train.py's sample_raw calls them, so the reader sees what the network was trained on. Written into `into` (every
 * value) when given.
 */
export function turnedCentre(raw: Float32Array, context: number, size: number, angle: number, into?: Float32Array): Float32Array {
  return blendTaps(raw, context, size, turnTaps(context, size, angle), into ?? new Float32Array(3 * size * size));
}

/**
 * A radial network's input (`LearnedModel.radial`): the square of `side` pixels around `centre`, turned so the die's
 * radial direction `radial` points down (+y), then normalised. Sampled as training cut it: first a square twice as
 * wide at twice the density (train.py's raw context, exportInputs --context), then turned.
 */
export function radialInput(image: RgbImage, centre: Point, side: number, size: number, radial: number): Float32Array {
  return normalised(radialRaw(image, centre, side, size, radial));
}

/** `radialInput` before normalising; into `into` (3 x size x size floats, every value written) when given. */
export function radialRaw(image: RgbImage, centre: Point, side: number, size: number, radial: number, into?: Float32Array): Float32Array {
  const context = 2 * size;
  const angle = radial - RADIAL_DOWN;
  // The context is read only by the turn, here: resampled into one array kept from call to call, only in the cells the
  // turn's taps read.
  if (contextScratch.length !== 3 * context * context) contextScratch = new Float32Array(3 * context * context);
  const t = turnTaps(context, size, angle);
  const raw = areaResample(image, centre, 2 * side, context, turnedCells(context, size, angle), contextScratch, t);
  return blendTaps(raw, context, size, t, into ?? new Float32Array(3 * size * size));
}

/** `radialRaw`'s context square, reused (see there). */
let contextScratch = new Float32Array(0);

/**
 * The cells of a `context`x`context` square that `turnedCentre` reads for this turn: the box around its samples, with
 * their bilinear neighbours. The samples lie on the turned output grid, whose extremes are at its corners. About half
 * the square or less, so the rest need not be resampled.
 */
export function turnedCells(context: number, size: number, angle: number): CellBox {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const k = size / context;
  const e = 1 - 1 / size; // the outermost cell centres, normalised
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const [xn, yn] of [[-e, -e], [-e, e], [e, -e], [e, e]] as const) {
    for (const v of [cos * xn - sin * yn, sin * xn + cos * yn]) {
      const p = ((v * k + 1) * context - 1) / 2;
      lo = Math.min(lo, p);
      hi = Math.max(hi, p);
    }
  }
  // A cell or two of room past the extremes: floor, its neighbour, and rounding in the corners' arithmetic.
  const from = Math.max(0, Math.floor(lo) - 1);
  const to = Math.min(context, Math.ceil(hi) + 2);
  return { x0: from, y0: from, x1: to, y1: to };
}

/** One mean and one mean absolute deviation (at least 8) over all planes, values clamped to +-4 (train.py's normalise). In place. */
export function normalised(out: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] as number;
  const mean = sum / out.length;
  let dev = 0;
  for (let i = 0; i < out.length; i++) dev += Math.abs((out[i] as number) - mean);
  const scale = Math.max(8, dev / out.length);
  for (let i = 0; i < out.length; i++) {
    const v = ((out[i] as number) - mean) / scale;
    out[i] = v > 4 ? 4 : v < -4 ? -4 : v;
  }
  return out;
}
