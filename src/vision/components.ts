/**
 * Connected components of a binary mask, with the shape statistics the locator,
 * the cocked check and the pip counter need (area, box, centroid, second moments).
 */
import type { Point, Rect } from './image.js';

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

/** Labels the non-zero pixels of `mask` into 8-connected (or 4-connected) components. */
export function connectedComponents(mask: Uint8Array, width: number, height: number, connectivity: 4 | 8 = 8): Components {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const blobs: Blob[] = [];
  let next = 1;
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] === 0 || labels[start] !== 0) continue;
    const label = next++;
    let sp = 0;
    stack[sp++] = start;
    labels[start] = label;
    let area = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let minX = width;
    let minY = height;
    let maxX = -1;
    let maxY = -1;
    let border = false;
    while (sp > 0) {
      const p = stack[--sp] as number;
      const y = (p / width) | 0;
      const x = p - y * width;
      area++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) border = true;
      // Neighbours, unrolled: left/right/up/down, then (8-connected) the diagonals.
      const left = x > 0;
      const right = x < width - 1;
      const up = y > 0;
      const down = y < height - 1;
      if (left && mask[p - 1] !== 0 && labels[p - 1] === 0) {
        labels[p - 1] = label;
        stack[sp++] = p - 1;
      }
      if (right && mask[p + 1] !== 0 && labels[p + 1] === 0) {
        labels[p + 1] = label;
        stack[sp++] = p + 1;
      }
      if (up && mask[p - width] !== 0 && labels[p - width] === 0) {
        labels[p - width] = label;
        stack[sp++] = p - width;
      }
      if (down && mask[p + width] !== 0 && labels[p + width] === 0) {
        labels[p + width] = label;
        stack[sp++] = p + width;
      }
      if (connectivity === 8) {
        if (up && left && mask[p - width - 1] !== 0 && labels[p - width - 1] === 0) {
          labels[p - width - 1] = label;
          stack[sp++] = p - width - 1;
        }
        if (up && right && mask[p - width + 1] !== 0 && labels[p - width + 1] === 0) {
          labels[p - width + 1] = label;
          stack[sp++] = p - width + 1;
        }
        if (down && left && mask[p + width - 1] !== 0 && labels[p + width - 1] === 0) {
          labels[p + width - 1] = label;
          stack[sp++] = p + width - 1;
        }
        if (down && right && mask[p + width + 1] !== 0 && labels[p + width + 1] === 0) {
          labels[p + width + 1] = label;
          stack[sp++] = p + width + 1;
        }
      }
    }
    const cx = sx / area;
    const cy = sy / area;
    blobs.push({
      label,
      area,
      bbox: { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 },
      centroid: { x: cx, y: cy },
      mxx: sxx / area - cx * cx,
      myy: syy / area - cy * cy,
      mxy: sxy / area - cx * cy,
      touchesBorder: border,
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
