/**
 * Finding an X-Wing d8 in a crop. The dice are strongly coloured and the
 * platform, walls, shadows and ink are not, so the die is the saturated blob at
 * the centre once the crop's own colour cast is removed (white balance from the
 * crop border, which is platform). Holes in the blob (the icon's ink) are filled,
 * giving the die's outline: a regular hexagon seen from above when the die lies
 * flat, a squashed one when it is cocked.
 */
import { connectedComponents, principalAxes } from '../components.js';
import type { Point, Rect, RgbImage } from '../../core/image.js';

export interface DieOutline {
  /** Centre of the filled outline (crop pixels). */
  readonly center: Point;
  /** Area of the filled outline (pixels). */
  readonly area: number;
  /** Circumradius of a regular hexagon of that area (pixels): the scale of every feature. */
  readonly radius: number;
  /** Major/minor axis ratio of the outline (1 for a flat d8, about 1.2 and up for a cocked one). */
  readonly elongation: number;
  /** Whether the outline touches the crop border (the die is cut off). */
  readonly cutOff: boolean;
  /** Median colour of the top face's central disc, after white balance (0..255 per channel). */
  readonly faceColor: readonly [number, number, number];
  /** Chroma threshold used to separate die from background. */
  readonly threshold: number;
  /** Per-channel white-balance gains applied (from the crop border). */
  readonly gains: readonly [number, number, number];
}

/** A crop after white balance and a 3x3 box blur, as float RGB planes (reused by the feature extractor). */
export interface BalancedCrop {
  readonly width: number;
  readonly height: number;
  /** Interleaved R, G, B floats. */
  readonly data: Float32Array;
  readonly gains: readonly [number, number, number];
}

/**
 * A value's bin: clamped to 0..255 and rounded half up. `(v + 0.5) | 0` is Math.round(v) for the values given here
 * (bytes, and float32s: v + 0.5 is exact for them, and truncating a positive number floors it), with no branch:
 * Math.round's own correction branched on noise, mispredicted about every other value.
 */
const binOf = (v: number): number => (v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0);

/** Median of byte-range values through a histogram (values are clamped to 0..255). */
class ByteMedian {
  private readonly hist = new Uint32Array(256);
  private count = 0;
  add(v: number): void {
    const i = binOf(v);
    this.hist[i] = (this.hist[i] as number) + 1;
    this.count++;
  }
  /** Adds every value of `values` (as `add` one at a time: a histogram does not care about order). */
  addAll(values: Float32Array): void {
    const hist = this.hist;
    for (let k = 0; k < values.length; k++) {
      const i = binOf(values[k] as number);
      hist[i] = (hist[i] as number) + 1;
    }
    this.count += values.length;
  }
  /** The value below which half the values lie (0 when empty). */
  quantile(q = 0.5): number {
    if (this.count === 0) return 0;
    const target = Math.min(this.count - 1, Math.floor(this.count * q));
    let seen = 0;
    for (let i = 0; i < 256; i++) {
      seen += this.hist[i] as number;
      if (seen > target) return i;
    }
    return 255;
  }
}

/**
 * White-balances the crop by its border's median colour (the platform is
 * neutral whatever the light's tint) and box-blurs it 3x3 (sensor noise would
 * otherwise read as colour on the grey platform).
 */
export function balanceCrop(image: RgbImage): BalancedCrop {
  const { width: w, height: h, data } = image;
  const border = [new ByteMedian(), new ByteMedian(), new ByteMedian()] as const;
  const ring = Math.max(1, Math.round(Math.min(w, h) * 0.04));
  for (let y = 0; y < h; y++) {
    const inner = y >= ring && y < h - ring;
    for (let x = 0; x < w; x++) {
      if (inner && x >= ring && x < w - ring) {
        x = w - ring - 1;
        continue;
      }
      const j = (y * w + x) * 3;
      border[0].add(data[j] as number);
      border[1].add(data[j + 1] as number);
      border[2].add(data[j + 2] as number);
    }
  }
  const bg = border.map((m) => Math.max(1, m.quantile())) as [number, number, number];
  const mean = (bg[0] + bg[1] + bg[2]) / 3;
  // Clamped: a crop whose border is mostly a wall or another die must not be recoloured wildly.
  const gains = bg.map((v) => Math.min(2, Math.max(0.5, mean / v))) as [number, number, number];
  // Separable 3x3 box blur (edge pixels average what exists), white balance folded into the first pass.
  // The edge pixels are done apart from the inner ones, so the inner loops test nothing; each value is the same sum
  // times the same factors as before, in the same order (the byte sums are whole numbers, exact in any order).
  const [g0, g1, g2] = gains;
  const rows = new Float32Array(w * h * 3);
  const third = 1 / 3;
  const ends = 1 / (w > 1 ? 2 : 1);
  for (let y = 0; y < h; y++) {
    const base = y * w * 3;
    for (const x of w > 1 ? [0, w - 1] : [0]) {
      const o = base + x * 3;
      const n = x > 0 ? o - 3 : x < w - 1 ? o + 3 : o;
      const has = n !== o ? 1 : 0;
      rows[o] = ((data[o] as number) + has * (data[n] as number)) * ends * g0;
      rows[o + 1] = ((data[o + 1] as number) + has * (data[n + 1] as number)) * ends * g1;
      rows[o + 2] = ((data[o + 2] as number) + has * (data[n + 2] as number)) * ends * g2;
    }
    for (let o = base + 3, end = base + (w - 1) * 3; o < end; o += 3) {
      rows[o] = ((data[o] as number) + (data[o - 3] as number) + (data[o + 3] as number)) * third * g0;
      rows[o + 1] = ((data[o + 1] as number) + (data[o - 2] as number) + (data[o + 4] as number)) * third * g1;
      rows[o + 2] = ((data[o + 2] as number) + (data[o - 1] as number) + (data[o + 5] as number)) * third * g2;
    }
  }
  const out = new Float32Array(w * h * 3);
  const stride = w * 3;
  for (let y = 0; y < h; y++) {
    const up = y > 0 ? -stride : 0;
    const down = y < h - 1 ? stride : 0;
    const k = 1 / (1 + (up !== 0 ? 1 : 0) + (down !== 0 ? 1 : 0));
    const base = y * stride;
    if (up !== 0 && down !== 0) {
      for (let i = base; i < base + stride; i++) out[i] = ((rows[i] as number) + (rows[i - stride] as number) + (rows[i + stride] as number)) * k;
    } else if (up !== 0) {
      for (let i = base; i < base + stride; i++) out[i] = ((rows[i] as number) + (rows[i - stride] as number)) * k;
    } else if (down !== 0) {
      for (let i = base; i < base + stride; i++) out[i] = ((rows[i] as number) + (rows[i + stride] as number)) * k;
    } else {
      for (let i = base; i < base + stride; i++) out[i] = (rows[i] as number) * k;
    }
  }
  return { width: w, height: h, data: out, gains };
}

/** Chroma (max minus min channel) of every pixel. */
function chromaOf(crop: BalancedCrop): Float32Array {
  const n = crop.width * crop.height;
  const out = new Float32Array(n);
  const d = crop.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = d[j] as number;
    const g = d[j + 1] as number;
    const b = d[j + 2] as number;
    // max - min of three is half the sum of their pairwise distances, worked out with no branch: on the grey
    // platform the channels' order is noise, and comparisons (Math.max and Math.min's too) were mispredicted about
    // every other pixel, 5x slower. Exact: the values are float32s of 2^-5..510 (or 0), whose differences and their
    // sum are exact in doubles, so the chroma is the same number.
    out[i] = (Math.abs(r - g) + Math.abs(g - b) + Math.abs(r - b)) / 2;
  }
  return out;
}

/**
 * The blob `label` with its holes filled: every pixel the crop border cannot
 * reach without crossing the blob (the icon's ink is such a hole). Only the
 * blob's box and a pixel round it need looking at: a pixel outside the box
 * reaches the border in a straight line. What the border reaches in there is
 * the 4-connected pieces of the rest that touch that window's edge (its ring
 * round the box, or the crop's border): found by the run-based labelling, not
 * pixel by pixel (a flood fill's stack).
 */
function fillHoles(labels: Int32Array, label: number, w: number, h: number, box: Rect): Uint8Array {
  const x0 = Math.max(0, box.x - 1);
  const y0 = Math.max(0, box.y - 1);
  const x1 = Math.min(w, box.x + box.width + 1);
  const y1 = Math.min(h, box.y + box.height + 1);
  const ww = x1 - x0;
  const wh = y1 - y0;
  const rest = new Uint8Array(ww * wh);
  for (let y = 0; y < wh; y++) for (let x = 0, i = (y0 + y) * w + x0; x < ww; x++, i++) rest[y * ww + x] = labels[i] === label ? 0 : 1;
  const pieces = connectedComponents(rest, ww, wh, 4);
  const reached = new Uint8Array(pieces.blobs.length + 1);
  for (const b of pieces.blobs) reached[b.label] = b.touchesBorder ? 1 : 0;
  const filled = new Uint8Array(w * h);
  const restLabels = pieces.labels;
  // The blob's own pixels (label 0 in the rest) and the holes (pieces the border does not reach).
  for (let y = 0; y < wh; y++) for (let x = 0, i = (y0 + y) * w + x0; x < ww; x++, i++) filled[i] = reached[restLabels[y * ww + x] as number] === 1 ? 0 : 1;
  return filled;
}

/** The saturated fraction of chroma between the background's and the top face's that separates die from platform. */
const SPLIT = 0.42;

/** The smallest crop (pixels a side) an X-Wing die's outline is looked for in: a die smaller than this is not read at all. */
export const MIN_D8_CROP_PX = 12;

/**
 * The die's outline in a crop, or a sentence saying why there is none. `crop`
 * must come from `balanceCrop`.
 */
export function findDieOutline(crop: BalancedCrop): DieOutline | string {
  const { width: w, height: h } = crop;
  if (w < MIN_D8_CROP_PX || h < MIN_D8_CROP_PX) return 'The crop is too small to hold a readable die.';
  const chroma = chromaOf(crop);
  const borderChroma = new ByteMedian();
  const allChroma = new ByteMedian();
  allChroma.addAll(chroma);
  // The border's pixels, each once: the top and bottom rows, then the two side columns between them.
  for (let x = 0; x < w; x++) {
    borderChroma.add(chroma[x] as number);
    borderChroma.add(chroma[(h - 1) * w + x] as number);
  }
  for (let y = 1; y < h - 1; y++) {
    borderChroma.add(chroma[y * w] as number);
    borderChroma.add(chroma[y * w + w - 1] as number);
  }
  const bgChroma = borderChroma.quantile();
  // The die covers roughly a third of a crop 1.3-1.5 times its size; its top face is its most saturated part.
  const dieChroma = allChroma.quantile(0.9);
  if (dieChroma - bgChroma < 20) return 'No coloured die stands out from the background at the centre of the crop.';
  const threshold = bgChroma + SPLIT * (dieChroma - bgChroma);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) mask[i] = (chroma[i] as number) > threshold ? 1 : 0;
  const cc = connectedComponents(mask, w, h, 4);
  const cx = w / 2;
  const cy = h / 2;
  let best: (typeof cc.blobs)[number] | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  const minArea = w * h * 0.05;
  for (const b of cc.blobs) {
    if (b.area < minArea) continue;
    const d = Math.hypot(b.centroid.x - cx, b.centroid.y - cy);
    if (d < bestD) {
      bestD = d;
      best = b;
    }
  }
  if (!best) return 'No die-sized coloured region was found at the centre of the crop.';
  const filled = fillHoles(cc.labels, best.label, w, h, best.bbox);
  let area = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let cutOff = false;
  // The filled outline lies within the blob's box (integer sums: the order they are taken in does not matter).
  const { x: bx, y: by, width: bw, height: bh } = best.bbox;
  for (let y = by; y < by + bh; y++) {
    for (let x = bx, i = y * w + bx; x < bx + bw; x++, i++) {
      if (!filled[i]) continue;
      area++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) cutOff = true;
    }
  }
  const center = { x: sx / area, y: sy / area };
  const axes = principalAxes({ mxx: sxx / area - center.x ** 2, myy: syy / area - center.y ** 2, mxy: sxy / area - center.x * center.y });
  const elongation = axes.major / Math.max(1e-6, axes.minor);
  const radius = Math.sqrt(area / ((3 * Math.sqrt(3)) / 2));
  // The top face's colour: the disc well inside the top triangle (its inradius is half the circumradius).
  const face = [new ByteMedian(), new ByteMedian(), new ByteMedian()] as const;
  const r2 = (radius * 0.42) ** 2;
  const d = crop.data;
  for (let y = Math.max(0, Math.floor(center.y - radius)); y < Math.min(h, Math.ceil(center.y + radius)); y++) {
    for (let x = Math.max(0, Math.floor(center.x - radius)); x < Math.min(w, Math.ceil(center.x + radius)); x++) {
      if ((x - center.x) ** 2 + (y - center.y) ** 2 > r2) continue;
      const j = (y * w + x) * 3;
      face[0].add(d[j] as number);
      face[1].add(d[j + 1] as number);
      face[2].add(d[j + 2] as number);
    }
  }
  return {
    center,
    area,
    radius,
    elongation,
    cutOff,
    faceColor: [face[0].quantile(), face[1].quantile(), face[2].quantile()],
    threshold,
    gains: crop.gains,
  };
}
