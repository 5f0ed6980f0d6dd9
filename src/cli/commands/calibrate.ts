/**
 * `dicerig calibrate`: the command and its options, the summary of a new profile, and `--check` (a profile read on new
 * labelled rolls, from --images or thrown and named with --camera). Making a profile is calibrateFromFolder.ts
 * (--from-labelled) and calibrateGuided.ts (--camera).
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { labelledFolderPaths, readLabelledCrops } from '../../vision-io/labelledCrops.js';
import { readJsonFile, readProfileFile, writeProfileFile } from '../../vision-io/profileFile.js';
import { D6_CHECK_FORMAT } from '../../vision/calibration/d6Check.js';
import { checkOutputPath } from '../../vision-io/outputFile.js';
import { lightingPresets } from '../../camera/sim/lighting.js';
import { InputError } from '../../core/errors.js';
import { defaultCheckLimits, judgeProfileCheck } from '../../vision/calibration/check.js';
import { DEFAULT_HFOV_DEG } from '../../vision/calibration/learnedProfile.js';
import { defaultFineTuneOptions } from '../../vision/learned/fineTune.js';
import { OWN_COCKED_NEEDS_OUTLINE, SURE_OVER_DISPUTE } from '../../vision/learned/reader.js';
import type { LearnedProfileResult } from '../../vision/calibration/learnedProfile.js';
import { LEARNED_CLASSIFIER_KIND, shippedLearnedModelByVersion, shortHash } from '../../vision/calibration/profile.js';
import { narrowingCommand, withCheckedDice } from '../../vision/calibration/checkedDice.js';
import type { CalibrationProfile } from '../../vision/calibration/profile.js';
import type { TrainProfileResult } from '../../vision/calibration/trainProfile.js';
import { profileReader } from '../../vision-io/readerChoice.js';
import { evaluateLabelledCrops, formatConfusionMatrix } from '../../vision/labelledEval.js';
import type { CliIo } from '../io.js';
import { positiveIntArg, positiveNumberArg, nonNegativeIntArg, probabilityArg, toJson, fieldOfViewArg } from '../options.js';
import { evaluationJson, formatEvaluationText } from './vision.js';
import { formatCount, percent } from '../../core/format.js';
import { getDieType } from '../../dice/catalogue.js';
import { symbolProbabilities } from '../../dice/indexing.js';
import { misreadRatesOf, ThinMisreadMeasure, type MisreadAssumption } from '../../stats/misreadRate.js';
import { certifiableMarginLimit } from '../../stats/misreadReach.js';
import { profileMisreadAssumption, profileMisreadCounts } from '../../vision/calibration/profileMisreads.js';
import { createdAt } from './calibrateFlags.js';
import type { CalibrateFlags } from './calibrateFlags.js';
import { runD6Check } from './calibrateD6.js';
import { fromLabelled } from './calibrateFromFolder.js';
import { guided, labelNewThrows } from './calibrateGuided.js';
import { calibrationDiceOf } from '../../vision/calibration/guided.js';

/** Registers `dicerig calibrate`: build a profile from labelled photos or guided throws, or re-check one. */
export function registerCalibrateCommand(program: Command, io: CliIo): void {
  program
    .command('calibrate')
    .summary('teach the reader your X-Wing dice, measure it on your D6s (and learn their faces), or check that a calibration still holds')
    .description(
      'Builds a calibration profile for X-Wing d8s (red, green, or both: xwing) from samples of your own dice, validates it on ' +
        'held-back images (confusion matrix, rejection rate, accuracy) and saves it. Use one of: ' +
        '--from-labelled DIR (a labelled folder: images, YOLO labels and classes.txt with classes like red-hit, green-evade, cocked); ' +
        '--camera sim|DEVICE|THROWS (guided steps on the rig: empty-platform reference, channel regions, throws, each kept in ' +
        'OUT.throws as it is taken; the dice are grouped by what the reader sees and you name each group once, or split it, or ' +
        'name them in a file given with --labels-from; THROWS, a kept OUT.throws folder or the frames a session kept with run --keep-frames, gives its throws again); ' +
        '--check PROFILE (re-validate a profile on new labelled rolls given with --images, or thrown and named with --camera, ' +
        'and say whether it still holds). ' +
        'For D6-faced dice, --die d6 --from-labelled DIR writes a D6 check instead: how the pip reader reads your labelled dice, ' +
        'which a D6 session given it as calibration allows for in its verdicts (default file d6-check.json); --die d6 --camera ' +
        'sim|DEVICE|THROWS --die-size PX throws them on the rig first, groups them by what the D6 networks see (not by the ' +
        'pip reader being checked) and has you name each group as its pictures show it; --learn-faces also learns your ' +
        "dice's faces from them (a logo in place of a face's pips), and a session given the check reads with them. " +
        'See calibration/README.md.',
    )
    .addOption(new Option('--die <dice>', 'dice to calibrate (d6: measure how the pip reader reads your own D6s, labelled or thrown and named on the rig)').choices(['red', 'green', 'xwing', 'd6']))
    .option('--from-labelled <dir>', 'labelled folder to build the profile from')
    .option('--camera <source>', '"sim" for the simulated camera, a V4L2 device such as /dev/video0, or kept throws: the OUT.throws folder an earlier guided run kept, or a run --keep-frames folder')
    .option('--check <profile>', 'profile to re-validate on new labelled rolls (with --images, or --camera)')
    .option('--images <dir>', 'with --check: folder of new labelled photos')
    .option('--labels <dir>', 'labels folder (default: beside or inside the images folder)')
    .option('-o, --out <profile>', 'where to write the profile (default: calibration-<dice>.json, or d6-check.json for --die d6); with --check: a new file for the profile with the checked dice added (sessions then bound misreads by them)')
    .option('--name <name>', 'profile name (default: the file name)')
    .option('--created-at <time>', 'creation time to record, ISO 8601 (default: now)')
    .addOption(new Option('--face <face>', 'face the camera sees: bottom through a clear platform (mapped to the top face)').choices(['top', 'bottom']).default('top'))
    .option('--throws <n>', 'guided: throws to sample (the learned reader wants 150 or more: its misread bounds come from a quarter of the dice)', positiveIntArg, 60)
    .option('--channels <n>', 'guided: channels on the platform', positiveIntArg, 4)
    .option('--dice-per-channel <n>', 'guided: dice per channel', positiveIntArg, 1)
    .option('--die-size <px>', 'guided: d8 size across corners in the frames, pixels; --die d6 with --camera, or on a folder with its empty platforms: the D6 side your sessions read with (camera.dieSizePx; for D6s the default does not apply: give it)', positiveNumberArg, 72)
    .option('--seed <n>', 'guided: seed of the grouping (and of the simulated camera)', nonNegativeIntArg, 1)
    .option('--lighting <preset>', `guided, simulated camera: lighting (${Object.keys(lightingPresets).join(', ')})`, 'studio')
    .option('--groups <n>', 'guided: groups to form (default: three per face)', positiveIntArg)
    .option('--labels-from <file>', 'guided: names of the groups, one "<group> <name>" per line, instead of asking')
    .option('--min-accuracy <p>', 'with --check: lowest accuracy among dice read', probabilityArg, defaultCheckLimits.minAccuracy)
    .option('--max-decline <p>', 'with --check: highest share of flat dice declined', probabilityArg, defaultCheckLimits.maxDecline)
    .addOption(
      new Option('--reader <reader>', 'learned (default: the shipped network pre-trained on 3D renders, fitted or fine-tuned on your dice if that reads the held-back images better) or ring (the older ring-harmonics classifier; the default for the simulated camera, and for a --from-labelled folder vision simulate wrote, whose dice are drawn flat)').choices([
        'learned',
        'ring',
      ]),
    )
    .option('--hfov <deg>', "with --reader learned: the camera's horizontal field of view, degrees (where the top face lies)", fieldOfViewArg, DEFAULT_HFOV_DEG)
    .option('--fine-tune-passes <n>', `with --reader learned: passes over your dice when fine-tuning (fewer: faster, adapted less)`, positiveIntArg, defaultFineTuneOptions.epochs)
    .option('--no-fine-tune', 'with --reader learned: do not fine-tune the whole network on your dice (faster; only the shipped network and a fitted last layer compete)')
    .option('--learn-faces', 'with --die d6: also learn your dice\'s faces from the labelled dice, for faces the pip counter cannot count (a logo on the 6 or the 1); a session given the check reads with the pip counter and the learned faces together (at least 10 flat dice of each face; a folder read as whole frames)')
    .option('--json', 'print JSON')
    .action(async (flags: CalibrateFlags, command: Command) => {
      const given = (key: string): boolean => command.getOptionValueSource(key) === 'cli';
      if (flags.die === 'd6') {
        const out = flags.out ?? 'd6-check.json';
        await checkOutputPath(out, flags.out !== undefined ? '-o' : 'the default -o d6-check.json');
        return runD6Check(flags, out, { name: flags.name ?? basename(out, extname(out)), createdAt: createdAt(flags.createdAt), face: flags.face }, io, given);
      }
      if (flags.learnFaces === true) throw new InputError('--learn-faces is for D6s (--die d6): an X-Wing profile always learns your dice\'s faces.');
      const modes = [flags.fromLabelled, flags.camera, flags.check].filter((m) => m !== undefined).length;
      // --check takes its new rolls from --images, or from --camera (thrown and named as the guided steps name them).
      const checkOnCamera = flags.check !== undefined && flags.camera !== undefined && flags.fromLabelled === undefined;
      if (modes !== 1 && !checkOnCamera) throw new InputError('give exactly one of --from-labelled DIR, --camera sim|DEVICE|THROWS or --check PROFILE (its new rolls from --images DIR or --camera).');
      if (flags.check !== undefined) return runCheck(flags, flags.check, io, given);
      if (flags.die === undefined) throw new InputError('--die red|green|xwing|d6 is needed to calibrate.');
      // Fine-tuning is the learned reader's: said on a ring calibration, it would silently do nothing.
      const tuningSaid = ['fineTune', 'fineTunePasses'].some((k) => command.getOptionValueSource(k) === 'cli');
      if (tuningSaid && flags.reader === 'ring') throw new InputError('--fine-tune-passes and --no-fine-tune are for the learned reader (calibrate without --reader ring).');
      const out = flags.out ?? `calibration-${flags.die}.json`;
      await checkOutputPath(out, flags.out !== undefined ? '-o' : `the default -o ${out}`);
      const common = {
        name: flags.name ?? basename(out, extname(out)),
        createdAt: createdAt(flags.createdAt),
        face: flags.face,
      };
      const result = flags.fromLabelled !== undefined ? await fromLabelled(flags, flags.die, flags.fromLabelled, common, io, tuningSaid) : await guided(flags, flags.die, out, common, io, given);
      await writeProfileFile(out, result.profile);
      const classifierVersion = profileReader(result.profile).reader.classifierVersion;
      const candidates = isLearnedResult(result) ? { candidates: result.candidates.map(candidateJson), kept: result.why } : {};
      // What the summary's "verdicts with it" line says, per die: a margin, or why a session refuses the profile for it.
      if (flags.json) io.out(`${toJson({ profile: out, classifierVersion, warnings: result.warnings, validation: result.profile.validation, verdictReach: reachOf(result.profile), ...candidates })}\n`);
      else io.out(formatProfileSummary(result, out));
    });
}

function isD6Check(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as { format?: unknown }).format === D6_CHECK_FORMAT;
}

function isLearnedResult(result: TrainProfileResult | LearnedProfileResult): result is LearnedProfileResult {
  return 'candidates' in result;
}

/**
 * The validation dice by their truth (from the confusion matrix): flat dice declined, as unreadable or called cocked,
 * and truly cocked dice, which are re-rolled by the rule and so set apart, not declined.
 */
function byTruth(v: CalibrationProfile['validation']): { flat: number; unreadable: number; calledCocked: number; cocked: number } {
  const { rows, columns, counts } = v.confusion;
  const declinedAt = columns.indexOf('declined');
  const cockedAt = columns.indexOf('cocked');
  const out = { flat: 0, unreadable: 0, calledCocked: 0, cocked: 0 };
  rows.forEach((truth, r) => {
    const row = counts[r] ?? [];
    const total = row.reduce((a, b) => a + b, 0);
    if (truth === 'cocked') {
      out.cocked += total;
      return;
    }
    out.flat += total;
    out.unreadable += row[declinedAt] ?? 0;
    out.calledCocked += row[cockedAt] ?? 0;
  });
  return out;
}

function validationLine(v: CalibrationProfile['validation']): string {
  const t = byTruth(v);
  const declined = t.unreadable + t.calledCocked;
  return (
    `${v.samples} dice, ${v.read} read, ${v.correct} correct (accuracy ${percent(v.accuracy, 2)}), ` +
    `flat dice declined ${percent(t.flat > 0 ? declined / t.flat : 0, 1)} (${declined} of ${t.flat}: ${t.unreadable} unreadable, ${t.calledCocked} called cocked), ` +
    `${t.cocked} cocked ${t.cocked === 1 ? 'die' : 'dice'} (re-rolled, not counted as declines), ${v.confidentErrors} confident error${v.confidentErrors === 1 ? '' : 's'}, ${v.cockedReadAsFace} cocked read as a face`
  );
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

async function runCheck(flags: CalibrateFlags, profilePath: string, io: CliIo, given: (key: string) => boolean): Promise<void> {
  if (flags.images === undefined && flags.camera === undefined) throw new InputError('--check needs new labelled rolls: --images DIR (and --labels DIR unless the labels sit beside the images), or --camera sim|DEVICE|THROWS to throw and name them.');
  if (flags.images !== undefined && flags.camera !== undefined) throw new InputError('--check takes its new rolls from --images or from --camera, not both.');
  // Past sessions name the checked profile by its hash: the profile with the checked dice added is a new file.
  if (flags.out !== undefined && resolve(flags.out) === resolve(profilePath)) throw new InputError(`-o ${flags.out} is the profile being checked; write the checked profile to a new file (sessions that read with the old one name it by its hash).`, { file: flags.out });
  if (flags.out !== undefined) await checkOutputPath(flags.out, '-o');
  if (isD6Check(await readJsonFile(profilePath, 'calibration profile'))) {
    // A D6 check holds no promise --check could judge new dice against: vision eval measures them with its reader.
    throw new InputError(
      `this is a D6 check, which --check does not re-validate: measure its reader on new labelled dice with dicerig vision eval --die d6 --calibration ${profilePath} --images DIR (add --die-size PX for a folder with its empty platforms), or make the check again on them (dicerig calibrate --die d6 --from-labelled DIR).`,
      { file: profilePath },
    );
  }
  const profile: CalibrationProfile = await readProfileFile(profilePath);
  const paths = flags.camera !== undefined ? labelledFolderPaths(await checkThrows(flags, profile, profilePath, io, given)) : labelledFolderPaths(flags.images as string, flags.labels);
  const keep = (c: string): boolean => profile.classes.includes(c);
  const { reader, cut } = profileReader(profile);
  const folder = await readLabelledCrops(paths.images, paths.labels, keep, 1.3, cut);
  const other = folder.classes.filter((c) => !keep(c));
  const evaluation = evaluateLabelledCrops(folder.crops, reader, profile.classes);
  const verdict = judgeProfileCheck(profile, evaluation.perDie, { minAccuracy: flags.minAccuracy, maxDecline: flags.maxDecline });
  if (!verdict.holds) io.setExitCode(1);
  // Dice of which none was read bound no misread: a profile checked on them only, a session would refuse.
  const kept = flags.out !== undefined && verdict.flat.read > 0 ? withCheckedDice(profile, folder.images, evaluation.confusion, createdAt(flags.createdAt)) : undefined;
  const notWritten = flags.out !== undefined && kept === undefined && verdict.flat.total > 0 ? `nothing written to ${flags.out}: no die was read, so these dice bound no misread` : undefined;
  if (kept !== undefined) await writeProfileFile(flags.out as string, kept);
  if (flags.json) {
    io.out(`${toJson({ profile: profilePath, classifierVersion: reader.classifierVersion, holds: verdict.holds, reasons: verdict.reasons, flat: verdict.flat, cockedReadAsFace: verdict.cockedReadAsFace, promised: verdict.promised, warnings: folder.warnings, ...evaluationJson(evaluation), ...(kept ? { wrote: flags.out, checked: kept.checked, verdictReach: reachOf(kept) } : {}), ...(notWritten ? { notWritten } : {}) })}\n`);
    return;
  }
  const f = verdict.flat;
  const text = formatEvaluationText(`calibrate --check: profile ${profilePath} (classifier ${reader.classifierVersion}) on ${folder.images} images in ${paths.images}`, evaluation, [
    ...(other.length > 0 ? [`(boxes of classes the profile does not read were skipped: ${other.join(', ')})`] : []),
    ...folder.warnings.map((w) => `warning: ${w}`),
    `flat dice: ${f.total}, accuracy among read ${percent(f.accuracy, 2)} (held back at calibration: ${percent(verdict.promised.accuracy, 2)}), declined ${percent(f.declineRate, 1)} (limit ${percent(flags.maxDecline, 1)}); cocked read as a face: ${verdict.cockedReadAsFace}`,
  ]);
  // No flat die of the profile's classes: the labels, not the profile, are what is wrong, and recalibrating would not help.
  const conclusion = verdict.holds
    ? `verdict: the profile still holds (accuracy at least ${percent(flags.minAccuracy, 2)}, at most ${percent(flags.maxDecline, 1)} declined, no cocked die read as a face).`
    : f.total === 0
      ? `verdict: nothing to check: no labelled flat die of the profile's classes (${profile.classes.filter((c) => c !== 'cocked').join(', ')}) in ${paths.images}; label the new rolls with those classes.`
      : `verdict: the profile does NOT hold: ${verdict.reasons.join('; ')}. Recalibrate (dicerig calibrate --die ${calibrationDiceOf(profile.dice)} ...).`;
  io.out(`${text}\n${conclusion}\n${kept ? `${keptLine(kept, flags.out as string)}\n` : ''}${notWritten ? `${notWritten}.\n` : ''}`);
}

/**
 * New rolls for `--check` thrown and named on the rig: kept in `NEW.throws` beside `-o NEW.json`, else in
 * `PROFILE.check.throws` beside the profile; cut with the profile's field of view unless --hfov is given.
 */
async function checkThrows(flags: CalibrateFlags, profile: CalibrationProfile, profilePath: string, io: CliIo, given: (key: string) => boolean): Promise<string> {
  if (profile.face !== 'top') throw new InputError(`the profile reads the bottom face through a clear platform, which the guided steps do not name; label new rolls yourself and give them with --images.`, { file: profilePath });
  if (profile.dice.some((d) => d !== 'red' && d !== 'green')) throw new InputError(`the guided steps name X-Wing dice; the profile reads ${profile.dice.join(', ')}: label new rolls yourself and give them with --images.`, { file: profilePath });
  const dice = calibrationDiceOf(profile.dice);
  const stem = flags.out !== undefined ? join(dirname(flags.out), basename(flags.out, extname(flags.out))) : join(dirname(profilePath), `${basename(profilePath, extname(profilePath))}.check`);
  const hfov = !given('hfov') && profile.classifier.kind === LEARNED_CLASSIFIER_KIND ? profile.classifier.hfovDeg : flags.hfov;
  return labelNewThrows({ ...flags, hfov }, dice, stem, io, given);
}

/**
 * How close to fair a session reading with the profile could certify each of its dice, however long it rolls: its
 * verdicts allow for misreads up to the bounds its checked or validation dice set (`stats/misreadReach.ts`).
 */
function reachLine(p: CalibrationProfile): string {
  const each = reachOf(p).map((r) => ('refused' in r ? `no ${r.die} die at all (a session refuses it: ${r.refused})` : `a fair ${r.die} die to ±${percent(r.certifiableMargin, 1)} at best`));
  const by = p.checked ? `its ${formatCount(p.checked.images)} checked images' dice` : 'its validation dice';
  return `  verdicts with it: misreads bounded by ${by}, so a session can certify ${each.join(', ')} (newly labelled dice narrow them: ${narrowingCommand()})`;
}

/** Per die of the profile: how close to fair a session reading with it could certify it, or why a session refuses it. */
function reachOf(p: CalibrationProfile): ({ die: string; certifiableMargin: number } | { die: string; refused: string })[] {
  return p.dice.map((die) => {
    const type = getDieType(die);
    let misreads: MisreadAssumption;
    try {
      misreads = profileMisreadAssumption(p, die, type.symbols);
    } catch (e) {
      if (!(e instanceof ThinMisreadMeasure)) throw e;
      return { die, refused: e.why };
    }
    return { die, certifiableMargin: certifiableMarginLimit(symbolProbabilities(type), misreadRatesOf(misreads) ?? []) };
  });
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
