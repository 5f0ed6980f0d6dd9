/**
 * Throws in a row in which a die was not found on its own in its channel:
 * not found at all, or found only joined by its hard shadow. Either is
 * kept as an unresolved roll, not re-tumbled away (what the locator finds can
 * depend on the face a die shows: `throwOutcome.ts`), so a die that fell out
 * of the rig, channels and a reference that no longer match the frame, or a
 * light that casts every die's shadow onto the platform beside it, would add
 * an unresolved roll every throw. A die missed or joined now and then seldom
 * is so several throws running: the session stops then.
 */
import type { SessionDie } from './sessionDie.js';
import { isJoined, type ThrowOutcome } from './throwOutcome.js';

/** A die's run: throws in a row not found on its own, and how many of them found it only joined by its hard shadow. */
export interface UnseenRun {
  readonly die: SessionDie;
  readonly throws: number;
  readonly joined: number;
}

/** What to tell whoever runs the rig when a die was not found on its own in `run.throws` throws in a row. */
export function missingDieMessage(run: UnseenRun): string {
  const { die, throws, joined } = run;
  const where = `in channel ${die.channel} in ${throws} throws in a row`;
  const missing = `it may have left the rig, or the channels (camera.channels, or the calibration profile's) or the empty-platform reference no longer match the frame (take it again if the camera or the light moved)`;
  const shadow = `a light from the side casts its hard shadow beside it: light the platform from above`;
  const what =
    joined === 0
      ? `Die "${die.record.label}" was not found ${where}: ${missing}.`
      : joined === throws
        ? `Die "${die.record.label}" was found only joined by its hard shadow ${where}: ${shadow}.`
        : `Die "${die.record.label}" was not found on its own ${where} (${throws - joined} not found, ${joined} joined by its hard shadow): ${missing}; or ${shadow}.`;
  return `${what} Its rolls in those throws are kept unresolved: label them with "dicerig review" where the die is in view in their crops.`;
}

export class MissingStreak {
  private readonly runs = new Map<SessionDie, { throws: number; joined: number }>();

  /** A judged throw: a die missing or joined in it lengthens its run; a die seen on its own in it ends it. */
  add(outcome: Pick<ThrowOutcome, 'rolls' | 'problems'>): void {
    const unseen = new Map<SessionDie, boolean>();
    for (const p of outcome.problems) if (p.die !== undefined && (p.kind === 'missing' || isJoined(p))) unseen.set(p.die, isJoined(p));
    for (const [die, joined] of unseen) {
      const run = this.runs.get(die) ?? { throws: 0, joined: 0 };
      this.runs.set(die, { throws: run.throws + 1, joined: run.joined + (joined ? 1 : 0) });
    }
    for (const r of outcome.rolls) if (!unseen.has(r.die)) this.runs.delete(r.die);
  }

  /** The die not found on its own in the most throws in a row, when that is at least `limit`. */
  longest(limit: number): UnseenRun | undefined {
    let best: UnseenRun | undefined;
    for (const [die, run] of this.runs) if (run.throws >= limit && (best === undefined || run.throws > best.throws)) best = { die, ...run };
    return best;
  }
}
