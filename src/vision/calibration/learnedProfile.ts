/**
 * A calibration profile read by the shipped learned network (pre-trained on 3D
 * renders, top face found by perspective parallax). Calibration holds back
 * every k-th image and scores three candidates on the same held-back dice: the
 * network with its own thresholds, the network with a last layer fitted on the
 * other images (`adaptReader`), and the whole network fine-tuned on them
 * (`fineTuneNetwork`: what carries it over to dice whose icons are drawn
 * unlike the renders'), each of its reads confirmed by that head (a read stands
 * only when the head's most probable face is the same). The one with the lowest cost ships, a wrong read (a
 * cocked die read as a face counts as wrong) costing as much as ten declined
 * flat dice (`candidateCost`); its reads of dice it was not fitted on are the
 * profile's validation (every die for the shipped network, the held-back ones
 * for a head or a fine-tuned network), so the misread
 * bounds a session's verdicts allow for come from exactly the reader that reads.
 */
import { InputError } from '../../core/errors.js';
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { classOfRead } from '../labelledEval.js';
import { adaptReader, defaultAdaptOptions } from '../learned/adapt.js';
import { blankWitnessLevels } from '../learned/blankWitness.js';
import { outlineLevel } from '../learned/outlineLevel.js';
import { splitClass } from '../learned/model.js';
import { defaultFineTuneOptions, fineTuneNetwork, tunedReader } from '../learned/fineTune.js';
import type { FineTuneOptions } from '../learned/fineTune.js';
import type { AdaptOptions, AdaptSample } from '../learned/adapt.js';
import type { LearnedHead, LearnedModel } from '../learned/model.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../learned/reader.js';
import type { BlankWitness } from '../learned/reader.js';
import { learnedCutter, learnedPipelineCrop, type LearnedPipelineCrop } from '../learned/shipped.js';
import type { RgbImage, Rect } from '../../core/image.js';
import { calibrationDice, round6, validationOf } from './heldBack.js';
import type { HeldBackRead } from './heldBack.js';
import { COCKED_CLASS, LEARNED_CLASSIFIER_KIND, PROFILE_FORMAT, PROFILE_VERSION, sealProfile, shippedLearnedModelByVersion, shortHash } from './profile.js';
import type { LearnedClassifier, LearnedProfile, ProfileValidation } from './profile.js';
import { platformFields } from './profileBuild.js';
import type { ProfileBuildOptions } from './profileBuild.js';
import { splitByGroup } from './trainProfile.js';
import type { TrainProfileResult } from './trainProfile.js';

/** The camera's horizontal field of view assumed when none is given, degrees (the renders span 42–66). */
export const DEFAULT_HFOV_DEG = 54;

export interface LearnedProfileOptions extends ProfileBuildOptions {
  /** The camera's horizontal field of view the crops were cut with, degrees. */
  readonly hfovDeg: number;
  /** Turns/mirrors of each crop averaged (default: as many as the shipped network's thresholds were set with). */
  readonly views?: number;
  readonly adapt?: AdaptOptions;
  /** Fine-tuning's options; `false`: do not fine-tune (only the shipped network and a fitted head compete). */
  readonly fineTune?: FineTuneOptions | false;
}

/** One reader scored on the held-back dice. */
export interface LearnedCandidate {
  readonly name: 'shipped network' | 'fitted head' | 'fine-tuned network confirmed by the head';
  readonly classifier: LearnedClassifier;
  readonly rejectionThreshold: number;
  readonly validation: ProfileValidation;
  /** Held-back dice read as another class (cocked dice read as a face included). */
  readonly wrong: number;
  /** Held-back flat dice declined (unreadable or called cocked). */
  readonly declinedFlat: number;
}

export interface LearnedProfileResult extends TrainProfileResult<LearnedProfile> {
  /** Every candidate as measured, the kept one first. */
  readonly candidates: readonly LearnedCandidate[];
  /** Why the kept candidate was kept, in words. */
  readonly why: string;
}

/** The learned reader a learned profile describes: the shipped network, or its fine-tuned weights, the profile's head if any, its views. */
export function learnedReaderOf(classifier: LearnedClassifier): LearnedReader {
  const model = shippedLearnedModelByVersion(classifier.model);
  if (model === undefined) throw new InputError(`the learned network ${classifier.model} is not shipped with this dicerig.`);
  const options = { ...defaultLearnedReaderOptions, views: classifier.views };
  const blankWitness = blankWitnessFor(classifier, () => new LearnedReader(model, options));
  // Only the reader that decides tilt needs the user's outline level: the confirmer and the witness are asked faces.
  const outline = classifier.outlineAt !== undefined ? { outlineAt: classifier.outlineAt } : {};
  if (classifier.tuned !== undefined) {
    const confirmer = classifier.confirm !== undefined ? new LearnedReader(model, options, classifier.confirm) : undefined;
    return tunedReader(model, classifier.tuned, { views: classifier.views, ...(confirmer ? { confirmer } : {}), ...(classifier.confirmRule !== undefined ? { confirmRule: classifier.confirmRule } : {}), ...(blankWitness ? { blankWitness } : {}), ...outline });
  }
  return new LearnedReader(model, { ...options, ...(blankWitness ? { blankWitness } : {}), ...outline }, classifier.head);
}

/** The threshold a learned reader declines under: its head's, else the lowest of the network's (shipped or fine-tuned) per-class thresholds for these classes. */
function thresholdOf(reader: LearnedReader, classes: readonly string[]): number {
  if (reader.head) return reader.head.minProbability;
  const own = classes.filter((c) => c !== COCKED_CLASS).map((c) => reader.thresholdOf(c));
  return round6(own.length > 0 ? Math.min(...own) : reader.options.minProbability);
}

/**
 * Reads with a learned profile: the network's read, declined when it names a die the profile does not read
 * (the network knows red and green; a red-only profile reads red), under the profile's classifier version.
 */
export class LearnedProfileReader implements FaceReader {
  readonly classifierVersion: string;
  readonly reader: LearnedReader;
  readonly judgesTilt: boolean;

  constructor(readonly profile: LearnedProfile) {
    this.reader = learnedReaderOf(profile.classifier);
    this.classifierVersion = `${this.reader.classifierVersion}+${shortHash(profile)}`;
    this.judgesTilt = this.reader.judgesTilt;
  }

  /** The profile's network. */
  get model(): LearnedModel {
    return this.reader.model;
  }

  read(crop: DieCrop): FaceRead {
    return restrictToDice(this.reader.read(crop), this.profile.dice, this.classifierVersion);
  }

  /** How a labelled box is cut for this reader (the top face's centre by parallax). */
  cutter(): (image: RgbImage, box: Rect) => DieCrop {
    return learnedCutter(this.model, this.profile.classifier.hfovDeg);
  }

  /**
   * How the pipeline cuts a located die on frames of this size: centred on its top face (moved by the
   * parallax of a die `dieSizePx` across), `LEARNED_CROP_MARGIN` times the die size, as calibration cut them, with
   * the die's radial direction (`topFaceCrop` gives both).
   */
  pipelineCrop(frame: { readonly width: number; readonly height: number }, dieSizePx: number): LearnedPipelineCrop {
    return learnedPipelineCrop(this.model, this.profile.classifier.hfovDeg, frame, dieSizePx);
  }
}

function restrictToDice(read: FaceRead, dice: readonly string[], classifierVersion: string): FaceRead {
  if (read.status === 'read' && read.die !== undefined && !dice.includes(read.die)) {
    const { symbol: _symbol, die: _die, ...rest } = read;
    return { ...rest, classifierVersion, status: 'unreadable', cause: 'other-die', reason: `The learned reader sees a ${read.die} die; this profile reads ${dice.join(' and ')} dice.` };
  }
  return { ...read, classifierVersion };
}

/** Each sample read by the classifier's reader, as the profile reads (restricted to its dice). */
function readSamples(classifier: LearnedClassifier, samples: readonly AdaptSample[], dice: readonly string[]): HeldBackRead[] {
  const reader = learnedReaderOf(classifier);
  return samples.map((s) => ({ group: s.group, truth: s.label, read: restrictToDice(reader.read(s.crop), dice, reader.classifierVersion) }));
}

function scoreCandidate(
  name: LearnedCandidate['name'],
  classifier: LearnedClassifier,
  reads: readonly HeldBackRead[],
  classes: readonly string[],
  description: string,
): LearnedCandidate {
  const reader = learnedReaderOf(classifier);
  const wrong = reads.filter((r) => r.read.status === 'read' && classOfRead(r.read) !== r.truth).length;
  const declinedFlat = reads.filter((r) => r.truth !== COCKED_CLASS && r.read.status !== 'read').length;
  return { name, classifier, rejectionThreshold: thresholdOf(reader, classes), validation: validationOf(reads, classes, description), wrong, declinedFlat };
}

/** The profile's blank witness: by what the shipped network names (`blankWitnessIconAt`, and `TiltAt` in older profiles), or by its blank probability (older still), or none. */
function blankWitnessFor(classifier: LearnedClassifier, shipped: () => LearnedReader): BlankWitness | undefined {
  const { blankWitnessAt: at, blankWitnessIconAt: iconAt, blankWitnessTiltAt: tiltAt } = classifier;
  if (iconAt !== undefined) return { reader: shipped(), levels: { iconAt, ...(tiltAt !== undefined ? { tiltAt } : {}) } };
  return at !== undefined ? { reader: shipped(), at } : undefined;
}

/** The profile field of the shipped network's witness level, set on the labelled blanks among `samples` (none: no field). */
function blankWitnessOf(shipped: LearnedReader, samples: readonly AdaptSample[], classes: readonly string[]): Pick<LearnedClassifier, 'blankWitnessIconAt'> {
  const blanks = samples.filter((s) => classes.includes(s.label) && splitClass(s.label).symbol === 'blank');
  const levels = blankWitnessLevels(blanks.map((s) => shipped.probabilities(s.crop)), shipped.classes);
  return levels === undefined ? {} : { blankWitnessIconAt: round6(levels.iconAt) };
}

/** The profile field of the outline check's level on the user's dice (`outlineLevel.ts`; none when the shipped level stands), and any warning. */
function outlineFieldOf(shipped: LearnedReader, samples: readonly AdaptSample[], warnings: string[]): Pick<LearnedClassifier, 'outlineAt'> {
  const shippedAt = shipped.model.cockedCheck?.at;
  if (shippedAt === undefined) return {};
  const score = (s: AdaptSample): number => shipped.outlineScore(s.crop) ?? 0;
  const { at, warning } = outlineLevel(samples.filter((s) => s.label !== COCKED_CLASS).map(score), samples.filter((s) => s.label === COCKED_CLASS).map(score), shippedAt);
  if (warning !== undefined) warnings.push(warning);
  return at === undefined ? {} : { outlineAt: at };
}

/** A head with its numbers rounded as the profile stores them (what is scored is what ships). */
function roundHead(head: LearnedHead): LearnedHead {
  return { ...head, weights: head.weights.map(round6), bias: head.bias.map(round6), minProbability: round6(head.minProbability) };
}

/**
 * A wrong read costs as much as this many declined flat dice: the targets allow ten times more declines than
 * wrong reads (at most 5 % declined, at least 99.5 % correct among dice read). Counting wrong reads first would
 * keep a reader that declines half the dice (and whole faces) over one that misread a single held-back die.
 */
export const WRONG_READ_COST = 10;

/** Held-back dice under which calibrate warns that its choice among the candidates is weak (150 images hold back ~150). */
export const MIN_CHOOSING_DICE = 100;

/** A candidate's cost on the held-back dice: wrong reads (a cocked die read as a face included), and declined flat dice. */
export function candidateCost(c: Pick<LearnedCandidate, 'wrong' | 'declinedFlat'>): number {
  return WRONG_READ_COST * c.wrong + c.declinedFlat;
}

/** Lower cost wins; on a tie the earlier candidate (the shipped network, then the head: fewer numbers fitted). */
function better(a: LearnedCandidate, b: LearnedCandidate): boolean {
  return candidateCost(a) < candidateCost(b);
}

function whyKept(kept: LearnedCandidate, others: readonly LearnedCandidate[]): string {
  if (others.length === 0) return `kept the ${kept.name} (nothing could be fitted)`;
  const one = (c: LearnedCandidate): string => `${c.wrong} wrong, ${c.declinedFlat} flat declined: cost ${candidateCost(c)}`;
  const tie = others.some((o) => candidateCost(o) === candidateCost(kept));
  const rest = others.map((o) => `the ${o.name} (${one(o)})`);
  const over = rest.length > 1 ? `${rest.slice(0, -1).join(', ')} and ${rest[rest.length - 1]}` : rest.join('');
  return `kept the ${kept.name} (${one(kept)}${tie ? ', first among equals' : ''}) over ${over}; a wrong held-back read costs ${WRONG_READ_COST} declined flat dice`;
}

/**
 * Builds, validates and seals a learned profile from labelled crops cut for `model` (`learnedCutter` with
 * `options.hfovDeg`). Throws an InputError when the labels cannot make one.
 */
export function buildLearnedProfile(samples: readonly AdaptSample[], model: LearnedModel, options: LearnedProfileOptions): LearnedProfileResult {
  const warnings: string[] = [];
  const every = options.heldBackEvery ?? 4;
  const views = options.views ?? model.views ?? 1;
  const { dice, classes } = calibrationDice(
    samples.map((s) => s.label),
    options.dice,
    options.dieTypes,
  );
  const unknown = [...new Set(samples.map((s) => s.label))].filter((c) => !model.classes.includes(c));
  if (unknown.length > 0) throw new InputError(`the learned network ${model.version} reads ${model.classes.join(', ')}; it has no class ${unknown.join(', ')}.`);
  const { train, heldBack, description } = splitByGroup(samples, every);
  if (heldBack.length === 0) throw new InputError(`too few labelled dice to hold any back (${samples.length}); label more rolls.`);

  const plain = { kind: LEARNED_CLASSIFIER_KIND, model: model.version, hfovDeg: round6(options.hfovDeg), views } as const;
  // The shipped network as shipped: it scores the outline, is adapted and witnesses blanks (none of which reads a die).
  const shippedReader = learnedReaderOf(plain);
  // Every candidate reads tilt with the outline level set on all the labelled dice: the check is fitted on none of them.
  const base = { ...plain, ...outlineFieldOf(shippedReader, samples, warnings) };
  const shippedHeldBack = readSamples(base, heldBack, dice);
  const candidates: LearnedCandidate[] = [scoreCandidate('shipped network', base, shippedHeldBack, classes, description)];
  const trainClasses = new Set(train.map((s) => s.label));
  if (trainClasses.size >= 2) {
    const adapted = adaptReader(shippedReader, train, options.adapt ?? defaultAdaptOptions);
    const head = roundHead(adapted.head);
    // The shipped network witnesses a fitted reader's blanks, at a level set on the training images' blanks.
    const witnessed = blankWitnessOf(shippedReader, train, classes);
    const withHead: LearnedClassifier = { ...base, head: { ...head, classes: [...head.classes], weights: [...head.weights], bias: [...head.bias] }, ...witnessed };
    candidates.push(scoreCandidate('fitted head', withHead, readSamples(withHead, heldBack, dice), classes, description));
    const unseen = classes.filter((c) => !trainClasses.has(c));
    if (unseen.length > 0) warnings.push(`the fitted head never saw ${unseen.join(', ')} (no training dice of ${unseen.length === 1 ? 'that class' : 'those classes'}).`);
    if (options.fineTune !== false) {
      const tuned = fineTuneNetwork(model, train, options.fineTune ?? defaultFineTuneOptions, views);
      const thresholds = Object.fromEntries(Object.entries(tuned.tuned.thresholds).map(([c, t]) => [c, round6(t)]));
      // Each of its reads confirmed by the head: fine-tuning makes a network sure of itself, and under light unlike the
      // calibration images' it misread dice at 0.95-0.99 that the head, fitted apart, read otherwise (training/README.md).
      // Rule 3: a read the network is unsure of stands when the head is sure of the same face, and the head is asked
      // which face only: tilt is the network's cocked class's and the cocked checks' to judge (training/README.md).
      // Rule 4: and a read of a face other than a blank the network is all but certain of stands over the head's other face.
      // Rule 5: and the network's own cocked class, fitted on the user's few cocked dice, calls a die tilted only where the
      // outline check leans that way too (`OWN_COCKED_NEEDS_OUTLINE`).
      const confirmed: LearnedClassifier = { ...base, tuned: { ...tuned.tuned, thresholds }, confirm: withHead.head, confirmRule: 5, ...witnessed };
      candidates.push(scoreCandidate('fine-tuned network confirmed by the head', confirmed, readSamples(confirmed, heldBack, dice), classes, description));
    }
  } else warnings.push(`only ${trainClasses.size} class among the training dice: no head was fitted and the network was not fine-tuned.`);
  // The shipped network first: on a tie it wins (nothing fitted), then the head (fewer numbers fitted than a whole network).
  const kept = candidates.reduce((best, c) => (better(c, best) ? c : best));
  const shipped = candidates[0] as LearnedCandidate;
  // The shipped network was fitted on none of the user's images (the held-back quarter only chose it over the others),
  // so every labelled die validates it: four times the dice behind each face's misread bound, and a session's
  // verdicts allow for no more misreading than those dice show. A fitted head or a fine-tuned network is validated on held-back dice only.
  const validation =
    kept === shipped
      ? validationOf([...readSamples(base, train, dice), ...shippedHeldBack], classes, `every image: the shipped network was fitted on none of them (${description} only chose it over the fitted ones)`)
      : kept.validation;
  if (validation.samples < 50) warnings.push(`Only ${validation.samples} validation dice: the validation figures are rough; label more rolls for a firmer check.`);
  // One wrong held-back read outweighs ten declines, so on a few dozen dice the candidates' costs differ by chance.
  if (candidates.length > 1 && heldBack.length < MIN_CHOOSING_DICE) {
    warnings.push(
      `the reader was chosen on only ${heldBack.length} held-back dice (${description}): too few to tell the candidates apart; label more rolls (the learned reader was measured calibrated on 150 images, about 600 dice).`,
    );
  }
  if (validation.confidentErrors > 0) warnings.push(`${validation.confidentErrors} validation dice were misread above the threshold (or are labelled wrongly: check them).`);

  const perClass: Record<string, number> = {};
  for (const s of samples) perClass[s.label] = (perClass[s.label] ?? 0) + 1;
  const sealed = sealProfile({
    format: PROFILE_FORMAT,
    version: PROFILE_VERSION,
    name: options.name,
    createdAt: options.createdAt,
    face: 'top',
    dice: [...dice],
    classes: [...classes],
    classifier: kept.classifier,
    rejectionThreshold: kept.rejectionThreshold,
    validation,
    training: { source: options.source, samples: samples.length, unusable: 0, perClass },
    ...platformFields(options),
  });
  const profile: LearnedProfile = { ...sealed, classifier: kept.classifier };
  const others = candidates.filter((c) => c !== kept);
  return { profile, warnings, candidates: [kept, ...others], why: whyKept(kept, others) };
}
