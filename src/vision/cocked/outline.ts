/**
 * Cocked-die check from the outline alone: a die resting on an edge or leaning
 * on a wall shows a foreshortened top face plus part of a side face, so its
 * outline is longer than it is wide and its area is off. Such a die is
 * reported cocked and never read as a face. (When the side face is shaded to
 * the platform's own colour the outline is just the top face: see
 * `d6/sideFaces.ts`, which looks beside the die.)
 */
import type { LocatedDie } from '../locate.js';
import { percent } from '../../core/format.js';

export interface CockedOptions {
  /** Expected area of the die lying flat (pixels). */
  readonly expectedArea: number;
  /** Largest length/breadth ratio of a flat die's outline (1 for a square or a regular hexagon). */
  readonly maxElongation: number;
  /** Accepted area range as fractions of the expected area. */
  readonly areaRange: readonly [number, number];
}

export interface CockedVerdict {
  readonly cocked: boolean;
  readonly elongation: number;
  readonly areaRatio: number;
  readonly reason?: string;
}

/** Judges whether a located die lies flat, from its outline. */
export function judgeOutline(die: LocatedDie, options: CockedOptions): CockedVerdict {
  const elongation = die.length / Math.max(1, die.breadth);
  const areaRatio = die.area / options.expectedArea;
  if (elongation > options.maxElongation) {
    return { cocked: true, elongation, areaRatio, reason: `The die's outline is ${elongation.toFixed(2)} times longer than wide: it is not lying flat.` };
  }
  if (areaRatio > options.areaRange[1] || areaRatio < options.areaRange[0]) {
    return { cocked: true, elongation, areaRatio, reason: `The die's outline covers ${percent(areaRatio, 0)} of a flat die's area: it is not lying flat.` };
  }
  return { cocked: false, elongation, areaRatio };
}
