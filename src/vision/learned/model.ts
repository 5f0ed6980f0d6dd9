/**
 * A learned reader's network as shipped, and the head a calibration fits on
 * its embeddings. Class names are label classes (`red-hit`, `green-blank`,
 * `3`, `cocked`); the model says how its input square is taken.
 */
import type { NetSpec } from '../d6/tinyNet.js';

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
