/**
 * Throws in a row in which the reader read no die. A declined die is kept as an unresolved roll in a counted throw,
 * so a reader that declines every die (a profile calibrated for another die size, another camera or light) never
 * trips the re-tumble stop: without this one such a session would spend its whole roll budget reading nothing. A
 * reader that reads dice declines every die of a throw seldom, and 25 throws running far more seldom still (a die
 * whose every blank is declined, alone in a session, does so 25 times in a row less than once in 10^10): the session
 * stops then, naming what the reader said most often.
 */
import type { ThrowOutcome } from './throwOutcome.js';

/** What the reader said most often in the streak: one reason in its words, and how many of the streak's dice it was said of. */
export interface DominantDecline {
  readonly reason: string;
  readonly dice: number;
  readonly of: number;
}

/** A reason's group: its cause when the reader gave one, else its words with the figures taken out (sizes, distances). */
const groupOf = (p: { readonly cause?: string; readonly reason: string }): string => p.cause ?? p.reason.replace(/-?\d+(\.\d+)?/g, '#');

export class UnreadStreak {
  private throws = 0;
  private dice = 0;
  private readonly groups = new Map<string, { count: number; reason: string; same: boolean }>();

  /** A judged throw: one with no die read lengthens the streak (its dice's reasons tallied); one with a die read ends it. */
  add(outcome: Pick<ThrowOutcome, 'rolls' | 'problems'>): void {
    if (outcome.rolls.some((r) => r.unresolved !== true && !r.cocked && r.symbol !== undefined)) {
      this.throws = 0;
      this.dice = 0;
      this.groups.clear();
      return;
    }
    this.throws++;
    for (const p of outcome.problems) {
      // The dice the reader was asked about: declined or called cocked (a missing die has its own stop).
      if (p.die === undefined || (p.kind !== 'unreadable' && p.kind !== 'cocked')) continue;
      this.dice++;
      const key = groupOf(p);
      const group = this.groups.get(key) ?? { count: 0, reason: p.reason, same: true };
      this.groups.set(key, { count: group.count + 1, reason: p.reason, same: group.same && group.reason === p.reason });
    }
  }

  /** Throws in the streak. */
  get length(): number {
    return this.throws;
  }

  /** The reason said of the most dice in the streak (in its latest words); undefined when none was said. */
  dominant(): DominantDecline | undefined {
    let best: { count: number; reason: string; same: boolean } | undefined;
    for (const g of this.groups.values()) if (best === undefined || g.count > best.count) best = g;
    if (best === undefined) return undefined;
    // Grouped with their figures taken out: the latest words name one die's figures (a face, a size), not all of them.
    const reason = best.same ? best.reason : `${best.reason.replace(/[.\s]+$/, '')} (this die's words; the figures vary from die to die)`;
    return { reason, dice: best.count, of: this.dice };
  }

  /** What is wrong once the streak reaches `limit` throws, without what to do about it (stream rolling says its own); undefined before. */
  finding(limit: number): string | undefined {
    if (this.throws < limit) return undefined;
    const top = this.dominant();
    const said = top === undefined ? '' : ` The reader said of ${top.dice} of the ${top.of} dice it looked at: ${top.reason.replace(/[.\s]*$/, '.')}`;
    return `No die was read in ${this.throws} throws in a row: the reader declined every die (each kept as an unresolved roll) or called it cocked.${said}`;
  }

  /** Why the session stops once the streak reaches `limit` throws; undefined before. */
  stopReason(limit: number): string | undefined {
    const finding = this.finding(limit);
    return finding === undefined ? undefined : `${finding} Check the calibration (one made for this camera, light and die size) and the camera, then resume with --resume or start a new session.`;
  }
}
