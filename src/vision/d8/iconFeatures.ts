/**
 * Rotation-invariant features of the icon on a d8's top face.
 *
 * The ink map (how far each pixel's colour is from the face's own, relative to
 * the face's saturation, saturating) is sampled on rings around the die's
 * centre; each ring's angular Fourier magnitudes are the features. A rotation of
 * the die only shifts each ring's samples, which leaves the magnitudes unchanged,
 * so there is no orientation to estimate and no template to match at several
 * angles. The icons differ exactly in what survives: a hit is an 8-point star
 * (8th harmonic), a crit a 4-point star in a circle (4th, plus a full ring), a
 * focus an eye (2nd, plus a centre dot), an evade two arcs (1st), a blank nothing.
 */
import { bilinearAt } from '../../core/image.js';
import type { BalancedCrop, DieOutline } from './dieOutline.js';

/** Sampling geometry, in units of the die's circumradius. */
export interface IconFeatureGeometry {
  /** Outer radius of the sampled disc (the top triangle's inradius is 0.5). */
  readonly outerRadius: number;
  readonly rings: number;
  readonly angles: number;
  /** Harmonics 0..maxHarmonic per ring. */
  readonly maxHarmonic: number;
  /** Colour distance (fraction of the face's own distance from grey) at which a pixel counts as full ink. */
  readonly inkSaturation: number;
}

export const defaultIconGeometry: IconFeatureGeometry = {
  outerRadius: 0.44,
  rings: 7,
  angles: 32,
  maxHarmonic: 8,
  inkSaturation: 0.5,
};

/** Length of the feature vector for a geometry. */
export function iconFeatureLength(g: IconFeatureGeometry): number {
  return g.rings * (g.maxHarmonic + 1);
}

/**
 * Ink map of the crop: 0 = the face's colour, 1 = clearly ink (or anything else).
 * Distances are taken in the opponent-colour plane (the part of a colour
 * orthogonal to grey), relative to the face's own distance from grey: glare adds
 * grey and exposure scales everything, so neither reads as ink, while white or
 * black ink (no colour) lies a full face-chroma away.
 */
export function inkMap(crop: BalancedCrop, outline: DieOutline, g: IconFeatureGeometry, box: InkBox = { x0: 0, y0: 0, x1: crop.width, y1: crop.height }): Float32Array {
  const w = crop.width;
  const out = new Float32Array(w * crop.height);
  const [fr, fg, fb] = outline.faceColor;
  const f1 = (fr - fg) * Math.SQRT1_2;
  const f2 = (fr + fg - 2 * fb) / Math.sqrt(6);
  const scale = 1 / (Math.max(12, Math.hypot(f1, f2)) * g.inkSaturation);
  const d = crop.data;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0, i = y * w + box.x0, j = 3 * i; x < box.x1; x++, i++, j += 3) {
      const r = d[j] as number;
      const gg = d[j + 1] as number;
      const b = d[j + 2] as number;
      const o1 = (r - gg) * Math.SQRT1_2 - f1;
      const o2 = (r + gg - 2 * b) / Math.sqrt(6) - f2;
      out[i] = Math.min(1, Math.sqrt(o1 * o1 + o2 * o2) * scale);
    }
  }
  return out;
}

/** Pixels x0..x1-1 of rows y0..y1-1: the only ones of the ink map worked out when given (the rest stay 0). */
export interface InkBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/**
 * The pixels `polarInk` reads: its samples lie within the sampled disc (radius `outerRadius` x the die's), and each
 * reads the pixel it falls in and the next right and down. A die's crop is several times the disc's size: the rest of
 * the ink map was worked out for nothing.
 */
export function polarInkBox(width: number, height: number, outline: DieOutline, g: IconFeatureGeometry): InkBox {
  const R = outline.radius * g.outerRadius;
  const { x, y } = outline.center;
  return {
    x0: Math.max(0, Math.floor(x - R) - 1),
    y0: Math.max(0, Math.floor(y - R) - 1),
    x1: Math.min(width, Math.ceil(x + R) + 2),
    y1: Math.min(height, Math.ceil(y + R) + 2),
  };
}

function bilinear(map: Float32Array, w: number, h: number, x: number, y: number): number {
  if (x < 0 || y < 0 || x > w - 1 || y > h - 1) return 1;
  return bilinearAt(map, w, h, x, y);
}

/** The polar samples of the ink map: `rings` rows of `angles` values (each the mean of 2x2 sub-samples). */
export function polarInk(ink: Float32Array, width: number, height: number, outline: DieOutline, g: IconFeatureGeometry): Float32Array {
  const out = new Float32Array(g.rings * g.angles);
  const R = outline.radius * g.outerRadius;
  const dr = R / g.rings;
  const da = (2 * Math.PI) / g.angles;
  const subs = [0.25, 0.75] as const;
  // The sub-samples' directions are the same on every ring: their cosines and sines are taken once.
  const cos = new Float64Array(2 * g.angles);
  const sin = new Float64Array(2 * g.angles);
  for (let ai = 0; ai < g.angles; ai++) {
    for (let k = 0; k < 2; k++) {
      const a = (ai + (subs[k] as number)) * da;
      cos[2 * ai + k] = Math.cos(a);
      sin[2 * ai + k] = Math.sin(a);
    }
  }
  for (let ri = 0; ri < g.rings; ri++) {
    for (let ai = 0; ai < g.angles; ai++) {
      let s = 0;
      for (const sr of subs) {
        for (let k = 0; k < 2; k++) {
          const r = (ri + sr) * dr;
          s += bilinear(ink, width, height, outline.center.x + r * (cos[2 * ai + k] as number), outline.center.y + r * (sin[2 * ai + k] as number));
        }
      }
      out[ri * g.angles + ai] = s / 4;
    }
  }
  return out;
}

/** Angular Fourier magnitudes per ring (harmonic m of a ring of values v: |Σ v·e^{-imθ}| / angles). */
export function ringHarmonics(polar: Float32Array, g: IconFeatureGeometry): Float64Array {
  const H = g.maxHarmonic + 1;
  const out = new Float64Array(g.rings * H);
  // The same angles on every ring: cosines and sines taken once per harmonic and angle, not once per ring as well.
  const cos = new Float64Array(H * g.angles);
  const sin = new Float64Array(H * g.angles);
  for (let m = 0; m < H; m++) {
    for (let ai = 0; ai < g.angles; ai++) {
      const t = (2 * Math.PI * m * ai) / g.angles;
      cos[m * g.angles + ai] = Math.cos(t);
      sin[m * g.angles + ai] = Math.sin(t);
    }
  }
  for (let ri = 0; ri < g.rings; ri++) {
    for (let m = 0; m < H; m++) {
      let re = 0;
      let im = 0;
      for (let ai = 0; ai < g.angles; ai++) {
        const v = polar[ri * g.angles + ai] as number;
        re += v * (cos[m * g.angles + ai] as number);
        im -= v * (sin[m * g.angles + ai] as number);
      }
      out[ri * H + m] = Math.hypot(re, im) / g.angles;
    }
  }
  return out;
}

/** The icon feature vector of a die already found in its crop. */
export function iconFeatures(crop: BalancedCrop, outline: DieOutline, g: IconFeatureGeometry = defaultIconGeometry): Float64Array {
  const ink = inkMap(crop, outline, g, polarInkBox(crop.width, crop.height, outline, g));
  return ringHarmonics(polarInk(ink, crop.width, crop.height, outline, g), g);
}

/** Chromaticity (r, g, b each over their sum) of the face colour: what tells a red die from a green one. */
export function chromaticity(color: readonly [number, number, number]): [number, number, number] {
  const s = Math.max(1, color[0] + color[1] + color[2]);
  return [color[0] / s, color[1] / s, color[2] / s];
}
