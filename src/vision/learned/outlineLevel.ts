/**
 * The outline check's threshold on a user's own dice. The shipped threshold was set where 1 % of the flat dice of the
 * house tune renders lie over it; a user's artwork, platform and light can make flat dice look more tilted to the check
 * (on foreign-1 and foreign-3 development renders 1 % of the user's flat labelled dice lay over 0.48 and 0.50 against
 * the house 0.446), and every such die is declined as cocked. Calibration sets the level again on the user's labelled
 * flat dice, by the same share: never lower than the shipped level, never over a labelled cocked die the shipped level
 * catches, never over `OUTLINE_MAX`, and only on enough labelled dice of both kinds (training/README.md, "The outline
 * check's threshold set on the user's dice").
 */
import { levelFromTop } from './levelFromTop.js';

/** The share of the user's labelled flat dice the check may call tilted: the shipped level's share of house flat dice. */
export const OUTLINE_FLAT_SHARE = 0.01;

/** Fewer labelled flat dice than this, and 1 % of them is not a die: the shipped level stands. */
export const OUTLINE_MIN_FLAT = 200;

/** Fewer labelled cocked dice than this, and nothing shows a higher level still catches the user's: the shipped level stands. */
export const OUTLINE_MIN_COCKED = 10;

/**
 * The highest level set. On the 13 development sets (378 cocked dice) the shipped check leaves 6 cocked dice under its
 * 0.446, 9 under 0.55 and 11 under 0.6; flat dice looking more tilted than that say the camera or the labels are wrong.
 */
export const OUTLINE_MAX = 0.55;

export interface OutlineLevel {
  /** The level, above the shipped one; undefined: the shipped level stands. */
  readonly at?: number;
  /** Why a level the user's flat dice ask for was not set, or was capped, in words for the calibration's warnings. */
  readonly warning?: string;
}

/**
 * The level the check's scores (its probability of tilt) of the user's flat dice, `flat`, and cocked dice, `cocked`, set:
 * the score at or over which `OUTLINE_FLAT_SHARE` of the flat dice lie, lowered to the lowest-scoring cocked die that
 * `shippedAt` catches and to `OUTLINE_MAX`, rounded down to 6 decimals; no level unless that is above `shippedAt`, with
 * at least `OUTLINE_MIN_FLAT` flat and `OUTLINE_MIN_COCKED` cocked dice.
 */
export function outlineLevel(flat: readonly number[], cocked: readonly number[], shippedAt: number): OutlineLevel {
  if (flat.length < OUTLINE_MIN_FLAT) return {};
  const wanted = levelFromTop(flat, OUTLINE_FLAT_SHARE);
  if (wanted <= shippedAt) return {};
  const over = flat.filter((s) => s >= shippedAt).length;
  const asked = `${over} of your ${flat.length} labelled flat dice score at or over the outline check's shipped threshold ${shippedAt} and are declined as tilted (1 % of them score ${wanted.toFixed(3)} or more)`;
  if (cocked.length < OUTLINE_MIN_COCKED) {
    return { warning: `${asked}; with only ${cocked.length} labelled cocked dice (at least ${OUTLINE_MIN_COCKED} are needed) nothing shows a higher threshold would still catch yours, so the shipped one stands: label more cocked dice.` };
  }
  let level = Math.min(wanted, OUTLINE_MAX);
  for (const c of cocked) if (c >= shippedAt && c < level) level = c;
  const rounded = Math.floor(level * 1e6) / 1e6;
  const warning = wanted > OUTLINE_MAX ? `${asked}; the threshold stops at ${OUTLINE_MAX}: flat dice that look this tilted suggest a camera not looking straight down, or cocked dice labelled as faces.` : undefined;
  return { ...(rounded > shippedAt ? { at: rounded } : {}), ...(warning !== undefined ? { warning } : {}) };
}
