/**
 * Throws in a row without a counted result, and what they had in common. When a session gives up on them, one
 * problem found in every throw of the streak points at the set-up rather than at bad luck: dice seldom land cocked
 * twenty-five times running, but a die size that does not match the frame, or a camera looking at the dice at an
 * angle or a D6 seen in perspective, makes every die look cocked.
 */
import type { ProblemKind } from './throwOutcome.js';

/** A re-tumbled throw's problem kinds, or `void` for a tumble the rig did not finish. */
export type StreakKind = ProblemKind | 'void';

/** What each kind, found in every throw of a streak, most likely means; checked in this order. */
const CAUSES: readonly (readonly [StreakKind, string])[] = [
  [
    'extra',
    'Every one of these throws found a blob besides the dice: a shadow lying apart from its die (light the platform from above, not from the side), something lying in a channel, a die always against a wall\'s edge, or a reference taken before the camera moved.',
  ],
  [
    'cocked',
    'Every one of these throws had a die called cocked, which real dice seldom are this often: check that the die size (camera.dieSizePx, or the calibration profile\'s) matches the dice in a frame, that the camera looks straight at the platform, and that no lamp low to one side casts hard shadows joined to the dice (a die and such a shadow make an outline like a die on its edge: light the platform from above). D6s are read face on, as the reference rig sees them from below through its clear platform: a webcam above an open platform, which sees them in perspective with their side faces, is not supported yet.',
  ],
  ['not-settled', 'In none of these throws did the dice come to rest in view: check that the camera watches the platform and the settle timeout.'],
  ['wrong-die', 'Every one of these throws read a die of another type than its channel holds: check that the dice of the config are listed in channel order.'],
];

export class RerollStreak {
  private readonly throws: ReadonlySet<StreakKind>[] = [];

  /** A throw without a counted result, with the kinds of the problems that re-tumbled it. */
  add(kinds: Iterable<StreakKind>): void {
    this.throws.push(new Set(kinds));
  }

  /** A counted throw ends the streak. */
  clear(): void {
    this.throws.length = 0;
  }

  /** Throws in the streak. */
  get length(): number {
    return this.throws.length;
  }

  /** The likely cause when one kind of problem was in every throw of the streak; undefined when none was. */
  likelyCause(): string | undefined {
    if (this.throws.length === 0) return undefined;
    return CAUSES.find(([kind]) => this.throws.every((t) => t.has(kind)))?.[1];
  }
}
