/**
 * The outline check's threshold on a user's own dice. The shipped threshold was set where 1 % of the flat dice of the
 * house tune renders lie over it; a user's artwork, platform and light can make flat dice look more tilted to the check
 * (on foreign-1 and foreign-3 development renders 1 % of the user's flat labelled dice lay over 0.48 and 0.50 against
 * the house 0.446), and every such die is declined as cocked. Calibration sets the level again on the user's labelled
 * flat dice, by the same share, never lower than the shipped level, and never over a labelled cocked die the shipped
 * level catches (training/README.md, "The outline check's threshold set on the user's dice").
 */

/** The share of the user's labelled flat dice the check may call tilted: the shipped level's share of house flat dice. */
export const OUTLINE_FLAT_SHARE = 0.01;

/** Fewer labelled flat dice than this, and 1 % of them is not a die: the shipped level stands. */
export const OUTLINE_MIN_FLAT = 200;

/**
 * The level the check's scores (its probability of tilt) of the user's flat dice, `flat`, and cocked dice, `cocked`, set:
 * the score at or over which `OUTLINE_FLAT_SHARE` of the flat dice lie, lowered to the lowest-scoring cocked die that
 * `shippedAt` catches, rounded down to 6 decimals. Undefined when that is not above `shippedAt` (the shipped level
 * stands) or there are fewer than `OUTLINE_MIN_FLAT` flat dice.
 */
export function outlineLevel(flat: readonly number[], cocked: readonly number[], shippedAt: number): number | undefined {
  if (flat.length < OUTLINE_MIN_FLAT) return undefined;
  const sorted = [...flat].sort((a, b) => b - a);
  let level = sorted[Math.floor(OUTLINE_FLAT_SHARE * sorted.length)] as number;
  for (const c of cocked) if (c >= shippedAt && c < level) level = c;
  const rounded = Math.floor(level * 1e6) / 1e6;
  return rounded > shippedAt ? rounded : undefined;
}
