/**
 * `dicerig calibrate --camera sim|DEVICE|THROWS`: the guided steps on the rig.
 * Every throw is kept as it is taken (`STEM.throws/`), or a folder of kept
 * throws is replayed; the groups' pictures go in `STEM.groups/`. The ring
 * reader's profile is built from the named groups; the learned reader's named
 * dice make the kept throws a labelled folder, which the profile is built from.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { encodePng } from '../../camera/decode.js';
import { lightingPresets } from '../../camera/sim/lighting.js';
import type { LightingPresetName } from '../../camera/sim/lighting.js';
import { DicerigError, InputError } from '../../core/errors.js';
import type { RgbImage } from '../../core/image.js';
import { openV4l2CalibrationCamera, simCalibrationCamera } from '../../session/calibrationCameras.js';
import { parseGroupNames } from '../../vision/calibration/groupNaming.js';
import type { ClusterView, Prompt } from '../../vision/calibration/groupNaming.js';
import { runGuidedCalibration } from '../../vision/calibration/guided.js';
import type { CalibrationDice } from '../../vision/calibration/guided.js';
import { runGuidedLearnedCalibration } from '../../vision/calibration/guidedLearned.js';
import type { GuidedLearnedResult } from '../../vision/calibration/guidedLearned.js';
import type { DoubtfulDie } from '../../vision/calibration/guidedThrows.js';
import { throwName } from '../../vision/calibration/guidedThrows.js';
import type { CalibrationCamera } from '../../vision/calibration/guidedThrows.js';
import type { LearnedProfileResult } from '../../vision/calibration/learnedProfile.js';
import { tileCrops } from '../../vision/calibration/montage.js';
import type { TrainProfileResult } from '../../vision/calibration/trainProfile.js';
import { LearnedReader } from '../../vision/learned/reader.js';
import { learnedCutter } from '../../vision/learned/shipped.js';
import { holdsKeptThrows, keepingCamera, keptThrowsCamera, writeThrowLabels } from '../../vision-io/keptThrows.js';
import { labelledFolderPaths } from '../../vision-io/labelledCrops.js';
import type { CliIo } from '../io.js';
import { terminalPrompt } from '../terminalPrompt.js';
import { TOP_FACE_ONLY } from './calibrateFlags.js';
import type { CalibrateFlags, CommonFields } from './calibrateFlags.js';
import { learnedFromFolder } from './calibrateFromFolder.js';
import { learnedModelFor } from './learnedReader.js';
import { makeFolders } from '../../core/makeFolders.js';
import { fileReadProblem } from '../../core/fileReadProblem.js';

/** A CLI io that can also ask the user questions (a terminal; a test answering them; a GUI). */
export interface AskingIo extends CliIo {
  ask(question: string): Promise<string>;
}

/**
 * How to ask the user: the io's own `ask`, else the terminal when there is one (one line reader for the run, closed
 * by `close`), else nobody. `throwsDir`: where the throws are kept, named if the input ends before every answer.
 */
export function promptFor(io: CliIo, throwsDir: string): { prompt?: Prompt; close(): void } {
  const ask = (io as Partial<AskingIo>).ask;
  if (typeof ask === 'function') return { prompt: (q) => ask.call(io, q), close: () => undefined };
  if (!process.stdin.isTTY) return { close: () => undefined };
  const terminal = terminalPrompt(`every throw is kept in ${throwsDir}; run again with --camera ${throwsDir} to name the groups without throwing again (or name them in a file given with --labels-from).`);
  return { prompt: (q) => terminal.ask(q), close: () => terminal.close() };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The camera, the kept throws' folder and the steps' options of a guided run, and whether the learned reader names its dice. */
export interface GuidedRun {
  readonly camera: CalibrationCamera;
  readonly throwsDir: string;
  readonly learned: boolean;
  readonly steps: Omit<Parameters<typeof runGuidedLearnedCalibration>[0], 'dice' | 'reader' | 'cut'>;
  readonly close: () => Promise<void>;
}

/**
 * Opens the guided steps' source (a live camera whose throws are kept in `STEM.throws`, or a folder of kept throws),
 * once `readerFor` (told whether the throws are the simulated camera's) has said which reader names the dice and
 * refused what it cannot do, so that nothing is opened for a run that would be refused.
 */
export async function openGuidedRun(flags: CalibrateFlags, dice: CalibrationDice | 'd6', stem: string, io: CliIo, given: (key: string) => boolean, readerFor: (simulated: boolean) => boolean): Promise<GuidedRun> {
  const source = flags.camera as string;
  if (source !== 'sim' && isDirectory(source) && !holdsKeptThrows(source)) {
    throw new InputError(`--camera names a folder that holds no kept throws (reference.png, kept.json, images/); give sim, a camera device such as /dev/video0, or the STEM.throws folder of an earlier guided calibration`, { file: source });
  }
  const kept = source !== 'sim' && isDirectory(source) ? await keptThrowsCamera(source) : undefined;
  // Throws kept before the manifest named their dice are taken as they are.
  if (kept?.manifest.dice !== undefined && (kept.manifest.dice === 'd6') !== (dice === 'd6')) {
    throw new InputError(`these throws were kept for --die ${kept.manifest.dice}, not --die ${dice}: D6 checks and X-Wing profiles are made from throws of their own dice`, { file: source });
  }
  // Named and read as the other face, every die would be learned or checked as its opposite.
  const keptFace = kept?.manifest.face;
  if (keptFace !== undefined && keptFace !== flags.face) {
    throw new InputError(`these throws were kept by a camera that sees the ${keptFace} face of the dice: calibrate them with --face ${keptFace}${given('face') ? `, not --face ${flags.face}` : ''}`, { file: source });
  }
  const simulated = source === 'sim' || kept?.manifest.simulated === true;
  const learned = readerFor(simulated);
  const throwsDir = kept !== undefined ? source : `${stem}.throws`;
  const asking = promptFor(io, throwsDir);
  const prompt = asking.prompt;
  let closeCamera: (() => Promise<void>) | undefined;
  // Everything opened is closed again if the run cannot start: a terminal left reading would keep the process alive.
  const close = async (): Promise<void> => {
    asking.close();
    await closeCamera?.();
  };
  try {
    const names = flags.labelsFrom !== undefined ? parseGroupNames(await readText(flags.labelsFrom, 'labels file'), flags.labelsFrom) : undefined;
    let platform = { channels: flags.channels, dicePerChannel: flags.dicePerChannel, dieSizePx: flags.dieSize };
    let seed = flags.seed;
    let camera: CalibrationCamera;
    if (kept !== undefined) {
      if (learned && existsSync(join(source, 'labels'))) {
        throw new InputError(`these throws are named already (${join(source, 'labels')}): calibrate --die ${dice} --from-labelled ${source} uses those names; move the labels folder away to name the groups again`, { file: source });
      }
      platform = {
        channels: given('channels') ? flags.channels : kept.manifest.channels,
        dicePerChannel: given('dicePerChannel') ? flags.dicePerChannel : kept.manifest.dicePerChannel,
        dieSizePx: given('dieSize') ? flags.dieSize : kept.manifest.dieSizePx,
      };
      seed = given('seed') ? flags.seed : kept.manifest.seed;
      camera = kept.camera;
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
      closeCamera = live.close;
      camera = await keepingCamera(live, throwsDir, { ...platform, simulated, seed, dice, face: flags.face });
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
      showGroups: (clusters: readonly ClusterView[]) => showGroups(`${stem}.groups`, clusters, names === undefined && !prompt ? throwsDir : undefined, io, dice === 'd6' ? D6_NAMES : XWING_NAMES, names),
    };
    return { camera, throwsDir, learned, steps, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The reader a guided calibration names its dice for: `--reader`, else the learned one, but for the simulated camera's
 * flat-drawn dice and a camera under a clear platform (the bottom face), which the ring reader is made for.
 */
function calibrationReader(flags: CalibrateFlags, common: CommonFields, given: (key: string) => boolean): (simulated: boolean) => boolean {
  return (simulated) => {
    // The learned networks were trained on 3D renders of dice seen from above: they read neither the simulated camera's
    // flat-drawn dice nor a bottom face.
    const learned = (flags.reader ?? (simulated || common.face === 'bottom' ? 'ring' : 'learned')) === 'learned';
    if (learned && common.face !== 'top') throw new InputError(TOP_FACE_ONLY);
    if (!learned && (given('fineTune') || given('fineTunePasses'))) {
      throw new InputError('--fine-tune-passes and --no-fine-tune are for the learned reader, and the simulated camera\'s flat-drawn dice and a bottom face are read by the ring reader unless you give --reader learned.');
    }
    return learned;
  };
}

/**
 * The guided steps on the rig: the throws are kept as they are taken (`STEM.throws/`), or replayed from a folder of
 * kept throws given as the camera; the learned reader's named dice make that folder a labelled one, which the profile
 * is built from. `given`: whether an option was said on the command line (a replay takes the others from the folder).
 */
export async function guided(flags: CalibrateFlags, dice: CalibrationDice, out: string, common: CommonFields, io: CliIo, given: (key: string) => boolean): Promise<TrainProfileResult | LearnedProfileResult> {
  const stem = join(dirname(out), basename(out, extname(out)));
  const run = await openGuidedRun(flags, dice, stem, io, given, calibrationReader(flags, common, given));
  const { camera, throwsDir, learned, steps } = run;
  try {
    if (!learned) {
      const result = await runGuidedCalibration({ ...steps, dice, ...common, saveReference: async (image) => saveImage(`${stem}.reference.png`, image, dirname(out)) });
      io.err(`  groups: ${result.clusters.map((c) => `${c.id}=${c.name}`).join(', ')}\n`);
      if (result.doubtful.length > 0) await showDoubtful(`${stem}.groups`, throwsDir, result.doubtful, undefined, io);
      return result;
    }
    const labelled = await nameKeptThrows(run, flags, dice, stem, io);
    io.err(`  ${throwsDir} is now a labelled folder (calibrate --from-labelled ${throwsDir} fits the same reader on it; add or correct labels there by hand if you like).\n`);
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
    await run.close();
  }
}

/** The learned guided steps on an opened run: its dice grouped by the shipped network and named, written as its labels. */
async function nameKeptThrows(run: GuidedRun, flags: CalibrateFlags, dice: CalibrationDice, stem: string, io: CliIo): Promise<GuidedLearnedResult> {
  const model = learnedModelFor(dice);
  const labelled = await runGuidedLearnedCalibration({ ...run.steps, dice, reader: new LearnedReader(model), cut: learnedCutter(model, flags.hfov) });
  io.err(`  groups: ${labelled.clusters.map((c) => `${c.id}=${c.name}`).join(', ')}\n`);
  const named = await writeThrowLabels(run.throwsDir, labelled.classes, labelled.throws);
  if (labelled.doubtful.length > 0) await showDoubtful(`${stem}.groups`, run.throwsDir, labelled.doubtful, labelled, io);
  io.err(`  ${named} dice named.\n`);
  return labelled;
}

/**
 * New labelled rolls for `calibrate --check PROFILE --camera ...`: the guided steps' throws (kept in `STEM.throws`),
 * their dice grouped by the shipped network whatever reader the profile has (the checked reader has no say in the
 * names it is checked against) and named; no profile is built. Returns the labelled folder.
 */
export async function labelNewThrows(flags: CalibrateFlags, dice: CalibrationDice, stem: string, io: CliIo, given: (key: string) => boolean): Promise<string> {
  const run = await openGuidedRun(flags, dice, stem, io, given, () => true);
  try {
    await nameKeptThrows(run, flags, dice, stem, io);
    return run.throwsDir;
  } finally {
    await run.close();
  }
}

async function saveImage(file: string, image: RgbImage, relativeTo: string): Promise<{ file: string; sha256: string }> {
  const png = await encodePng(image);
  makeFolders(dirname(resolve(file)));
  await writeFile(file, png);
  return { file: relative(relativeTo, file) || basename(file), sha256: createHash('sha256').update(png).digest('hex') };
}

/** What a labels template says a group may be named. */
const XWING_NAMES = 'Names: <die>-<symbol> (red-hit, green-evade, ...), cocked, skip, or (learned reader) split.';
const D6_NAMES = 'Names: 1 to 6 (the face the pictures show), cocked, skip, or split.';

/** Writes one picture per group and a listing (`groups.json`, and a labels template), and says where they are. */
async function showGroups(dir: string, clusters: readonly ClusterView[], templateOnlyFor: string | undefined, io: CliIo, namesHint: string, given?: ReadonlyMap<number, string>): Promise<Map<number, string>> {
  makeFolders(dir);
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
    `# One line per group: <group> <name>. ${namesHint}\n${clusters.map((c) => `${c.id} ${c.name ?? given?.get(c.id) ?? '?'}`).join('\n')}\n`,
  );
  io.err(`  ${clusters.length} groups: pictures and a labels template in ${dir}\n`);
  if (templateOnlyFor !== undefined) io.err(`  No terminal to ask in: fill in ${join(dir, 'labels-template.txt')} and run again with --camera ${templateOnlyFor} --labels-from FILE (the same throws, grouped the same way).\n`);
  return where;
}

/** What the doubtful dice's listing says: how to mend a wrong name, and the line that points to the listing. */
export interface DoubtfulWording {
  readonly fix: string;
  readonly summary: string;
}

/**
 * Writes the named dice whose look points to another named face (`doubtful.png`, and `doubtful.txt` naming each one's
 * throw and place) and says where: named wrong, they would teach the reader a wrong face; named right, they are the
 * hard dice, kept so that the profile's misread bounds count them. `labelled`: the throws have label files to correct.
 */
export async function showDoubtful(dir: string, throwsDir: string, doubtful: readonly DoubtfulDie[], labelled: { readonly classes: readonly string[] } | undefined, io: CliIo, wording?: DoubtfulWording): Promise<void> {
  makeFolders(dir);
  const picture = join(dir, 'doubtful.png');
  const listing = join(dir, 'doubtful.txt');
  await writeFile(picture, await encodePng(tileCrops(doubtful.map((d) => d.crop))));
  const where = (d: DoubtfulDie): string =>
    labelled ? `${join(throwsDir, 'labels', `${throwName(d.throwIndex)}.txt`)}${d.labelLine !== undefined ? ` line ${d.labelLine}` : ''}` : join(throwsDir, 'images', `${throwName(d.throwIndex)}.jpg`);
  const lines = doubtful.map((d, i) => `${i + 1}. ${where(d)}: the die at x ${Math.round(d.centre.x)}, y ${Math.round(d.centre.y)}, named ${d.label}, ${d.because ?? `looks more like ${d.nearer}`}`);
  const say = wording ?? {
    fix: labelled
      ? `A wrong name: correct its line's class in the labels file, then calibrate --from-labelled ${throwsDir}.`
      : `A wrong name means its group showed two faces: run again on the kept throws (--camera ${throwsDir}) with more --groups, or name that group skip.`,
    summary: `${doubtful.length} named dice look more like another named face than their own (kept: hard dice are what the misread bounds must count)`,
  };
  // A label line starts with its class's number, counted from 0 down classes.txt.
  const legend = labelled ? `\n# A label line's first number is its class: ${labelled.classes.map((c, i) => `${i} ${c}`).join(', ')}.` : '';
  await writeFile(listing, `# Named dice that may be named wrong, in the order of doubtful.png (left to right, top to bottom).\n# ${say.fix}${legend}\n${lines.join('\n')}\n`);
  io.err(`  ${say.summary}; check them in ${picture} and ${listing}.\n`);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const reason = fileReadProblem(e);
    throw new InputError(`cannot read the ${what}: ${reason}.`, { file }, { cause: e });
  }
}
