/**
 * A blank read witnessed by the shipped network. A blank is the one face read from the absence of an icon, and a
 * faded or washed-out icon looks like one, never the other way round: a network fine-tuned on a user's few hundred
 * dice under their light read such icons as blanks, sure of itself, and so did the head fitted beside it. The shipped
 * network never saw the user's icons, but what a blank face looks like does not depend on the artwork, and it learnt
 * that under many lights (the panel highlights among them). A read of a blank stands only when the shipped network
 * too finds a blank likely: at least as likely as for all but a small share of the user's own labelled blanks.
 * On foreign-1 development renders its doubts fell on icons read as blanks and on leaning dice read as blanks
 * (training/README.md, "A blank read witnessed by the shipped network").
 */
import { splitClass } from './model.js';

/**
 * The share of the user's labelled blanks the witness level declines. Chosen on foreign-1 development renders (never
 * on a test set). On the three dev sets, the level alone decides: 0.5 changed little (calibration cost, declined flat
 * dice + 10 per wrong read, 161 against 168), ~0.7 gave 152 with blanks still among the less declined faces, 0.8 gave
 * 144 but made blanks the most declined. The calibration's ~130 training blanks put 3 % at their 4th lowest (0.51 on
 * foreign-1: a sparse tail) and 4 % at their 6th (0.68), so 4 %: a coarse level, set by a few of the user's blanks.
 */
export const BLANK_WITNESS_SHARE = 0.04;

/** The probability `probabilities` (of `classes`) give a blank of any die. */
export function blankProbability(probabilities: ArrayLike<number>, classes: readonly string[]): number {
  let p = 0;
  classes.forEach((c, j) => {
    if (splitClass(c).symbol === 'blank') p += probabilities[j] as number;
  });
  return p;
}

/**
 * The witness's level: the blank probability under which `share` of the user's labelled blanks fall (the witness's
 * probabilities of them, `blankProbabilities`). Undefined with no blank to set it on.
 */
export function blankWitnessLevel(blankProbabilities: readonly number[], share = BLANK_WITNESS_SHARE): number | undefined {
  if (blankProbabilities.length === 0) return undefined;
  const sorted = [...blankProbabilities].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}
