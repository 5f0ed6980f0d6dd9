/**
 * Raw image structs shared by the camera shell and the pure vision core. Plain
 * typed arrays (no decoder objects) so vision code stays pure, fast and testable.
 */

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
  /** Per block: (R + 2G + B) / 4, averaged over the block and rounded (grey for settle detection). */
  readonly gray: Uint8Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Block sums for 4x4 blocks, reading four bytes at a time (two 16-bit lanes per word). */
function blockSums4Words(image: RgbImage, w: number, h: number, gray: Uint8Array): Uint32Array {
  // Signed words stay small integers for the engine; the masks and unsigned shifts below don't care.
  const words = new Int32Array(image.data.buffer, image.data.byteOffset, (image.width * image.height * 3) >> 2);
  const rowWords = (image.width * 3) >> 2;
  const out = new Uint32Array(w * h * 3);
  const M = 0x00ff00ff;
  for (let by = 0; by < h; by++) {
    const k0 = by * 4 * rowWords;
    for (let bx = 0, o = by * w * 3; bx < w; bx++, o += 3) {
      // Three words per row of 4 pixels: [r0 g0 b0 r1] [g1 b1 r2 g2] [b2 r3 g3 b3] (little-endian);
      // even and odd bytes are summed in separate 16-bit lanes, over the block's 4 rows.
      let a0 = 0;
      let b0 = 0;
      let a1 = 0;
      let b1 = 0;
      let a2 = 0;
      let b2 = 0;
      for (let dy = 0, k = k0 + bx * 3; dy < 4; dy++, k += rowWords) {
        const w0 = words[k] as number;
        const w1 = words[k + 1] as number;
        const w2 = words[k + 2] as number;
        a0 += w0 & M;
        b0 += (w0 >>> 8) & M;
        a1 += w1 & M;
        b1 += (w1 >>> 8) & M;
        a2 += w2 & M;
        b2 += (w2 >>> 8) & M;
      }
      // Lanes: a0 = r0|b0, b0 = g0|r1, a1 = g1|r2, b1 = b1|g2, a2 = b2|g3, b2 = r3|b3.
      const r = (a0 & 0xffff) + (b0 >>> 16) + (a1 >>> 16) + (b2 & 0xffff);
      const g = (b0 & 0xffff) + (a1 & 0xffff) + (b1 >>> 16) + (a2 >>> 16);
      const b = (a0 >>> 16) + (b1 & 0xffff) + (a2 & 0xffff) + (b2 >>> 16);
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      // 16 pixels x weights 1 + 2 + 1: divide by 64, rounding.
      gray[by * w + bx] = (r + 2 * g + b + 32) >> 6;
    }
  }
  return out;
}

/** Block sums, one byte at a time (any factor, any alignment). */
function blockSumsBytes(image: RgbImage, f: number, w: number, h: number): Uint32Array {
  const d = image.data;
  const stride = image.width * 3;
  const out = new Uint32Array(w * h * 3);
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
  return out;
}

// Settle detection and location both need a frame's block sums, and the empty-platform reference's
// never change: computed once per image object (images are not modified once captured).
const blockSumsCache = new WeakMap<RgbImage, BlockSums>();

/**
 * Sums of R, G, B over `factor`x`factor` blocks (the image's right and bottom
 * remainders are dropped). Remembered per image object, so callers sharing a
 * frame share the work.
 */
export function blockSums(image: RgbImage, factor: number): BlockSums {
  const f = Math.max(1, Math.floor(factor));
  const cached = blockSumsCache.get(image);
  if (cached && cached.factor === f) return cached;
  const w = Math.floor(image.width / f);
  const h = Math.floor(image.height / f);
  // Four bytes at a time needs whole words per pixel row and an aligned buffer.
  const words = f === 4 && LITTLE_ENDIAN && image.width % 4 === 0 && image.data.byteOffset % 4 === 0;
  const gray = new Uint8Array(w * h);
  let data: Uint32Array;
  if (words) data = blockSums4Words(image, w, h, gray);
  else {
    data = blockSumsBytes(image, f, w, h);
    const div = f * f * 4;
    for (let i = 0, o = 0; i < w * h; i++, o += 3) gray[i] = Math.round(((data[o] as number) + 2 * (data[o + 1] as number) + (data[o + 2] as number)) / div);
  }
  const sums: BlockSums = { width: w, height: h, factor: f, data, gray };
  blockSumsCache.set(image, sums);
  return sums;
}

/**
 * Grey image downscaled by an integer factor with box averaging (averaging, not
 * subsampling, so sensor noise shrinks by the factor and does not look like motion).
 */
export function downscaleToGray(image: RgbImage, factor: number): GrayImage {
  // r + 2g + b: averaging all three channels keeps sensor noise below the motion threshold.
  const sums = blockSums(image, factor);
  return { width: sums.width, height: sums.height, data: sums.gray };
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

/** Square rectangle of side `side` centred on `center`. */
export function squareAround(center: Point, side: number): Rect {
  return { x: center.x - side / 2, y: center.y - side / 2, width: side, height: side };
}
