/**
 * The learned reader: the shipped network (pre-trained on renders) looks at a
 * square around the top face's centre (the crop's centre: cut it with
 * `topFaceCrop` so perspective is accounted for) and gives class
 * probabilities, averaged over turned and mirrored views. A calibration head,
 * when given, replaces the network's last layer (fitted on the user's own dice)
 * and brings its own rejection threshold; otherwise the model's per-class
 * thresholds (set on the tune split) apply. A `cocked` class reads as cocked,
 * and so does a die whose network probability of `cocked` reaches the model's
 * `cockedAt`, even when a face is more probable.
 */
import { DicerigError } from '../../core/errors.js';
import { transformInput } from '../d6/augment.js';
import { decodeWeights } from '../d6/netReader.js';
import { TinyNet } from '../d6/tinyNet.js';
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { COCKED_LABEL } from '../labelledEval.js';
import { witnessDoubt } from './blankWitness.js';
import type { BlankWitnessLevels } from './blankWitness.js';
import { clippedShare } from './glare.js';
import { hideTopMiddle } from './hideTop.js';
import { areaResample, normalised, radialRaw } from './input.js';
import { scratchFloats } from './scratch.js';
import { splitClass } from './model.js';
import { RADIAL_DOWN } from './topFace.js';
import type { LearnedHead, LearnedModel } from './model.js';

export interface LearnedReaderOptions {
  /** Reads under this probability are declined (the model's per-class thresholds win, and a head's own threshold wins over both). */
  readonly minProbability: number;
  /** Turns/mirrors averaged (1..8); default: as many as the model's thresholds were set with (`LearnedModel.views`). */
  readonly views?: number;
  /**
   * With a confirming reader. 1 (default): every read needs this reader's own threshold and the confirming reader's
   * agreement. 2: a read under this reader's threshold also stands when the confirming reader is sure of the same face.
   * 3: as 2, the confirming reader asked which face only (its `cocked` class disputes nothing: a die's tilt is judged
   * by this reader's own cocked class and its cocked checks). 4: as 3, and when the two name different faces, this
   * reader's read stands if it is of a face other than a blank and at least `SURE_OVER_DISPUTE` likely. 5: as 4, and
   * this reader's own cocked class is asked only where the outline check finds the die at least
   * `OWN_COCKED_NEEDS_OUTLINE` of its threshold tilted; elsewhere the faces are read as if the die lies flat.
   */
  readonly confirmRule?: ConfirmRule;
  /** A read of a blank stands only when this witness does not doubt it (`blankWitness.ts`: `witnessDoubt`). */
  readonly blankWitness?: BlankWitness;
  /**
   * The outline check's threshold on this user's dice (`outlineLevel.ts`, set at calibration); default the model's
   * `cockedCheck.at`. Rule 5 still gates the network's own cocked class on the model's.
   */
  readonly outlineAt?: number;
}

/**
 * The shipped network witnessing a fitted reader's blank reads: by its blank probability (`at`, profiles made before
 * 2026-11-29), or by what it names instead, an icon or tilt (`levels`).
 */
export type BlankWitness = { readonly reader: LearnedReader; readonly at: number } | { readonly reader: LearnedReader; readonly levels: BlankWitnessLevels };

export type ConfirmRule = 1 | 2 | 3 | 4 | 5;

/**
 * Under rule 4, a read this sure stands over the confirming reader's other face. Chosen on the foreign-1 and foreign-3
 * dev sets (training/README.md): of 51 disputes, the 17 where the fine-tuned network read a face other than a blank at
 * 0.995 or more were all right; below it, and on blanks (a faded icon looks blank), both sides erred.
 */
export const SURE_OVER_DISPUTE = 0.995;

/**
 * Under rule 5, the network's own cocked class is asked only where the outline check finds the die at least this share
 * of its own threshold tilted; elsewhere the faces' probabilities are read as if the die lies flat. A fine-tuned
 * network's cocked class is fitted on the few dozen cocked dice a user labels and sees only the top face: on foreign art it
 * called flat dice tilted (green blanks most), while the outline check, which sees the die's whole outline and was
 * trained on thousands of cocked dice, caught all but 8 of 204 cocked dice alone (training/README.md).
 */
export const OWN_COCKED_NEEDS_OUTLINE = 0.5;

/** The faces' probabilities given that the die lies flat: `cocked` set to 0, the rest renormalised. */
function flatProbabilities(p: Float32Array, classes: readonly string[]): Float32Array {
  const ci = classes.indexOf(COCKED_LABEL);
  if (ci < 0) return p;
  const rest = 1 - (p[ci] as number);
  return Float32Array.from(p, (x, j) => (j === ci || rest <= 0 ? 0 : x / rest));
}

export const defaultLearnedReaderOptions: LearnedReaderOptions = { minProbability: 0.9 };

/** Softmax of a head applied to an embedding. */
export function headProbabilities(head: Pick<LearnedHead, 'classes' | 'weights' | 'bias'>, embedding: Float32Array): Float32Array {
  const k = head.classes.length;
  const d = embedding.length;
  const out = new Float32Array(k);
  let max = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < k; j++) {
    let s = head.bias[j] as number;
    for (let c = 0; c < d; c++) s += (head.weights[j * d + c] as number) * (embedding[c] as number);
    out[j] = s;
    if (s > max) max = s;
  }
  let z = 0;
  for (let j = 0; j < k; j++) {
    out[j] = Math.exp((out[j] as number) - max);
    z += out[j] as number;
  }
  for (let j = 0; j < k; j++) out[j] = (out[j] as number) / z;
  return out;
}

/** How a training cut moves the square: shifted by `dx`, `dy` pixels, scaled by `scale`, turned by `angle` radians (radial networks only). */
export interface InputCut {
  readonly dx?: number;
  readonly dy?: number;
  readonly scale?: number;
  readonly angle?: number;
}

/**
 * A network's input for a crop: the square of `inputScale` die sizes around the crop's centre, or (training's
 * jittered cuts) that square moved as `cut` says. A radial network (`LearnedModel.radial`) sees it turned so the die's
 * radial direction points down; a crop with no place in a frame (no `radial`) is a die straight below the lens: read
 * unturned.
 */
export function cropInput(crop: DieCrop, model: Pick<LearnedModel, 'spec' | 'inputScale' | 'radial'>, cut: InputCut = {}): Float32Array {
  return normalised(rawCropInput(crop, model, cut));
}

/**
 * `cropInput` before normalising: the crop's pixels (0..255) resampled, for changes of light made before normalising.
 * Into `into` (3 x size x size floats, every value written) when given.
 */
export function rawCropInput(crop: DieCrop, model: Pick<LearnedModel, 'spec' | 'inputScale' | 'radial'>, cut: InputCut = {}, into?: Float32Array): Float32Array {
  const { image } = crop;
  // A crop the frame's edge cut short has the die off its middle (`DieCrop.center`).
  const middle = crop.center ?? { x: image.width / 2, y: image.height / 2 };
  const centre = { x: middle.x + (cut.dx ?? 0), y: middle.y + (cut.dy ?? 0) };
  const side = crop.sizePx * model.inputScale * (cut.scale ?? 1);
  if (model.radial) return radialRaw(image, centre, side, model.spec.size, (crop.radial ?? RADIAL_DOWN) + (cut.angle ?? 0), into);
  return areaResample(image, centre, side, model.spec.size, undefined, into);
}

/** The most views a model can be read in: a radial model's are as is and mirrored across the radial direction. */
export function maxViewsOf(model: Pick<LearnedModel, 'radial'>): number {
  return model.radial ? 2 : 8;
}

/** The index of the largest value (the first on a tie). */
function argmax(p: Float32Array): number {
  return argmaxWhere(p, () => true);
}

/** The most probable class among those `keep` accepts (the first when none is). */
function argmaxWhere(p: Float32Array, keep: (j: number) => boolean): number {
  let best = -1;
  for (let j = 0; j < p.length; j++) if (keep(j) && (best < 0 || (p[j] as number) > (p[best] as number))) best = j;
  return Math.max(best, 0);
}

/** Averages a network's mean probabilities with its partner's (`q`), in place, as thresholds set on the pair were. */
function withPartnerMean(mean: Float32Array, q: Float64Array): void {
  for (let j = 0; j < mean.length; j++) mean[j] = ((mean[j] as number) + (q[j] as number)) / 2;
}

/** A partner network's probabilities of a crop, averaged over its own views. */
function partnerMean(partner: { readonly net: TinyNet; readonly model: LearnedModel; readonly views: number }, crop: DieCrop): Float64Array {
  return meanOverViews(partner.net, crop, partner.model, partner.views);
}

/**
 * A network's class probabilities of a crop averaged over views 0..count-1 (`viewInputs`), the inputs made in scratch
 * arrays (`scratchInput`, `scratchView`): the same numbers, without new arrays per view.
 */
function meanOverViews(net: TinyNet, crop: DieCrop, model: LearnedModel, count: number): Float64Array {
  const x = scratchInput(crop, model);
  let mean = new Float64Array(0);
  for (let t = 0; t < count; t++) {
    const { probs } = net.embed(scratchView(x, crop, model, t));
    if (mean.length === 0) mean = new Float64Array(probs.length);
    for (let j = 0; j < probs.length; j++) mean[j] = (mean[j] as number) + (probs[j] as number) / count;
  }
  return mean;
}

/**
 * `cropInput(crop, model)` in a scratch array (`scratch.ts`): valid until the next scratch input of this length, for a
 * network that reads its views at once and keeps none.
 */
function scratchInput(crop: DieCrop, model: Pick<LearnedModel, 'spec' | 'inputScale' | 'radial'>): Float32Array {
  const n = 3 * model.spec.size * model.spec.size;
  return normalised(rawCropInput(crop, model, {}, scratchFloats('input', n)));
}

/** View `turn` of a scratch input `x`, as `viewInputs` makes it: `x` itself for view 0, else a second scratch array. */
function scratchView(x: Float32Array, crop: DieCrop, model: Pick<LearnedModel, 'spec' | 'offAxisPlaneDeg'>, turn: number): Float32Array {
  return toldWhere(turn === 0 ? x : transformInput(x, model.spec.size, turn, 0, 1, scratchFloats('view', x.length)), crop, model);
}

/** View `turn` (0: as is) of a network input of side `size`. */
function turned(x: Float32Array, size: number, turn: number): Float32Array {
  return turn === 0 ? x : transformInput(x, size, turn, 0, 1);
}

/**
 * A model's inputs for views 0..count-1 of a crop: the crop is resampled once, then turned and mirrored. A model told
 * where the die lies (`offAxisPlaneDeg`) gets its constant fourth plane after each view's colour planes.
 */
function viewInputs(crop: DieCrop, model: Pick<LearnedModel, 'spec' | 'inputScale' | 'radial' | 'offAxisPlaneDeg'>, count: number): Float32Array[] {
  const x = cropInput(crop, model);
  return Array.from({ length: count }, (_, t) => toldWhere(turned(x, model.spec.size, t), crop, model));
}

/** A view's colour planes, followed by the die's angle off the lens axis for a model told where the die lies. */
function toldWhere(x: Float32Array, crop: DieCrop, model: Pick<LearnedModel, 'offAxisPlaneDeg'>): Float32Array {
  const per = model.offAxisPlaneDeg;
  return per === undefined ? x : withOffAxisPlane(x, (crop.offAxisDeg ?? 0) / per);
}

/** Colour planes `x` followed by one plane of `value`. */
export function withOffAxisPlane(x: Float32Array, value: number): Float32Array {
  const out = new Float32Array(x.length + x.length / 3);
  out.set(x);
  out.fill(value, x.length);
  return out;
}

/** One network of an outline check, ready to run. */
interface CheckNet {
  readonly net: TinyNet;
  readonly model: LearnedModel;
  /** Index of `cocked` among its classes. */
  readonly cocked: number;
}

function checkNet(model: LearnedModel): CheckNet {
  return { net: new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64)), model, cocked: model.classes.indexOf(COCKED_LABEL) };
}

export class LearnedReader implements FaceReader {
  /** What names the face (networks, head, confirming rule, blank witness), then the model's read-time glare check. */
  readonly classifierVersion: string;
  /** `classifierVersion` without the glare check: what a reader confirming another's reads contributes. */
  readonly faceVersion: string;
  /** A model with an outline check judges tilt from the whole die (`FaceReader.judgesTilt`). */
  readonly judgesTilt: boolean;
  readonly classes: readonly string[];
  private readonly net: TinyNet;
  private readonly check?: { readonly nets: readonly CheckNet[]; readonly at: number };
  private readonly partner?: { readonly net: TinyNet; readonly model: LearnedModel; readonly views: number };

  /**
   * `confirmer`, when given, must agree: a read stands only when the confirmer's most probable class is the same
   * (calibration's fine-tuned network confirmed by a head fitted on the shipped network: two readers trained apart
   * seldom make the same confident mistake).
   */
  constructor(
    readonly model: LearnedModel,
    readonly options: LearnedReaderOptions = defaultLearnedReaderOptions,
    readonly head?: LearnedHead,
    readonly confirmer?: LearnedReader,
  ) {
    this.net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
    const check = model.cockedCheck;
    if (check !== undefined) {
      // Thresholds were set with the check in place: reading without it would let leaning dice through.
      if (check.net === undefined) throw new DicerigError(`${model.version} needs its cocked check ${check.version}, which is not attached`, { model: model.version, cockedCheck: check.version });
      const nets = [checkNet(check.net)];
      const second = check.net.partner;
      if (second !== undefined) {
        // The check's level was set on the mean of the check and its partner: one network alone would be read against another's level.
        if (second.net === undefined) throw new DicerigError(`the cocked check ${check.net.version} needs its partner network ${second.version}, which is not attached`, { model: model.version, cockedCheck: check.version, partner: second.version });
        nets.push(checkNet(second.net));
      }
      this.check = { nets, at: check.at };
    }
    const partner = model.partner;
    if (partner !== undefined) {
      // Thresholds were set on the two networks' mean: one network alone would be read against rules made for another.
      if (partner.net === undefined) throw new DicerigError(`${model.version} needs its partner network ${partner.version}, which is not attached`, { model: model.version, partner: partner.version });
      const max = maxViewsOf(partner.net);
      this.partner = { net: new TinyNet(partner.net.spec, undefined, decodeWeights(partner.net.weightsBase64)), model: partner.net, views: Math.min(max, partner.net.views ?? max) };
    }
    this.classes = head ? head.classes : model.classes;
    this.judgesTilt = check !== undefined;
    const own = head ? `${model.version}+${head.version}` : model.version;
    // Rule 1 reads keep the version they always had, so old profiles' roll logs name the same reader.
    const rule = options.confirmRule === undefined || options.confirmRule === 1 ? 'confirmed' : `confirmed/${options.confirmRule}`;
    // The confirmer is asked for probabilities only: its glare check never runs, so its face version is named.
    const confirmed = confirmer ? `${own}+${rule}-by-${confirmer.faceVersion}` : own;
    const witness = options.blankWitness;
    this.faceVersion = witness === undefined ? confirmed : 'levels' in witness ? `${confirmed}+blank-witness/${witness.levels.tiltAt !== undefined ? 2 : 3}` : `${confirmed}+blank-witness`;
    this.classifierVersion = model.glare === undefined ? this.faceVersion : `${this.faceVersion}+${model.glare.version}`;
  }

  /** The most views this reader's network can be read in (see `maxViewsOf`). */
  get maxViews(): number {
    return maxViewsOf(this.model);
  }

  /** The network's input for view `turn` (0: as is) of a crop. */
  input(crop: DieCrop, turn = 0): Float32Array {
    return toldWhere(turned(cropInput(crop, this.model), this.model.spec.size, turn), crop, this.model);
  }

  /** The network's inputs for views 0..count-1 of a crop: the crop is resampled once, then turned and mirrored. */
  inputs(crop: DieCrop, count: number): Float32Array[] {
    return viewInputs(crop, this.model, count);
  }

  /** Embedding of one network input. */
  embedInput(input: Float32Array): Float32Array {
    return this.net.embed(input).embedding;
  }

  /** Class probabilities (of `classes`), averaged over the views (the cocked check is not run). */
  probabilities(crop: DieCrop): Float32Array {
    return this.views(crop, false).probabilities;
  }

  /** Turns/mirrors averaged per crop (1..`maxViews`): the options' count, else the model's, else 1. */
  get viewCount(): number {
    return Math.max(1, Math.min(this.maxViews, Math.floor(this.options.views ?? this.model.views ?? 1)));
  }

  /**
   * The head's (or network's) probabilities, the network's own probability of `cocked`, and (`check`) the cocked
   * check's, averaged over the views. With a partner, the network's are the mean of both networks' (each over its own
   * views), as the thresholds were set; a head replaces only this network's last layer, so then the partner counts
   * only towards `cocked`. Also the inputs the network read: `given`, else (`keep`) cut from the crop here; without
   * either, the views are made in scratch arrays (`scratchView`) and none is returned.
   */
  private views(crop: DieCrop, check = true, given?: readonly Float32Array[], keep = false): { probabilities: Float32Array; own: Float32Array; cocked: number; checked: number; inputs: readonly Float32Array[] } {
    const views = this.viewCount;
    const { head } = this;
    const own = new Float32Array(this.model.classes.length);
    const headMean = head ? new Float32Array(head.classes.length) : undefined;
    const ci = this.model.classes.indexOf(COCKED_LABEL);
    let cocked = 0;
    let checked = 0;
    const inputs = given ?? (keep ? this.inputs(crop, views) : undefined);
    const x = inputs === undefined ? scratchInput(crop, this.model) : undefined;
    for (let t = 0; t < views; t++) {
      const { probs, embedding } = this.net.embed(inputs !== undefined ? (inputs[t] as Float32Array) : scratchView(x as Float32Array, crop, this.model, t));
      for (let j = 0; j < own.length; j++) own[j] = (own[j] as number) + (probs[j] as number) / views;
      if (head !== undefined && headMean !== undefined) {
        const p = headProbabilities(head, embedding);
        for (let j = 0; j < headMean.length; j++) headMean[j] = (headMean[j] as number) + (p[j] as number) / views;
      }
      if (ci >= 0) cocked += (probs[ci] as number) / views;
    }
    // Without a head, what the network reads is its own last layer's mean (then averaged with its partner's).
    const mean = headMean ?? Float32Array.from(own);
    if (this.partner && (!head || check)) {
      const q = partnerMean(this.partner, crop);
      if (!head) withPartnerMean(mean, q);
      if (ci >= 0) cocked = (cocked + (q[ci] as number)) / 2;
    }
    if (check) checked = this.outlineScore(crop) ?? 0;
    return { probabilities: mean, own, cocked, checked, inputs: inputs ?? [] };
  }

  /** The outline check's probability that the die is tilted (undefined: the model has no check). */
  outlineScore(crop: DieCrop): number | undefined {
    if (!this.check) return undefined;
    // A radial check reads as is and mirrored across the radial direction (its only views: turns 0 and 1), as its
    // threshold was set; any other check in the face network's views.
    // A check with a partner is the mean of both networks' probabilities, each in its own views.
    let sum = 0;
    for (const { net, model, cocked } of this.check.nets) {
      const checkViews = model.radial ? Math.min(maxViewsOf(model), model.views ?? 2) : this.viewCount;
      const seen = model.hideTop !== undefined ? hideTopMiddle(crop, model.hideTop) : crop;
      sum += meanOverViews(net, seen, model, checkViews)[cocked] as number;
    }
    return sum / this.check.nets.length;
  }

  /**
   * `probabilities`, and the network's own last layer's (of `model.classes`, no partner) averaged over the same views.
   * `inputs`: the crop's inputs as a reader that `sharesInputsWith` this one made them (they need not be made again).
   */
  probabilitiesAndOwn(crop: DieCrop, inputs?: readonly Float32Array[]): { probabilities: Float32Array; own: Float32Array } {
    const { probabilities, own } = this.views(crop, false, inputs);
    return { probabilities, own };
  }

  /** Whether `other` makes the same network inputs of a crop as this reader: the same cut, input size, views and (for a network told where the die lies) the same plane. */
  sharesInputsWith(other: LearnedReader): boolean {
    const [a, b] = [this.model, other.model];
    return a.spec.size === b.spec.size && a.inputScale === b.inputScale && Boolean(a.radial) === Boolean(b.radial) && a.offAxisPlaneDeg === b.offAxisPlaneDeg && this.viewCount === other.viewCount;
  }

  /**
   * Whether `other`'s own-layer mean (`probabilitiesAndOwn`) is what this reader's network gives a crop: the same
   * shipped network read in as many views, this reader without a head. Then `probabilitiesFromOwn` needs only the partner.
   */
  sharesNetworkWith(other: LearnedReader): boolean {
    return this.head === undefined && other.model === this.model && other.viewCount === this.viewCount;
  }

  /** `probabilities(crop)` given the network's own mean over the views (see `sharesNetworkWith`): only the partner is run. */
  probabilitiesFromOwn(crop: DieCrop, own: Float32Array): Float32Array {
    const mean = Float32Array.from(own);
    if (this.partner) withPartnerMean(mean, partnerMean(this.partner, crop));
    return mean;
  }


  /** The probability a read of `name` needs: the head's threshold, else the model's for that class, else the option. */
  thresholdOf(name: string): number {
    return this.head?.minProbability ?? this.model.thresholds?.[name] ?? this.options.minProbability;
  }

  read(crop: DieCrop): FaceRead {
    // The inputs are kept only for a confirming reader that reads the same ones.
    const shares = this.confirmer !== undefined && this.confirmer.sharesInputsWith(this);
    const { probabilities: all, cocked, checked, inputs } = this.views(crop, true, undefined, shares);
    const rule = this.options.confirmRule ?? 1;
    // Rule 5: where the outline check finds the die well short of tilted, the network's own cocked class is not asked.
    const ownCockedAsked = !(rule >= 5 && this.check !== undefined && checked < this.check.at * OWN_COCKED_NEEDS_OUTLINE);
    const p = ownCockedAsked ? all : flatProbabilities(all, this.classes);
    const best = argmax(p);
    const confidence = p[best] as number;
    const name = this.classes[best] as string;
    const base = { confidence, classifierVersion: this.classifierVersion, crop: crop.image, details: { probability: confidence } };
    const threshold = this.thresholdOf(name);
    if (name === COCKED_LABEL) return { ...base, status: 'cocked', cause: 'tilted', reason: `The learned reader sees a die not lying flat (${confidence.toFixed(2)}).` };
    // The network's own cocked check stands whatever head reads the face: a tilted die must never be counted.
    if (ownCockedAsked && this.model.cockedAt !== undefined && cocked >= this.model.cockedAt) {
      return { ...base, status: 'cocked', cause: 'tilted', reason: `The learned reader may see a die not lying flat (cocked ${cocked.toFixed(2)}, declined from ${this.model.cockedAt.toFixed(2)}).` };
    }
    const outlineAt = this.check ? (this.options.outlineAt ?? this.check.at) : undefined;
    if (outlineAt !== undefined && checked >= outlineAt) {
      return { ...base, status: 'cocked', cause: 'outline', reason: `The die's outline looks tilted to the cocked check (${checked.toFixed(2)}, declined from ${outlineAt.toFixed(2)}).` };
    }
    const glare = this.model.glare;
    if (glare !== undefined) {
      const share = clippedShare(crop, glare);
      if (share >= glare.at) {
        return { ...base, status: 'unreadable', cause: 'glare', reason: `The top face is lost in a highlight (${(100 * share).toFixed(0)} % of its centre clipped white, declined from ${(100 * glare.at).toFixed(0)} %): its icon cannot be seen.` };
      }
      if (glare.blankAt !== undefined && share >= glare.blankAt && splitClass(name).symbol === 'blank') {
        const reason = `The top face reads as a blank under a highlight (${(100 * share).toFixed(0)} % of its centre clipped white, a blank declined from ${(100 * glare.blankAt).toFixed(0)} %): a faded icon would look the same.`;
        return { ...base, status: 'unreadable', cause: 'glare', reason };
      }
    }
    const unsure = `The learned reader is not sure enough (best ${name} at ${confidence.toFixed(2)}, needs ${threshold.toFixed(2)})`;
    // Under rule 1 nothing can save an unsure read: declined before the confirming reader is run.
    if (confidence < threshold && (this.confirmer === undefined || rule === 1)) return { ...base, status: 'unreadable', cause: 'unsure', reason: `${unsure}.` };
    // The confirming reader's network's own reads, kept for a blank witness of the same network (it need not run again).
    let own: Float32Array | undefined;
    if (this.confirmer) {
      // A fine-tuned network and the shipped one under the head read the same inputs: they are cut once.
      const both = this.confirmer.probabilitiesAndOwn(crop, shares ? inputs : undefined);
      const q = both.probabilities;
      own = both.own;
      // Rule 3 asks the confirming reader which face: a head fitted on a user's few cocked dice called flat dice cocked
      // and, on foreign-1 dev, caught no cocked die the checks let through (one in a foreign-2 test set: training/README.md).
      const names = this.confirmer.classes;
      const other = rule >= 3 ? argmaxWhere(q, (j) => names[j] !== COCKED_LABEL) : argmax(q);
      const named = names[other] as string;
      const seconded = q[other] as number;
      const needs = this.confirmer.thresholdOf(named);
      // Rule 2: under its threshold a read stands when the confirming reader, fitted apart, is sure of the same face: two
      // readers seldom make the same mistake, and one of them is sure (chosen on foreign-1 dev: training/README.md).
      if (confidence < threshold && (named !== name || seconded < needs)) {
        const nor = `nor is its confirming reader (${named === COCKED_LABEL ? 'cocked' : named} at ${seconded.toFixed(2)}, needs ${needs.toFixed(2)})`;
        return { ...base, status: 'unreadable', cause: 'unsure', reason: `${unsure}, ${nor}.` };
      }
      // (Under rules 4 and 5 `named` is a face: the confirming reader's cocked class is never asked.)
      const overrules = rule >= 4 && confidence >= SURE_OVER_DISPUTE && splitClass(name).symbol !== 'blank';
      if (named !== name && !overrules) {
        const reason = `The learned reader reads ${name} (${confidence.toFixed(2)}) but its confirming reader sees ${named === COCKED_LABEL ? 'a die not lying flat' : named} (${seconded.toFixed(2)}).`;
        return { ...base, status: named === COCKED_LABEL ? 'cocked' : 'unreadable', cause: 'disputed', reason };
      }
    }
    const { die, symbol } = splitClass(name);
    const witness = this.options.blankWitness;
    if (witness !== undefined && symbol === 'blank') {
      const w = witness.reader;
      const wp = own !== undefined && this.confirmer !== undefined && w.sharesNetworkWith(this.confirmer) ? w.probabilitiesFromOwn(crop, own) : w.probabilities(crop);
      const doubt = witnessDoubt(wp, w.classes, witness);
      if (doubt !== undefined) return { ...base, status: 'unreadable', cause: 'disputed', reason: `The learned reader reads ${name} (${confidence.toFixed(2)}) but ${doubt}.` };
    }
    return { ...base, status: 'read', symbol, ...(die !== undefined ? { die } : {}) };
  }
}
