/**
 * Named lighting presets for the simulated camera. Each changes what a real rig
 * changes: overall exposure, a gradient across the platform, colour cast, glare
 * spots, sensor noise and optical blur.
 *
 * `evening` is held out: no threshold in src/vision was tuned on it, so tests
 * that use it measure the reader on lighting it has never seen. Keep it that way.
 */
export interface LightingPreset {
  readonly name: string;
  /** Overall gain (1 = nominal exposure). */
  readonly exposure: number;
  /** Linear gain change across the platform: direction (degrees) and ± strength at the edges. */
  readonly gradientAngleDeg: number;
  readonly gradientStrength: number;
  /** Darkening towards the corners (0 = none, 0.3 = corners 30 % darker). */
  readonly vignette: number;
  /** Per-channel gain (colour cast). */
  readonly tint: readonly [number, number, number];
  /** Glare spots: number, radius range (px) and peak added brightness (0..255). */
  readonly glareSpots: number;
  readonly glareRadius: readonly [number, number];
  readonly glarePeak: number;
  /** Gaussian sensor noise standard deviation (grey levels). */
  readonly noiseSigma: number;
  /** Gaussian blur radius applied to dice (px): focus and lens softness. */
  readonly blurPx: number;
  /** Opacity of the soft shadow under each die. */
  readonly shadowAlpha: number;
}

export const lightingPresets = {
  studio: {
    name: 'studio',
    exposure: 1,
    gradientAngleDeg: 0,
    gradientStrength: 0.04,
    vignette: 0.05,
    tint: [1, 1, 1],
    glareSpots: 0,
    glareRadius: [0, 0],
    glarePeak: 0,
    noiseSigma: 2,
    blurPx: 0,
    shadowAlpha: 0.2,
  },
  'desk-lamp': {
    name: 'desk-lamp',
    exposure: 1.05,
    gradientAngleDeg: 30,
    gradientStrength: 0.25,
    vignette: 0.15,
    tint: [1.05, 1, 0.9],
    glareSpots: 2,
    glareRadius: [30, 80],
    glarePeak: 60,
    noiseSigma: 4,
    blurPx: 0.6,
    shadowAlpha: 0.35,
  },
  dim: {
    name: 'dim',
    exposure: 0.6,
    gradientAngleDeg: 120,
    gradientStrength: 0.15,
    vignette: 0.25,
    tint: [1, 1, 1],
    glareSpots: 0,
    glareRadius: [0, 0],
    glarePeak: 0,
    noiseSigma: 8,
    blurPx: 1,
    shadowAlpha: 0.25,
  },
  window: {
    name: 'window',
    exposure: 0.95,
    gradientAngleDeg: 200,
    gradientStrength: 0.2,
    vignette: 0.1,
    tint: [0.9, 0.97, 1.1],
    glareSpots: 1,
    glareRadius: [60, 120],
    glarePeak: 40,
    noiseSigma: 3,
    blurPx: 0.4,
    shadowAlpha: 0.3,
  },
  evening: {
    name: 'evening',
    exposure: 0.8,
    gradientAngleDeg: 310,
    gradientStrength: 0.22,
    vignette: 0.2,
    tint: [1.12, 0.95, 0.78],
    glareSpots: 2,
    glareRadius: [25, 70],
    glarePeak: 50,
    noiseSigma: 6,
    blurPx: 0.8,
    shadowAlpha: 0.3,
  },
} as const satisfies Record<string, LightingPreset>;

export type LightingPresetName = keyof typeof lightingPresets;
