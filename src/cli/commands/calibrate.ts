import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { openV4l2CalibrationCamera, simCalibrationCamera } from '../../session/calibrationCameras.js';
import { encodePng } from '../../camera/decode.js';
import { labelledFolderPaths, readLabelledCrops, requireFlatDice } from '../../vision-io/labelledCrops.js';
import { readProfileFile, writeProfileFile } from '../../vision-io/profileFile.js';
import { lightingPresets } from '../../camera/sim/lighting.js';
import type { LightingPresetName } from '../../camera/sim/lighting.js';
import { DicerigError, InputError } from '../../core/errors.js';
import { defaultCheckLimits, judgeProfileCheck } from '../../vision/calibration/check.js';
import { diceIdsOf, runGuidedCalibration } from '../../vision/calibration/guided.js';
import type { CalibrationDice } from '../../vision/calibration/guided.js';
import { parseGroupNames } from '../../vision/calibration/groupNaming.js';
import type { ClusterView, Prompt } from '../../vision/calibration/groupNaming.js';
import type { CalibrationCamera } from '../../vision/calibration/guidedThrows.js';
import { runGuidedLearnedCalibration } from '../../vision/calibration/guidedLearned.js';
import type { GuidedLearnedResult } from '../../vision/calibration/guidedLearned.js';
import { throwName } from '../../vision/calibration/guidedThrows.js';
import { holdsKeptThrows, keepingCamera, keptThrowsCamera, writeThrowLabels } from '../../vision-io/keptThrows.js';
import { LearnedReader } from '../../vision/learned/reader.js';
import { tileCrops } from '../../vision/calibration/montage.js';
import { buildLearnedProfile, DEFAULT_HFOV_DEG } from '../../vision/calibration/learnedProfile.js';
import { defaultFineTuneOptions } from '../../vision/learned/fineTune.js';
import { OWN_COCKED_NEEDS_OUTLINE, SURE_OVER_DISPUTE } from '../../vision/learned/reader.js';
import type { ProfileBuildOptions } from '../../vision/calibration/profileBuild.js';
import type { LearnedProfileResult } from '../../vision/calibration/learnedProfile.js';
import { LEARNED_CLASSIFIER_KIND, shippedLearnedModelByVersion, shortHash } from '../../vision/calibration/profile.js';
import { withCheckedDice } from '../../vision/calibration/checkedDice.js';
import type { CalibrationProfile } from '../../vision/calibration/profile.js';
import { buildD8Profile, describeSamples } from '../../vision/calibration/trainProfile.js';
import type { TrainProfileResult } from '../../vision/calibration/trainProfile.js';
import { learnedCutter } from '../../vision/learned/shipped.js';
import { profileReader } from '../../vision-io/readerChoice.js';
import { learnedModelFor } from './learnedReader.js';
import { evaluateLabelledCrops, formatConfusionMatrix } from '../../vision/labelledEval.js';
import type { RgbImage } from '../../core/image.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, positiveNumberArg, nonNegativeIntArg, probabilityArg, toJson } from '../options.js';
import { evaluationJson, formatEvaluationText, keepsClass } from './vision.js';
import { formatCount, percent } from '../../core/format.js';
import { getDieType } from '../../dice/catalogue.js';
import { symbolProbabilities } from '../../dice/indexing.js';
import { misreadRateBounds } from '../../stats/misreadRate.js';
import { certifiableMarginLimit } from '../../stats/misreadReach.js';
import { profileMisreadCounts } from '../../vision/calibration/profileMisreads.js';

/** A CLI io that can also ask the user questions (a terminal; a test answering them; a GUI). */
export interface AskingIo extends CliIo {
  ask(question: string): Promise<string>;
}

/** How to ask the user: the io's own `ask`, else the terminal when there is one, else nobody. */
export function promptFor(io: CliIo): Prompt | undefined {
  const ask = (io as Partial<AskingIo>).ask;
  if (typeof ask === 'function') return (q) => ask.call(io, q);
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

interface CalibrateFlags {
  die?: CalibrationDice;
  fromLabelled?: string;
  camera?: string;
  check?: string;
  images?: string;
  labels?: string;
  out?: string;
  name?: string;
  createdAt?: string;
  face: 'top' | 'bottom';
  throws: number;
  channels: number;
  dicePerChannel: number;
  dieSize: number;
  seed: number;
  lighting: string;
  groups?: number;
  labelsFrom?: string;
  minAccuracy: number;
  maxDecline: number;
  json?: boolean;
  reader?: 'learned' | 'ring';
  hfov: number;
  fineTune: boolean;
  fineTunePasses: number;
}


/** Registers `dicerig calibrate`: build a profile from labelled photos or guided throws, or re-check one. */
export function registerCalibrateCommand(program: Command, io: CliIo): void {
  program
    .command('calibrate')
    .summary('teach the reader your X-Wing dice, or check that a calibration still holds')
    .description(
      'Builds a calibration profile for X-Wing d8s (red, green, or both: xwing) from samples of your own dice, validates it on ' +
        'held-back images (confusion matrix, rejection rate, accuracy) and saves it. Use one of: ' +
        '--from-labelled DIR (a labelled folder: images, YOLO labels and classes.txt with classes like red-hit, green-evade, cocked); ' +
        '--camera sim|DEVICE (guided steps on the rig: empty-platform reference, channel regions, throws; the crops are grouped by ' +
        'similarity and you name each group once, or in a file given with --labels-from); ' +
        '--check PROFILE (re-validate a profile on new labelled rolls given with --images and --labels, and say whether it still holds). ' +
        'See calibration/README.md.',
    )
    .addOption(new Option('--die <dice>', 'dice to calibrate').choices(['red', 'green', 'xwing']))
    .option('--from-labelled <dir>', 'labelled folder to build the profile from')
    .option('--camera <source>', '"sim" for the simulated camera, or a V4L2 device such as /dev/video0')
    .option('--check <profile>', 'profile to re-validate (with --images and --labels)')
    .option('--images <dir>', 'with --check: folder of new labelled photos')
    .option('--labels <dir>', 'labels folder (default: beside or inside the images folder)')
    .option('-o, --out <profile>', 'where to write the profile (default: calibration-<dice>.json); with --check: a new file for the profile with the checked dice added (sessions then bound misreads by them)')
    .option('--name <name>', 'profile name (default: the file name)')
    .option('--created-at <time>', 'creation time to record, ISO 8601 (default: now)')
    .addOption(new Option('--face <face>', 'face the camera sees: bottom through a clear platform (mapped to the top face)').choices(['top', 'bottom']).default('top'))
    .option('--throws <n>', 'guided: throws to sample', positiveIntArg, 60)
    .option('--channels <n>', 'guided: channels on the platform', positiveIntArg, 4)
    .option('--dice-per-channel <n>', 'guided: dice per channel', positiveIntArg, 1)
    .option('--die-size <px>', 'guided: d8 size across corners in the frames, pixels', positiveNumberArg, 72)
    .option('--seed <n>', 'guided: seed of the grouping (and of the simulated camera)', nonNegativeIntArg, 1)
    .option('--lighting <preset>', `guided, simulated camera: lighting (${Object.keys(lightingPresets).join(', ')})`, 'studio')
    .option('--groups <n>', 'guided: groups to form (default: three per face)', positiveIntArg)
    .option('--labels-from <file>', 'guided: names of the groups, one "<group> <name>" per line, instead of asking')
    .option('--min-accuracy <p>', 'with --check: lowest accuracy among dice read', probabilityArg, defaultCheckLimits.minAccuracy)
    .option('--max-decline <p>', 'with --check: highest share of flat dice declined', probabilityArg, defaultCheckLimits.maxDecline)
    .addOption(
      new Option('--reader <reader>', 'with --from-labelled: learned (default: the shipped network pre-trained on 3D renders, with a last layer fitted on your dice if that reads the held-back images better) or ring (the older ring-harmonics classifier; guided calibration always makes one)').choices([
        'learned',
        'ring',
      ]),
    )
    .option('--hfov <deg>', "with --reader learned: the camera's horizontal field of view, degrees (where the top face lies)", positiveNumberArg, DEFAULT_HFOV_DEG)
    .option('--fine-tune-passes <n>', `with --reader learned: passes over your dice when fine-tuning (fewer: faster, adapted less)`, positiveIntArg, defaultFineTuneOptions.epochs)
    .option('--no-fine-tune', 'with --reader learned: do not fine-tune the whole network on your dice (faster; only the shipped network and a fitted last layer compete)')
    .option('--json', 'print JSON')
    .action(async (flags: CalibrateFlags, command: Command) => {
      const modes = [flags.fromLabelled, flags.camera, flags.check].filter((m) => m !== undefined).length;
      if (modes !== 1) throw new InputError('give exactly one of --from-labelled DIR, --camera sim|DEVICE or --check PROFILE.');
      if (flags.check !== undefined) return runCheck(flags, flags.check, io);
      if (flags.die === undefined) throw new InputError('--die red|green|xwing is needed to calibrate.');
      // Fine-tuning is the learned reader's: said on a ring calibration, it would silently do nothing.
      const tuningSaid = ['fineTune', 'fineTunePasses'].some((k) => command.getOptionValueSource(k) === 'cli');
      if (tuningSaid && flags.reader === 'ring') throw new InputError('--fine-tune-passes and --no-fine-tune are for the learned reader (calibrate without --reader ring).');
      const out = flags.out ?? `calibration-${flags.die}.json`;
      const common = {
        name: flags.name ?? basename(out, extname(out)),
        createdAt: createdAt(flags.createdAt),
        face: flags.face,
      };
      const given = (key: string): boolean => command.getOptionValueSource(key) === 'cli';
      const result = flags.fromLabelled !== undefined ? await fromLabelled(flags, flags.die, flags.fromLabelled, common, io) : await guided(flags, flags.die, out, common, io, given);
      await writeProfileFile(out, result.profile);
      const classifierVersion = profileReader(result.profile).reader.classifierVersion;
      const candidates = isLearnedResult(result) ? { candidates: result.candidates.map(candidateJson), kept: result.why } : {};
      if (flags.json) io.out(`${toJson({ profile: out, classifierVersion, warnings: result.warnings, validation: result.profile.validation, ...candidates })}\n`);
      else io.out(formatProfileSummary(result, out));
    });
}

function createdAt(given?: string): string {
  if (given === undefined) return new Date().toISOString();
  const t = new Date(given);
  if (Number.isNaN(t.getTime())) throw new InputError(`--created-at: "${given}" is not an ISO 8601 time (e.g. 2025-01-31T12:00:00Z).`);
  return t.toISOString();
}

type CommonFields = { name: string; createdAt: string; face: 'top' | 'bottom' };

async function fromLabelled(flags: CalibrateFlags, dice: CalibrationDice, dir: string, common: CommonFields, io: CliIo): Promise<TrainProfileResult | LearnedProfileResult> {
  const paths = labelledFolderPaths(dir, flags.labels);
  if (flags.reader !== 'ring') return learnedFromFolder(flags, dice, paths, common, io, (folder) => `labelled folder ${paths.images} (${folder.images} images, ${folder.crops.length} dice)`);
  const folder = await readLabelledCrops(paths.images, paths.labels, (c) => keepsClass(dice, c), 1.3);
  requireFlatDice(folder, dice, paths.images);
  const samples = describeSamples(folder.crops.map((c) => ({ crop: c.crop.image, label: c.label, group: c.group })));
  return buildD8Profile(samples, { ...common, dice: diceIdsOf(dice), source: `labelled folder ${paths.images} (${folder.images} images, ${folder.crops.length} dice)` });
}

const TOP_FACE_ONLY = 'the learned reader reads the top face; for --face bottom calibrate with --reader ring.';

/** A learned profile from a labelled folder (`--from-labelled`, or the throws a guided calibration kept and named). */
async function learnedFromFolder(
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
  return buildLearnedProfile(
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
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The guided steps on the rig: the throws are kept as they are taken (`STEM.throws/`), or replayed from a folder of
 * kept throws given as the camera; the learned reader's named dice make that folder a labelled one, which the profile
 * is built from. `given`: whether an option was said on the command line (a replay takes the others from the folder).
 */
async function guided(flags: CalibrateFlags, dice: CalibrationDice, out: string, common: CommonFields, io: CliIo, given: (key: string) => boolean): Promise<TrainProfileResult | LearnedProfileResult> {
  const source = flags.camera as string;
  if (source !== 'sim' && isDirectory(source) && !holdsKeptThrows(source)) {
    throw new InputError(`--camera names a folder that holds no kept throws (reference.png, kept.json, images/); give sim, a camera device such as /dev/video0, or the STEM.throws folder of an earlier guided calibration`, { file: source });
  }
  const kept = source !== 'sim' && isDirectory(source) ? await keptThrowsCamera(source) : undefined;
  // The simulated camera draws its dice flat, which the learned networks (trained on 3D renders) do not read: the ring
  // reader is made for it, as the default profiles are.
  const simulated = source === 'sim' || kept?.manifest.simulated === true;
  const learned = (flags.reader ?? (simulated ? 'ring' : 'learned')) === 'learned';
  if (learned && common.face !== 'top') throw new InputError(TOP_FACE_ONLY);
  if (!learned && (given('fineTune') || given('fineTunePasses'))) {
    throw new InputError('--fine-tune-passes and --no-fine-tune are for the learned reader, and the simulated camera\'s flat-drawn dice are read by the ring reader unless you give --reader learned.');
  }
  const prompt = promptFor(io);
  const names = flags.labelsFrom !== undefined ? parseGroupNames(await readText(flags.labelsFrom, 'labels file'), flags.labelsFrom) : undefined;
  const stem = join(dirname(out), basename(out, extname(out)));
  let platform = { channels: flags.channels, dicePerChannel: flags.dicePerChannel, dieSizePx: flags.dieSize };
  let seed = flags.seed;
  let camera: CalibrationCamera;
  let close: (() => Promise<void>) | undefined;
  let throwsDir: string;
  if (kept !== undefined) {
    if (learned && existsSync(join(source, 'labels'))) {
      throw new InputError(`these throws are named already (${join(source, 'labels')}): calibrate --from-labelled ${source} builds a profile from those names; move the labels folder away to name the groups again`, { file: source });
    }
    platform = {
      channels: given('channels') ? flags.channels : kept.manifest.channels,
      dicePerChannel: given('dicePerChannel') ? flags.dicePerChannel : kept.manifest.dicePerChannel,
      dieSizePx: given('dieSize') ? flags.dieSize : kept.manifest.dieSizePx,
    };
    seed = given('seed') ? flags.seed : kept.manifest.seed;
    camera = kept.camera;
    throwsDir = source;
  } else {
    let live: CalibrationCamera & { close?: () => Promise<void> };
    if (source === 'sim') {
      if (!(flags.lighting in lightingPresets)) throw new InputError(`unknown lighting preset "${flags.lighting}"; presets are: ${Object.keys(lightingPresets).join(', ')}.`);
      live = simCalibrationCamera({ seed: flags.seed, lighting: flags.lighting as LightingPresetName, channels: flags.channels, dicePerChannel: flags.dicePerChannel, dice, dieSizePx: flags.dieSize });
    } else {
      // The camera is opened first: with no camera there, that is the error to report.
      const ask: Prompt = prompt ?? (() => Promise.reject(new DicerigError('Calibrating on a real camera asks you to clear the platform and to throw: run it in a terminal.')));
      live = await openV4l2CalibrationCamera({ device: source }, ask);
    }
    close = live.close;
    throwsDir = `${stem}.throws`;
    try {
      camera = await keepingCamera(live, throwsDir, { ...platform, simulated, seed });
    } catch (e) {
      await close?.();
      throw e;
    }
    io.err(`Every throw is kept in ${throwsDir} as it is taken (--camera ${throwsDir} gives them again without throwing).\n`);
  }
  const steps = {
    camera,
    throws: flags.throws,
    ...platform,
    seed,
    ...(flags.groups !== undefined ? { clusterCount: flags.groups } : {}),
    log: (line: string) => io.err(`${line}\n`),
    ...(names ? { names } : {}),
    ...(prompt ? { prompt } : {}),
    showGroups: (clusters: readonly ClusterView[]) => showGroups(`${stem}.groups`, clusters, names === undefined && !prompt ? throwsDir : undefined, io, names),
  };
  try {
    if (!learned) {
      const result = await runGuidedCalibration({ ...steps, dice, ...common, saveReference: async (image) => saveImage(`${stem}.reference.png`, image, dirname(out)) });
      io.err(`  groups: ${result.clusters.map((c) => `${c.id}=${c.name}`).join(', ')}\n`);
      return result;
    }
    const model = learnedModelFor(dice);
    const labelled = await runGuidedLearnedCalibration({ ...steps, dice, reader: new LearnedReader(model), cut: learnedCutter(model, flags.hfov) });
    io.err(`  groups: ${labelled.clusters.map((c) => `${c.id}=${c.name}`).join(', ')}\n`);
    const named = await writeThrowLabels(throwsDir, labelled.classes, labelled.throws);
    if (labelled.doubtful.length > 0) await showDoubtful(`${stem}.groups`, throwsDir, labelled.doubtful, io);
    io.err(`  ${named} dice named: ${throwsDir} is now a labelled folder (calibrate --from-labelled ${throwsDir} fits the same reader on it; add or correct labels there by hand if you like).\n`);
    const referencePng = join(throwsDir, 'reference.png');
    const reference = { file: relative(dirname(resolve(out)), resolve(referencePng)), sha256: createHash('sha256').update(await readFile(referencePng)).digest('hex') };
    return await learnedFromFolder(
      flags,
      dice,
      labelledFolderPaths(throwsDir),
      common,
      io,
      (folder) => `guided calibration: ${labelled.throws.length} throws on ${camera.description}, ${labelled.clusters.length} groups named (labelled folder ${throwsDir}: ${folder.crops.length} dice)`,
      { channels: labelled.channels, reference, dieSizePx: labelled.dieSizePx },
    );
  } finally {
    await close?.();
  }
}

async function saveImage(file: string, image: RgbImage, relativeTo: string): Promise<{ file: string; sha256: string }> {
  const png = await encodePng(image);
  await mkdir(dirname(resolve(file)), { recursive: true });
  await writeFile(file, png);
  return { file: relative(relativeTo, file) || basename(file), sha256: createHash('sha256').update(png).digest('hex') };
}

/** Writes one picture per group and a listing (`groups.json`, and a labels template), and says where they are. */
async function showGroups(dir: string, clusters: readonly ClusterView[], templateOnlyFor: string | undefined, io: CliIo, given?: ReadonlyMap<number, string>): Promise<Map<number, string>> {
  await mkdir(dir, { recursive: true });
  const where = new Map<number, string>();
  for (const c of clusters) {
    const file = join(dir, `group-${String(c.id).padStart(2, '0')}.png`);
    await writeFile(file, await encodePng(tileCrops(c.typical)));
    where.set(c.id, file);
  }
  const listing = clusters.map((c) => ({ group: c.id, dice: c.size, looksCocked: c.looksCocked, picture: where.get(c.id), ...(c.truth ? { simulatorTruth: c.truth } : {}) }));
  await writeFile(join(dir, 'groups.json'), `${JSON.stringify(listing, null, 2)}\n`);
  await writeFile(
    join(dir, 'labels-template.txt'),
    `# One line per group: <group> <name>. Names: <die>-<symbol> (red-hit, green-evade, ...), cocked, skip, or (learned reader) split.\n${clusters.map((c) => `${c.id} ${c.name ?? given?.get(c.id) ?? '?'}`).join('\n')}\n`,
  );
  io.err(`  ${clusters.length} groups: pictures and a labels template in ${dir}\n`);
  if (templateOnlyFor !== undefined) io.err(`  No terminal to ask in: fill in ${join(dir, 'labels-template.txt')} and run again with --camera ${templateOnlyFor} --labels-from FILE (the same throws, grouped the same way).\n`);
  return where;
}

/**
 * Writes the named dice the network sees as another named face (`doubtful.png`, and `doubtful.txt` naming each one's
 * throw and label line) and says where: named wrong, they would teach the reader a wrong face; named right, they are
 * the hard dice, kept so that the profile's misread bounds count them.
 */
async function showDoubtful(dir: string, throwsDir: string, doubtful: GuidedLearnedResult['doubtful'], io: CliIo): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'doubtful.png'), await encodePng(tileCrops(doubtful.map((d) => d.crop))));
  const lines = doubtful.map((d, i) => `${i + 1}. ${join(throwsDir, 'labels', `${throwName(d.throwIndex)}.txt`)}: the die at x ${Math.round(d.box.x + d.box.width / 2)}, y ${Math.round(d.box.y + d.box.height / 2)}, named ${d.label}, looks more like ${d.nearer}`);
  await writeFile(join(dir, 'doubtful.txt'), `# Named dice the network sees as another named face, in the order of doubtful.png (left to right, top to bottom).\n# A wrong name: correct its line's class in the labels file, then calibrate --from-labelled ${throwsDir}.\n${lines.join('\n')}\n`);
  io.err(`  ${doubtful.length} named dice look more like another named face than their own (kept: hard dice are what the misread bounds must count); check them in ${join(dir, 'doubtful.png')} and ${join(dir, 'doubtful.txt')}.\n`);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (e as Error).message;
    throw new InputError(`cannot read the ${what}: ${reason}.`, { file }, { cause: e });
  }
}

function isLearnedResult(result: TrainProfileResult | LearnedProfileResult): result is LearnedProfileResult {
  return 'candidates' in result;
}

function validationLine(v: CalibrationProfile['validation']): string {
  return `${v.samples} dice, ${v.read} read, ${v.correct} correct (accuracy ${percent(v.accuracy, 2)}), declined ${percent(v.rejectionRate, 1)} (${v.cocked} cocked, ${v.declined - v.cocked} unreadable), ${v.confidentErrors} confident error${v.confidentErrors === 1 ? '' : 's'}, ${v.cockedReadAsFace} cocked read as a face`;
}

function candidateJson(c: LearnedProfileResult['candidates'][number]): Record<string, unknown> {
  return { name: c.name, wrong: c.wrong, declinedFlat: c.declinedFlat, rejectionThreshold: c.rejectionThreshold, validation: { ...c.validation, confusion: undefined } };
}

/** How the shipped network witnesses the profile's blank reads, as a clause of the reader's line (none: empty). */
function witnessPhrase(c: { blankWitnessAt?: number; blankWitnessIconAt?: number; blankWitnessTiltAt?: number }): string {
  if (c.blankWitnessIconAt !== undefined) {
    const tilt = c.blankWitnessTiltAt !== undefined ? ` or tilt over ${c.blankWitnessTiltAt}` : '';
    return `; a blank read stands unless the shipped network sees an icon over ${c.blankWitnessIconAt}${tilt} (set on your blanks)`;
  }
  return c.blankWitnessAt !== undefined ? `; a blank read stands when the shipped network finds a blank at least ${c.blankWitnessAt} likely (set on your blanks)` : '';
}

/** What the reader of a profile is, in one line. */
function classifierLine(p: CalibrationProfile): string {
  const c = p.classifier;
  if (c.kind === LEARNED_CLASSIFIER_KIND) {
    const threshold = c.head
      ? `the fitted head's threshold ${c.head.minProbability}`
      : c.tuned
        ? `the fine-tuned network's own per-class thresholds (${Object.entries(c.tuned.thresholds).map(([k, t]) => `${k} ${t}`).join(', ')})`
        : `the network's own per-class thresholds (lowest ${p.rejectionThreshold})`;
    const overruled = (c.confirmRule ?? 0) >= 4 ? `, unless the network reads an icon at ${SURE_OVER_DISPUTE} or more` : '';
    const tilt = (c.confirmRule ?? 0) >= 5 ? `; the network calls a die tilted only where the outline check scores it at least ${OWN_COCKED_NEEDS_OUTLINE} times its own threshold` : '';
    const confirmed = c.confirm ? `, each read confirmed by a head fitted on your dice (${c.confirm.version})${overruled}${tilt}` : '';
    const how = c.head ? ` with a head fitted on your dice (${c.head.version})` : c.tuned ? ` fine-tuned on your dice (${c.tuned.version})${confirmed}` : ' as shipped';
    const shippedAt = shippedLearnedModelByVersion(c.model)?.cockedCheck?.at;
    const outline = c.outlineAt !== undefined ? `; the outline check calls a die tilted from ${c.outlineAt} (set on your flat dice; shipped ${shippedAt})` : '';
    return `  learned network ${c.model}${how}; ${threshold}${outline}${witnessPhrase(c)}; camera field of view ${c.hfovDeg} degrees; ${c.views} view${c.views === 1 ? '' : 's'} per die`;
  }
  return `  rejection threshold ${p.rejectionThreshold}; cocked above outline elongation ${c.cockedElongation}; dice ${(c.radiusRange[0] * 2).toFixed(0)}-${(c.radiusRange[1] * 2).toFixed(0)} px across`;
}

/** The text summary of a new profile. */
export function formatProfileSummary(result: TrainProfileResult | LearnedProfileResult, file: string): string {
  const p = result.profile;
  const v = p.validation;
  const learned = isLearnedResult(result) ? result : undefined;
  const lines = [
    `Calibration profile written to ${file} (classifier ${profileReader(p).reader.classifierVersion}).`,
    `  dice: ${p.dice.join(', ')}; face read: ${p.face}; classes: ${p.classes.join(', ')}`,
    `  training: ${p.training.samples} labelled dice from ${p.training.source}${p.training.unusable > 0 ? ` (${p.training.unusable} not measurable)` : ''}`,
    `  validated on: ${v.heldBack}`,
    ...(learned ? [...learned.candidates.map((c) => `  held back, ${c.name}: ${validationLine(c.validation)}`), `  ${learned.why}`] : []),
    `  validation: ${validationLine(v)}`,
    reachLine(p),
    classifierLine(p),
    '',
    'confusion matrix on the validation dice (rows: truth; columns: what was read, then declined and cocked):',
    formatConfusionMatrix(v.confusion),
  ];
  for (const w of result.warnings) lines.push(`warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

async function runCheck(flags: CalibrateFlags, profilePath: string, io: CliIo): Promise<void> {
  if (flags.images === undefined) throw new InputError('--check needs --images DIR (and --labels DIR unless the labels sit beside the images).');
  // Past sessions name the checked profile by its hash: the profile with the checked dice added is a new file.
  if (flags.out !== undefined && resolve(flags.out) === resolve(profilePath)) throw new InputError(`-o ${flags.out} is the profile being checked; write the checked profile to a new file (sessions that read with the old one name it by its hash).`, { file: flags.out });
  const profile: CalibrationProfile = await readProfileFile(profilePath);
  const paths = labelledFolderPaths(flags.images, flags.labels);
  const keep = (c: string): boolean => profile.classes.includes(c);
  const { reader, cut } = profileReader(profile);
  const folder = await readLabelledCrops(paths.images, paths.labels, keep, 1.3, cut);
  const other = folder.classes.filter((c) => !keep(c));
  const evaluation = evaluateLabelledCrops(folder.crops, reader, profile.classes);
  const verdict = judgeProfileCheck(profile, evaluation.perDie, { minAccuracy: flags.minAccuracy, maxDecline: flags.maxDecline });
  if (!verdict.holds) io.setExitCode(1);
  const kept = flags.out !== undefined && verdict.flat.total > 0 ? withCheckedDice(profile, folder.images, evaluation.confusion, createdAt(flags.createdAt)) : undefined;
  if (kept !== undefined) await writeProfileFile(flags.out as string, kept);
  if (flags.json) {
    io.out(`${toJson({ profile: profilePath, classifierVersion: reader.classifierVersion, holds: verdict.holds, reasons: verdict.reasons, flat: verdict.flat, cockedReadAsFace: verdict.cockedReadAsFace, promised: verdict.promised, ...evaluationJson(evaluation), ...(kept ? { wrote: flags.out, checked: kept.checked } : {}) })}\n`);
    return;
  }
  const f = verdict.flat;
  const text = formatEvaluationText(`calibrate --check: profile ${profilePath} (classifier ${reader.classifierVersion}) on ${folder.images} images in ${paths.images}`, evaluation, [
    ...(other.length > 0 ? [`(boxes of classes the profile does not read were skipped: ${other.join(', ')})`] : []),
    `flat dice: ${f.total}, accuracy among read ${percent(f.accuracy, 2)} (held back at calibration: ${percent(verdict.promised.accuracy, 2)}), declined ${percent(f.declineRate, 1)} (limit ${percent(flags.maxDecline, 1)}); cocked read as a face: ${verdict.cockedReadAsFace}`,
  ]);
  // No flat die of the profile's classes: the labels, not the profile, are what is wrong, and recalibrating would not help.
  const conclusion = verdict.holds
    ? `verdict: the profile still holds (accuracy at least ${percent(flags.minAccuracy, 2)}, at most ${percent(flags.maxDecline, 1)} declined, no cocked die read as a face).`
    : f.total === 0
      ? `verdict: nothing to check: no labelled flat die of the profile's classes (${profile.classes.filter((c) => c !== 'cocked').join(', ')}) in ${paths.images}; label the new rolls with those classes.`
      : `verdict: the profile does NOT hold: ${verdict.reasons.join('; ')}. Recalibrate (dicerig calibrate --die ${profile.dice.length > 1 ? 'xwing' : profile.dice[0]} ...).`;
  io.out(`${text}\n${conclusion}\n${kept ? `${keptLine(kept, flags.out as string)}\n` : ''}`);
}

/**
 * How close to fair a session reading with the profile could certify each of its dice, however long it rolls: its
 * verdicts allow for misreads up to the bounds its checked or validation dice set (`stats/misreadReach.ts`).
 */
function reachLine(p: CalibrationProfile): string {
  const each = p.dice.map((die) => {
    const type = getDieType(die);
    const reads = profileMisreadCounts(p, die, type.symbols);
    const bounds = misreadRateBounds(reads);
    const thin = type.symbols.findIndex((_, i) => !((bounds[i] as number) < 0.5));
    if (thin >= 0) return `no ${die} die at all (a session refuses ${reads[thin]?.read ?? 0} reads of ${type.symbols[thin]} as too few)`;
    return `a fair ${die} die to ±${percent(certifiableMarginLimit(symbolProbabilities(type), bounds), 1)} at best`;
  });
  const by = p.checked ? `its ${formatCount(p.checked.images)} checked images' dice` : 'its validation dice';
  return `  verdicts with it: misreads bounded by ${by}, so a session can certify ${each.join(', ')} (dicerig calibrate --check PROFILE --images DIR -o NEW.json adds newly labelled dice and narrows them)`;
}

/** What `--check ... -o` wrote: the checked dice each class now has, which a session's misread bounds come from. */
function keptLine(kept: CalibrationProfile, out: string): string {
  const read = kept.dice.flatMap((die) => {
    const { symbols } = getDieType(die);
    return profileMisreadCounts(kept, die, symbols).map((f, i) => `${die}-${symbols[i]} ${f.read}`);
  });
  return (
    `wrote ${out} (${shortHash(kept)}): the profile with these dice added to its checked dice, ${formatCount(kept.checked?.images ?? 0)} images in all; ` +
    `sessions that read with it bound misreads by their reads (${read.join(', ')}), not by its validation dice.\n${reachLine(kept)}`
  );
}
