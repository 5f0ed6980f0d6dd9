/**
 * The D6 check a session of D6-faced dice bounds its misreads by (`calibration`
 * in its config; `vision/calibration/d6Check.ts`). A check of another reader,
 * or of dice seen from the other side, measured something else: refused.
 */
import { ConfigError } from '../core/errors.js';
import { sameD6DieSize, type D6Check } from '../vision/calibration/d6Check.js';
import type { FaceReader } from '../vision/faceRead.js';
import { readD6CheckFile } from '../vision-io/d6CheckFile.js';
import { faceHeadReader } from '../vision-io/readerChoice.js';
import type { FaceSeen } from './faceSeen.js';

/** The D6 check that also learns the dice's faces (a logo in place of pips). */
export const LEARN_FACES_COMMAND = 'dicerig calibrate --die d6 --camera DEVICE --die-size PX --learn-faces -o CHECK.json';

/** The command that makes (or remakes) a D6 check. */
export const D6_CHECK_COMMAND = 'dicerig calibrate --die d6 --camera DEVICE --die-size PX -o CHECK.json: throws on the rig, named a group at a time; or --from-labelled DIR for dice labelled already; --learn-faces also reads a face shown with a logo';

/**
 * The check in `file`, when one is given, for a session reading with `pips` the `face` its camera sees, and the reader
 * the session reads with: the pip counter, or with the faces the check learned (`--learn-faces`) as its second opinion.
 */
export async function sessionD6Check(file: string | undefined, pips: FaceReader, face: FaceSeen): Promise<{ check?: D6Check; reader: FaceReader }> {
  if (file === undefined) return { reader: pips };
  const check = await readD6CheckFile(file);
  const reader = check.head !== undefined ? faceHeadReader(check.head, file) : pips;
  if (check.reader !== reader.classifierVersion) {
    throw new ConfigError('calibration', `the D6 check ${file} measured the reader ${check.reader}, but this dicerig reads D6s with ${reader.classifierVersion}: make the check again (${D6_CHECK_COMMAND})`);
  }
  if (check.face !== face) {
    throw new ConfigError('calibration', `the D6 check ${file} was made on dice seen from ${check.face === 'top' ? 'above' : 'below'} (--face ${check.face}), but this session's camera sees the ${face} face: make the check with --face ${face} (${D6_CHECK_COMMAND}), or set camera.face`);
  }
  return { check, reader };
}

/** A check read from whole frames measured the blob checks at its die size: refused for a session reading with another. */
export function requireD6CheckDieSize(check: D6Check, file: string, dieSizePx: number): void {
  if (check.dieSizePx === undefined || sameD6DieSize(check.dieSizePx, dieSizePx)) return;
  throw new ConfigError(
    'calibration',
    `the D6 check ${file} read its frames with dice ${check.dieSizePx} px across, but this session reads with ${dieSizePx} px (camera.dieSizePx): the blob checks it measured judge a die by that size, so make the check again with --die-size ${dieSizePx}, or set camera.dieSizePx to ${check.dieSizePx} if that is your dice's size`,
  );
}
