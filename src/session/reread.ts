/**
 * Re-reading a declined die before anything moves. A die at rest has not
 * moved: a declined die is read again from further frames, then under the
 * light stepped up and down through the rig's light command, and the light is
 * restored before the next motion. A die the locator missed is looked for
 * the same way. A die a re-read resolves counts as read;
 * the others stay unresolved (`src/stats/VERDICTS.md`: re-tumbling them away
 * would bias the counts).
 */
import type { Clock } from '../core/clock.js';
import type { RgbImage } from '../core/image.js';
import type { Frame } from '../camera/frameSource.js';
import type { RigDriver } from '../rig/driver.js';
import { RigError } from '../rig/errors.js';
import type { FrameReading } from '../vision/pipeline.js';
import type { SessionDie } from './sessionDie.js';
import { judgeThrow, type RollReading, type ThrowOutcome } from './throwOutcome.js';

/**
 * A declined die is read again from `frames` further frames, then under the
 * light stepped by each of `lightSteps` (from the session's light level,
 * clamped to 0..255; only when the session sets the light), and the light is
 * restored before anything moves.
 */
export interface RereadRule {
  readonly frames: number;
  readonly lightSteps: readonly number[];
}

export const DEFAULT_REREAD: RereadRule = { frames: 2, lightSteps: [48, -48] };

export interface RereadParts {
  readonly rig: Pick<RigDriver, 'setLight'>;
  readonly clock: Clock;
  readonly readThrow: (image: RgbImage) => FrameReading;
  /** The session's light level (omit when the session leaves the light alone: no light steps). */
  readonly light?: number;
  readonly rule: RereadRule;
}

export interface RereadResult {
  /** The throw with the dice a re-read resolved now read, and their `unreadable` problems gone. */
  readonly outcome: ThrowOutcome;
  readonly declined: readonly SessionDie[];
  readonly resolved: number;
  /** The symbol each resolved die (by label) was read as: which faces the reader declined at first. */
  readonly resolvedAs: Readonly<Record<string, string>>;
  /** Frames read again (further frames and frames under a stepped light). */
  readonly attempts: number;
  /** Session-clock milliseconds the re-read took. */
  readonly clockMs: number;
}

/**
 * Reads the declined dice of a counted throw again (see `RereadRule`); null
 * when the throw is not counted or has no declined die. The caller closes the frames.
 */
export async function rereadDeclined(parts: RereadParts, outcome: ThrowOutcome, frames: AsyncIterator<Frame>): Promise<RereadResult | null> {
  const declinedRolls = outcome.rolls.filter((r) => r.unresolved === true);
  if (outcome.status !== 'ok' || declinedRolls.length === 0) return null;
  const { rule, clock } = parts;
  const c0 = clock.now();
  const declined = declinedRolls.map((r) => r.die);
  const resolved = new Map<SessionDie, RollReading>();
  const pending = (): SessionDie[] => declined.filter((d) => !resolved.has(d));
  const readAgain = (frame: Frame): void => {
    const again = judgeThrow(parts.readThrow(frame.image), pending());
    for (const r of again.rolls) {
      if (r.unresolved !== true && !r.cocked && r.symbol !== undefined && !again.problems.some((p) => p.die === r.die)) resolved.set(r.die, r);
    }
  };
  let attempts = 0;
  for (let i = 0; i < rule.frames && pending().length > 0; i++) {
    const next = await frames.next();
    if (next.done === true) break;
    attempts++;
    readAgain(next.value);
  }
  const light = parts.light;
  if (light !== undefined && rule.lightSteps.length > 0 && pending().length > 0) {
    let changed = false;
    try {
      for (const step of rule.lightSteps) {
        if (pending().length === 0) break;
        changed = true;
        await parts.rig.setLight(Math.min(255, Math.max(0, Math.round(light + step))));
        const since = clock.now();
        let next = await frames.next();
        // A frame taken under the new light.
        while (next.done !== true && next.value.timestampMs < since) next = await frames.next();
        if (next.done === true) break;
        attempts++;
        readAgain(next.value);
      }
    } catch (e) {
      // A light the rig refused leaves the die unresolved; the fault handling of the next motion sees the rig.
      if (!(e instanceof RigError)) throw e;
    } finally {
      if (changed) await parts.rig.setLight(light).catch((e: unknown) => {
        if (!(e instanceof RigError)) throw e;
      });
    }
  }
  const clockMs = clock.now() - c0;
  const resolvedAs = Object.fromEntries([...resolved].map(([die, r]) => [die.record.label, r.symbol as string]));
  const result = { declined, resolved: resolved.size, resolvedAs, attempts, clockMs };
  if (resolved.size === 0) return { ...result, outcome };
  return {
    ...result,
    outcome: {
      ...outcome,
      rolls: outcome.rolls.map((r) => resolved.get(r.die) ?? r),
      problems: outcome.problems.filter((p) => !((p.kind === 'unreadable' || p.kind === 'missing') && p.die !== undefined && resolved.has(p.die))),
    },
  };
}
