/**
 * The 2x2 px cells of the window around a die, as the look beside it sees them:
 * summed R, G, B of the frame and of the empty platform, six numbers a cell.
 */
import type { RgbImage } from '../../core/image.js';

/** The empty platforms' 2x2 px cell sums over the whole image (cells on even pixel edges), made once per reference image (images are not modified once captured). */
const platformCells = new WeakMap<RgbImage, Uint16Array>();

/** R, G, B summed over each 2x2 px cell of `reference` (3 values a cell, row-major; an odd last row or column left out). */
function platformCellsOf(reference: RgbImage): Uint16Array {
  const known = platformCells.get(reference);
  if (known !== undefined) return known;
  const pw = reference.width >> 1;
  const ph = reference.height >> 1;
  const b = reference.data;
  const stride = reference.width * 3;
  const cells = new Uint16Array(pw * ph * 3);
  for (let cy = 0; cy < ph; cy++) {
    let j = 2 * cy * stride;
    let o = cy * pw * 3;
    for (let cx = 0; cx < pw; cx++, j += 6, o += 3) {
      const k = j + stride;
      cells[o] = (b[j] as number) + (b[j + 3] as number) + (b[k] as number) + (b[k + 3] as number);
      cells[o + 1] = (b[j + 1] as number) + (b[j + 4] as number) + (b[k + 1] as number) + (b[k + 4] as number);
      cells[o + 2] = (b[j + 2] as number) + (b[j + 5] as number) + (b[k + 2] as number) + (b[k + 5] as number);
    }
  }
  platformCells.set(reference, cells);
  return cells;
}

/**
 * Per 2x2 px cell of a window: summed R, G, B of the frame, then of the empty
 * platform. Comparing a die with the empty platform under the same light
 * cancels what the light adds (glare) and leaves what it multiplies (a gain).
 */
export function cellSums(frame: RgbImage, reference: RgbImage, x0: number, y0: number, w: number, h: number, sums: Int32Array): void {
  const a = frame.data;
  const b = reference.data;
  const stride = frame.width * 3;
  // Every value is written below: the caller's scratch needs no clearing.
  if ((x0 & 1) === 0 && (y0 & 1) === 0 && frame.width === reference.width && frame.height === reference.height) {
    // A window on even pixel edges (as the look beside a die cuts them): the platform's cells are the whole frame's,
    // summed once per reference image, and copied.
    const p = platformCellsOf(reference);
    const pw = reference.width >> 1;
    for (let cy = 0; cy < h; cy++) {
      let j = (y0 + 2 * cy) * stride + x0 * 3;
      let o = cy * w * 6;
      let q = ((y0 / 2 + cy) * pw + x0 / 2) * 3;
      for (let cx = 0; cx < w; cx++, j += 6, o += 6, q += 3) {
        const k = j + stride;
        sums[o] = (a[j] as number) + (a[j + 3] as number) + (a[k] as number) + (a[k + 3] as number);
        sums[o + 1] = (a[j + 1] as number) + (a[j + 4] as number) + (a[k + 1] as number) + (a[k + 4] as number);
        sums[o + 2] = (a[j + 2] as number) + (a[j + 5] as number) + (a[k + 2] as number) + (a[k + 5] as number);
        sums[o + 3] = p[q] as number;
        sums[o + 4] = p[q + 1] as number;
        sums[o + 5] = p[q + 2] as number;
      }
    }
    return;
  }
  for (let cy = 0; cy < h; cy++) {
    let j = (y0 + 2 * cy) * stride + x0 * 3;
    let o = cy * w * 6;
    for (let cx = 0; cx < w; cx++, j += 6, o += 6) {
      const k = j + stride;
      sums[o] = (a[j] as number) + (a[j + 3] as number) + (a[k] as number) + (a[k + 3] as number);
      sums[o + 1] = (a[j + 1] as number) + (a[j + 4] as number) + (a[k + 1] as number) + (a[k + 4] as number);
      sums[o + 2] = (a[j + 2] as number) + (a[j + 5] as number) + (a[k + 2] as number) + (a[k + 5] as number);
      sums[o + 3] = (b[j] as number) + (b[j + 3] as number) + (b[k] as number) + (b[k + 3] as number);
      sums[o + 4] = (b[j + 1] as number) + (b[j + 4] as number) + (b[k + 1] as number) + (b[k + 4] as number);
      sums[o + 5] = (b[j + 2] as number) + (b[j + 5] as number) + (b[k + 2] as number) + (b[k + 5] as number);
    }
  }
}

/**
 * Colour change per pixel (max over R, G, B) of `count` summed pixels at
 * `s[o..o+5]` (frame, then reference), or 0 when the change is the platform's
 * shadow: its own colour, uniformly darker (down to `minBlend` of it).
 */
export function changeOf(s: Int32Array, o: number, count: number, minBlend: number): number {
  const fr = s[o] as number;
  const fg = s[o + 1] as number;
  const fb = s[o + 2] as number;
  const rr = s[o + 3] as number;
  const rg = s[o + 4] as number;
  const rb = s[o + 5] as number;
  const d = Math.max(Math.abs(fr - rr), Math.abs(fg - rg), Math.abs(fb - rb));
  const kr = fr / (rr + count);
  const kg = fg / (rg + count);
  const kb = fb / (rb + count);
  const kmin = Math.min(kr, kg, kb);
  const kmax = Math.max(kr, kg, kb);
  return kmin >= minBlend && kmax <= 1 && kmax - kmin <= 0.1 ? 0 : d / count;
}

/** Median of each of the six channels (per pixel, in quarter grey levels) over cells within `half` cells of (cx, cy). */
export function medianCells(sums: Int32Array, w: number, h: number, cx: number, cy: number, half: number): number[] {
  return medianWhere(sums, w, h, cx, cy, half, () => true);
}

/** Median of each of the six channels over the cells whose centres lie `inner` to `outer` cells from (cx, cy). */
export function medianRing(sums: Int32Array, w: number, h: number, cx: number, cy: number, inner: number, outer: number): number[] {
  const in2 = inner * inner;
  const out2 = outer * outer;
  return medianWhere(sums, w, h, cx, cy, outer, (x, y) => {
    const d2 = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2;
    return d2 >= in2 && d2 <= out2;
  });
}

/** Median of each of the six channels over the cells within `half` cells of (cx, cy) that `take` keeps. */
function medianWhere(sums: Int32Array, w: number, h: number, cx: number, cy: number, half: number, take: (x: number, y: number) => boolean): number[] {
  const xa = Math.max(0, Math.floor(cx - half));
  const xb = Math.min(w, Math.ceil(cx + half));
  const ya = Math.max(0, Math.floor(cy - half));
  const yb = Math.min(h, Math.ceil(cy + half));
  const cells: number[] = [];
  for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) if (take(x, y)) cells.push(y * w + x);
  const out: number[] = [];
  // A cell's sum of 4 pixels is an integer 0..1020: a histogram finds the median without sorting.
  const hist = new Int32Array(1021);
  for (let c = 0; c < 6; c++) {
    hist.fill(0);
    for (const i of cells) {
      const v = sums[i * 6 + c] as number;
      hist[v] = (hist[v] as number) + 1;
    }
    let seen = 0;
    let v = 0;
    while (v < 1020 && seen + (hist[v] as number) <= cells.length >> 1) seen += hist[v++] as number;
    out.push(cells.length > 0 ? v / 4 : 0);
  }
  return out;
}

/** Darkening of a cell (fraction of the platform's brightness). */
function shadeAt(sums: Int32Array, i: number): number {
  const o = i * 6;
  const lr = (sums[o + 3] as number) + (sums[o + 4] as number) + (sums[o + 5] as number);
  return 1 - ((sums[o] as number) + (sums[o + 1] as number) + (sums[o + 2] as number)) / Math.max(1, lr);
}

/** How much darker a cell is than the mean of the cells two steps away that are not skipped (0 when none is). */
export function shadeContrast(sums: Int32Array, skip: Uint8Array, w: number, h: number, cx: number, cy: number): number {
  let sum = 0;
  let count = 0;
  for (let y = cy - 2; y <= cy + 2; y++) {
    for (let x = cx - 2; x <= cx + 2; x++) {
      if ((Math.abs(x - cx) !== 2 && Math.abs(y - cy) !== 2) || x < 0 || y < 0 || x >= w || y >= h || skip[y * w + x]) continue;
      sum += shadeAt(sums, y * w + x);
      count++;
    }
  }
  return count > 0 ? shadeAt(sums, cy * w + cx) - sum / count : 0;
}
