/**
 * Fine-tuning the shipped network on the user's own labelled dice at
 * calibration. A new last layer on the shipped embeddings carries the reader
 * over to dice that look like the renders it was trained on; it does not carry
 * it over to icons drawn differently (on foreign artwork it declined about half
 * the dice), because the features below that layer were learned on our icons
 * only. Fine-tuning trains every layer a little further, from the shipped
 * weights, on the user's dice: each die is cut a few times, shifted and
 * scaled, every use is seen under other light (pre-training's blur, colour
 * cast and noise: photometric.ts) and turned or mirrored. Whole images are held back
 * (dice in one image share its light) and the threshold is set on them.
 * Seeded and pure: the same samples give the same network.
 */
import { transformInput } from '../d6/augment.js';
import { decodeWeights, encodeWeights } from '../d6/netReader.js';
import { TinyNet } from '../d6/tinyNet.js';
import { seededRandom } from '../../stats/random.js';
import { classOfRead, COCKED_LABEL, isFlatFaceMisread } from '../labelledEval.js';
import type { AdaptSample, HeldBackScore } from './adapt.js';
import { splitGroups } from './adapt.js';
import type { LearnedModel } from './model.js';
import type { PhotometricChange } from './photometric.js';
import { photometricChange, pretrainingPhotometric } from './photometric.js';
import { normalised } from './input.js';
import { LearnedReader, maxViewsOf, rawCropInput } from './reader.js';
import type { BlankWitness, ConfirmRule } from './reader.js';

/** Largest turn of a radial network's training cut each way (train.py --radial's). */
const RADIAL_JITTER = (10 * Math.PI) / 180;

export interface FineTuneOptions {
  /** Fraction of images held back to set the threshold. */
  readonly holdBack: number;
  /** Shifted and scaled cuts of each die besides the centred one. */
  readonly jitters: number;
  /** Largest shift of a cut's centre, as a fraction of the die size, each way. */
  readonly shift: number;
  /** Largest change of a cut's size, as a fraction, each way. */
  readonly scale: number;
  readonly epochs: number;
  readonly batch: number;
  readonly learningRate: number;
  readonly weightDecay: number;
  /** Changes of light made to every use of a cut before it is normalised: pre-training's, and highlights. */
  readonly photometric: PhotometricChange;
  /**
   * A class's threshold = the most confident wrong read of a flat held-back die as that class + margin, at least
   * `floor`, at most `ceiling`. Per class, so one confusable die lifts only the class it was read as (on foreign-1,
   * one red focus read as a red hit at 0.978 lifted every class to 0.995 and declined 12 % instead of 7 %).
   * A fine-tuned network is sure of itself even where it should not be, so the floor was 0.9; under confirm rules 3
   * and 4 a read needs the head's face too, and 0.7 declined fewer dice on the foreign dev sets with no more wrong
   * reads (training/README.md).
   */
  readonly margin: number;
  readonly floor: number;
  readonly ceiling: number;
  readonly seed: number;
  readonly version: string;
  /** Called after each pass over the samples (for progress). */
  readonly onEpoch?: (epoch: number, epochs: number, loss: number) => void;
}

// Chosen on foreign-1 artwork (calibrated on tune-xwing-f1, measured on tune-xwing-f1-dev; see training/README.md).
export const defaultFineTuneOptions: FineTuneOptions = {
  holdBack: 0.25,
  jitters: 4,
  shift: 0.06,
  scale: 0.1,
  epochs: 20,
  batch: 16,
  learningRate: 2e-3,
  weightDecay: 1e-4,
  // And a highlight on 30 % of uses (tuned/3): kept on panel-lit foreign dev renders, where the calibration images'
  // even light had left the fine-tuned network reading icons paled by a highlight as blanks (training/README.md).
  photometric: { ...pretrainingPhotometric, highlight: 0.3 },
  margin: 0.02,
  floor: 0.7,
  ceiling: 0.995,
  seed: 5,
  version: 'tuned/3',
};

/** A network fine-tuned on the user's dice: the shipped network's shape and classes, new weights, a threshold per class. */
export interface TunedNetwork {
  readonly version: string;
  /** Little-endian float32 weights (TinyNet order), base64. */
  readonly weightsBase64: string;
  /** A read of class c under `thresholds[c]` is declined (set on held-back images); every class of the network has one. */
  readonly thresholds: Readonly<Record<string, number>>;
}

export interface FineTuneResult {
  readonly tuned: TunedNetwork;
  readonly heldBack: HeldBackScore;
  /** Dice trained on. */
  readonly fitted: number;
  /** Mean cross-entropy of each pass. */
  readonly losses: readonly number[];
}

/**
 * The shipped model with fine-tuned weights: its own last layer and its own per-class thresholds (the shipped
 * ones were set for the shipped weights). The cocked checks stay: the network's own `cocked`
 * class, retrained on the user's cocked dice too, and the separate outline check, which sees the die's shape
 * rather than its icons. A partner network goes: the thresholds are the fine-tuned network's alone.
 */
export function tunedModel(model: LearnedModel, tuned: TunedNetwork): LearnedModel {
  const [problem] = tunedProblems(model, tuned);
  if (problem !== undefined) throw new RangeError(`the fine-tuned network ${tuned.version} ${problem}.`);
  const { probe: _probe, partner: _partner, ...rest } = model;
  return { ...rest, version: `${model.version}+${tuned.version}`, weightsBase64: tuned.weightsBase64, thresholds: { ...tuned.thresholds } };
}

/** Why fine-tuned weights do not fit `model` (each as "has ..."): another weight count, or classes without a threshold. */
export function tunedProblems(model: LearnedModel, tuned: Pick<TunedNetwork, 'weightsBase64' | 'thresholds'>): string[] {
  const problems: string[] = [];
  const expected = decodeWeights(model.weightsBase64).length;
  const got = decodeWeights(tuned.weightsBase64).length;
  if (got !== expected) problems.push(`has ${got} weights; ${model.version} has ${expected}`);
  const missing = model.classes.filter((c) => c !== COCKED_LABEL && tuned.thresholds[c] === undefined);
  if (missing.length > 0) problems.push(`has no threshold for ${missing.join(', ')}`);
  return problems;
}

/** How a fine-tuned network is read besides its own thresholds. */
export interface TunedReaderOptions {
  /** Turns/mirrors averaged. */
  readonly views?: number;
  /** A reader that must agree (see `LearnedReaderOptions.confirmRule`). */
  readonly confirmer?: LearnedReader;
  readonly confirmRule?: ConfirmRule;
  readonly blankWitness?: BlankWitness;
  /** The outline check's threshold on the user's dice (`LearnedReaderOptions.outlineAt`). */
  readonly outlineAt?: number;
}

/**
 * A reader of the fine-tuned network, declining under its per-class thresholds (and, given one, when `confirmer`
 * disagrees; with `confirmRule` 2 to 5, reading under them when `confirmer` is sure of the same face; with 3 to 5, asking
 * `confirmer` which face only (see `ConfirmRule`); given a `blankWitness`, when it doubts a blank).
 */
export function tunedReader(model: LearnedModel, tuned: TunedNetwork, options: TunedReaderOptions = {}): LearnedReader {
  const { views, confirmer, confirmRule, blankWitness, outlineAt } = options;
  return new LearnedReader(
    tunedModel(model, tuned),
    {
      minProbability: Math.max(...Object.values(tuned.thresholds)),
      ...(views !== undefined ? { views } : {}),
      ...(confirmRule !== undefined ? { confirmRule } : {}),
      ...(blankWitness !== undefined ? { blankWitness } : {}),
      ...(outlineAt !== undefined ? { outlineAt } : {}),
    },
    undefined,
    confirmer,
  );
}

/** Fine-tunes `model` on labelled samples (classes among the model's) and sets its threshold on held-back images. */
export function fineTuneNetwork(model: LearnedModel, samples: readonly AdaptSample[], options: FineTuneOptions = defaultFineTuneOptions, views?: number): FineTuneResult {
  const unknown = [...new Set(samples.map((s) => s.label))].filter((c) => !model.classes.includes(c));
  if (unknown.length > 0) throw new RangeError(`${model.version} has no class ${unknown.join(', ')}.`);
  const random = seededRandom(options.seed);
  const { held } = splitGroups(
    samples.map((s) => s.group),
    options.holdBack,
    random,
  );
  const size = model.spec.size;
  // Every turn and mirror, or for a radial network the mirror across the radial direction only.
  const turns = maxViewsOf(model);
  const inputs: { input: Float32Array; label: number }[] = [];
  const fit = samples.filter((s) => !held.has(s.group));
  for (const s of fit) {
    const label = model.classes.indexOf(s.label);
    const { sizePx } = s.crop;
    for (let j = 0; j <= options.jitters; j++) {
      const dx = j === 0 ? 0 : (random() * 2 - 1) * options.shift * sizePx;
      const dy = j === 0 ? 0 : (random() * 2 - 1) * options.shift * sizePx;
      const scale = j === 0 ? 1 : 1 + (random() * 2 - 1) * options.scale;
      // A radial network was trained on dice turned radial-down +-10 degrees (train.py --radial): its cuts turn as much.
      const angle = j === 0 || !model.radial ? 0 : (random() * 2 - 1) * RADIAL_JITTER;
      inputs.push({ input: rawCropInput(s.crop, model, { dx, dy, scale, angle }), label });
    }
  }
  const net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
  const losses =
    inputs.length === 0
      ? []
      : net.train(inputs, {
          epochs: options.epochs,
          batch: options.batch,
          learningRate: options.learningRate,
          weightDecay: options.weightDecay,
          random: seededRandom(options.seed + 1),
          // Light first, on the raw cut (as pre-training), then normalised as the reader does, then turned.
          augment: (x, r) => transformInput(normalised(photometricChange(x, size, options.photometric, r)), size, Math.floor(r() * turns), 0, 1),
          ...(options.onEpoch ? { onEpoch: (epoch: number, loss: number) => options.onEpoch?.(epoch + 1, options.epochs, loss) } : {}),
        });
  const faces = model.classes.filter((c) => c !== COCKED_LABEL);
  const draft: TunedNetwork = { version: options.version, weightsBase64: encodeWeights(net.weights()), thresholds: Object.fromEntries(faces.map((c) => [c, 0])) };
  const reader = tunedReader(model, draft, views !== undefined ? { views } : {});
  // Only flat dice's wrong reads set the thresholds: a cocked die read as a face is the cocked checks' to catch,
  // and letting one lift a threshold would decline a whole face (see train.py --no-guard-cocked).
  const reads = samples.filter((s) => held.has(s.group)).map((s) => ({ truth: s.label, read: reader.read(s.crop) }));
  const worst: Record<string, number> = Object.fromEntries(faces.map((c) => [c, 0]));
  for (const { truth, read } of reads) {
    const named = classOfRead(read);
    if (isFlatFaceMisread(truth, named)) worst[named] = Math.max(worst[named] ?? 0, read.confidence ?? 0);
  }
  const thresholds = Object.fromEntries(faces.map((c) => [c, Math.min(options.ceiling, Math.max(options.floor, (worst[c] ?? 0) + options.margin))]));
  const kept = reads.filter(({ read }) => {
    const named = classOfRead(read);
    return named !== undefined && (read.confidence ?? 0) >= (thresholds[named] ?? 1);
  });
  return {
    tuned: { ...draft, thresholds },
    heldBack: { total: reads.length, read: kept.length, correct: kept.filter(({ truth, read }) => classOfRead(read) === truth).length, worstWrong: Math.max(...Object.values(worst)) },
    fitted: fit.length,
    losses,
  };
}
