/**
 * A learned reader's network as shipped, and the head a calibration fits on
 * its embeddings. Class names are label classes (`red-hit`, `green-blank`,
 * `3`, `cocked`); the model says how its input square is taken.
 */
import type { NetSpec } from '../d6/tinyNet.js';
import { DicerigError } from '../../core/errors.js';
import { COCKED_LABEL } from '../labelledEval.js';
import type { GlareCheck } from './glare.js';

export interface LearnedModel {
  readonly version: string;
  readonly spec: NetSpec;
  /** One class name per network output. */
  readonly classes: readonly string[];
  /** Little-endian float32 weights (TinyNet order), base64. */
  readonly weightsBase64: string;
  /** Side of the sampled square over the die's size in the crop. */
  readonly inputScale: number;
  /** Die height over its measured size (for the top face's parallax). */
  readonly heightRatio: number;
  /** Where it came from: data, its hash, and the command that reproduces the weights. */
  readonly trainedOn: string;
  readonly dataHash: string;
  readonly command: string;
  /** Probabilities the training framework gave for the probe input x[i] = 2 sin(0.37 i): the TypeScript network must give the same. */
  readonly probe?: readonly number[];
  /**
   * Per-class rejection thresholds set on the tune split (a read of class c under
   * `thresholds[c]` is declined), chosen so no face is declined much more than another.
   */
  readonly thresholds?: Readonly<Record<string, number>>;
  /** A die whose network probability of `cocked` reaches this is declined as cocked, whatever class is most probable (set on the tune split). */
  readonly cockedAt?: number;
  /**
   * A second, smaller network that sees the whole die and its outline (this one sees only the top face, so a
   * die leaning on a wall with a clear icon on top can look flat to it): a die whose probability of `cocked`
   * under it reaches `at` is declined as cocked. `at` is set on the tune split together with `thresholds`;
   * the generated weights name the check by version, and `net` is attached where the models are shipped.
   */
  readonly cockedCheck?: CockedCheck;
  /**
   * Turns/mirrors of each crop averaged (transformInput turns 0..views-1) when `thresholds`, `cockedAt` and the
   * check's `at` were set: the reader reads with as many unless told otherwise. Default 1. A cocked check reads in
   * the face network's views, unless radial: then as is and mirrored (2, or 1 if its own `views` say so).
   */
  readonly views?: number;
  /**
   * The network reads each die turned so that its radial direction (`DieCrop.radial`: from the optical centre to the
   * die) points down (`radialInput`): perspective then shows the die's sides the same way for every die, and a die
   * leaning another way stands out. Its views are only the mirror across that direction (turns 0 and 1).
   */
  readonly radial?: true;
  /**
   * An outline check that reads each die with its top face's middle hidden (`hideTopMiddle`): a disc of this many die
   * sizes around the crop's centre painted in the body's colour, as it was trained, so the icon cannot sway it.
   */
  readonly hideTop?: number;
  /**
   * A second face network read beside this one (another input geometry, so their mistakes seldom coincide): the reader
   * averages the two networks' probabilities (each over its own views), and `thresholds` and `cockedAt` were set on
   * that mean. The generated weights name the partner by version; `net` is attached where the models are shipped.
   * On a cocked check: a second check trained alike from another seed, averaged with it the same way (the face
   * network's `cockedCheck.at` was set on that mean).
   */
  readonly partner?: Partner;
  /**
   * Declines a die whose top face is lost in a highlight (`glare.ts`). Set where the models are shipped, for dice with
   * coloured faces; kept by a head or a fine-tuned network, since no network can read a face the image does not show.
   */
  readonly glare?: GlareCheck;
  /**
   * A network that is told where the die lies: its input has a fourth plane after the three colour planes, every value
   * the die's angle off the lens axis (`DieCrop.offAxisDeg`, 0 where the crop does not say) over this many degrees.
   * An outline check so trained (train.py --off-axis-plane) can learn how much of a flat die's sides the lens shows there.
   */
  readonly offAxisPlaneDeg?: number;
}

export interface Partner {
  readonly version: string;
  /** The partner's network (the same classes), once attached (see `withPartner`). */
  readonly net?: LearnedModel;
}

export interface CockedCheck {
  readonly version: string;
  readonly at: number;
  /** The check's network (classes `flat`, `cocked`), once attached (see `withCockedCheck`). */
  readonly net?: LearnedModel;
}

/** The model with its cocked check's network attached; refuses a network of another version than the model names. */
export function withCockedCheck(model: LearnedModel, net: LearnedModel): LearnedModel {
  if (model.cockedCheck === undefined) throw new DicerigError(`${model.version} names no cocked check`, { model: model.version });
  if (model.cockedCheck.version !== net.version) throw new DicerigError(`${model.version} was tuned with the cocked check ${model.cockedCheck.version}, not ${net.version}`, { model: model.version, cockedCheck: net.version });
  if (!net.classes.includes(COCKED_LABEL)) throw new DicerigError(`the cocked check ${net.version} has no "${COCKED_LABEL}" class`, { model: model.version, cockedCheck: net.version });
  return { ...model, cockedCheck: { ...model.cockedCheck, net } };
}

/** The model with its partner network attached; refuses a network of another version than the model names, or other classes. */
export function withPartner(model: LearnedModel, net: LearnedModel): LearnedModel {
  if (model.partner === undefined) throw new DicerigError(`${model.version} names no partner network`, { model: model.version });
  if (model.partner.version !== net.version) throw new DicerigError(`${model.version} was tuned with the partner network ${model.partner.version}, not ${net.version}`, { model: model.version, partner: net.version });
  if (net.classes.join() !== model.classes.join()) throw new DicerigError(`the partner network ${net.version} reads ${net.classes.join(', ')}, not ${model.version}'s ${model.classes.join(', ')}`, { model: model.version, partner: net.version });
  return { ...model, partner: { ...model.partner, net } };
}

/** A last layer fitted at calibration on the network's embeddings, with its rejection threshold. */
export interface LearnedHead {
  readonly version: string;
  readonly classes: readonly string[];
  /** [classes][embedding] weights, row by row. */
  readonly weights: readonly number[];
  readonly bias: readonly number[];
  /** Reads under this probability are declined (set on held-back calibration samples). */
  readonly minProbability: number;
}

/** The die and symbol of a class name: `red-hit` -> red, hit; `3` -> symbol 3. */
export function splitClass(className: string): { die?: string; symbol: string } {
  const i = className.indexOf('-');
  return i > 0 ? { die: className.slice(0, i), symbol: className.slice(i + 1) } : { symbol: className };
}

/** Every network a model reads with, once attached: itself, its partner, its outline check and the check's partner. */
export function networksOf(model: LearnedModel): LearnedModel[] {
  const check = model.cockedCheck?.net;
  return [model, model.partner?.net, check, check?.partner?.net].filter((m): m is LearnedModel => m !== undefined);
}
