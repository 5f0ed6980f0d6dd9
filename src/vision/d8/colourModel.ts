/**
 * Telling X-Wing dice apart by colour: each calibrated die type is the mean and
 * spread of its top faces' chromaticity (white-balanced by the platform around
 * it). A die is the nearest type in spread units, and no type at all when it is
 * farther than the limit from every one (a die of another colour, a D6, debris).
 */
import { chromaticity } from './iconFeatures.js';

export interface DieColour {
  /** Die type id (`red`, `green`). */
  readonly die: string;
  readonly chromaticity: readonly [number, number, number];
  readonly spread: readonly [number, number, number];
}

export interface ColourMatch {
  readonly die: string;
  /** Largest per-channel distance from that die's mean, in spreads. */
  readonly distance: number;
}

/** Spreads below this (chromaticity units) are raised to it: a handful of samples under one light understate the spread. */
export const MIN_CHROMA_SPREAD = 0.02;

/** Learns one colour per die type from the face colours of its samples. */
export function learnDieColours(samples: readonly { readonly die: string; readonly faceColor: readonly [number, number, number] }[]): DieColour[] {
  const dice = [...new Set(samples.map((s) => s.die))].sort();
  return dice.map((die) => {
    const cs = samples.filter((s) => s.die === die).map((s) => chromaticity(s.faceColor));
    const mean = [0, 1, 2].map((c) => cs.reduce((a, v) => a + (v[c] as number), 0) / cs.length) as [number, number, number];
    const spread = [0, 1, 2].map((c) =>
      Math.max(MIN_CHROMA_SPREAD, Math.sqrt(cs.reduce((a, v) => a + ((v[c] as number) - (mean[c] as number)) ** 2, 0) / Math.max(1, cs.length - 1))),
    ) as [number, number, number];
    return { die, chromaticity: mean, spread };
  });
}

/** The nearest die colour to a face colour. */
export function matchDieColour(colours: readonly DieColour[], faceColor: readonly [number, number, number]): ColourMatch | undefined {
  const c = chromaticity(faceColor);
  let best: ColourMatch | undefined;
  for (const col of colours) {
    let d = 0;
    for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs((c[k] as number) - (col.chromaticity[k] as number)) / (col.spread[k] as number));
    if (!best || d < best.distance) best = { die: col.die, distance: d };
  }
  return best;
}
