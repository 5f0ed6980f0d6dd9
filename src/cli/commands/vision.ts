import { Option } from 'commander';
import type { Command } from 'commander';
import { pooledFolderPaths, readPooledCrops, readPooledFrames } from '../../vision-io/pooledCrops.js';
import { requireFlatDice } from '../../vision-io/labelledCrops.js';
import { lightingPresets } from '../../camera/sim/lighting.js';
import type { LightingPresetName } from '../../camera/sim/lighting.js';
import { writeSimLabelledFolder } from '../../camera/sim/writeLabelledFolder.js';
import type { SimFolderDice } from '../../camera/sim/writeLabelledFolder.js';
import { InputError } from '../../core/errors.js';
import { sameD6DieSize } from '../../vision/calibration/d6Check.js';
import { chooseReader } from '../../vision-io/readerChoice.js';
import type { D6ReaderChoice, ReaderDice } from '../../vision-io/readerChoice.js';
import { COCKED_LABEL, dieOfClass, evaluateLabelledCrops, formatConfusionMatrix, scoreLabelledReads } from '../../vision/labelledEval.js';
import { sessionPipeline } from '../../session/sessionPipeline.js';
import type { DieScore, LabelledEvaluation } from '../../vision/labelledEval.js';
import type { ReaderTargets } from '../../vision/readerMetrics.js';
import { causeName, D6_PHOTO_TARGETS, formatReaderMetrics, metricItemsOf, readerMetrics, RENDER_TARGETS, targetChecks } from '../../vision/readerMetrics.js';
import { renderTable } from '../../core/textTable.js';
import { learnedReaderFor, registerLearnedAdapt } from './learnedReader.js';
import type { CliIo } from '../io.js';
import { nonNegativeIntArg, positiveIntArg, positiveNumberArg, rateArg, toJson, fieldOfViewArg } from '../options.js';
import { percent } from '../../core/format.js';
import { checkOutputFolder } from '../outputFile.js';

/** Dice `vision eval` reads. */
export type EvalDice = ReaderDice;

/** Which labelled boxes an evaluation of these dice covers: their classes and `cocked`. */
export function keepsClass(dice: EvalDice, className: string): boolean {
  if (className === COCKED_LABEL) return true;
  const die = dieOfClass(className);
  if (dice === 'xwing') return die === 'red' || die === 'green';
  return die === dice;
}

/** The per-die table: dice, read, correct, accuracy among read, declined (cocked, unreadable), misread. */
export function formatDieScores(perDie: readonly DieScore[], indent = ''): string {
  const rows = perDie.map((d) => [
    d.die,
    String(d.total),
    String(d.read),
    String(d.correct),
    percent(d.accuracyAmongRead, 2),
    percent(d.declineRate, 1),
    String(d.cocked),
    String(d.unreadable),
    String(d.wrong),
  ]);
  const table = renderTable(['die', 'dice', 'read', 'correct', 'accuracy', 'declined', 'cocked', 'unreadable', 'misread'], rows, 1, indent);
  return perDie.some((d) => d.die === COCKED_LABEL) ? `${table}${indent}(a cocked die "misread" is one read as a face)\n` : table;
}

/** Text report of an evaluation. */
export function formatEvaluationText(title: string, evaluation: LabelledEvaluation, extra: readonly string[] = [], targets: ReaderTargets = RENDER_TARGETS): string {
  const r = evaluation.report;
  const lines = [
    title,
    ...extra,
    `all dice: ${r.total}, read ${r.read}, correct ${r.correct} (accuracy among read ${percent(r.accuracyAmongRead, 2)}), declined ${r.declined} (${percent(r.declineRate, 1)}: ${r.cocked} cocked, ${r.declined - r.cocked} unreadable), misread ${r.errors.length}`,
    '',
    formatDieScores(evaluation.perDie).trimEnd(),
    '',
    'confusion matrix (rows: truth; columns: what was read, then declined and cocked):',
    formatConfusionMatrix(evaluation.confusion),
    '',
    formatReaderMetrics(readerMetrics(metricItemsOf(evaluation.reads), evaluation.confusion.rows), targets),
  ];
  if (r.errors.length > 0) {
    lines.push('', `misreads, most confident first:`);
    for (const e of r.errors.slice(0, 10)) lines.push(`  ${e.group}: ${e.truth} read as ${e.read.symbol ?? e.read.status} (confidence ${e.read.confidence.toFixed(4)})`);
    if (r.errors.length > 10) lines.push(`  ... and ${r.errors.length - 10} more`);
  }
  return `${lines.join('\n')}\n`;
}

/** A reader's confidence for JSON: a number, or null with why (JSON has no NaN; a string "NaN" would pass for a value). */
function confidenceJson(confidence: number): { confidence: number | null; confidenceWhy?: string } {
  return Number.isFinite(confidence) ? { confidence } : { confidence: null, confidenceWhy: 'the reader gave this die no confidence (not a number)' };
}

/** Per-face recall and decline rate, decline spread, confident errors, cocked dice read as faces, and the targets. */
function readerMetricsJson(evaluation: LabelledEvaluation, targets: ReaderTargets): Record<string, unknown> {
  const m = readerMetrics(metricItemsOf(evaluation.reads), evaluation.confusion.rows);
  return {
    perFace: m.perClass.map((c) => (c.total > 0 ? c : { ...c, recall: null, declineRate: null, ratesWhy: 'no die of this face' })),
    declineSpread: Number.isFinite(m.declineSpread) ? m.declineSpread : null,
    // JSON has no infinity: the text's "unbounded" is said here, beside the null.
    ...(Number.isFinite(m.declineSpread) ? {} : { declineSpreadWhy: 'unbounded: one face was never declined and another was' }),
    declineTest: m.declineTest,
    spreadOverTargetByChance: m.spreadOverTargetByChance,
    confidentErrors: m.confidentErrors.map((e) => ({ image: e.group, truth: e.truth, read: e.readClass, ...confidenceJson(e.confidence) })),
    confidentAt: m.confidentAt,
    cockedReadAsFace: m.cockedReadAsFace,
    cockedDeclinedBy: m.cockedCauses,
    targetSet: targets.label,
    targets: targetChecks(m, targets).map((t) => ({ ...t, value: Number.isFinite(t.value) ? t.value : null, ...(Number.isFinite(t.value) ? {} : { valueWhy: Number.isNaN(t.value) ? 'no die to measure it on' : 'unbounded' }) })),
  };
}

/** JSON form of an evaluation. */
export function evaluationJson(evaluation: LabelledEvaluation, targets: ReaderTargets = RENDER_TARGETS): Record<string, unknown> {
  const r = evaluation.report;
  return {
    summary: {
      total: r.total,
      read: r.read,
      correct: r.correct,
      declined: r.declined,
      cocked: r.cocked,
      misread: r.errors.length,
      // Rates of nothing are null (not the string "NaN"), and say so.
      accuracyAmongRead: r.read > 0 ? r.accuracyAmongRead : null,
      declineRate: r.total > 0 ? r.declineRate : null,
      correctRate: r.total > 0 ? r.correctRate : null,
      ...(r.read === 0 ? { accuracyAmongReadWhy: 'no die was read' } : {}),
    },
    perDie: evaluation.perDie.map((d) => ({
      ...d,
      accuracyAmongRead: d.read > 0 ? d.accuracyAmongRead : null,
      declineRate: d.total > 0 ? d.declineRate : null,
      ...(d.read === 0 ? { accuracyAmongReadWhy: 'no die was read' } : {}),
    })),
    confusion: evaluation.confusion,
    misreads: r.errors.map((e) => ({ image: e.group, truth: e.truth, read: e.read.symbol ?? e.read.status, ...confidenceJson(e.read.confidence) })),
    // Each declined die with the reader's words, so a user can see why (their light, their dice, or a cocked die).
    declines: evaluation.reads
      .filter(({ read }) => read.status !== 'read')
      .map(({ group, truth, read }) => ({ image: group, truth, status: read.status, cause: causeName(read.cause), ...confidenceJson(read.confidence), reason: read.reason ?? '' })),
    perImage: r.perGroup,
    ...readerMetricsJson(evaluation, targets),
    ...(evaluation.msPerRead !== undefined ? { msPerRead: evaluation.msPerRead } : {}),
  };
}

interface EvalFlags {
  die: EvalDice;
  reader: D6ReaderChoice;
  calibration?: string;
  images: string[];
  labels?: string;
  json?: boolean;
  learned?: boolean;
  head?: string;
  hfov: number;
  targets?: TargetSet;
  dieSize?: number;
}

/** The issue's target sets: renders (calibrated on 150 labelled images of their kind), or photos of D6s in a tray. */
const TARGET_SETS = { renders: RENDER_TARGETS, 'd6-photos': D6_PHOTO_TARGETS } as const;
type TargetSet = keyof typeof TARGET_SETS;

/** The targets an evaluation is held to: those asked for, else D6 photos for D6s (the photos they are measured on) and renders for the rest. */
export function targetsFor(die: EvalDice, asked?: TargetSet): ReaderTargets {
  return TARGET_SETS[asked ?? (die === 'd6' ? 'd6-photos' : 'renders')];
}

interface SimulateFlags {
  dice: SimFolderDice;
  out: string;
  seed: number;
  frames: number;
  lighting: string;
  framesPerSession: number;
  channels: number;
  dicePerChannel: number;
  cockedRate: number;
  dieSize: number;
  format: 'jpg' | 'png';
  emptyPlatform?: boolean;
  logo?: string;
  force?: boolean;
}

function lightingList(value: string): LightingPresetName[] {
  const names = value.split(',').map((s) => s.trim());
  for (const n of names) {
    if (!(n in lightingPresets)) throw new InputError(`unknown lighting preset "${n}"; presets are: ${Object.keys(lightingPresets).join(', ')}.`);
  }
  return names as LightingPresetName[];
}

/** Registers `dicerig vision eval` and `dicerig vision simulate`. */
export function registerVisionCommand(program: Command, io: CliIo): void {
  const vision = program.command('vision').description('Check the die reader: evaluate it on labelled photos, or make labelled photos with the simulated camera.');

  vision
    .command('eval')
    .description(
      'Reads every labelled die in a folder of photos (YOLO labels and classes.txt, e.g. ../shared/datasets/d6-tray-photos) and prints, per die type, ' +
        'accuracy among dice read, how many were declined (cocked or unreadable) and the confusion matrix. X-Wing classes carry the colour ' +
        '(red-hit, green-evade, ...); with --die xwing red and green dice in the same photos are told apart by colour.',
    )
    .addOption(new Option('--die <dice>', 'which dice to read').choices(['d6', 'red', 'green', 'xwing']).makeOptionMandatory())
    .option('--calibration <profile>', 'calibration profile for X-Wing dice (default: the shipped default profile, made on the simulated camera); for D6s, a D6 check: read with the reader it measured (with the faces it learned, if any)')
    .addOption(
      new Option(
        '--reader <reader>',
        'how D6s are read: pips (pip counting, any die), learned (the shipped classifier, trained on tray photos 1..80 and 101..150; 151..200 held out), combined (pips with the classifier as a second opinion)',
      )
        .choices(['pips', 'learned', 'combined'])
        .default('combined'),
    )
    .requiredOption('--images <dirs...>', 'folder of photos (or a dataset folder holding images/ and labels/); several folders are read as one set, e.g. to have enough dice to judge the decline spread')
    .option('--labels <dir>', 'folder of label files and classes.txt (default: beside or inside the images folder)')
    .option('--json', 'print JSON')
    .option('--learned', 'read with the learned reader (network pre-trained on 3D renders, top face found by perspective) instead')
    .option('--head <file>', 'with --learned: the calibration head fitted on your own dice (dicerig vision adapt)')
    .option('--hfov <deg>', "with --learned: the camera's horizontal field of view, degrees", fieldOfViewArg, 54)
    .option(
      '--die-size <px>',
      'D6s: read whole frames against their empty platforms (empty/<name> beside images/, or one reference.png), as a session reads throws, with this die side in pixels (camera.dieSizePx): location and the blob checks are measured too',
      positiveNumberArg,
    )
    .addOption(
      new Option('--targets <set>', "which of the reader's targets to check: renders (>= 99.5 % correct among read) or d6-photos (>= 99 %); both <= 5 % declined (default: d6-photos for --die d6, else renders)").choices(
        Object.keys(TARGET_SETS),
      ),
    )
    .action(async (flags: EvalFlags, command: Command) => {
      if (flags.die === 'd6' && flags.calibration !== undefined && command.getOptionValueSource('reader') === 'cli') {
        throw new InputError('--reader and --calibration together: with a D6 check as --calibration, D6s are read with the reader it measured (the pip counter, with the faces it learned if any).', { file: flags.calibration });
      }
      const paths = pooledFolderPaths(flags.images, flags.labels);
      if (flags.head !== undefined && !flags.learned) throw new InputError('--head is a head for the learned reader; add --learned.', { file: flags.head });
      const learned = flags.learned ? await learnedReaderFor(flags.die, flags.hfov, flags.head) : undefined;
      const chosen = learned ? undefined : await chooseReader(flags.die, { calibration: flags.calibration, d6: flags.reader });
      const { reader, profilePath, note, cut } = learned ? { reader: learned.reader, profilePath: undefined, note: `trained on ${learned.reader.model.trainedOn}`, cut: learned.cut } : (chosen as NonNullable<typeof chosen>);
      // Faces learned from a session's crops read a box's crop otherwise: measured on those, figures would be of another reader.
      const learnedAt = chosen?.learnedAtDieSizePx;
      if (learnedAt !== undefined && (flags.dieSize === undefined || !sameD6DieSize(learnedAt, flags.dieSize))) {
        throw new InputError(`the D6 check's faces were learned from the crops a session cuts from whole frames with dice ${learnedAt} px across: read a folder with its empty platforms with --die-size ${learnedAt}${flags.dieSize !== undefined ? `, not ${flags.dieSize}` : ''}.`, { file: flags.calibration as string });
      }
      const keep = (c: string): boolean => keepsClass(flags.die, c);
      const where = paths.map((p) => p.images).join(', ');
      let folder: { readonly classes: readonly string[]; readonly images: number; readonly warnings: readonly string[] };
      let evaluation: LabelledEvaluation;
      if (flags.dieSize !== undefined) {
        if (flags.die !== 'd6' || learned) throw new InputError('--die-size reads whole frames as a D6 session reads them: it is for --die d6, without --learned.');
        const frames = await readPooledFrames(paths, reader, sessionPipeline('pips', flags.dieSize), keep);
        requireFlatDice({ classes: frames.classes, crops: frames.reads.map((r) => ({ label: r.truth })) }, flags.die, where);
        folder = frames;
        evaluation = scoreLabelledReads(frames.reads, frames.classes.filter(keep));
      } else {
        const crops = await readPooledCrops(paths, keep, 1.3, cut);
        requireFlatDice(crops, flags.die, where);
        folder = crops;
        evaluation = evaluateLabelledCrops(crops.crops, reader, crops.classes.filter(keep), () => performance.now());
      }
      const targets = targetsFor(flags.die, flags.targets);
      if (flags.json) {
        io.out(
          `${toJson({ dice: flags.die, classifierVersion: reader.classifierVersion, ...(profilePath ? { profile: profilePath } : {}), ...(note ? { note } : {}), images: folder.images, warnings: folder.warnings, ...evaluationJson(evaluation, targets) })}\n`,
        );
        return;
      }
      io.out(
        formatEvaluationText(`vision eval: ${flags.die} dice in ${folder.images} images (${paths.map((p) => p.images).join(', ')})`, evaluation, [
          `classifier ${reader.classifierVersion}${profilePath ? ` (profile ${profilePath})` : ''}; ${evaluation.msPerRead !== undefined ? `median ${evaluation.msPerRead.toFixed(2)} ms per die` : `whole frames read against their empty platforms as a session reads them (die size ${flags.dieSize} px): location and the blob checks included`}`,
          ...(note ? [`note: ${note}`] : []),
          ...folder.warnings.map((w) => `warning: ${w}`),
        ], targets),
      );
    });

  registerLearnedAdapt(vision, io, (dice, c) => keepsClass(dice as EvalDice, c));

  vision
    .command('simulate')
    .description(
      'Renders a labelled folder with the simulated camera (seeded): images/ and labels/ in the layout of the shared datasets, ' +
        'classes like red-hit, green-evade and cocked. Used to make the default calibration profiles (see calibration/README.md).',
    )
    .addOption(new Option('--dice <dice>', 'dice in the frames').choices(['red', 'green', 'xwing', 'd6']).makeOptionMandatory())
    .requiredOption('--out <dir>', 'folder to write (images/ and labels/ are made inside)')
    .option('--seed <n>', 'seed of the first session (each session adds 1)', nonNegativeIntArg, 1)
    .option('--frames <n>', 'frames to render', positiveIntArg, 40)
    .option('--lighting <names>', `lighting presets, comma-separated, one per session in turn (${Object.keys(lightingPresets).join(', ')})`, 'studio')
    .option('--frames-per-session <n>', 'frames per simulated session (new die looks and glare each session)', positiveIntArg, 10)
    .option('--channels <n>', 'channels in the rig', positiveIntArg, 6)
    .option('--dice-per-channel <n>', 'dice per channel', positiveIntArg, 2)
    .option('--cocked-rate <p>', 'probability that a die rests cocked, 0 (none) up to but not including 1', rateArg, 0.08)
    .option('--die-size <px>', 'die size in pixels (d8: across corners); at least what the readers read (D6s 8, X-Wing dice 12), at most what fits the channels', positiveNumberArg, 72)
    .addOption(new Option('--format <format>', 'image format').choices(['jpg', 'png']).default('jpg'))
    .option('--force', 'write into a folder that is not empty, replacing its images/, labels/ and empty/ (nothing else in it is touched)')
    .option('--empty-platform', 'also write empty/<name>: each frame\'s platform without its dice, so the folder can be read as a session reads frames (calibrate --die d6)')
    .addOption(new Option('--logo <face>', 'D6s: every die shows this face as a logo instead of pips, as many D6s do on the 6 or the 1 (labelled by its number)').choices(['1', '2', '3', '4', '5', '6']))
    .action(async (flags: SimulateFlags) => {
      if (flags.logo !== undefined && flags.dice !== 'd6') throw new InputError(`--logo is a D6 face shown as a logo; --dice ${flags.dice} has no pips to replace.`);
      checkOutputFolder('--out', flags.out);
      const summary = await writeSimLabelledFolder({
        dir: flags.out,
        dice: flags.dice,
        seed: flags.seed,
        frames: flags.frames,
        lighting: lightingList(flags.lighting),
        framesPerSession: flags.framesPerSession,
        channels: flags.channels,
        dicePerChannel: flags.dicePerChannel,
        cockedRate: flags.cockedRate,
        dieSizePx: flags.dieSize,
        format: flags.format,
        emptyPlatform: flags.emptyPlatform === true,
        replace: flags.force === true,
        ...(flags.logo !== undefined ? { logoFace: flags.logo } : {}),
      });
      const counts = summary.classes.map((c) => `${c} ${summary.perClass[c] ?? 0}`).join(', ');
      io.out(`Wrote ${summary.images} images with ${summary.dice} labelled dice to ${flags.out} (${counts}).\n`);
    });
}
