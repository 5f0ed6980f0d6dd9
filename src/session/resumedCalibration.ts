/**
 * A resumed session must read with the calibration it started with: the profile (or D6 check) decides the reads and
 * bounds their misreads for the whole session, so reads from two files in one session would be credited to the
 * newer file's bounds. The session keeps the file's content hash from its first run (its rig row's calibration
 * hash); a file at the same path whose contents changed since is refused on resume, not silently read with. A session
 * given no calibration reads with the shipped default profile, checked the same way: a dicerig upgrade that changed
 * the default must not read a resumed session's rolls with another classifier.
 */
import { ConfigError } from '../core/errors.js';

export interface ResumedCalibration {
  readonly sessionId: number;
  /** The config's `calibration` file, as stored with the session, or the shipped default profile read without one. */
  readonly file: string;
  /** True when the session gave no calibration and reads with the shipped default profile (`file`). */
  readonly shippedDefault?: boolean;
  /** The content hash the session started with; '' when none was recorded (sessions stored before it was kept). */
  readonly startedWith: string;
  /** The content hash of the file as it is now. */
  readonly now: string;
}

const short = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** Refuses a resume whose calibration file's contents differ from those the session started with. */
export function requireSameCalibration(c: ResumedCalibration): void {
  // Nothing recorded to compare with: such a session resumes as it always did.
  if (c.startedWith === '' || c.startedWith === c.now) return;
  if (c.shippedDefault === true) {
    throw new ConfigError(
      'calibration',
      `cannot resume session ${c.sessionId}: it gave no calibration, so it read with the default profile shipped with dicerig, and that shipped default changed since the session started (it started with calibration ${short(c.startedWith)}, this dicerig's default is ${short(c.now)}), most likely in a dicerig upgrade; one session's reads and their misread bounds must come from one calibration. Resume it with the dicerig version that started it, or start a new session (with this default, or better a profile made on your own dice: dicerig calibrate).`,
      c.file,
    );
  }
  throw new ConfigError(
    'calibration',
    `cannot resume session ${c.sessionId}: this file's contents changed since the session started (it started with calibration ${short(c.startedWith)}, the file is now ${short(c.now)}), and one session's reads and their misread bounds must come from one calibration. Put the file back as it was when the session started, or start a new session with this file.`,
    c.file,
  );
}
