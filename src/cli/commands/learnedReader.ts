/**
 * The learned reader on the command line: `vision eval --learned [--head FILE]`
 * picks it, `vision adapt` fits a calibration head on the user's labelled
 * images (a new last layer on the shipped network's embeddings, threshold set
 * on held-back images) and writes it as JSON.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { labelledFolderPaths, readLabelledCrops, requireFlatDice } from '../../vision-io/labelledCrops.js';
import { InputError } from '../../core/errors.js';
import type { DieCrop } from '../../vision/faceRead.js';
import type { Rect, RgbImage } from '../../core/image.js';
import { adaptReader, defaultAdaptOptions } from '../../vision/learned/adapt.js';
import { missingClasses, parseHeadFile, type HeadFile } from '../../vision/learned/headFile.js';
import { readJsonFile } from '../../vision-io/profileFile.js';
import { checkOutputPath, writeFileAtomic } from '../../vision-io/outputFile.js';
import type { LearnedHead, LearnedModel } from '../../vision/learned/model.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../../vision/learned/reader.js';
import { learnedCutter, shippedLearnedModels } from '../../vision/learned/shipped.js';
import type { CliIo } from '../io.js';
import { fieldOfViewArg, toJson } from '../options.js';

/** The shipped model for these dice (`red`, `green` and `xwing` share the X-Wing model). */
export function learnedModelFor(dice: string): LearnedModel {
  const key = dice === 'd6' ? 'd6' : 'xwing';
  const model = shippedLearnedModels[key];
  if (!model) throw new InputError(`no learned reader is shipped for ${key} dice yet; leave out --learned.`);
  return model;
}

/** The learned reader for these dice, with the head in `headPath` when given, and its cutter. */
export async function learnedReaderFor(dice: string, hfovDeg: number, headPath?: string): Promise<{ reader: LearnedReader; cut: (image: RgbImage, box: Rect) => DieCrop }> {
  const model = learnedModelFor(dice);
  let head: LearnedHead | undefined;
  if (headPath !== undefined) {
    head = parseHeadFile(await readJsonFile(headPath, 'head file'), headPath, model, dice).head;
  }
  return { reader: new LearnedReader(model, defaultLearnedReaderOptions, head), cut: learnedCutter(model, hfovDeg) };
}

interface AdaptFlags {
  die: string;
  images: string;
  labels?: string;
  out: string;
  hfov: number;
}

/** Registers `dicerig vision adapt`. */
export function registerLearnedAdapt(vision: Command, io: CliIo, keeps: (dice: string, className: string) => boolean): void {
  vision
    .command('adapt')
    .description(
      'Fits the learned reader to your own dice: a new last layer on the shipped network, fitted on a labelled folder of your photos (a few hundred dice), ' +
        'its rejection threshold set on a quarter of the images held back. Writes a head file for vision eval --learned --head.',
    )
    .addOption(new Option('--die <dice>', 'which dice').choices(['d6', 'red', 'green', 'xwing']).makeOptionMandatory())
    .requiredOption('--images <dir>', 'labelled folder (images/ and labels/, YOLO)')
    .option('--labels <dir>', 'labels folder (default: beside or inside the images folder)')
    .requiredOption('--out <file>', 'head file to write (JSON)')
    .option('--hfov <deg>', "the camera's horizontal field of view, degrees (for the top face's parallax)", fieldOfViewArg, 54)
    .action(async (flags: AdaptFlags) => {
      await checkOutputPath(flags.out, '--out');
      const { reader, cut } = await learnedReaderFor(flags.die, flags.hfov);
      const paths = labelledFolderPaths(flags.images, flags.labels);
      const folder = await readLabelledCrops(paths.images, paths.labels, (c) => keeps(flags.die, c), 1.5, cut);
      requireFlatDice(folder, flags.die, paths.images);
      for (const w of folder.warnings) io.err(`warning: ${w}\n`);
      // A head that never saw a face reads it as another: refused here, before the fit, as eval would refuse the head.
      const missing = missingClasses([...new Set(folder.crops.map((c) => c.label))], flags.die);
      if (missing.length > 0) {
        throw new InputError(`the labelled folder has no die showing ${missing.join(', ')}: a head fitted on it would read ${missing.length === 1 ? 'that face' : 'those faces'} as others; label some of each`, { file: paths.images });
      }
      const result = adaptReader(
        reader,
        folder.crops.map((c) => ({ crop: c.crop, label: c.label, group: c.group })),
        defaultAdaptOptions,
      );
      const file: HeadFile = { model: reader.model.version, head: result.head };
      await writeFileAtomic(flags.out, `${toJson(file)}\n`);
      const h = result.heldBack;
      io.out(
        `Fitted a head on ${result.fitted} of ${folder.crops.length} dice (${h.total} held back to set its threshold) of ${folder.images} images; threshold ${result.head.minProbability.toFixed(3)} ` +
          `(most confident held-back flat die read as a wrong face ${h.worstWrong.toFixed(3)}); held back: ${h.read} read, ${h.correct} correct. Wrote ${flags.out}.\n`,
      );
    });
}
