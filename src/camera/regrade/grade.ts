/**
 * Another renderer's look, laid over a labelled folder's images: a colour grade (tone curve, black level, white
 * balance), a softer lens, more sensor noise and harder JPEG. The reader is calibrated on a user's own images and must
 * hold under a camera, renderer or light it was not drawn by; regrading both the calibration images and the test
 * images of a rendered set measures that without rendering anything again (training/README.md, "Another renderer's
 * look"). Pure: the pixels and a random source in, new pixels out; `regradeFolder.ts` reads and writes the files.
 */
import { drawNormal, type RandomSource } from '../../stats/random.js';

export interface Grade {
  /** Exponent on values scaled to 0..1 (under 1 lightens the mid-tones, over 1 darkens them). */
  readonly gamma: number;
  /** S-curve strength: over 0 steepens the mid-tones, under 0 flattens them (-1..1). */
  readonly contrast: number;
  /** The black level the curve starts from, 0..255 (a filmic "lifted black"). */
  readonly lift: number;
  /** Gains on red, green and blue before the curve (a colour cast). */
  readonly whiteBalance: readonly [number, number, number];
  /** Gaussian blur's sigma in pixels, before the grade (0: none). */
  readonly blurSigma: number;
  /** Standard deviation of the sensor noise added after the grade, in 0..255 steps. */
  readonly noise: number;
  /** JPEG quality the image is saved at, 1..100. */
  readonly jpegQuality: number;
}

/** The named grades, fixed before any measurement (values set by eye, never tuned on a result). */
export const GRADES = {
  /** An S-shaped tone curve with lifted blacks, a warm cast, a soft lens, more noise, JPEG 70. */
  filmic: { gamma: 0.8, contrast: 0.35, lift: 18, whiteBalance: [1.08, 1, 0.88], blurSigma: 1.2, noise: 5, jpegQuality: 70 },
  /** Darker, flatter mid-tones, a blue cast, a sharp lens, JPEG 60. */
  cold: { gamma: 1.3, contrast: -0.2, lift: 0, whiteBalance: [0.9, 0.98, 1.12], blurSigma: 0, noise: 3, jpegQuality: 60 },
  /** The filmic look pushed further: a strong S-curve, lifted blacks, a strong warm cast, blur 2 px, noise 8, JPEG 50. */
  harsh: { gamma: 0.7, contrast: 0.5, lift: 30, whiteBalance: [1.15, 1, 0.8], blurSigma: 2, noise: 8, jpegQuality: 50 },
} as const satisfies Record<string, Grade>;

export type GradeName = keyof typeof GRADES;
export const GRADE_NAMES = Object.keys(GRADES) as GradeName[];

/** The grade's tone curve as a table: the value each input value 0..255 becomes (before noise). */
export function toneCurve(grade: Grade): Uint8Array {
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const x = Math.pow(v / 255, grade.gamma);
    // The S-curve moves a value towards (or, negative, away from) the ends by up to contrast/2 at a quarter and three
    // quarters, and leaves 0, 1/2 and 1 where they are, so the curve stays increasing for |contrast| <= 1.
    const s = x + grade.contrast * (x - 0.5) * (1 - Math.abs(2 * x - 1));
    table[v] = Math.round(grade.lift + Math.min(1, Math.max(0, s)) * (255 - grade.lift));
  }
  return table;
}

/**
 * `rgb` (3 bytes a pixel) graded: each channel times its white-balance gain (clipped at 255), through the tone curve,
 * then noise drawn from `random` added and the result clipped to 0..255. The input is not changed.
 */
export function gradePixels(rgb: Uint8Array, grade: Grade, random: RandomSource): Uint8Array {
  if (rgb.length % 3 !== 0) throw new RangeError(`gradePixels takes 3 bytes a pixel; got ${rgb.length} bytes`);
  const curve = toneCurve(grade);
  const out = new Uint8Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) {
    const balanced = Math.min(255, Math.round((rgb[i] as number) * (grade.whiteBalance[i % 3] as number)));
    const noisy = (curve[balanced] as number) + (grade.noise > 0 ? drawNormal(random) * grade.noise : 0);
    out[i] = Math.min(255, Math.max(0, Math.round(noisy)));
  }
  return out;
}
