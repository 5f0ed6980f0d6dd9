/**
 * The X-Wing d8 reader: a `FaceReader` built from a calibration profile.
 *
 * 1. Find the die's outline in the crop; an outline much longer than wide is a
 *    cocked die (reported `cocked`, never read as a face).
 * 2. Tell the die type by its face colour (red attack, green defense); a colour
 *    far from every calibrated one is declined.
 * 3. Classify the icon with that die's model; a die unlike every calibrated
 *    class, or one whose posterior is under the profile's rejection threshold,
 *    is declined rather than guessed. A die that looks like the calibration's
 *    `cocked` samples is reported cocked.
 * 4. With `face: bottom`, the face read is mapped to the top face through the
 *    die's opposite-face map (declined where that map is ambiguous).
 */
import { getDieType } from '../../dice/catalogue.js';
import type { DieType } from '../../dice/types.js';
import { mapBottomRead } from '../bottomFace.js';
import type { DeclineCause, DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import type { RgbImage } from '../../core/image.js';
import { COCKED_CLASS, D8_CLASSIFIER_KIND, parseClassName, shortHash } from '../calibration/profile.js';
import type { CalibrationProfile, RingClassifier } from '../calibration/profile.js';
import { InputError } from '../../core/errors.js';
import { matchDieColour } from './colourModel.js';
import { describeD8 } from './describe.js';
import type { D8Description } from './describe.js';
import { scoreIcon } from './iconModel.js';
import type { IconModel } from './iconModel.js';

/** Version of the reading method; the profile hash is appended to make the classifier version. */
export const D8_READER_VERSION = 'd8-rings/1';

export type D8Classifier = RingClassifier;

/** What the classifier concluded before the rejection threshold is applied. */
export type D8Assessment =
  | { readonly kind: 'unreadable'; readonly reason: string; readonly confidence: number; readonly cause?: DeclineCause; readonly details: Record<string, number> }
  | { readonly kind: 'cocked'; readonly reason: string; readonly confidence: number; readonly die?: string; readonly details: Record<string, number> }
  | {
      readonly kind: 'face';
      readonly die: string;
      /** Class name, e.g. `red-hit`. */
      readonly label: string;
      readonly symbol: string;
      readonly confidence: number;
      /** Runner-up class and its posterior, for the decline reason. */
      readonly runnerUp?: string;
      readonly details: Record<string, number>;
    };

/** The classifier's conclusion about a described crop (or the reason no die could be measured). */
export function assessD8(classifier: D8Classifier, description: D8Description | string): D8Assessment {
  if (typeof description === 'string') return { kind: 'unreadable', reason: description, confidence: 0, details: {} };
  const { outline, features } = description;
  const details: Record<string, number> = { elongation: outline.elongation, radius: outline.radius };
  if (outline.elongation > classifier.cockedElongation) {
    return {
      kind: 'cocked',
      reason: `The die's outline is ${outline.elongation.toFixed(2)} times longer than wide (a flat d8 is at most ${classifier.cockedElongation.toFixed(2)}): it is not lying flat.`,
      confidence: 1,
      details,
    };
  }
  const [rMin, rMax] = classifier.radiusRange;
  if (outline.radius < rMin || outline.radius > rMax) {
    return {
      kind: 'unreadable',
      reason: `The die is ${(outline.radius * 2).toFixed(0)} px across; the profile was calibrated for ${(rMin * 2).toFixed(0)}-${(rMax * 2).toFixed(0)} px (was the camera moved? recalibrate).`,
      cause: 'die-size',
      confidence: 0,
      details,
    };
  }
  const colour = matchDieColour(classifier.colours, outline.faceColor);
  if (!colour) return { kind: 'unreadable', reason: 'The profile has no die colours.', confidence: 0, details };
  details.colourDistance = colour.distance;
  if (colour.distance > classifier.colourLimit) {
    return {
      kind: 'unreadable',
      reason: `The die's colour is ${colour.distance.toFixed(1)} spreads from the nearest calibrated die (${colour.die}); the limit is ${classifier.colourLimit}.`,
      confidence: 0,
      details,
    };
  }
  const model = classifier.models.find((m) => m.die === colour.die);
  if (!model) return { kind: 'unreadable', reason: `The profile has no icon model for ${colour.die} dice.`, confidence: 0, details };
  const score = scoreIcon(model as IconModel, features);
  const confidence = score.posterior[score.best] as number;
  details.distance = score.distance;
  details.confidence = confidence;
  if (score.novel) {
    return {
      kind: 'unreadable',
      reason: `The ${colour.die} die's face is unlike every calibrated face (distance ${score.distance.toFixed(1)}, limit ${model.noveltyLimit.toFixed(1)}).`,
      confidence: 0,
      details,
    };
  }
  let runner = -1;
  score.posterior.forEach((p, k) => {
    if (k !== score.best && (runner < 0 || p > (score.posterior[runner] as number))) runner = k;
  });
  const runnerUp = runner >= 0 ? model.classes[runner] : undefined;
  if (score.label === COCKED_CLASS) {
    return { kind: 'cocked', reason: "The die looks like the calibration's cocked dice: it is not lying flat.", confidence, die: colour.die, details };
  }
  const parsed = parseClassName(score.label);
  const symbol = parsed !== undefined && parsed !== COCKED_CLASS ? parsed.symbol : score.label;
  return { kind: 'face', die: colour.die, label: score.label, symbol, confidence, ...(runnerUp !== undefined ? { runnerUp } : {}), details };
}

/** Turns an assessment into a read, declining faces under `threshold`. */
export function decideD8(assessment: D8Assessment, threshold: number, classifierVersion: string, crop: RgbImage): FaceRead {
  const base = { classifierVersion, crop, details: assessment.details };
  switch (assessment.kind) {
    case 'unreadable':
      return { ...base, status: 'unreadable', confidence: assessment.confidence, reason: assessment.reason, ...(assessment.cause !== undefined ? { cause: assessment.cause } : {}) };
    case 'cocked':
      return { ...base, status: 'cocked', confidence: assessment.confidence, reason: assessment.reason, ...(assessment.die !== undefined ? { die: assessment.die } : {}) };
    case 'face':
      if (assessment.confidence < threshold) {
        return {
          ...base,
          status: 'unreadable',
          cause: 'unsure',
          die: assessment.die,
          confidence: assessment.confidence,
          reason: `Best guess ${assessment.label} at confidence ${assessment.confidence.toFixed(3)}${assessment.runnerUp ? ` (next: ${assessment.runnerUp})` : ''}, under the threshold ${threshold}.`,
        };
      }
      return { ...base, status: 'read', die: assessment.die, symbol: assessment.symbol, confidence: assessment.confidence };
  }
}

/** The classifier version a profile's reads carry: method and profile hash. */
export function d8ClassifierVersion(profile: Pick<CalibrationProfile, 'hash'>): string {
  return `${D8_READER_VERSION}+${shortHash(profile)}`;
}

/**
 * Reads X-Wing d8s with a calibration profile. The crop's `sizePx` is not
 * needed: the die's size is measured from its outline (and checked against the
 * sizes the profile was calibrated for).
 */
export class D8Reader implements FaceReader {
  readonly classifierVersion: string;
  private readonly dieTypes: ReadonlyMap<string, DieType>;
  private readonly classifier: RingClassifier;

  /** `dieTypes`: user-defined layouts (opposite-face maps) for bottom-face reading; built-ins otherwise. */
  constructor(
    readonly profile: CalibrationProfile,
    dieTypes: readonly DieType[] = [],
  ) {
    if (profile.classifier.kind !== D8_CLASSIFIER_KIND) throw new InputError(`the calibration profile "${profile.name}" is read by ${profile.classifier.kind}, not by the ring-harmonics reader.`);
    this.classifier = profile.classifier;
    this.classifierVersion = d8ClassifierVersion(profile);
    this.dieTypes = new Map(profile.dice.map((d) => [d, getDieType(d, dieTypes)]));
  }

  /** The assessment before the threshold (for calibration and debugging). */
  assess(crop: DieCrop): D8Assessment {
    return assessD8(this.classifier, describeD8(crop.image, this.classifier.geometry));
  }

  read(crop: DieCrop): FaceRead {
    const read = decideD8(this.assess(crop), this.profile.rejectionThreshold, this.classifierVersion, crop.image);
    if (this.profile.face === 'top' || read.status !== 'read' || read.die === undefined) return read;
    const die = this.dieTypes.get(read.die);
    return die ? mapBottomRead(read, die) : read;
  }
}
