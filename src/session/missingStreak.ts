/**
 * Throws in a row in which a die was not found in its channel. A missing die is
 * kept as an unresolved roll, not re-tumbled away (whether the locator finds a
 * die can depend on the face it shows: `throwOutcome.ts`), so a die that fell
 * out of the rig, or channels and a reference that no longer match the frame,
 * would add an unresolved roll every throw. A present die the locator misses now
 * and then is seldom missed several throws running: the session stops then.
 */
import type { SessionDie } from './sessionDie.js';
import type { ThrowOutcome } from './throwOutcome.js';

/** What to tell whoever runs the rig when a die was missing `throws` throws in a row. */
export function missingDieMessage(die: SessionDie, throws: number): string {
  return (
    `Die "${die.record.label}" was not found in channel ${die.channel} in ${throws} throws in a row: it may have left the rig, or the channels ` +
    `(camera.channels, or the calibration profile's) or the empty-platform reference no longer match the frame (take it again if the camera or the light moved). ` +
    `Its rolls in those throws are kept unresolved: label them with "dicerig review" where the die is in view in their crops.`
  );
}

export class MissingStreak {
  private readonly runs = new Map<SessionDie, number>();

  /** A judged throw: a die missing in it lengthens its run; a die seen in it ends it. */
  add(outcome: Pick<ThrowOutcome, 'rolls' | 'problems'>): void {
    const missing = new Set(outcome.problems.flatMap((p) => (p.kind === 'missing' && p.die !== undefined ? [p.die] : [])));
    for (const die of missing) this.runs.set(die, (this.runs.get(die) ?? 0) + 1);
    for (const r of outcome.rolls) if (!missing.has(r.die)) this.runs.delete(r.die);
  }

  /** The die missing in the most throws in a row, when that is at least `limit`. */
  longest(limit: number): { readonly die: SessionDie; readonly throws: number } | undefined {
    let best: { die: SessionDie; throws: number } | undefined;
    for (const [die, throws] of this.runs) if (throws >= limit && (best === undefined || throws > best.throws)) best = { die, throws };
    return best;
  }
}
