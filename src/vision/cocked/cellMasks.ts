/** Masks over a window's cells: the die's component, its filled convex shape, and that shape grown by its edge. */
import type { Blob } from '../components.js';

/** The components whose centres lie within `radius` cells of (cx, cy). */
export function componentsNear(blobs: readonly Blob[], cx: number, cy: number, radius: number): Blob[] {
  return blobs.filter((blob) => Math.hypot(blob.centroid.x + 0.5 - cx, blob.centroid.y + 0.5 - cy) <= radius);
}

/** The largest component whose centre lies within `radius` cells of (cx, cy). */
export function componentNear(blobs: readonly Blob[], cx: number, cy: number, radius: number): Blob | undefined {
  let best: Blob | undefined;
  for (const blob of componentsNear(blobs, cx, cy, radius)) if (!best || blob.area > best.area) best = blob;
  return best;
}

/** Cells between the components' extremes along their row and along their column (a convex shape with its holes and dents filled). */
export function filledConvex(labels: Int32Array, label: number | readonly number[], w: number, h: number): Uint8Array {
  const labelsWanted = typeof label === 'number' ? [label] : label;
  const wanted = new Uint8Array(Math.max(0, ...labelsWanted) + 1);
  for (const l of labelsWanted) wanted[l] = 1;
  const rowMin = new Int32Array(h).fill(w);
  const rowMax = new Int32Array(h).fill(-1);
  const colMin = new Int32Array(w).fill(h);
  const colMax = new Int32Array(w).fill(-1);
  for (let cy = 0; cy < h; cy++) {
    for (let cx = 0; cx < w; cx++) {
      const l = labels[cy * w + cx] as number;
      if (l >= wanted.length || wanted[l] === 0) continue;
      if (cx < (rowMin[cy] as number)) rowMin[cy] = cx;
      if (cx > (rowMax[cy] as number)) rowMax[cy] = cx;
      if (cy < (colMin[cx] as number)) colMin[cx] = cy;
      if (cy > (colMax[cx] as number)) colMax[cx] = cy;
    }
  }
  const out = new Uint8Array(w * h);
  for (let cy = 0; cy < h; cy++) {
    for (let cx = rowMin[cy] as number; cx <= (rowMax[cy] as number); cx++) {
      if (cy >= (colMin[cx] as number) && cy <= (colMax[cx] as number)) out[cy * w + cx] = 1;
    }
  }
  return out;
}

/**
 * Grows a mask by `cells` in every direction (square neighbourhood), row pass then column pass.
 * Each pass sweeps once, carrying the last set cell seen `cells` ahead: a cell is set when that
 * one lies within `cells` behind it.
 */
export function dilate(mask: Uint8Array, w: number, h: number, cells: number): Uint8Array {
  if (cells <= 0) return mask;
  const rows = new Uint8Array(w * h);
  for (let cy = 0; cy < h; cy++) {
    const o = cy * w;
    let last = -cells - 1;
    for (let x = 0; x < cells && x < w; x++) if (mask[o + x]) last = x;
    for (let cx = 0; cx < w; cx++) {
      const ahead = cx + cells;
      if (ahead < w && mask[o + ahead]) last = ahead;
      if (last >= cx - cells) rows[o + cx] = 1;
    }
  }
  const out = new Uint8Array(w * h);
  const lastInColumn = new Int32Array(w).fill(-cells - 1);
  for (let y = 0; y < cells && y < h; y++) for (let cx = 0; cx < w; cx++) if (rows[y * w + cx]) lastInColumn[cx] = y;
  for (let cy = 0; cy < h; cy++) {
    const ahead = cy + cells;
    if (ahead < h) for (let cx = 0, o = ahead * w; cx < w; cx++, o++) if (rows[o]) lastInColumn[cx] = ahead;
    for (let cx = 0, o = cy * w; cx < w; cx++, o++) if ((lastInColumn[cx] as number) >= cy - cells) out[o] = 1;
  }
  return out;
}
