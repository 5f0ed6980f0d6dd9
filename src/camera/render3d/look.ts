/**
 * How one rendered die looks: plastic colour (red and green shades, many D6
 * colours), ink, gloss, worn paint, and its icon or pip artwork. The artwork
 * varies from die to die (stroke width, icon scale, glyph shape), so a reader
 * trained on these renders does not learn one printing.
 */
import type { RandomSource } from '../../stats/random.js';
import type { Rgb } from './presets.js';

export type RenderDie = 'red' | 'green' | 'd6';

/**
 * Which icon drawings the X-Wing dice carry. `house` is what the reader is
 * trained and tuned on (three glyph variants). `foreign-1`, `foreign-2` and
 * `foreign-3` are drawn differently (other burst, eye and swoosh shapes,
 * outlined where house art is filled) and are never trained on: they stand in
 * for dice printed by someone else, to measure whether calibration on a user's
 * own labelled dice carries the reader over. foreign-1 and foreign-3 are for
 * developing that calibration (a change must help on both: one artwork's dev
 * sets cannot tell changes of a few per cent apart); foreign-2 only for
 * measuring it. `random` is for training
 * only: every die draws its own style (spike count and lengths, fills,
 * outlines, cut-outs, eye and swoosh shapes) so a network trained on it learns
 * what makes each symbol itself rather than one printing; its styles use none
 * of the foreign families' motifs.
 */
export const ART_FAMILIES = ['house', 'foreign-1', 'foreign-2', 'foreign-3', 'random'] as const;
export type ArtFamily = (typeof ART_FAMILIES)[number];

export interface IconArt {
  /** Stroke width multiplier (1 = nominal). */
  readonly stroke: number;
  /** Icon radius as a fraction of the face's inradius. */
  readonly scale: number;
  /** Glyph family variant (0..2): different burst, eye and swoosh drawings. */
  readonly variant: number;
  /** The icon drawings (house art unless a foreign family is asked for). */
  readonly family: ArtFamily;
  /** Burst spikes of the hit/crit icons. */
  readonly spikes: number;
  /** Inner radius of the burst, as a fraction of its outer radius. */
  readonly inner: number;
  /** Small rotation of the icon on its face, radians. */
  readonly twist: number;
  /** Random art only: the seed of this die's own style (derived from the die's wear seed: it draws no random number). */
  readonly seed?: number;
}

export interface PipArt {
  /** Pip radius and offset from the face centre, as fractions of the half side. */
  readonly radius: number;
  readonly offset: number;
  /** The single pip of the 1 is drawn this much larger. */
  readonly oneScale: number;
  /** Engraved pips show a darker rim. */
  readonly engraved: boolean;
}

export interface DieLook {
  readonly body: Rgb;
  readonly ink: Rgb;
  /** Ink opacity (worn or thin paint is lower). */
  readonly inkAlpha: number;
  readonly roughness: number;
  readonly clearcoat: number;
  /** Fraction of the ink worn off (0 new .. ~0.6 heavily used). */
  readonly wear: number;
  readonly wearSeed: number;
  /** Subtle mottling of the body colour (marbled or uneven plastic). */
  readonly mottle: number;
  readonly icon: IconArt;
  readonly pips: PipArt;
  /** Tray look only (tray.ts): light glowing through a translucent body, 0..1. */
  readonly translucent?: number;
  /** Tray look only: the second colour swirled through a marbled body. */
  readonly marble?: Rgb;
}

const between = (r: RandomSource, lo: number, hi: number): number => lo + (hi - lo) * r();

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

const D6_BODIES: readonly { body: Rgb; ink: readonly Rgb[] }[] = [
  { body: [238, 236, 228], ink: [[20, 20, 20], [170, 30, 30], [30, 40, 120]] },
  { body: [24, 24, 26], ink: [[240, 240, 236], [210, 170, 60]] },
  { body: [190, 30, 34], ink: [[245, 245, 240], [20, 20, 20]] },
  { body: [30, 70, 170], ink: [[245, 245, 240]] },
  { body: [34, 130, 70], ink: [[245, 245, 240], [20, 20, 20]] },
  { body: [235, 200, 40], ink: [[20, 20, 20]] },
  { body: [110, 50, 150], ink: [[245, 245, 240], [220, 190, 80]] },
  { body: [235, 120, 30], ink: [[20, 20, 20], [250, 250, 245]] },
  { body: [140, 140, 144], ink: [[20, 20, 20], [250, 250, 250]] },
  { body: [230, 220, 190], ink: [[120, 20, 20]] },
];

const jitter = (r: RandomSource, c: Rgb, k: number): Rgb => c.map((v) => Math.round(Math.min(255, Math.max(0, v * between(r, 1 - k, 1 + k))))) as unknown as Rgb;

/** Samples the look of one die. The art family draws no random number: a seed gives the same scene in every family. */
export function sampleLook(die: RenderDie, r: RandomSource, family: ArtFamily = 'house'): DieLook {
  let body: Rgb;
  let ink: Rgb;
  if (die === 'red') {
    body = hslToRgb(between(r, -12, 8), between(r, 0.6, 0.92), between(r, 0.28, 0.48));
    ink = r() < 0.85 ? jitter(r, [242, 240, 232], 0.05) : jitter(r, [222, 186, 90], 0.08);
  } else if (die === 'green') {
    body = hslToRgb(between(r, 118, 150), between(r, 0.45, 0.85), between(r, 0.24, 0.42));
    ink = r() < 0.85 ? jitter(r, [242, 242, 236], 0.05) : jitter(r, [230, 220, 120], 0.08);
  } else {
    const pick = D6_BODIES[Math.floor(r() * D6_BODIES.length)] as (typeof D6_BODIES)[number];
    body = jitter(r, pick.body, 0.07);
    ink = jitter(r, pick.ink[Math.floor(r() * pick.ink.length)] as Rgb, 0.05);
  }
  const wornDie = r() < 0.45;
  const look: DieLook = {
    body,
    ink,
    inkAlpha: between(r, 0.82, 1),
    roughness: between(r, 0.12, 0.5),
    clearcoat: r() < 0.6 ? between(r, 0.3, 1) : 0,
    wear: wornDie ? between(r, 0.08, 0.55) : between(r, 0, 0.05),
    wearSeed: Math.floor(r() * 2 ** 31),
    mottle: r() < 0.3 ? between(r, 0.03, 0.12) : between(r, 0, 0.03),
    icon: {
      stroke: between(r, 0.65, 1.5),
      scale: between(r, 0.62, 0.9),
      variant: Math.floor(r() * 3),
      family,
      spikes: 6 + Math.floor(r() * 5),
      inner: between(r, 0.3, 0.55),
      twist: between(r, -0.12, 0.12),
    },
    pips: {
      radius: between(r, 0.13, 0.2),
      offset: between(r, 0.46, 0.6),
      oneScale: r() < 0.25 ? between(r, 1.2, 1.8) : 1,
      engraved: r() < 0.6,
    },
  };
  // Random art takes its style's seed from one already drawn, so the scene is the same in every family.
  return family === 'random' ? { ...look, icon: { ...look.icon, seed: Math.imul(look.wearSeed ^ 0x5bd1e995, 0x27d4eb2d) >>> 0 } } : look;
}
