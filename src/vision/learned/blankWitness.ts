/**
 * A blank read witnessed by the shipped network. A blank is the one face read from the absence of an icon, and a
 * faded or washed-out icon looks like one, never the other way round: a network fine-tuned on a user's few hundred
 * dice under their light read such icons as blanks, sure of itself, and so did the head fitted beside it. The shipped
 * network never saw the user's icons, but what a blank face looks like does not depend on the artwork, and it learnt
 * that under many lights (the panel highlights among them). A read of a blank stands only when the shipped network
 * does not see an icon in it more than it does in all but a small share of the user's own labelled blanks
 * (`blankWitnessLevels`). Older profiles are read as made: those of 2026-11-29 also doubt a blank by tilt
 * (`tiltAt`), those before by its blank probability (`blankWitnessAt`, set so 4 % of the user's blanks fell under it).
 * (training/README.md, "A blank read witnessed by the shipped network", "The blank witness names what it sees" and
 * "The blank witness without its tilt half").
 */
import { COCKED_LABEL } from '../labelledEval.js';
import { levelFromTop } from './levelFromTop.js';
import { splitClass } from './model.js';

/** The probability `probabilities` (of `classes`) give a blank of any die (the older profiles' witness). */
export function blankProbability(probabilities: ArrayLike<number>, classes: readonly string[]): number {
  let p = 0;
  classes.forEach((c, j) => {
    if (splitClass(c).symbol === 'blank') p += probabilities[j] as number;
  });
  return p;
}

/**
 * The witness's levels by what it names (`blankWitnessLevels`, profiles from 2026-11-29 on). The shipped network's
 * blank probability on a foreign blank is diluted two ways that say different things: over the icons, by a little each
 * (no icon is named), and onto its cocked class. A blank taken for an icon shows as one icon named, and a level on it
 * tells the doubtful blanks from the plain ones better than the blank probability does. A leaning die read as a blank
 * would show as tilt, but on the dev renders a level on tilt did not tell them apart (see `tiltAt`).
 */
export interface BlankWitnessLevels {
  /** A blank read is doubted when the shipped network gives one icon more than this. */
  readonly iconAt: number;
  /**
   * ... or its cocked class more than this: profiles of 2026-11-29 (`+blank-witness/2`) only. Calibration sets no such
   * level since (`+blank-witness/3`): on the dev renders it declined 49 true blanks to catch 3 misreads, and its
   * catches lay no further over it than the blanks did (training/README.md, "The blank witness without its tilt half").
   */
  readonly tiltAt?: number;
}

/** The share of the user's labelled blanks over the level of an icon named: 1 % (chosen on dev renders). */
export const BLANK_WITNESS_ICON_SHARE = 0.01;

/** What the witness sees in `probabilities` (of `classes`): its most likely icon and its probability, and tilt's. */
export function witnessView(probabilities: ArrayLike<number>, classes: readonly string[]): { icon: string | undefined; iconP: number; tilt: number } {
  let icon: string | undefined;
  let iconP = 0;
  let tilt = 0;
  classes.forEach((c, j) => {
    const p = probabilities[j] as number;
    if (c === COCKED_LABEL) tilt += p;
    else if (splitClass(c).symbol !== 'blank' && p > iconP) [icon, iconP] = [c, p];
  });
  return { icon, iconP, tilt };
}

/** The witness's level from its probabilities of the user's labelled blanks (each of `classes`). Undefined with no blank. */
export function blankWitnessLevels(blankProbabilities: readonly ArrayLike<number>[], classes: readonly string[], iconShare = BLANK_WITNESS_ICON_SHARE): BlankWitnessLevels | undefined {
  if (blankProbabilities.length === 0) return undefined;
  return { iconAt: levelFromTop(blankProbabilities.map((p) => witnessView(p, classes).iconP), iconShare) };
}

/**
 * Why the witness doubts a blank read (its probabilities `probabilities` of `classes`), or undefined when it does not:
 * by its `levels`, or, for a profile made before them, by its blank probability under `at`.
 */
export function witnessDoubt(probabilities: ArrayLike<number>, classes: readonly string[], rule: { readonly levels: BlankWitnessLevels } | { readonly at: number }): string | undefined {
  if (!('levels' in rule)) {
    const seen = blankProbability(probabilities, classes);
    return seen < rule.at ? `the shipped network finds a blank only ${seen.toFixed(2)} likely (needs ${rule.at.toFixed(2)}): a faded icon or a leaning die can look blank` : undefined;
  }
  const { levels } = rule;
  const { icon, iconP, tilt } = witnessView(probabilities, classes);
  if (icon !== undefined && iconP > levels.iconAt) return `the shipped network sees ${icon} at ${iconP.toFixed(2)} (a blank is doubted over ${levels.iconAt.toFixed(2)}): a faded icon can look blank`;
  if (levels.tiltAt !== undefined && tilt > levels.tiltAt) return `the shipped network sees a die not lying flat at ${tilt.toFixed(2)} (a blank is doubted over ${levels.tiltAt.toFixed(2)}): a leaning die can show a plain face`;
  return undefined;
}
