/**
 * `dicerig calibrate --from-labelled DIR`: a profile from a labelled folder
 * (also the folder a guided calibration's named throws make).
 */
import type { CliIo } from '../io.js';
import { diceIdsOf } from '../../vision/calibration/guided.js';
import type { CalibrationDice } from '../../vision/calibration/guided.js';
import { buildLearnedProfile } from '../../vision/calibration/learnedProfile.js';
import type { LearnedProfileResult } from '../../vision/calibration/learnedProfile.js';
import type { ProfileBuildOptions } from '../../vision/calibration/profileBuild.js';
import { buildD8Profile, describeSamples } from '../../vision/calibration/trainProfile.js';
import type { TrainProfileResult } from '../../vision/calibration/trainProfile.js';
import { defaultFineTuneOptions } from '../../vision/learned/fineTune.js';
import { learnedCutter } from '../../vision/learned/shipped.js';
import { labelledFolderPaths, readLabelledCrops, requireFlatDice } from '../../vision-io/labelledCrops.js';
import { InputError } from '../../core/errors.js';
import { isSimulatedFolder } from '../../vision-io/simulatedFolder.js';
import { TOP_FACE_ONLY } from './calibrateFlags.js';
import type { CalibrateFlags, CommonFields } from './calibrateFlags.js';
import { learnedModelFor } from './learnedReader.js';
import { keepsClass } from './vision.js';

/**
 * `--from-labelled DIR`: the profile of `--reader`, else of the learned reader, but of the ring-harmonics one for a
 * folder `vision simulate` wrote (its dice drawn flat), as a guided calibration on the simulated camera chooses.
 */
export async function fromLabelled(flags: CalibrateFlags, dice: CalibrationDice, dir: string, common: CommonFields, io: CliIo, tuningSaid = false): Promise<TrainProfileResult | LearnedProfileResult> {
  const paths = labelledFolderPaths(dir, flags.labels);
  const source = (folder: { images: number; crops: readonly unknown[] }): string => `labelled folder ${paths.images} (${folder.images} images, ${folder.crops.length} dice)`;
  const simulated = flags.reader === undefined && isSimulatedFolder(paths.images);
  const reader = flags.reader ?? (simulated ? 'ring' : 'learned');
  if (simulated) {
    if (tuningSaid) throw new InputError(`--fine-tune-passes and --no-fine-tune are for the learned reader, and ${paths.images} holds the simulated camera's flat-drawn dice (dicerig vision simulate), which the ring reader reads unless you give --reader learned.`);
    io.err(`${paths.images} holds the simulated camera's images (dicerig vision simulate), whose flat-drawn dice the learned networks read mostly as tilted: calibrating the ring reader, as calibrate --camera sim does (--reader learned for the learned one).\n`);
  }
  if (reader === 'learned') return learnedFromFolder(flags, dice, paths, common, io, source);
  const folder = await readLabelledCrops(paths.images, paths.labels, (c) => keepsClass(dice, c), 1.3);
  requireFlatDice(folder, dice, paths.images);
  const samples = describeSamples(folder.crops.map((c) => ({ crop: c.crop.image, label: c.label, group: c.group })));
  return withFolderWarnings(buildD8Profile(samples, { ...common, dice: diceIdsOf(dice), source: source(folder) }), folder.warnings);
}

/** The result with what reading its folder passed over said first (label files with no image). */
function withFolderWarnings<T extends { readonly warnings: readonly string[] }>(result: T, warnings: readonly string[]): T {
  return warnings.length > 0 ? { ...result, warnings: [...warnings, ...result.warnings] } : result;
}

/** A learned profile from a labelled folder (`--from-labelled`, or the throws a guided calibration kept and named). */
export async function learnedFromFolder(
  flags: CalibrateFlags,
  dice: CalibrationDice,
  paths: { images: string; labels?: string },
  common: CommonFields,
  io: CliIo,
  source: (folder: { images: number; crops: readonly unknown[] }) => string,
  platform: Pick<ProfileBuildOptions, 'channels' | 'reference' | 'dieSizePx'> = {},
): Promise<LearnedProfileResult> {
  if (common.face !== 'top') throw new InputError(TOP_FACE_ONLY);
  const model = learnedModelFor(dice);
  const folder = await readLabelledCrops(paths.images, paths.labels, (c) => keepsClass(dice, c), 1.3, learnedCutter(model, flags.hfov));
  requireFlatDice(folder, dice, paths.images);
  const { face: _face, ...named } = common;
  const result = await buildLearnedProfile(
    folder.crops.map((c) => ({ crop: c.crop, label: c.label, group: c.group })),
    model,
    {
      ...named,
      ...platform,
      dice: diceIdsOf(dice),
      hfovDeg: flags.hfov,
      source: source(folder),
      fineTune: flags.fineTune
        ? { ...defaultFineTuneOptions, epochs: flags.fineTunePasses, onEpoch: (pass, passes, loss) => io.err(`fine-tuning the network on your dice: pass ${pass} of ${passes} (loss ${loss.toFixed(3)})\n`) }
        : false,
    },
  );
  return withFolderWarnings(result, folder.warnings);
}
