/**
 * D6 reading by pip counting, for any die and pip colour.
 *
 * 1. The die's body colour is the median colour of the crop's centre (pips cover
 *    well under half of it), so dark-on-light and light-on-dark are the same case.
 * 2. Each pixel's distance from the body colour is thresholded (Otsu, floored
 *    above texture and noise): body pixels vs everything else.
 * 3. The face is the body component at the centre; pips are the holes in it.
 * 4. Holes are kept as pips when their size relative to the face and their
 *    roundness fit a pip; the pips must then fit the D6 pattern for their count
 *    (rotation-invariant check against the canonical layout) and be centred on
 *    the face. Every misfit lowers the confidence; under `minConfidence` the die
 *    is declined instead of read.
 */
import { connectedComponents, principalAxes } from '../components.js';
import type { Blob } from '../components.js';
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { upscaleBilinear } from '../../core/image.js';
import { D6_PATTERN_SYMMETRY_DEG, D6_PATTERNS } from './patterns.js';

export interface D6PipOptions {
  /** Lowest colour distance from the body that can separate pips (grey levels). */
  readonly minThreshold: number;
  /** Pip area as a fraction of the die's area (size² ): accepted range. */
  readonly pipAreaRange: readonly [number, number];
  /** Largest major/minor axis ratio of a pip (pips seen from above are round). */
  readonly maxPipElongation: number;
  /** Layout error (as a fraction of the pip pitch) at which the layout factor of the confidence reaches 0. */
  readonly layoutTolerance: number;
  /** Reads with lower confidence are declined. */
  readonly minConfidence: number;
  /** Crops whose die is smaller than this are upscaled first (pips need a few pixels). */
  readonly minSizePx: number;
}

export const defaultD6PipOptions: D6PipOptions = {
  minThreshold: 40,
  pipAreaRange: [0.006, 0.06],
  maxPipElongation: 1.9,
  layoutTolerance: 0.35,
  minConfidence: 0.5,
  minSizePx: 56,
};

export const D6_PIP_CLASSIFIER_VERSION = 'd6-pips/1';

/** Canonical pip positions per count, in units of the pip offset from the centre. */
const PATTERNS: Readonly<Record<number, readonly (readonly [number, number])[]>> = Object.fromEntries(Object.entries(D6_PATTERNS).map(([k, v]) => [Number(k), v]));

interface Pt {
  x: number;
  y: number;
}

/** Median of byte values from their histogram. */
function histogramMedian(hist: Int32Array, count: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v] as number;
    if (seen > count >> 1) return v;
  }
  return 255;
}

/** Otsu threshold of 8-bit values given as a histogram. */
function otsu(hist: Float64Array, total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (hist[i] as number);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let bestT = 0;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] as number;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] as number);
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

/** Every position a pip can take on a D6 face (units of the pip offset); a face's other positions must be blank. */
const ALL_POSITIONS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [1, -1],
  [-1, 0],
  [0, 0],
  [1, 0],
  [-1, 1],
  [1, 1],
];

/** The smallest D6 (side, pixels) the pip counter reads at all: below it a pip is a pixel or less. */
export const MIN_D6_DIE_PX = 8;

/** Smallest max-distance between detected pips and the canonical pattern for their count, over rotations (units: pixels). */
function layoutError(pips: readonly Pt[], center: Pt): { error: number; pitch: number; rotation: number } {
  const n = pips.length;
  const pattern = PATTERNS[n];
  if (!pattern) return { error: Number.POSITIVE_INFINITY, pitch: 0, rotation: 0 };
  const rel = pips.map((p) => ({ x: p.x - center.x, y: p.y - center.y }));
  if (n === 1) return { error: Math.hypot(rel[0]!.x, rel[0]!.y), pitch: 0, rotation: 0 };
  // Anchor: the detected pip farthest from the centre must be one of the outer canonical pips.
  let anchor = rel[0]!;
  for (const p of rel) if (Math.hypot(p.x, p.y) > Math.hypot(anchor.x, anchor.y)) anchor = p;
  let best = Number.POSITIVE_INFINITY;
  let bestPitch = 0;
  let bestRotation = 0;
  for (const c of pattern) {
    const cr = Math.hypot(c[0], c[1]);
    if (cr === 0) continue;
    const scale = Math.hypot(anchor.x, anchor.y) / cr;
    const rot = Math.atan2(anchor.y, anchor.x) - Math.atan2(c[1], c[0]);
    const cos = Math.cos(rot) * scale;
    const sin = Math.sin(rot) * scale;
    const placed = pattern.map(([u, v]) => ({ x: u * cos - v * sin, y: u * sin + v * cos }));
    // Greedy one-to-one match; patterns are small (≤ 6).
    const used = new Array<boolean>(n).fill(false);
    let worst = 0;
    for (const p of rel) {
      let bi = -1;
      let bd = Number.POSITIVE_INFINITY;
      placed.forEach((q, i) => {
        if (used[i]) return;
        const d = Math.hypot(p.x - q.x, p.y - q.y);
        if (d < bd) {
          bd = d;
          bi = i;
        }
      });
      used[bi] = true;
      worst = Math.max(worst, bd);
    }
    if (worst < best) {
      best = worst;
      bestPitch = scale;
      bestRotation = rot;
    }
  }
  return { error: best, pitch: bestPitch, rotation: bestRotation };
}

const clamp01 = (v: number): number => Math.max(0, Math.min(1, v));

/** The flood fill's stack, reused from read to read (grown for a larger crop); it never leaves this module. */
let fillStack = new Int32Array(0);
/** Centres of the holes that are not pips, reused likewise. */
let otherX = new Float64Array(0);
let otherY = new Float64Array(0);
/**
 * The face's and the holes' labels, reused likewise (read to read, only the first w x h values): a fresh pair cost
 * some 0.36 MB of short-lived buffers a throw of four dice, which the engine counts against its old generation's
 * limit until a collection frees them (bench/gcSessions.ts).
 */
let faceLabelScratch = new Int32Array(0);
let holeLabelScratch = new Int32Array(0);

/*
 * The per-pixel passes of a read, each its own small function: the engine optimises these loops on
 * their own, whatever happens in the long `read` around them.
 */

/** Median R, G, B of the square of half-side `half` around (cx, cy), through histograms (bytes). */
function bodyColour(data: Uint8Array, w: number, h: number, cx: number, cy: number, half: number): [number, number, number] {
  const hr = new Int32Array(256);
  const hg = new Int32Array(256);
  const hb = new Int32Array(256);
  let count = 0;
  for (let y = Math.max(0, Math.floor(cy - half)); y < Math.min(h, Math.ceil(cy + half)); y++) {
    for (let x = Math.max(0, Math.floor(cx - half)); x < Math.min(w, Math.ceil(cx + half)); x++) {
      const j = (y * w + x) * 3;
      const vr = data[j] as number;
      const vg = data[j + 1] as number;
      const vb = data[j + 2] as number;
      hr[vr] = (hr[vr] as number) + 1;
      hg[vg] = (hg[vg] as number) + 1;
      hb[vb] = (hb[vb] as number) + 1;
      count++;
    }
  }
  return [histogramMedian(hr, count), histogramMedian(hg, count), histogramMedian(hb, count)];
}

/**
 * Each pixel's distance from the body colour (max over R, G, B) into `dist`, and a histogram of
 * those within `r2` (squared) of (cx, cy) into `discHist`; returns how many those are.
 */
function distanceFromBody(data: Uint8Array, w: number, h: number, b0: number, b1: number, b2: number, cx: number, cy: number, r2: number, dist: Uint8Array, discHist: Float64Array): number {
  let discCount = 0;
  for (let y = 0, i = 0; y < h; y++) {
    const dy2 = (y - cy) ** 2;
    for (let x = 0; x < w; x++, i++) {
      const j = i * 3;
      const e0 = (data[j] as number) - b0;
      const e1 = (data[j + 1] as number) - b1;
      const e2 = (data[j + 2] as number) - b2;
      const a0 = e0 < 0 ? -e0 : e0;
      const a1 = e1 < 0 ? -e1 : e1;
      const a2 = e2 < 0 ? -e2 : e2;
      const d = a0 > a1 ? (a0 > a2 ? a0 : a2) : a1 > a2 ? a1 : a2;
      dist[i] = d;
      if ((x - cx) ** 2 + dy2 <= r2) {
        discHist[d] = (discHist[d] as number) + 1;
        discCount++;
      }
    }
  }
  return discCount;
}

/** Pixels reachable from the crop border without crossing the face (4-connected): 1 in the result. */
function outsideOf(faceLabels: Int32Array, faceLabel: number, w: number, h: number): Uint8Array {
  const outside = new Uint8Array(w * h);
  // Each pixel is marked when pushed, so the stack never holds more than the crop.
  if (fillStack.length < w * h) fillStack = new Int32Array(w * h);
  const stack = fillStack;
  let sp = 0;
  // The border's pixels that are not the face start the fill: top and bottom rows, then left and right columns.
  for (let x = 0; x < w; x++) {
    const top = x;
    const bottom = (h - 1) * w + x;
    if (!outside[top] && faceLabels[top] !== faceLabel) {
      outside[top] = 1;
      stack[sp++] = top;
    }
    if (!outside[bottom] && faceLabels[bottom] !== faceLabel) {
      outside[bottom] = 1;
      stack[sp++] = bottom;
    }
  }
  for (let y = 0; y < h; y++) {
    const left = y * w;
    const right = y * w + w - 1;
    if (!outside[left] && faceLabels[left] !== faceLabel) {
      outside[left] = 1;
      stack[sp++] = left;
    }
    if (!outside[right] && faceLabels[right] !== faceLabel) {
      outside[right] = 1;
      stack[sp++] = right;
    }
  }
  while (sp > 0) {
    const p = stack[--sp] as number;
    const y = (p / w) | 0;
    const x = p - y * w;
    if (x > 0 && !outside[p - 1] && faceLabels[p - 1] !== faceLabel) {
      outside[p - 1] = 1;
      stack[sp++] = p - 1;
    }
    if (x < w - 1 && !outside[p + 1] && faceLabels[p + 1] !== faceLabel) {
      outside[p + 1] = 1;
      stack[sp++] = p + 1;
    }
    if (y > 0 && !outside[p - w] && faceLabels[p - w] !== faceLabel) {
      outside[p - w] = 1;
      stack[sp++] = p - w;
    }
    if (y < h - 1 && !outside[p + w] && faceLabels[p + w] !== faceLabel) {
      outside[p + w] = 1;
      stack[sp++] = p + w;
    }
  }
  return outside;
}

/** The face with its holes filled (everything not outside): its area and coordinate sums; its holes marked in `holes`. */
function fillAndHoles(outside: Uint8Array, faceLabels: Int32Array, faceLabel: number, w: number, h: number, holes: Uint8Array): { area: number; sumX: number; sumY: number } {
  let area = 0;
  let sumX = 0;
  let sumY = 0;
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      if (outside[i]) continue;
      area++;
      sumX += x;
      sumY += y;
      if (faceLabels[i] !== faceLabel) holes[i] = 1;
    }
  }
  return { area, sumX, sumY };
}

/** Fourth angular moment (real, imaginary) of the pixels not outside, about (fx, fy). */
function fourthMoment(outside: Uint8Array, w: number, h: number, fx: number, fy: number): { re: number; im: number } {
  let re = 0;
  let im = 0;
  for (let y = 0, i = 0; y < h; y++) {
    const dy = y - fy;
    for (let x = 0; x < w; x++, i++) {
      if (outside[i]) continue;
      const dx = x - fx;
      const re2 = dx * dx - dy * dy;
      const im2 = 2 * dx * dy;
      re += re2 * re2 - im2 * im2;
      im += 2 * re2 * im2;
    }
  }
  return { re, im };
}

/**
 * How well the face's mask matches a square of the same area turned by `turnDeg` about its centre:
 * intersection over union (1 for a clean square face). A face that merges with a background of its
 * colour, or is cut by the crop, bends its outline, and the turn read from that outline with it.
 */
function squareFit(outside: Uint8Array, w: number, h: number, cx: number, cy: number, area: number, turnDeg: number): number {
  const half = Math.sqrt(area) / 2;
  const c = Math.cos((turnDeg * Math.PI) / 180);
  const s = Math.sin((turnDeg * Math.PI) / 180);
  let both = 0;
  let either = 0;
  for (let y = 0, i = 0; y < h; y++) {
    const dy = y - cy;
    for (let x = 0; x < w; x++, i++) {
      const dx = x - cx;
      const u = dx * c + dy * s;
      const v = dy * c - dx * s;
      const inSquare = u <= half && u >= -half && v <= half && v >= -half;
      const inFace = outside[i] === 0;
      if (inSquare && inFace) both++;
      if (inSquare || inFace) either++;
    }
  }
  return either === 0 ? 0 : both / either;
}

/** Pip-counting D6 reader. */
export class D6PipReader implements FaceReader {
  readonly classifierVersion = D6_PIP_CLASSIFIER_VERSION;

  constructor(readonly options: D6PipOptions = defaultD6PipOptions) {}

  read(crop: DieCrop): FaceRead {
    const o = this.options;
    const k = crop.sizePx < o.minSizePx ? Math.ceil(o.minSizePx / Math.max(1, crop.sizePx)) : 1;
    const img = k > 1 ? upscaleBilinear(crop.image, k) : crop.image;
    const size = crop.sizePx * k;
    const { width: w, height: h, data } = img;
    const cx = w / 2;
    const cy = h / 2;
    const decline = (reason: string, confidence = 0, details?: Record<string, number>): FaceRead => ({
      status: 'unreadable',
      confidence,
      classifierVersion: this.classifierVersion,
      crop: crop.image,
      reason,
      ...(details ? { details } : {}),
    });
    if (w < MIN_D6_DIE_PX || h < MIN_D6_DIE_PX || size < MIN_D6_DIE_PX) return decline('The crop is too small to hold a readable die.');

    // 1. Body colour: median of the central square (±0.35 of the die size), through histograms (bytes).
    const [b0, b1, b2] = bodyColour(data, w, h, cx, cy, size * 0.35);

    // 2. Distance from the body colour; threshold from the die's own disc.
    const dist = new Uint8Array(w * h);
    const discHist = new Float64Array(256);
    // Threshold from the face's interior only: the background would otherwise dominate Otsu and hide faint pips.
    const discCount = distanceFromBody(data, w, h, b0, b1, b2, cx, cy, (size * 0.4) ** 2, dist, discHist);
    const threshold = Math.max(o.minThreshold, otsu(discHist, discCount));

    // 3. The face: the body-coloured component at the centre; pips are its holes.
    const bodyMask = new Uint8Array(w * h);
    // The face is held tighter than the pip split: a platform closer to the body colour than the pips must not join the face.
    const faceThreshold = Math.max(o.minThreshold, threshold * 0.5);
    for (let i = 0; i < w * h; i++) bodyMask[i] = (dist[i] as number) <= faceThreshold ? 1 : 0;
    if (faceLabelScratch.length < w * h) {
      faceLabelScratch = new Int32Array(w * h);
      holeLabelScratch = new Int32Array(w * h);
    }
    const bodyCc = connectedComponents(bodyMask, w, h, 4, faceLabelScratch.subarray(0, w * h));
    let face: Blob | undefined;
    let faceScore = Number.POSITIVE_INFINITY;
    for (const b of bodyCc.blobs) {
      if (b.area < size * size * 0.15) continue;
      const d = Math.hypot(b.centroid.x - cx, b.centroid.y - cy);
      if (d < faceScore) {
        faceScore = d;
        face = b;
      }
    }
    if (!face) return decline('No face of one colour was found at the centre of the crop.', 0, { threshold });
    const faceLabel = face.label;
    const faceLabels = bodyCc.labels;
    const outside = outsideOf(faceLabels, faceLabel, w, h);
    const holes = new Uint8Array(w * h);
    const filled = fillAndHoles(outside, faceLabels, faceLabel, w, h, holes);
    const faceCenter = { x: filled.sumX / filled.area, y: filled.sumY / filled.area };
    const faceSide = Math.sqrt(filled.area);
    // How the square face is turned (modulo a quarter turn): the phase of its fourth angular moment
    // points at its corners, which sit at 45 degrees in the pip pattern's frame.
    const { re: m4re, im: m4im } = fourthMoment(outside, w, h, faceCenter.x, faceCenter.y);
    const outlineDeg = ((((Math.atan2(m4im, m4re) * 180) / Math.PI / 4 - 45) % 90) + 90) % 90;

    // 4. Holes that look like pips; other sizeable holes are kept to check against the pattern's face.
    const holeCc = connectedComponents(holes, w, h, 8, holeLabelScratch.subarray(0, w * h));
    const scale = faceSide * faceSide;
    const [minA, maxA] = o.pipAreaRange;
    const pips: Blob[] = [];
    // The other holes' centres, as numbers (an array of them, empty or not, made the engine drop its
    // optimised code again and again).
    if (otherX.length < holeCc.blobs.length) {
      otherX = new Float64Array(holeCc.blobs.length);
      otherY = new Float64Array(holeCc.blobs.length);
    }
    let otherCount = 0;
    for (let i = 0; i < holeCc.blobs.length; i++) {
      const b = holeCc.blobs[i] as Blob;
      const rel = b.area / scale;
      const axes = principalAxes(b);
      const elong = axes.major / Math.max(0.5, axes.minor);
      if (rel >= minA && rel <= maxA && elong <= o.maxPipElongation) pips.push(b);
      else if (rel >= minA * 0.4) {
        otherX[otherCount] = b.centroid.x;
        otherY[otherCount] = b.centroid.y;
        otherCount++;
      }
    }
    const count = pips.length;
    // How far the face sits from the crop centre (the outline's centre in the rig): a cocked die's visible side shifts it.
    const faceOffset = Math.hypot(faceCenter.x - cx, faceCenter.y - cy) / size;
    const details: Record<string, number> = { threshold, pips: count, faceSide, scale: k, faceOffset };
    if (count < 1 || count > 6) return decline(`Found ${count} pip-like marks, which no D6 face has.`, 0, details);

    const centers = pips.map((b) => b.centroid);
    // Plain indexed loops, in the pips' order (sums, extremes): array helpers and for-of over these
    // small arrays made the engine drop its optimised code again and again.
    let sumX = 0;
    let sumY = 0;
    let areaSum = 0;
    let areaMax = 0;
    let areaMin = Number.POSITIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const b = pips[i] as Blob;
      sumX += b.centroid.x;
      sumY += b.centroid.y;
      areaSum += b.area;
      if (b.area > areaMax) areaMax = b.area;
      if (b.area < areaMin) areaMin = b.area;
    }
    const mean = { x: sumX / count, y: sumY / count };
    const { error, pitch, rotation } = layoutError(centers, count === 1 ? faceCenter : mean);
    const sizeSpread = areaMax / areaMin;
    const pipRadius = Math.sqrt(areaSum / count / Math.PI);
    // The top face as the pattern implies it: pips sit about 3 pip radii from the centre on a die ~7 radii half-side.
    const reach = count === 1 ? pipRadius * 3.2 : Math.max(pitch, pipRadius * 2) * 1.55;
    // As numbers: one object or another here made the engine drop its optimised code again and again.
    const centreX = count === 1 ? pips[0]!.centroid.x : mean.x;
    const centreY = count === 1 ? pips[0]!.centroid.y : mean.y;
    // Marks on the top face that are not accepted pips: a pip half-found, a chip, glare. Side-face pips lie outside.
    let suspicious = 0;
    for (let i = 0; i < otherCount; i++) if (Math.hypot((otherX[i] as number) - centreX, (otherY[i] as number) - centreY) < reach) suspicious++;
    const offCentre = Math.hypot(mean.x - faceCenter.x, mean.y - faceCenter.y) / faceSide;
    // Where this face has no pip but another face would, the die must show body colour: a pip
    // missed there (too faint, merged with the edge) would turn a 6 into a 4 or a 3 into a 1.
    const marked = (px: number, py: number, radius: number): number => {
      let hit = 0;
      let all = 0;
      for (let y = Math.floor(py - radius); y <= Math.ceil(py + radius); y++) {
        const dy2 = (y - py) ** 2;
        for (let x = Math.floor(px - radius); x <= Math.ceil(px + radius); x++) {
          if ((x - px) ** 2 + dy2 > radius * radius) continue;
          all++;
          // Stricter than the pip threshold: a faint half-found pip must still count here.
          if (x < 0 || y < 0 || x >= w || y >= h || (dist[y * w + x] as number) > threshold * 0.6) hit++;
        }
      }
      return all > 0 ? hit / all : 1;
    };
    let missedPips = 0;
    if (count === 1) {
      // A 1 has no orientation: scan the ring where the corner pips of other faces would be.
      const ringR = pipRadius * 3.2 * Math.SQRT2 * 0.85;
      let worst = 0;
      for (let a = 0; a < 24; a++) {
        const t = (a * Math.PI) / 12;
        worst = Math.max(worst, marked(centreX + ringR * Math.cos(t), centreY + ringR * Math.sin(t), pipRadius * 0.5));
      }
      details.ringMark = worst;
      if (worst > 0.5) missedPips++;
    } else {
      const pattern = PATTERNS[count] ?? [];
      const cos = Math.cos(rotation) * pitch;
      const sin = Math.sin(rotation) * pitch;
      let worst = 0;
      for (const [u, v] of ALL_POSITIONS) {
        if (pattern.some(([pu, pv]) => pu === u && pv === v)) continue;
        const m = marked(mean.x + u * cos - v * sin, mean.y + u * sin + v * cos, pipRadius * 0.6);
        worst = Math.max(worst, m);
        if (m > 0.4) missedPips++;
      }
      details.emptyMark = worst;
    }
    details.missedPips = missedPips;
    const pitchPerRadius = count === 1 ? 3 : pitch / pipRadius;
    details.layoutError = count === 1 ? error / faceSide : error / pitch;
    details.sizeSpread = sizeSpread;
    details.offCentre = offCentre;
    details.pitchPerRadius = pitchPerRadius;
    // The pattern's +u axis in the image, modulo the face's symmetry: from the pips when there are two or more, else from the outline.
    const symmetry = D6_PATTERN_SYMMETRY_DEG[String(count)] ?? 90;
    details.patternDeg = count === 1 ? outlineDeg : ((((rotation * 180) / Math.PI) % symmetry) + symmetry) % symmetry;
    // Only a 1 takes its turn from the outline: how square that outline is says whether to trust it.
    if (count === 1) details.outlineFit = squareFit(outside, w, h, faceCenter.x, faceCenter.y, filled.area, outlineDeg);
    details.suspicious = suspicious;

    const fLayout = count === 1 ? clamp01(1 - (offCentre - 0.12) / 0.16) : clamp01(1 - error / pitch / o.layoutTolerance);
    const fSize = clamp01(1 - (sizeSpread - 1.6) / 1.4);
    // Wider than the whole die's offset: perspective and side faces shift the face mask's centre.
    const fCentre = clamp01(1 - (offCentre - 0.15) / 0.15);
    const fPitch = clamp01(1 - Math.max(0, Math.abs(pitchPerRadius - 3.2) - 1.2) / 0.8);
    const fSuspicious = Math.pow(0.3, suspicious);
    const fMissed = Math.pow(0.2, missedPips);
    const confidence = fLayout * fSize * fCentre * fPitch * fSuspicious * fMissed;
    details.confidence = confidence;
    if (confidence < o.minConfidence) {
      return decline(`The ${count} marks found do not fit a D6 face well enough (confidence ${confidence.toFixed(2)}).`, confidence, details);
    }
    return { status: 'read', symbol: String(count), confidence, classifierVersion: this.classifierVersion, crop: crop.image, details };
  }
}
