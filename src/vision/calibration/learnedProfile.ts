/**
 * A calibration profile read by the shipped learned network (pre-trained on 3D
 * renders, top face found by perspective parallax). Calibration holds back
 * every k-th image and scores two candidates on the same held-back dice: the
 * network with its own thresholds, and the network with a last layer fitted on
 * the other images (`adaptReader`). The one with fewer wrong reads (a cocked
 * die read as a face counts as wrong), then fewer declined flat dice, ships;
 * its reads of dice it was not fitted on are the profile's validation (every
 * die for the shipped network, the held-back ones for a head), so the misread
 * bounds a session's verdicts allow for come from exactly the reader that reads.
 */
import { InputError } from '../../core/errors.js';
import type { Point } from '../../core/image.js';
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { classOfRead } from '../labelledEval.js';
import { adaptReader, defaultAdaptOptions } from '../learned/adapt.js';
import type { AdaptOptions, AdaptSample } from '../learned/adapt.js';
import type { LearnedHead, LearnedModel } from '../learned/model.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../learned/reader.js';
import { LEARNED_CROP_MARGIN, learnedCutter } from '../learned/shipped.js';
import { cameraFromFov, topFaceCentre } from '../learned/topFace.js';
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
}

/** One reader scored on the held-back dice. */
export interface LearnedCandidate {
  readonly name: 'shipped network' | 'fitted head';
  readonly classifier: LearnedClassifier;
  readonly rejectionThreshold: number;
  readonly validation: ProfileValidation;
  /** Held-back dice read as another class (cocked dice read as a face included). */
  readonly wrong: number;
  /** Held-back flat dice declined (unreadable or called cocked). */
  readonly declinedFlat: number;
}

export interface LearnedProfileResult extends TrainProfileResult<LearnedProfile> {
  /** Both candidates as measured, the kept one first. */
  readonly candidates: readonly LearnedCandidate[];
  /** Why the kept candidate was kept, in words. */
  readonly why: string;
}

/** The learned reader a learned profile describes: the shipped network, the profile's head if any, its views. */
export function learnedReaderOf(classifier: LearnedClassifier): LearnedReader {
  const model = shippedLearnedModelByVersion(classifier.model);
  if (model === undefined) throw new InputError(`the learned network ${classifier.model} is not shipped with this dicerig.`);
  return new LearnedReader(model, { ...defaultLearnedReaderOptions, views: classifier.views }, classifier.head);
}

/** The threshold a learned reader declines under: its head's, else the lowest of the network's per-class thresholds for these classes. */
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

  constructor(readonly profile: LearnedProfile) {
    this.reader = learnedReaderOf(profile.classifier);
    this.classifierVersion = `${this.reader.classifierVersion}+${shortHash(profile)}`;
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
   * parallax of a die `dieSizePx` across), `LEARNED_CROP_MARGIN` times the die size, as calibration cut them.
   */
  pipelineCrop(frame: { readonly width: number; readonly height: number }, dieSizePx: number): { readonly centre: (located: Point) => Point; readonly scale: number } {
    const camera = cameraFromFov(frame.width, frame.height, this.profile.classifier.hfovDeg);
    return { centre: (located) => topFaceCentre(located, dieSizePx, this.model.heightRatio, camera), scale: LEARNED_CROP_MARGIN };
  }
}

function restrictToDice(read: FaceRead, dice: readonly string[], classifierVersion: string): FaceRead {
  if (read.status === 'read' && read.die !== undefined && !dice.includes(read.die)) {
    const { symbol: _symbol, die: _die, ...rest } = read;
    return { ...rest, classifierVersion, status: 'unreadable', reason: `The learned reader sees a ${read.die} die; this profile reads ${dice.join(' and ')} dice.` };
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

/** A head with its numbers rounded as the profile stores them (what is scored is what ships). */
function roundHead(head: LearnedHead): LearnedHead {
  return { ...head, weights: head.weights.map(round6), bias: head.bias.map(round6), minProbability: round6(head.minProbability) };
}

/** Fewer wrong reads first, then fewer declined flat dice; on a tie the shipped network (nothing fitted). */
function better(a: LearnedCandidate, b: LearnedCandidate): boolean {
  return a.wrong !== b.wrong ? a.wrong < b.wrong : a.declinedFlat < b.declinedFlat;
}

function whyKept(kept: LearnedCandidate, other: LearnedCandidate | undefined): string {
  if (other === undefined) return `kept the ${kept.name} (no head could be fitted)`;
  if (kept.wrong !== other.wrong) return `kept the ${kept.name}: ${kept.wrong} wrong held-back reads against ${other.wrong}`;
  if (kept.declinedFlat !== other.declinedFlat) return `kept the ${kept.name}: as many wrong held-back reads (${kept.wrong}), fewer flat dice declined (${kept.declinedFlat} against ${other.declinedFlat})`;
  return `kept the ${kept.name}: the fitted head did no better (${kept.wrong} wrong, ${kept.declinedFlat} declined each)`;
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

  const base = { kind: LEARNED_CLASSIFIER_KIND, model: model.version, hfovDeg: round6(options.hfovDeg), views } as const;
  const shippedHeldBack = readSamples(base, heldBack, dice);
  const candidates: LearnedCandidate[] = [scoreCandidate('shipped network', base, shippedHeldBack, classes, description)];
  const trainClasses = new Set(train.map((s) => s.label));
  if (trainClasses.size >= 2) {
    const adapted = adaptReader(learnedReaderOf(base), train, options.adapt ?? defaultAdaptOptions);
    const head = roundHead(adapted.head);
    const withHead: LearnedClassifier = { ...base, head: { ...head, classes: [...head.classes], weights: [...head.weights], bias: [...head.bias] } };
    candidates.push(scoreCandidate('fitted head', withHead, readSamples(withHead, heldBack, dice), classes, description));
    const unseen = classes.filter((c) => !trainClasses.has(c));
    if (unseen.length > 0) warnings.push(`the fitted head never saw ${unseen.join(', ')} (no training dice of ${unseen.length === 1 ? 'that class' : 'those classes'}).`);
  } else warnings.push(`only ${trainClasses.size} class among the training dice: no head was fitted.`);
  const [shipped, fitted] = candidates as [LearnedCandidate, LearnedCandidate | undefined];
  const kept = fitted !== undefined && better(fitted, shipped) ? fitted : shipped;
  const other = kept === shipped ? fitted : shipped;
  // The shipped network was fitted on none of the user's images (the held-back quarter only chose it over the head),
  // so every labelled die validates it: four times the dice behind each face's misread bound, and a session's
  // verdicts allow for no more misreading than those dice show. A fitted head is validated on held-back dice only.
  const validation =
    kept === shipped
      ? validationOf([...readSamples(base, train, dice), ...shippedHeldBack], classes, `every image: the shipped network was fitted on none of them (${description} only chose it over a fitted head)`)
      : kept.validation;
  if (validation.samples < 50) warnings.push(`Only ${validation.samples} validation dice: the validation figures are rough; label more rolls for a firmer check.`);
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
  return { profile, warnings, candidates: other ? [kept, other] : [kept], why: whyKept(kept, other) };
}
