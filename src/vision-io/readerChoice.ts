/**
 * The one place a face reader is chosen, for a session and for `vision eval`
 * alike: D6s by name (pip counting, the shipped learned classifier, or pips
 * with the classifier as a second opinion), X-Wing dice by a calibration
 * profile (the shipped default unless one is named): the ring-harmonics
 * reader, or the shipped learned network (with the profile's fitted head, if
 * any) and the top-face crops it was calibrated on.
 */
import { InputError } from '../core/errors.js';
import { LearnedProfileReader } from '../vision/calibration/learnedProfile.js';
import { isLearnedProfile } from '../vision/calibration/profile.js';
import type { CalibrationProfile } from '../vision/calibration/profile.js';
import { CombinedD6Reader } from '../vision/d6/combinedReader.js';
import { D6NetReader } from '../vision/d6/netReader.js';
import { shippedD6Net } from '../vision/d6/netWeights.js';
import { D6PipReader } from '../vision/d6/pipReader.js';
import { D8Reader } from '../vision/d8/d8Reader.js';
import type { FaceReader } from '../vision/faceRead.js';
import type { LearnedPipelineCrop } from '../vision/learned/shipped.js';
import { D6FaceHeadOpinion, type D6FaceHead } from '../vision/calibration/d6FaceHead.js';
import type { D6SecondOpinion } from '../vision/d6/combinedReader.js';
import { d6Nets } from '../vision/d6/netReader.js';
import type { CropCutter } from './labelledCrops.js';
import { defaultProfilePath, readProfileFile } from './profileFile.js';
import { readD6CheckFile } from './d6CheckFile.js';

/** The dice a reader reads: D6-faced dice, or X-Wing red, green or both. */
export type ReaderDice = 'd6' | 'red' | 'green' | 'xwing';

/** How D6s are read: pip counting, the shipped learned classifier, or pip counting with the classifier as a second opinion. */
export type D6ReaderChoice = 'pips' | 'learned' | 'combined';

export interface ChosenReader {
  readonly reader: FaceReader;
  /** The profile an X-Wing reader reads with, and its file. */
  readonly profile?: CalibrationProfile;
  readonly profilePath?: string;
  /** What to tell whoever measures this reader (a learned reader's training photos). */
  readonly note?: string;
  /** How a labelled box is cut for this reader (absent: a square around the box). */
  readonly cut?: CropCutter;
  /** A D6 check's learned faces: the die side (pixels) of the session crops they learned from, which they must read. */
  readonly learnedAtDieSizePx?: number;
  /** How the pipeline cuts a located die on frames of this size (absent: centred on the die, the caller's scale). */
  readonly pipelineCrop?: (frame: { readonly width: number; readonly height: number }, dieSizePx: number) => LearnedPipelineCrop;
}

/** The reader a calibration profile describes, with the crops it reads. */
export function profileReader(profile: CalibrationProfile): Pick<ChosenReader, 'reader' | 'cut' | 'pipelineCrop'> {
  if (!isLearnedProfile(profile)) return { reader: new D8Reader(profile) };
  const reader = new LearnedProfileReader(profile);
  return { reader, cut: reader.cutter(), pipelineCrop: (frame, dieSizePx) => reader.pipelineCrop(frame, dieSizePx) };
}

/** The D6 reader of that name. */
export function d6Reader(choice: D6ReaderChoice): FaceReader {
  if (choice === 'pips') return new D6PipReader();
  const net = new D6NetReader(shippedD6Net);
  return choice === 'learned' ? net : pipsWith(net);
}

/**
 * The pip counter with a second opinion by the rule set for the shipped networks' (`shippedD6Net.combined`): with
 * faces learned on the user's dice, the D6 check measures what that rule makes of them.
 */
export function pipsWith(opinion: D6SecondOpinion): FaceReader {
  return new CombinedD6Reader(new D6PipReader(), opinion, shippedD6Net.combined);
}

/** The D6 networks a head learned on the user's dice reads the embedding of; refused when they are not these. */
function faceHeadNets(head: Pick<D6FaceHead, 'nets'>, file?: string): ReturnType<typeof d6Nets> {
  if (head.nets !== shippedD6Net.version) {
    throw new InputError(`the D6 check's learned faces read the embedding of the D6 networks ${head.nets}, but this dicerig ships ${shippedD6Net.version}: make the check again with --learn-faces.`, file !== undefined ? { file } : {});
  }
  return d6Nets(shippedD6Net);
}

/** A session's D6 reader when its check learned the dice's faces: the pip counter, and the learned faces as its second opinion. */
export function faceHeadReader(head: D6FaceHead, file?: string): FaceReader {
  return pipsWith(new D6FaceHeadOpinion(faceHeadNets(head, file), head));
}

/**
 * The reader for these dice: for D6s the one `d6` names (pip counting with the learned second opinion
 * by default), or the one a D6 check given as `calibration` measured; for X-Wing dice a calibration profile (the
 * shipped default unless `calibration` names one).
 */
export async function chooseReader(dice: ReaderDice, options: { readonly calibration?: string | undefined; readonly d6?: D6ReaderChoice } = {}): Promise<ChosenReader> {
  const { calibration, d6 = 'combined' } = options;
  if (dice === 'd6') {
    if (calibration !== undefined) {
      // A D6 check names the reader it measured: a session given it reads with that reader, and so is it measured here.
      const check = await readD6CheckFile(calibration);
      if (check.head === undefined) return { reader: d6Reader('pips'), note: `read with the pip counter, the reader the D6 check ${calibration} measured` };
      return {
        reader: faceHeadReader(check.head, calibration),
        note: `read with the faces the D6 check ${calibration} learned: on the dice it learned them from, figures are no test of them`,
        ...(check.dieSizePx !== undefined ? { learnedAtDieSizePx: check.dieSizePx } : {}),
      };
    }
    // Figures on the classifier's own training photos would flatter it: say which they were.
    const note = d6 === 'pips' ? undefined : `the learned classifier was trained on ${shippedD6Net.trainedOn}: figures on those photos are no test of it`;
    return { reader: d6Reader(d6), ...(note ? { note } : {}) };
  }
  const profilePath = calibration ?? defaultProfilePath(dice);
  const profile = await readProfileFile(profilePath);
  const wanted = dice === 'xwing' ? ['red', 'green'] : [dice];
  const missing = wanted.filter((d) => !profile.dice.includes(d));
  if (missing.length > 0) {
    throw new InputError(`the calibration profile reads ${profile.dice.join(' and ')} dice, not ${missing.join(' and ')}; calibrate for them (dicerig calibrate --die ${dice}).`, { file: profilePath });
  }
  // The default profile was made on the simulated camera: on photos or renders of real dice it declines most of them,
  // and a figure without this line would read as the reader's.
  const note =
    calibration === undefined
      ? `no --calibration: read with the default profile, made on the simulated camera; for photos of your own dice calibrate on them first (dicerig calibrate --die ${dice} --from-labelled DIR) and pass --calibration PROFILE, or read uncalibrated with --learned`
      : undefined;
  return { ...profileReader(profile), profile, profilePath, ...(note ? { note } : {}) };
}
