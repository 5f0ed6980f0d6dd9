/**
 * The learned D6 reader: tiny networks trained on labelled crops (the shipped
 * ones on real tray photos, `heldOutPhotos` never seen; a rig could train its own from
 * calibration samples). It answers with the most probable face and that
 * probability, averaged over turned and mirrored copies of the crop and over
 * the networks of an ensemble; under `minProbability` it declines.
 */
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import type { CombinedD6Options } from './combinedReader.js';
import { transformInput } from './augment.js';
import { netInput } from './netInput.js';
import { TinyNet } from './tinyNet.js';
import type { NetSpec } from './tinyNet.js';

/** One trained network: its shape and weights. */
export interface D6Net {
  readonly spec: NetSpec;
  /** Little-endian float32 weights, base64. */
  readonly weightsBase64: string;
  /** The training framework's probabilities for the fixed probe input (x[i] = 2 sin(0.37 i)): TinyNet must give the same. */
  readonly probe: readonly number[];
}

/** The shipped D6 networks (an ensemble whose probabilities are averaged) and the rules they were measured with. */
export interface D6NetModel {
  readonly version: string;
  readonly nets: readonly D6Net[];
  /** What it was trained on, in words, and the data hash of those photos. */
  readonly trainedOn: string;
  readonly dataHash: string;
  /**
   * The tray photos (1-based, by sorted name, inclusive) that neither trained these networks nor checked their rules:
   * the only ones whose reads measure them.
   */
  readonly heldOutPhotos: { readonly first: number; readonly last: number };
  /** The command that reproduces these weights and rules. */
  readonly command: string;
  /** Turns/mirrors averaged, and the probability under which the networks alone decline (`--reader learned`). */
  readonly views: number;
  readonly minProbability: number;
  /** The first view of every network is read first; at this mean probability or more the read stops there (most dice). */
  readonly earlyAt: number;
  /** The combined reader's rule for this model (pips with the networks as a second opinion). */
  readonly combined: CombinedD6Options;
}

/** The photos, in sorted-name order, that `model` never saw: its `heldOutPhotos` (1-based, inclusive) as a slice. */
export function heldOutOf<T>(model: Pick<D6NetModel, 'heldOutPhotos'>, photos: readonly T[]): T[] {
  const { first, last } = model.heldOutPhotos;
  return photos.slice(first - 1, last);
}

export interface D6NetOptions {
  /** Reads whose averaged probability is lower are declined. */
  readonly minProbability: number;
  /** How many of the 8 turns/mirrors are averaged (1..8). */
  readonly views: number;
  /** Stop after the first view of every network when their mean is at least this sure (above 1: never). */
  readonly earlyAt: number;
}

/** Decodes base64 float32 weights. */
export function decodeWeights(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Float32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** Encodes float32 weights as base64 (little-endian). */
export function encodeWeights(weights: Float32Array): string {
  const bytes = Buffer.alloc(weights.length * 4);
  for (let i = 0; i < weights.length; i++) bytes.writeFloatLE(weights[i] as number, i * 4);
  return bytes.toString('base64');
}

/**
 * Face probabilities ('1'..'6') of a crop, averaged over `views` turns/mirrors and over the networks. The first view of
 * every network is averaged first: when that mean is at least `earlyAt` sure it is the answer (a clear die costs one
 * pass per network); otherwise the other views are added and all are averaged.
 */
export function netProbabilities(nets: readonly TinyNet[], crop: DieCrop, views: number, earlyAt = Infinity): Float32Array {
  const n = Math.max(1, Math.min(8, Math.floor(views)));
  const inputs = new Map<number, Float32Array>();
  const inputOf = (size: number): Float32Array => {
    let input = inputs.get(size);
    if (!input) inputs.set(size, (input = netInput(crop.image, size).data));
    return input;
  };
  const sum = new Float32Array(6);
  const add = (net: TinyNet, t: number): void => {
    const size = net.spec.size;
    const p = net.predict(t === 0 ? inputOf(size) : transformInput(inputOf(size), size, t, 0, 1));
    for (let j = 0; j < sum.length; j++) sum[j] = (sum[j] as number) + (p[j] as number);
  };
  for (const net of nets) add(net, 0);
  const first = sum.map((v) => v / nets.length);
  if (n === 1 || Math.max(...first) >= earlyAt) return first;
  for (const net of nets) for (let t = 1; t < n; t++) add(net, t);
  return sum.map((v) => v / (n * nets.length));
}

/** The model's networks, ready to read. */
export function d6Nets(model: D6NetModel): TinyNet[] {
  if (model.nets.length === 0) throw new RangeError(`The D6 model ${model.version} holds no network.`);
  return model.nets.map((n) => {
    if (n.spec.classes !== 6 || n.spec.channels !== 3) throw new RangeError(`A network of the D6 model ${model.version} reads ${n.spec.channels} planes into ${n.spec.classes} classes, not 3 into the 6 faces.`);
    return new TinyNet(n.spec, undefined, decodeWeights(n.weightsBase64));
  });
}

/** Learned D6 reader. */
export class D6NetReader implements FaceReader {
  readonly classifierVersion: string;
  private readonly nets: TinyNet[];
  readonly options: D6NetOptions;

  constructor(
    readonly model: D6NetModel,
    options?: D6NetOptions,
  ) {
    this.nets = d6Nets(model);
    this.options = options ?? { minProbability: model.minProbability, views: model.views, earlyAt: model.earlyAt };
    this.classifierVersion = model.version;
  }

  // A crop read twice (alone, then as a second opinion) costs one pass: crops are not modified once cut.
  private readonly memo = new WeakMap<DieCrop['image'], Float32Array>();

  /** Face probabilities ('1'..'6'). */
  probabilities(crop: DieCrop): Float32Array {
    const known = this.memo.get(crop.image);
    if (known) return known;
    const p = netProbabilities(this.nets, crop, this.options.views, this.options.earlyAt);
    this.memo.set(crop.image, p);
    return p;
  }

  read(crop: DieCrop): FaceRead {
    const p = this.probabilities(crop);
    let best = 0;
    for (let j = 1; j < p.length; j++) if ((p[j] as number) > (p[best] as number)) best = j;
    const confidence = p[best] as number;
    const details: Record<string, number> = { netFace: best + 1, netProbability: confidence };
    if (confidence < this.options.minProbability) {
      return { status: 'unreadable', cause: 'unsure', confidence, classifierVersion: this.classifierVersion, crop: crop.image, reason: `The learned classifier is not sure enough (best face ${best + 1} at ${confidence.toFixed(2)}).`, details };
    }
    return { status: 'read', symbol: String(best + 1), confidence, classifierVersion: this.classifierVersion, crop: crop.image, details };
  }
}
