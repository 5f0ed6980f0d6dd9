/**
 * Whether a session's dice came to rest cocked more often than the calibration's did. The bound on cocked dice read
 * as a face (`misreadRate.ts`, `cocked`) is measured as a share of all the calibration's held-back dice, so it holds
 * while dice land cocked no more often than they did there; a session counts its own cocked dice and can tell when
 * they clearly land more often: its share's lower confidence bound above the calibration's upper one.
 * Pure: no I/O.
 */
import { formatCount, percentFigures } from '../core/format.js';
import { betaQuantile } from './special.js';
import { misreadRateBounds, type MisreadAssumption } from './misreadRate.js';

/** Dice a session found cocked, of all the dice it saw. */
export interface SessionCocked {
  readonly cocked: number;
  readonly rolls: number;
}

const pct = (x: number): string => percentFigures(x, 2);

/** One-sided Clopper–Pearson lower bound on a share: k of n, at `confidence` (the upper one is `misreadRateBounds`). */
function lowerBound(k: number, n: number, confidence: number): number {
  return k === 0 ? 0 : betaQuantile(1 - confidence, k, n - k + 1);
}

/**
 * A sentence when the session's dice came to rest cocked clearly more often than the calibration's held-back dice
 * lay cocked, so its bound on cocked dice read as a face may be too low for this session; else undefined (also when
 * the assumption measured no cocked dice).
 */
export function cockedShareNote(misreads: MisreadAssumption, session: SessionCocked, confidence = 0.95): string | undefined {
  const c = misreads.cocked;
  if (c === undefined || !(c.dice > 0) || !(session.rolls > 0)) return undefined;
  const sessionLow = lowerBound(session.cocked, session.rolls, confidence);
  const [calibrationHigh] = misreadRateBounds([{ read: c.dice, misread: c.cocked }], confidence) as [number];
  if (!(sessionLow > calibrationHigh)) return undefined;
  return (
    `This session's dice came to rest cocked in ${pct(session.cocked / session.rolls)} of rolls (${formatCount(session.cocked)} of ${formatCount(session.rolls)}), ` +
    `more often than the dice of ${misreads.source} lay cocked (${formatCount(c.cocked)} of ${formatCount(c.dice)}, ${pct(c.cocked / c.dice)}): ` +
    `its bound on cocked dice read as a face (${pct(c.bound)}) was measured at that rate and may be too low here; ` +
    `measure the misreads again on throws like this session's (calibrate --check; for D6s, a new D6 check with its cocked dice labelled) and make fewer dice land cocked.`
  );
}
