/**
 * The `tray` look of the 3D synthetic camera (opt-in, D6 only): scenes like
 * phone photos of a dice tray (d6-tray-photos) rather than a rig's webcam.
 * A light grey or white tray, bright even room light with a gentle falloff, near white (a phone balances its white),
 * a square 640x640 frame seen from 25-60 cm with a phone's wide lens and up to
 * 12 degrees of tilt (side faces in view), small dice (about 26-52 px across),
 * many of them (2-14), in the colours such sets come in: opaque, translucent
 * (light glowing through the body) and marbled (two colours swirled), with
 * white, black, yellow or red pips. Its presets are its own and split like
 * the rig's; the default `rig` look is untouched by anything here.
 */
import type { RandomSource } from '../../stats/random.js';
import type { DieLook } from './look.js';
import { sampleLook } from './look.js';
import type { LightingPreset, PlatformPreset, Range, Rgb, Split } from './presets.js';

export const SCENE_LOOKS = ['rig', 'tray'] as const;
export type SceneLook = (typeof SCENE_LOOKS)[number];

/** The camera and dice of a tray scene (the rig's are in scene.ts). */
export const TRAY_CAMERA = {
  width: 640,
  height: 640,
  diceCm: [1.45, 1.75] as Range,
  /** Die size across in pixels (the labelled box is a little larger with side faces in view). */
  acrossPx: [26, 52] as Range,
  hfovDeg: [55, 72] as Range,
  heightCm: [12, 70] as Range,
  tiltDeg: [0, 12] as Range,
  diceCount: [2, 14] as readonly [number, number],
  /** The sharpest-edged of the D6 meshes (geometry.ts exponents 5/7/9): tray dice have crisp cube edges. */
  roundness: [9] as readonly number[],
};

/** Camera effects: ranges of the post-processing (browser/camera.js), and how often blur and shake happen. */
export interface CameraEffects {
  readonly readNoise: Range;
  readonly shotNoise: Range;
  readonly blurShare: number;
  readonly blurSigma: Range;
  readonly motionShare: number;
  readonly motionPx: Range;
  readonly vignette: Range;
  /** Red and blue white-balance gains. */
  readonly gains: Range;
  readonly jpegQuality: Range;
}

/** A phone's photo: sharp and clean (the tray photos are crisp, with strong pip contrast), white balanced. */
export const TRAY_EFFECTS: CameraEffects = { readNoise: [0.5, 2.5], shotNoise: [0.02, 0.1], blurShare: 0.35, blurSigma: [0.2, 0.6], motionShare: 0.1, motionPx: [0.5, 1.5], vignette: [0, 0.25], gains: [0.97, 1.03], jpegQuality: [75, 95] };

export const TRAY_LIGHTING: readonly LightingPreset[] = [
  // TRAIN
  { name: 'tray-room-ceiling', split: 'train', key: 'overhead', elevationDeg: [50, 85], temperatureK: [5800, 6800], intensity: [2.2, 3.2], softness: [8, 18], ambient: [0.5, 0.85], environment: [0.5, 1.0], exposure: [0.8, 1.05] },
  { name: 'tray-window-side', split: 'train', key: 'window', elevationDeg: [30, 60], temperatureK: [5800, 6800], intensity: [2.2, 3.4], softness: [6, 14], ambient: [0.45, 0.75], environment: [0.4, 0.9], exposure: [0.8, 1.05] },
  { name: 'tray-desk-lamp', split: 'train', key: 'lamp', elevationDeg: [45, 80], temperatureK: [5800, 6800], intensity: [2.6, 3.8], softness: [4, 10], ambient: [0.4, 0.7], environment: [0.3, 0.7], exposure: [0.8, 1.05] },
  // TUNE
  { name: 'tray-overcast', split: 'tune', key: 'window', elevationDeg: [35, 65], temperatureK: [5800, 6800], intensity: [2.0, 2.8], softness: [10, 16], ambient: [0.55, 0.8], environment: [0.4, 0.8], exposure: [0.8, 1.05] },
  // TEST
  { name: 'tray-ring', split: 'test', key: 'ring', elevationDeg: [78, 89], temperatureK: [5800, 6800], intensity: [2.2, 3.0], softness: [8, 14], ambient: [0.5, 0.75], environment: [0.6, 1.0], exposure: [0.8, 1.05] },
];

export const TRAY_PLATFORMS: readonly PlatformPreset[] = [
  // TRAIN
  { name: 'tray-grey-card', split: 'train', kind: 'felt', colors: [[222, 222, 220], [212, 214, 214], [230, 229, 226]], roughness: [0.85, 1], texture: [0, 0.06], walls: [[60, 60, 64]] },
  { name: 'tray-white-board', split: 'train', kind: 'acrylic', colors: [[238, 238, 236], [230, 232, 234]], roughness: [0.5, 0.8], texture: [0, 0.05], walls: [[60, 60, 64]] },
  // TUNE
  { name: 'tray-pale-fabric', split: 'tune', kind: 'fabric', colors: [[210, 206, 198]], roughness: [0.85, 1], texture: [0.05, 0.2], walls: [[60, 60, 64]] },
  // TEST
  { name: 'tray-silver-felt', split: 'test', kind: 'felt', colors: [[190, 192, 196]], roughness: [0.9, 1], texture: [0.1, 0.3], walls: [[60, 60, 64]] },
];

export function trayLightingPresets(split: Split): LightingPreset[] {
  return TRAY_LIGHTING.filter((p) => p.split === split);
}

export function trayPlatformPresets(split: Split): PlatformPreset[] {
  return TRAY_PLATFORMS.filter((p) => p.split === split);
}

const between = (r: RandomSource, lo: number, hi: number): number => lo + (hi - lo) * r();
const jitter = (r: RandomSource, c: Rgb, k: number): Rgb => c.map((v) => Math.round(Math.min(255, Math.max(0, v * between(r, 1 - k, 1 + k))))) as unknown as Rgb;

const WHITE: Rgb = [240, 240, 236];
const BLACK: Rgb = [22, 22, 24];
const YELLOW: Rgb = [235, 205, 60];
const RED: Rgb = [200, 40, 40];

/** Tray dice: body colour, what it is made of, and the pip colours it comes with. */
const TRAY_BODIES: readonly { body: Rgb; kind: 'opaque' | 'translucent' | 'marbled'; marble?: Rgb; ink: readonly Rgb[] }[] = [
  { body: [236, 234, 226], kind: 'opaque', ink: [BLACK, RED] },
  { body: [26, 26, 28], kind: 'opaque', ink: [WHITE, RED, YELLOW] },
  { body: [238, 214, 40], kind: 'opaque', ink: [BLACK] },
  { body: [200, 30, 36], kind: 'translucent', ink: [WHITE] },
  { body: [30, 90, 200], kind: 'translucent', ink: [WHITE] },
  { body: [30, 160, 80], kind: 'translucent', ink: [WHITE] },
  { body: [120, 40, 160], kind: 'translucent', ink: [WHITE] },
  { body: [210, 40, 60], kind: 'opaque', ink: [WHITE, BLACK] },
  { body: [30, 110, 100], kind: 'marbled', marble: [200, 170, 40], ink: [YELLOW, WHITE] },
  { body: [150, 100, 40], kind: 'marbled', marble: [60, 40, 20], ink: [BLACK] },
  { body: [90, 40, 60], kind: 'marbled', marble: [200, 200, 200], ink: [WHITE, RED] },
  { body: [40, 40, 48], kind: 'marbled', marble: [190, 40, 40], ink: [RED, WHITE] },
  { body: [230, 150, 40], kind: 'marbled', marble: [230, 60, 30], ink: [BLACK] },
  { body: [40, 60, 140], kind: 'marbled', marble: [200, 60, 60], ink: [WHITE] },
];

/**
 * Samples a tray die's look: the rig's sampling (gloss, wear, pip spread) with
 * a tray body, its pips, and translucency or marbling.
 */
export function sampleTrayLook(r: RandomSource): DieLook {
  const base = sampleLook('d6', r);
  const pick = TRAY_BODIES[Math.floor(r() * TRAY_BODIES.length)] as (typeof TRAY_BODIES)[number];
  const ink = jitter(r, pick.ink[Math.floor(r() * pick.ink.length)] as Rgb, 0.05);
  const body = jitter(r, pick.body, 0.1);
  const translucent = pick.kind === 'translucent' ? between(r, 0.25, 0.6) : 0;
  const marble = pick.kind === 'marbled' && pick.marble ? jitter(r, pick.marble, 0.12) : undefined;
  return {
    ...base,
    body,
    ink,
    // Tray dice are mostly new: little worn ink, and pips drilled and painted (engraved).
    wear: Math.min(base.wear, between(r, 0, 0.12)),
    inkAlpha: between(r, 0.94, 1),
    pips: { ...base.pips, radius: between(r, 0.18, 0.24), engraved: r() < 0.8 },
    ...(translucent > 0 ? { translucent, roughness: between(r, 0.08, 0.25) } : {}),
    ...(marble ? { marble } : {}),
  };
}
