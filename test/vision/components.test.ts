import { describe, expect, it } from 'vitest';
import { connectedComponents } from '../../src/vision/components.js';
import type { Blob } from '../../src/vision/components.js';
import { lcg } from './support/randomImage.js';

/**
 * The plain way, pixel by pixel: scan in raster order, flood each new
 * component from its first pixel. Kept simple on purpose, as the reference.
 */
function floodFill(mask: Uint8Array, w: number, h: number, connectivity: 4 | 8): { labels: Int32Array; blobs: Blob[] } {
  const labels = new Int32Array(w * h);
  const blobs: Blob[] = [];
  const steps = connectivity === 8 ? [-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => [dx, dy] as const)).filter(([dx, dy]) => dx !== 0 || dy !== 0) : ([[1, 0], [-1, 0], [0, 1], [0, -1]] as const);
  for (let start = 0; start < w * h; start++) {
    if (mask[start] === 0 || labels[start] !== 0) continue;
    const label = blobs.length + 1;
    const pixels: number[] = [start];
    labels[start] = label;
    for (let k = 0; k < pixels.length; k++) {
      const p = pixels[k] as number;
      const x = p % w;
      const y = Math.floor(p / w);
      for (const [dx, dy] of steps) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (mask[q] !== 0 && labels[q] === 0) {
          labels[q] = label;
          pixels.push(q);
        }
      }
    }
    const xs = pixels.map((p) => p % w);
    const ys = pixels.map((p) => Math.floor(p / w));
    const n = pixels.length;
    const cx = xs.reduce((s, v) => s + v, 0) / n;
    const cy = ys.reduce((s, v) => s + v, 0) / n;
    blobs.push({
      label,
      area: n,
      bbox: { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs) + 1, height: Math.max(...ys) - Math.min(...ys) + 1 },
      centroid: { x: cx, y: cy },
      mxx: xs.reduce((s, v) => s + v * v, 0) / n - cx * cx,
      myy: ys.reduce((s, v) => s + v * v, 0) / n - cy * cy,
      mxy: xs.reduce((s, v, i) => s + v * (ys[i] as number), 0) / n - cx * cy,
      touchesBorder: xs.some((x, i) => x === 0 || x === w - 1 || ys[i] === 0 || ys[i] === h - 1),
    });
  }
  return { labels, blobs };
}

describe('connected components', () => {
  it('labels the same components in the same order, with the same statistics, as a plain flood fill', () => {
    const random = lcg(20_241);
    let compared = 0;
    for (let t = 0; t < 600; t++) {
      const w = 1 + Math.floor(random() * 30);
      const h = 1 + Math.floor(random() * 30);
      const mask = new Uint8Array(w * h);
      if (t % 3 === 0) {
        // Scattered pixels of any non-zero value, at every density.
        const density = random();
        for (let i = 0; i < mask.length; i++) mask[i] = random() < density ? 1 + Math.floor(random() * 255) : 0;
      } else if (t % 3 === 1) {
        // Overlapping discs: large blobs with holes and bays.
        for (let k = 0; k < 6; k++) {
          const cx = random() * w;
          const cy = random() * h;
          const r = random() * 8;
          for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x - cx) ** 2 + (y - cy) ** 2 < r * r) mask[y * w + x] = (mask[y * w + x] as number) ^ 1;
        }
      } else {
        // Diagonal stripes: pixels touching only at corners.
        const period = 2 + Math.floor(random() * 3);
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = (x + y) % period === 0 ? 1 : 0;
      }
      for (const connectivity of [4, 8] as const) {
        const expected = floodFill(mask, w, h, connectivity);
        const got = connectedComponents(mask, w, h, connectivity);
        expect(got.blobs).toEqual(expected.blobs);
        expect(Array.from(got.labels)).toEqual(Array.from(expected.labels));
        expect([got.width, got.height]).toEqual([w, h]);
        compared++;
      }
    }
    expect(compared).toBe(1200);
  });

  it('joins pixels that touch only at a corner under 8-connectivity, not under 4', () => {
    // X . X
    // . X .
    // X . X
    const mask = Uint8Array.from([1, 0, 1, 0, 1, 0, 1, 0, 1]);
    expect(connectedComponents(mask, 3, 3, 8).blobs.map((b) => b.area)).toEqual([5]);
    expect(connectedComponents(mask, 3, 3, 4).blobs.map((b) => b.area)).toEqual([1, 1, 1, 1, 1]);
  });

  it('gives each call its own label map, whatever calls come after', () => {
    const first = connectedComponents(Uint8Array.from([1, 1, 0, 1]), 2, 2, 4);
    connectedComponents(new Uint8Array(400).fill(1), 20, 20, 8);
    expect(Array.from(first.labels)).toEqual([1, 1, 0, 1]);
    expect(first.blobs).toHaveLength(1);
  });
});
