/**
 * `dicerig calibrate --die d6 --from-labelled DIR`: a D6 check. D6-faced dice are
 * read by their pips with nothing to fit; this measures how that reader reads
 * the user's own labelled dice, so a session's verdicts can allow for its
 * misreads (`vision/calibration/d6Check.ts`) instead of assuming none. With
 * `--learn-faces` it also learns the dice's faces (a logo the pips cannot
 * count) and measures the pip counter with them on dice they did not learn from. A folder
 * with its empty platforms (`empty/` or `reference.png`) is read whole frame by
 * whole frame, as a session reads throws, so the check also counts the flat
 * dice the blob checks call cocked; without them, crops cut round each box.
 */
import { basename, dirname, extname, join } from 'node:path';
import { InputError } from '../../core/errors.js';
import { formatCount, formatProbability, percent } from '../../core/format.js';
import { contingencyTest } from '../../stats/homogeneity.js';
import { d6Die } from '../../dice/catalogue.js';
import { topFaceReader } from '../../session/faceSeen.js';
import { misreadRatesOf, ThinMisreadMeasure, type MisreadAssumption } from '../../stats/misreadRate.js';
import { certifiableMarginLimit } from '../../stats/misreadReach.js';
import { storedConfusion } from '../../vision/calibration/checkedDice.js';
import { D6_CHECK_FORMAT, D6_CHECK_VERSION, d6CheckDeclines, d6CheckMisreadAssumption, HEAVY_DECLINE, sealD6Check, type D6Check, type FaceDeclines } from '../../vision/calibration/d6Check.js';
import { shortHash } from '../../vision/calibration/profile.js';
import { formatConfusionMatrix, scoreLabelledReads, type LabelledEvaluation } from '../../vision/labelledEval.js';
import type { FaceReader } from '../../vision/faceRead.js';
import { sessionPipeline } from '../../session/sessionPipeline.js';
import { holdsEmptyPlatforms, readLabelledFrames } from '../../vision-io/labelledFrames.js';
import { writeD6CheckFile } from '../../vision-io/d6CheckFile.js';
import { labelledFolderPaths, readLabelledCrops, requireFlatDice } from '../../vision-io/labelledCrops.js';
import { d6Reader, faceHeadReader, pipsWith } from '../../vision-io/readerChoice.js';
import { crossFitD6Reads, TooFewFacesError } from '../../vision/calibration/d6CrossFit.js';
import type { D6FaceHead } from '../../vision/calibration/d6FaceHead.js';
import { SKIP_NAME, SPLIT_NAME } from '../../vision/calibration/groupNaming.js';
import { runGuidedD6Check } from '../../vision/calibration/guidedD6.js';
import { D6NetOutputs } from '../../vision/d6/netEmbedding.js';
import { d6Nets } from '../../vision/d6/netReader.js';
import type { TinyNet } from '../../vision/d6/tinyNet.js';
import { shippedD6Net } from '../../vision/d6/netWeights.js';
import { holdsKeptThrows, writeThrowLabels } from '../../vision-io/keptThrows.js';
import type { CliIo } from '../io.js';
import { openGuidedRun, showDoubtful } from './calibrateGuided.js';
import { toJson } from '../options.js';
import type { CalibrateFlags, CommonFields } from './calibrateFlags.js';
import { keepsClass } from './vision.js';

/** The flags of X-Wing calibration that mean nothing for D6s: said with --die d6, they would silently do nothing. */
const XWING_ONLY = ['check', 'reader', 'hfov', 'fineTune', 'fineTunePasses'];

/** The flags of the guided steps on the rig: with --from-labelled they would do nothing. */
const CAMERA_ONLY = ['throws', 'channels', 'dicePerChannel', 'seed', 'lighting', 'groups', 'labelsFrom'];

/**
 * Reads every labelled die of `--from-labelled DIR` as a session reads D6s, or throws and names them first
 * (`--camera`: the guided D6 steps), and writes the check to `out`.
 */
export async function runD6Check(flags: CalibrateFlags, out: string, common: CommonFields, io: CliIo, given: (key: string) => boolean): Promise<void> {
  const said = XWING_ONLY.filter(given);
  if (said.length > 0 || (flags.fromLabelled === undefined) === (flags.camera === undefined)) {
    throw new InputError(
      `D6s are read by their pips (and by faces learned on your dice, with --learn-faces): --die d6 takes --from-labelled DIR (your own dice, labelled by the face on top) or --camera sim|DEVICE|THROWS (throws on the rig, named a group at a time) and measures how the reader reads them${said.length > 0 ? `; --${said.map(kebab).join(', --')} ${said.length > 1 ? 'are' : 'is'} for X-Wing dice` : ''}.`,
    );
  }
  const cameraOnly = flags.camera === undefined ? CAMERA_ONLY.filter(given) : [];
  if (cameraOnly.length > 0) throw new InputError(`--${cameraOnly.map(kebab).join(', --')} ${cameraOnly.length > 1 ? 'are' : 'is'} for the guided steps on the rig (--camera), not for --from-labelled.`);
  // The session's reader, reporting the face on top when the camera sees the bottom one: the faces a session records.
  const base = d6Reader('pips');
  const reader = topFaceReader(base, [d6Die], common.face);
  // Refused before anything is read: the faces are learned from the crops a session cuts from whole frames.
  if (flags.learnFaces === true && flags.fromLabelled !== undefined && !holdsEmptyPlatforms(labelledFolderPaths(flags.fromLabelled, flags.labels).images)) {
    throw new InputError(`--learn-faces learns the faces from the crops a session cuts from whole frames, so it needs a folder with its empty platforms (empty/<name> beside images/, or one reference.png) and --die-size PX.`, { file: flags.fromLabelled });
  }
  // One set of the D6 networks for the command, remembering what they made of each die: faces learned on kept
  // throws are learned from the very dice the grouping read.
  let networks: D6Networks | undefined;
  const d6Networks = (): D6Networks => (networks ??= { nets: d6Nets(shippedD6Net), outputs: new D6NetOutputs() });
  const named = flags.camera !== undefined ? await nameD6Throws(flags, out, common, base, io, given, d6Networks()) : undefined;
  const paths = labelledFolderPaths(named?.folder ?? (flags.fromLabelled as string), named === undefined ? flags.labels : undefined);
  const keep = (c: string): boolean => keepsClass('d6', c);
  const measured = await readD6Folder(paths, reader, keep, named?.dieSizePx ?? (given('dieSize') ? flags.dieSize : undefined));
  const learned = flags.learnFaces === true ? learnFaces(measured.reads, common.face, measured.dieSizePx as number, paths.images, io, d6Networks()) : undefined;
  const classes = measured.classes.filter(keep);
  const evaluation = scoreLabelledReads(learned?.reads ?? measured.reads, classes);
  const check = sealD6Check({
    format: D6_CHECK_FORMAT,
    version: D6_CHECK_VERSION,
    ...common,
    reader: learned ? faceHeadReader(learned.head).classifierVersion : base.classifierVersion,
    source: `${named?.how ?? ''}labelled folder ${paths.images} (${measured.images} images, ${measured.reads.length} dice)${measured.how}${learned ? `; faces learned on these dice, each image's dice read with faces learned on the other images' (${learned.folds} folds)` : ''}`,
    images: measured.images,
    ...(measured.dieSizePx !== undefined ? { dieSizePx: measured.dieSizePx } : {}),
    confusion: storedConfusion(evaluation.confusion),
    ...(learned ? { head: learned.head } : {}),
  });
  await writeD6CheckFile(out, check);
  if (flags.json) {
    io.out(`${toJson({ check: out, hash: check.hash, reader: check.reader, face: check.face, images: check.images, ...(check.dieSizePx !== undefined ? { dieSizePx: check.dieSizePx } : {}), confusion: check.confusion, ...d6CheckJson(check, measured.warnings) })}\n`);
    return;
  }
  io.out(`${formatD6CheckSummary(check, out, measured.warnings)}\n`);
}

/** The shipped D6 networks, and what they made of the dice they read. */
interface D6Networks {
  readonly nets: readonly TinyNet[];
  readonly outputs: D6NetOutputs;
}

/** Folds the faces are learned in, and the fewest flat dice of a face they are learned from. */
const FACE_FOLDS = 5;
const MIN_DICE_A_FACE = 10;

/**
 * Learns the dice's faces on the check's own dice (`--learn-faces`), and reads each image's dice as a session would
 * with faces learned on the other images' (`d6CrossFit.ts`), so the check measures the reader on dice new to it.
 */
function learnFaces(reads: LabelledEvaluation['reads'], face: 'top' | 'bottom', dieSizePx: number, folder: string, io: CliIo, networks: D6Networks): { head: D6FaceHead; reads: LabelledEvaluation['reads']; folds: number } {
  io.err(`Learning your dice's faces from ${formatCount(reads.length)} labelled dice, in ${FACE_FOLDS} folds of the images and once on all of them...\n`);
  try {
    return crossFitD6Reads(reads, {
      nets: networks.nets,
      netOutputs: networks.outputs,
      netsVersion: shippedD6Net.version,
      readerWith: (opinion) => topFaceReader(pipsWith(opinion), [d6Die], face),
      // Seen from below, a die shows the face opposite the one its label (the face on top) names.
      seen: (label) => (face === 'top' ? label : (d6Die.opposite[label] ?? label)),
      sizePx: dieSizePx,
      folds: FACE_FOLDS,
      seed: 1,
      minPerFace: MIN_DICE_A_FACE,
      onFitted: (done, total) => io.err(`  ${done < total ? `faces learned without fold ${done} of ${total - 1}` : 'learned on all the dice'}\n`),
    });
  } catch (e) {
    if (e instanceof TooFewFacesError) {
      // No die at all of a face, with plenty of the others: most likely its logo was named as another face.
      const none = e.short.filter((s) => s.dice === 0).map((s) => s.face);
      const logo = none.length > 0 ? ` No die is named ${none.join(' or ')}: a group of logos is named by the face the logo stands for, the one no other group shows.` : '';
      throw new InputError(`--learn-faces: ${e.message}; label or throw more dice of ${e.short.length > 1 ? 'those faces' : 'that face'}.${logo}`, { file: folder });
    }
    throw e;
  }
}

/**
 * Every labelled die of the folder as the reader reads it: whole frames against their empty platforms, with the die
 * size a session reads with (`--die-size`, its camera.dieSizePx), when the folder has them; else crops cut round each box.
 */
async function readD6Folder(
  paths: { readonly images: string; readonly labels?: string },
  reader: FaceReader,
  keep: (className: string) => boolean,
  dieSizePx: number | undefined,
): Promise<{ classes: readonly string[]; images: number; reads: LabelledEvaluation['reads']; warnings: readonly string[]; how: string; dieSizePx?: number }> {
  if (!holdsEmptyPlatforms(paths.images)) {
    if (dieSizePx !== undefined) throw new InputError(`--die-size is for a folder read as whole frames, which needs each image's empty platform (empty/<name> beside images/, or one reference.png); this folder has none, so its dice are read from crops cut round their boxes.`, { file: paths.images });
    const crops = await readLabelledCrops(paths.images, paths.labels, keep, 1.3);
    requireFlatDice(crops, 'd6', paths.images);
    return { classes: crops.classes, images: crops.images, reads: crops.crops.map((c) => ({ group: c.group, truth: c.label, read: reader.read(c.crop) })), warnings: crops.warnings, how: '' };
  }
  if (dieSizePx === undefined) {
    throw new InputError(`this folder has its empty platforms, so its frames are read as a session reads them: give --die-size PX, the D6 side in pixels your sessions read with (camera.dieSizePx).`, { file: paths.images });
  }
  const frames = await readLabelledFrames(paths.images, paths.labels, reader, sessionPipeline('pips', dieSizePx), keep);
  requireFlatDice({ classes: frames.classes, crops: frames.reads.map((r) => ({ label: r.truth })) }, 'd6', paths.images);
  return { ...frames, dieSizePx, how: `, whole frames read against their empty platforms as a session reads them (die size ${dieSizePx} px)` };
}

/**
 * The guided D6 steps: throws on the rig (or kept ones replayed), their dice grouped by the D6 networks and each
 * group named, written as the throws folder's labels. Returns the labelled folder, the die size it is read with
 * and how it was made (the start of the check's source line).
 */
async function nameD6Throws(flags: CalibrateFlags, out: string, common: CommonFields, pips: FaceReader, io: CliIo, given: (key: string) => boolean, networks: D6Networks): Promise<{ folder: string; dieSizePx: number; how: string }> {
  const replay = holdsKeptThrows(flags.camera as string);
  // A D6's side has no default: a size the dice are not would lose them to the locator, or call them touching.
  if (!replay && !given('dieSize')) throw new InputError('--die d6 --camera needs --die-size PX: the D6 side in pixels your sessions read with (camera.dieSizePx; measure a die in a frame).');
  const stem = join(dirname(out), basename(out, extname(out)));
  const run = await openGuidedRun(flags, 'd6', stem, io, given, () => true);
  try {
    const dieSizePx = run.steps.dieSizePx;
    const result = await runGuidedD6Check({
      learnFaces: flags.learnFaces === true,
      ...run.steps,
      dice: run.steps.channels * (run.steps.dicePerChannel ?? 1),
      reader: pips,
      pipeline: sessionPipeline('pips', dieSizePx),
      nets: networks.nets,
      // Remembered only for faces learned next on the same dice.
      ...(flags.learnFaces === true ? { netOutputs: networks.outputs } : {}),
      face: common.face,
    });
    io.err(`  groups: ${result.clusters.map((c) => `${c.id}=${c.name}`).join(', ')}\n`);
    const count = await writeThrowLabels(run.throwsDir, result.classes, result.throws);
    io.err(`  ${count} dice named; ${run.throwsDir} is now a labelled folder with its reference (calibrate --die d6 --from-labelled ${run.throwsDir} --die-size ${dieSizePx} reads it again; correct labels there by hand if you like).\n`);
    if (result.doubtful.length > 0) {
      const top = common.face === 'bottom' ? ' (the face on top: the opposite of the face its picture shows)' : '';
      await showDoubtful(`${stem}.groups`, run.throwsDir, result.doubtful, result, io, {
        fix: `A wrong name: correct its line's class in the labels file${top}, then calibrate --die d6 --from-labelled ${run.throwsDir} --die-size ${dieSizePx}.`,
        summary: `${result.doubtful.length} named dice the pip counter read as another face, the blob checks called cocked, or ${flags.learnFaces === true ? 'faces learned on the other throws read as another face, or the D6 networks' : 'the D6 networks read as another face or'} see nearer another named one (kept as named: named right, they are the misreads the check must count)`,
      });
    }
    const groups = result.clusters.filter((c) => c.name !== SKIP_NAME && c.name !== SPLIT_NAME).length;
    return { folder: run.throwsDir, dieSizePx, how: `guided check: ${result.throws.length} throws on ${run.camera.description}, ${groups} groups named; ` };
  } finally {
    await run.close();
  }
}

/** The misreads a session would allow for with the check, or why it would refuse it. */
function checkMisreads(check: D6Check): { misreads: MisreadAssumption } | { refused: string } {
  try {
    return { misreads: d6CheckMisreadAssumption(check, d6Die.faces.map((f) => f.id)) };
  } catch (e) {
    if (!(e instanceof ThinMisreadMeasure)) throw e;
    return { refused: e.why };
  }
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** What the check found, as its summary says it and its JSON gives it: misreads or why a session refuses it, the reach, the declines. */
function d6CheckFigures(check: D6Check): {
  measured: ReturnType<typeof checkMisreads>;
  certifiableMargin?: number;
  declines: (FaceDeclines & { rate: number })[];
  declinesAlikeP?: number;
  heavyDeclineWarning?: string;
} {
  const measured = checkMisreads(check);
  const margin = 'refused' in measured ? undefined : certifiableMarginLimit(d6Die.faceProbabilities, misreadRatesOf(measured.misreads) ?? []);
  const declines = d6CheckDeclines(check, d6Die.faces.map((f) => f.id)).map((d) => ({ ...d, rate: d.dice > 0 ? d.declined / d.dice : 0 }));
  const heavy = declines.filter((d) => d.rate >= HEAVY_DECLINE);
  // Whether the declines depend on the face (Pearson's chi-square over faces x declined or not), as vision eval tests it.
  const p = declines.some((d) => d.declined > 0) ? contingencyTest(declines.map((d) => [d.declined, d.dice - d.declined])).pearson.p : undefined;
  // Unresolved rolls count as any face until labelled: a face declined this often holds its dice's verdicts open.
  const warning =
    heavy.length > 0
      ? `the ${check.head !== undefined ? 'reader, with the faces it learned,' : 'pip reader'} declines ${heavy.map((d) => `${percent(d.rate, 0)} of the ${d.face}s`).join(', ')} on your dice. A session keeps each as an unresolved roll, which counts as any face until a person labels it (dicerig review), so verdicts on these dice wait on those labels. ${check.head !== undefined ? 'Glare or dim light on the faces declines them too; more labelled dice of those faces teach it more.' : "A face shown otherwise than with pips (a logo) is not counted, and glare or dim light on the pips declines them too: make the check again with --learn-faces to learn your dice's faces from these dice."}`
      : undefined;
  return { measured, ...(margin !== undefined ? { certifiableMargin: margin } : {}), declines, ...(p !== undefined ? { declinesAlikeP: p } : {}), ...(warning !== undefined ? { heavyDeclineWarning: warning } : {}) };
}

/** The check's figures for --json: what the summary says, as fields. */
function d6CheckJson(check: D6Check, folderWarnings: readonly string[]): Record<string, unknown> {
  const f = d6CheckFigures(check);
  return {
    ...f.measured,
    // Absent when a session would refuse the check (`refused` says why): there is no margin to give.
    certifiableMargin: f.certifiableMargin ?? null,
    declines: f.declines,
    declinesAlikeP: f.declinesAlikeP ?? null,
    warnings: [...(f.heavyDeclineWarning !== undefined ? [f.heavyDeclineWarning] : []), ...folderWarnings],
  };
}

/** What the check found, and how close to fair a session reading with it could certify a fair D6. */
export function formatD6CheckSummary(check: D6Check, file: string, folderWarnings: readonly string[] = []): string {
  const { measured, certifiableMargin, declines, declinesAlikeP, heavyDeclineWarning } = d6CheckFigures(check);
  let reach: string;
  if ('refused' in measured) {
    reach = `  verdicts with it: none (a session refuses it: ${measured.refused}); make the check with more dice of that face (more throws, or more labelled dice)`;
  } else {
    const perFace = (measured.misreads.faces ?? []).map((f) => `${f.label}: ${f.misread} of ${formatCount(f.read)} misread, bound ${percent(f.bound, 1)}`);
    reach = `  misreads: ${perFace.join('; ')}\n  verdicts with it: a session can certify a fair D6 to ±${percent(certifiableMargin as number, 1)} at best`;
  }
  const byFace = declinesAlikeP !== undefined ? `; alike across faces? chi-square p = ${formatProbability(declinesAlikeP)}` : '';
  const declined = `  declined (a session keeps each unresolved): ${declines.map((d) => `${d.face}: ${percent(d.rate, 1)} (${d.declined} of ${formatCount(d.dice)})`).join('; ')}${byFace}`;
  return [
    `D6 check written to ${file} (${shortHash(check)}; reader ${check.reader}; face seen: ${check.face}).`,
    `  dice: ${check.source}`,
    reach,
    declined,
    ...(heavyDeclineWarning !== undefined ? [`  warning: ${heavyDeclineWarning}`] : []),
    ...folderWarnings.map((w) => `  warning: ${w}`),
    `  give it to a D6 session as "calibration: ${file}"; its verdicts then allow for these misreads.`,
    '',
    'confusion matrix (rows: truth; columns: what was read, then declined and cocked):',
    formatConfusionMatrix(check.confusion),
  ].join('\n');
}
