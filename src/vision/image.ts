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

/**
 * Grey image downscaled by an integer factor with box averaging (averaging, not
 * subsampling, so sensor noise shrinks by the factor and does not look like motion).
 */
export function downscaleToGray(image: RgbImage, factor: number): GrayImage {
  const f = Math.max(1, Math.floor(factor));
  const w = Math.floor(image.width / f);
  const h = Math.floor(image.height / f);
  const out = new Uint8Array(w * h);
  const sums = new Uint32Array(w);
  const d = image.data;
  const rowStride = image.width * 3;
  const div = f * f * 4;
  for (let by = 0; by < h; by++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      let j = (by * f + dy) * rowStride;
      for (let bx = 0; bx < w; bx++) {
        let s = 0;
        for (let dx = 0; dx < f; dx++, j += 3) {
          // r + 2g + b: averaging all three channels keeps sensor noise below the motion threshold.
          s += (d[j] as number) + 2 * (d[j + 1] as number) + (d[j + 2] as number);
        }
        sums[bx] = (sums[bx] as number) + s;
      }
    }
    const o = by * w;
    for (let bx = 0; bx < w; bx++) out[o + bx] = Math.round((sums[bx] as number) / div);
  }
  return { width: w, height: h, data: out };
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
