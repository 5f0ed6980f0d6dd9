/**
 * Raw image structs shared by the camera shell and the pure vision core. Plain
 * typed arrays (no decoder objects) so vision code stays pure, fast and testable.
 */
import { gray4Kernel, kernelTakesWidth, sums4Kernel } from './grayKernel.js';

/** One grey level per pixel, row-major. */
export interface GrayImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** Interleaved R, G, B bytes per pixel, row-major (what `ffmpeg -pix_fmt rgb24` and the renderer give). */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** Axis-aligned rectangle in pixels. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A new black RGB image. */
export function createRgb(width: number, height: number): RgbImage {
  return { width, height, data: new Uint8Array(width * height * 3) };
}

/** Luma (BT.601 integer approximation) of an RGB image. */
export function rgbToGray(image: RgbImage): GrayImage {
  const n = image.width * image.height;
  const out = new Uint8Array(n);
  const d = image.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    out[i] = ((d[j] as number) * 77 + (d[j + 1] as number) * 150 + (d[j + 2] as number) * 29) >> 8;
  }
  return { width: image.width, height: image.height, data: out };
}

/** Sums of R, G and B over each `factor`x`factor` block of an image (3 values per block, row-major). */
export interface BlockSums {
  readonly width: number;
  readonly height: number;
  readonly factor: number;
  readonly data: Uint32Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Per block row: each word column's bytes summed over the block's 4 pixel rows, in two 16-bit
 * lanes. Little-endian, a word holds bytes [0 1 2 3]: `w & 0x00ff00ff` holds bytes 0 and 2,
 * `(w >>> 8) & 0x00ff00ff` bytes 1 and 3; four rows of bytes stay below 2^16 per lane. Fixed
 * module constants, reused from call to call (the engine reads a constant array a quarter faster
 * than one it must load). Rows up to 4096 pixels; wider images take the byte-at-a-time path.
 */
const LANE_WORDS = 3 * 1024;
const laneEven = new Int32Array(LANE_WORDS);
const laneOdd = new Int32Array(LANE_WORDS);

/** Whether 4x4 blocks of `image` can be read four bytes at a time: whole words per pixel row, an aligned buffer, rows up to 4096 pixels. */
function wordReadable(image: RgbImage, f: number): boolean {
  return f === 4 && LITTLE_ENDIAN && image.width % 4 === 0 && image.data.byteOffset % 4 === 0 && (image.width * 3) / 4 <= LANE_WORDS;
}

/** The image's bytes as 32-bit words (signed, so the engine keeps them small integers; masks and unsigned shifts don't care). */
const wordsOf = (image: RgbImage): Int32Array => new Int32Array(image.data.buffer, image.data.byteOffset, (image.width * image.height * 3) >> 2);

/*
 * Three words per block row of 4 pixels: [r0 g0 b0 r1] [g1 b1 r2 g2] [b2 r3 g3 b3], so the lanes hold
 * even[0] = r0|b0, odd[0] = g0|r1, even[1] = g1|r2, odd[1] = b1|g2, even[2] = b2|g3, odd[2] = r3|b3
 * (low|high 16 bits). The row sums are made first, front to back (sequential reads), then combined
 * per block; the loops are written out in each function (a call per block row measured slower).
 */

/** Block sums for 4x4 blocks, reading four bytes at a time, into `out` (every value written). */
function blockSums4Words(image: RgbImage, w: number, h: number, out: Uint32Array): void {
  const words = wordsOf(image);
  const rowWords = (image.width * 3) >> 2;
  const r1 = rowWords;
  const r2 = 2 * rowWords;
  const r3 = 3 * rowWords;
  const M = 0x00ff00ff;
  // Local names for the module's arrays: the engine then checks them once, not at every access.
  const even = laneEven;
  const odd = laneOdd;
  for (let by = 0; by < h; by++) {
    for (let i = 0, k = by * 4 * rowWords; i < rowWords; i++, k++) {
      const a = words[k] as number;
      const b = words[k + r1] as number;
      const c = words[k + r2] as number;
      const d = words[k + r3] as number;
      even[i] = (a & M) + (b & M) + (c & M) + (d & M);
      odd[i] = ((a >>> 8) & M) + ((b >>> 8) & M) + ((c >>> 8) & M) + ((d >>> 8) & M);
    }
    for (let bx = 0, i = 0, o = by * w * 3; bx < w; bx++, i += 3, o += 3) {
      const e0 = even[i] as number;
      const o0 = odd[i] as number;
      const e1 = even[i + 1] as number;
      const o1 = odd[i + 1] as number;
      const e2 = even[i + 2] as number;
      const o2 = odd[i + 2] as number;
      out[o] = (e0 & 0xffff) + (o0 >>> 16) + (e1 >>> 16) + (o2 & 0xffff);
      out[o + 1] = (o0 & 0xffff) + (e1 & 0xffff) + (o1 >>> 16) + (e2 >>> 16);
      out[o + 2] = (e0 >>> 16) + (o1 & 0xffff) + (e2 & 0xffff) + (o2 >>> 16);
    }
  }
}

/** Grey (R + 2G + B over 64, rounded) of 4x4 blocks, reading four bytes at a time, into `out`. */
function gray4Words(image: RgbImage, w: number, h: number, out: Uint8Array): void {
  const words = wordsOf(image);
  const rowWords = (image.width * 3) >> 2;
  const r1 = rowWords;
  const r2 = 2 * rowWords;
  const r3 = 3 * rowWords;
  const M = 0x00ff00ff;
  // Local names for the module's arrays: the engine then checks them once, not at every access.
  const even = laneEven;
  const odd = laneOdd;
  for (let by = 0; by < h; by++) {
    for (let i = 0, k = by * 4 * rowWords; i < rowWords; i++, k++) {
      const a = words[k] as number;
      const b = words[k + r1] as number;
      const c = words[k + r2] as number;
      const d = words[k + r3] as number;
      even[i] = (a & M) + (b & M) + (c & M) + (d & M);
      odd[i] = ((a >>> 8) & M) + ((b >>> 8) & M) + ((c >>> 8) & M) + ((d >>> 8) & M);
    }
    for (let bx = 0, i = 0, o = by * w; bx < w; bx++, i += 3, o++) {
      const e0 = even[i] as number;
      const o0 = odd[i] as number;
      const e1 = even[i + 1] as number;
      const o1 = odd[i + 1] as number;
      const e2 = even[i + 2] as number;
      const o2 = odd[i + 2] as number;
      // Weight 2: g0 g1 g2 g3; weight 1: r0..r3, b0..b3 (r0|b0 and r3|b3 share a sum: lanes stay below 2^16).
      const g = (o0 & 0xffff) + (e1 & 0xffff) + (o1 >>> 16) + (e2 >>> 16);
      const rb = e0 + o2;
      const rest = (rb & 0xffff) + (rb >>> 16) + (o0 >>> 16) + (e1 >>> 16) + (o1 & 0xffff) + (e2 & 0xffff);
      // 16 pixels x weights 1 + 2 + 1: divide by 64, rounding.
      out[o] = (rest + 2 * g + 32) >> 6;
    }
  }
}

/** Block sums, one byte at a time (any factor, any alignment), added to `out` (zeros). */
function blockSumsBytes(image: RgbImage, f: number, w: number, h: number, out: Uint32Array): void {
  const d = image.data;
  const stride = image.width * 3;
  for (let by = 0; by < h; by++) {
    for (let dy = 0; dy < f; dy++) {
      let j = (by * f + dy) * stride;
      for (let bx = 0, o = by * w * 3; bx < w; bx++, o += 3) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let dx = 0; dx < f; dx++, j += 3) {
          r += d[j] as number;
          g += d[j + 1] as number;
          b += d[j + 2] as number;
        }
        out[o] = (out[o] as number) + r;
        out[o + 1] = (out[o + 1] as number) + g;
        out[o + 2] = (out[o + 2] as number) + b;
      }
    }
  }
}

// The empty-platform reference's block sums never change: computed once per image object (images
// are not modified once captured).
const blockSumsCache = new WeakMap<RgbImage, BlockSums>();

/**
 * Sums of R, G, B over `factor`x`factor` blocks (the image's right and bottom
 * remainders are dropped). Remembered per image object, so callers sharing an
 * image share the work. With `into` (of the right length: 3 values per block)
 * they are written there instead and not remembered: for frames seen once, so
 * that no array is made per frame.
 */
export function blockSums(image: RgbImage, factor: number, into?: Uint32Array): BlockSums {
  const f = Math.max(1, Math.floor(factor));
  const cached = blockSumsCache.get(image);
  if (cached && cached.factor === f) return cached;
  const w = Math.floor(image.width / f);
  const h = Math.floor(image.height / f);
  const reuse = into !== undefined && into.length === w * h * 3;
  const out = reuse ? into : new Uint32Array(w * h * 3);
  // Camera frames (widths a multiple of 16) on the vector kernel; other widths by words or bytes, to the same sums.
  if (f === 4 && kernelTakesWidth(image.width) && h > 0) sums4Kernel(image.data, image.width, image.height, out);
  else if (wordReadable(image, f)) blockSums4Words(image, w, h, out);
  else {
    if (reuse) out.fill(0);
    blockSumsBytes(image, f, w, h, out);
  }
  const sums: BlockSums = { width: w, height: h, factor: f, data: out };
  if (!reuse) blockSumsCache.set(image, sums);
  return sums;
}

/**
 * Grey image downscaled by an integer factor with box averaging (averaging, not
 * subsampling, so sensor noise shrinks by the factor and does not look like motion).
 * Grey is (R + 2G + B) / 4: averaging all three channels keeps sensor noise below
 * the motion threshold. Written into `into` when it has the right length (callers
 * that reuse a buffer per frame), else into a new array.
 */
export function downscaleToGray(image: RgbImage, factor: number, into?: Uint8Array): GrayImage {
  const f = Math.max(1, Math.floor(factor));
  const w = Math.floor(image.width / f);
  const h = Math.floor(image.height / f);
  const gray = into !== undefined && into.length === w * h ? into : new Uint8Array(w * h);
  // Camera frames (widths a multiple of 16) on the vector kernel; other widths by words or bytes, to the same bytes.
  if (f === 4 && kernelTakesWidth(image.width) && h > 0) gray4Kernel(image.data, image.width, image.height, gray);
  else if (wordReadable(image, f)) gray4Words(image, w, h, gray);
  else {
    // Other factors and layouts: colour sums, then weighed (the same rounding as the word path).
    const data = new Uint32Array(w * h * 3);
    blockSumsBytes(image, f, w, h, data);
    const div = f * f * 4;
    for (let i = 0, o = 0; i < w * h; i++, o += 3) gray[i] = Math.round(((data[o] as number) + 2 * (data[o + 1] as number) + (data[o + 2] as number)) / div);
  }
  return { width: w, height: h, data: gray };
}

/** Clamps a rectangle to the image bounds (integer pixel edges). */
export function clampRect(rect: Rect, width: number, height: number): Rect {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(height, Math.ceil(rect.y + rect.height));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** Copies the part of `image` inside `rect` (clamped to the image). */
export function cropRgb(image: RgbImage, rect: Rect): RgbImage {
  const r = clampRect(rect, image.width, image.height);
  const out = new Uint8Array(r.width * r.height * 3);
  for (let y = 0; y < r.height; y++) {
    const src = ((r.y + y) * image.width + r.x) * 3;
    out.set(image.data.subarray(src, src + r.width * 3), y * r.width * 3);
  }
  return { width: r.width, height: r.height, data: out };
}

/**
 * Bilinear value of a `width`x`height` grid at (x, y), both within the grid (0..width-1, 0..height-1: the caller clamps
 * or rejects points outside). Cell (xx, yy) is `values[offset + (yy * width + xx) * stride]`: stride 1 for a plane,
 * 3 and the channel as offset for interleaved RGB.
 */
export function bilinearAt(values: ArrayLike<number>, width: number, height: number, x: number, y: number, stride = 1, offset = 0): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const p = (xx: number, yy: number): number => values[offset + (yy * width + xx) * stride] as number;
  return (p(x0, y0) * (1 - fx) + p(x1, y0) * fx) * (1 - fy) + (p(x0, y1) * (1 - fx) + p(x1, y1) * fx) * fy;
}

/** Square rectangle of side `side` centred on `center`. */
export function squareAround(center: Point, side: number): Rect {
  return { x: center.x - side / 2, y: center.y - side / 2, width: side, height: side };
}

/**
 * The square of `side` pixels around `center` cut from `image`. Where the image's edge cut the square short, the cut no
 * longer has `center` at its middle, so `center` comes back in the cut's pixels; otherwise it is left out (the middle).
 */
export function cropSquare(image: RgbImage, center: Point, side: number): { image: RgbImage; center?: Point } {
  const rect = squareAround(center, side);
  const r = clampRect(rect, image.width, image.height);
  const cut = cropRgb(image, rect);
  const whole = r.x === Math.floor(rect.x) && r.y === Math.floor(rect.y) && r.x + r.width === Math.ceil(rect.x + rect.width) && r.y + r.height === Math.ceil(rect.y + rect.height);
  return whole ? { image: cut } : { image: cut, center: { x: center.x - r.x, y: center.y - r.y } };
}

/**
 * Where `count` bilinear samples fall along one axis of `extent` pixels, sample i at `position(i)` held inside the axis
 * as `bilinearAt`'s callers hold it: the lower pixel, the upper one (held to the edge), and their weights, 1 - f and f.
 * Worked out once an axis, the samples of a row or a column of an image cost their blends only.
 */
export interface BilinearTaps {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  readonly wLo: Float64Array;
  readonly wHi: Float64Array;
}

export function bilinearTaps(count: number, extent: number, position: (i: number) => number): BilinearTaps {
  const taps = { lo: new Int32Array(count), hi: new Int32Array(count), wLo: new Float64Array(count), wHi: new Float64Array(count) };
  for (let i = 0; i < count; i++) {
    const at = Math.min(extent - 1, Math.max(0, position(i)));
    const lo = Math.floor(at);
    const f = at - lo;
    taps.lo[i] = lo;
    taps.hi[i] = Math.min(extent - 1, lo + 1);
    taps.wLo[i] = 1 - f;
    taps.wHi[i] = f;
  }
  return taps;
}

/**
 * Bilinear upscale by an integer factor. Each value is (a (1 - fx) + b fx) (1 - fy) + (d (1 - fx) + e fx) fy, as the D6
 * pip counter always took it; the two row blends in brackets are the same for the k output rows that share their source
 * rows, so they are blended once for those rows, not once a pixel (a 64 px crop upscaled 3x: 0.32 ms instead of 0.74).
 * The same doubles are multiplied and added in the same order, so the bytes are the same to the bit.
 */
export function upscaleBilinear(img: RgbImage, k: number): RgbImage {
  const w = img.width * k;
  const h = img.height * k;
  const src = img.data;
  const out = new Uint8Array(w * h * 3);
  // Output pixel i's centre in source pixels, the same along both axes.
  const source = (i: number): number => (i + 0.5) / k - 0.5;
  const cols = bilinearTaps(w, img.width, source);
  const rows = bilinearTaps(h, img.height, source);
  // One source row blended across to the output's width: a (1 - fx) + b fx for every output column and channel.
  const blendRow = (row: number, into: Float64Array): void => {
    const base = row * img.width * 3;
    let o = 0;
    for (let x = 0; x < w; x++) {
      const l = base + (cols.lo[x] as number) * 3;
      const r = base + (cols.hi[x] as number) * 3;
      const fx = cols.wHi[x] as number;
      const fx1 = cols.wLo[x] as number;
      into[o++] = (src[l] as number) * fx1 + (src[r] as number) * fx;
      into[o++] = (src[l + 1] as number) * fx1 + (src[r + 1] as number) * fx;
      into[o++] = (src[l + 2] as number) * fx1 + (src[r + 2] as number) * fx;
    }
  };
  let upper = new Float64Array(w * 3);
  let lower = new Float64Array(w * 3);
  let upperRow = -1;
  let lowerRow = -1;
  for (let y = 0; y < h; y++) {
    const y0 = rows.lo[y] as number;
    const y1 = rows.hi[y] as number;
    if (y0 !== upperRow) {
      // Moving down one source row: the old lower row is the new upper one.
      if (y0 === lowerRow) [upper, lower] = [lower, upper];
      else blendRow(y0, upper);
      upperRow = y0;
      lowerRow = -1;
    }
    if (y1 !== lowerRow) {
      blendRow(y1, lower);
      lowerRow = y1;
    }
    const fy = rows.wHi[y] as number;
    const fy1 = rows.wLo[y] as number;
    const o = y * w * 3;
    for (let i = 0; i < w * 3; i++) out[o + i] = (upper[i] as number) * fy1 + (lower[i] as number) * fy;
  }
  return { width: w, height: h, data: out };
}
