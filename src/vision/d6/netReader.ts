/**
 * The learned D6 reader: a tiny network trained on labelled crops (the shipped
 * one on the tuning half of the real tray photos; a rig would train its own from
 * calibration samples). It answers with the most probable face and that
 * probability, averaged over turned and mirrored copies of the crop; under
 * `minProbability` it declines.
 */
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { transformInput } from './augment.js';
import { netInput } from './netInput.js';
import { TinyNet } from './tinyNet.js';
import type { NetSpec } from './tinyNet.js';

/** A trained network as shipped: its shape, weights and where they came from. */
export interface D6NetModel {
  readonly version: string;
  readonly spec: NetSpec;
  /** Little-endian float32 weights, base64. */
  readonly weightsBase64: string;
  /** What it was trained on, in words. */
  readonly trainedOn: string;
}

export interface D6NetOptions {
  /** Reads whose averaged probability is lower are declined. */
  readonly minProbability: number;
  /** How many of the 8 turns/mirrors are averaged (1..8). */
  readonly views: number;
}

// Set on photos 81..100 of the tray photos (the shipped network never saw them): no misread at 0.7
// among 107 dice, so 0.8 leaves a margin; 4 views read as well as 8 there, at half the time.
export const defaultD6NetOptions: D6NetOptions = { minProbability: 0.8, views: 4 };

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

/** Face probabilities ('1'..'6') of a crop, averaged over `views` turns/mirrors. */
export function netProbabilities(net: TinyNet, crop: DieCrop, views: number): Float32Array {
  const input = netInput(crop.image, net.spec.size);
  const mean = new Float32Array(net.spec.classes);
  const n = Math.max(1, Math.min(8, Math.floor(views)));
  for (let t = 0; t < n; t++) {
    const p = net.predict(t === 0 ? input.data : transformInput(input.data, net.spec.size, t, 0, 1));
    for (let j = 0; j < mean.length; j++) mean[j] = (mean[j] as number) + (p[j] as number) / n;
  }
  return mean;
}

/** Learned D6 reader. */
export class D6NetReader implements FaceReader {
  readonly classifierVersion: string;
  private readonly net: TinyNet;

  constructor(
    readonly model: D6NetModel,
    readonly options: D6NetOptions = defaultD6NetOptions,
  ) {
    this.net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
    this.classifierVersion = model.version;
  }

  // A crop read twice (alone, then as a second opinion) costs one pass: crops are not modified once cut.
  private readonly memo = new WeakMap<DieCrop['image'], Float32Array>();

  /** Face probabilities ('1'..'6'). */
  probabilities(crop: DieCrop): Float32Array {
    const known = this.memo.get(crop.image);
    if (known) return known;
    const p = netProbabilities(this.net, crop, this.options.views);
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
      return { status: 'unreadable', confidence, classifierVersion: this.classifierVersion, crop: crop.image, reason: `The learned classifier is not sure enough (best face ${best + 1} at ${confidence.toFixed(2)}).`, details };
    }
    return { status: 'read', symbol: String(best + 1), confidence, classifierVersion: this.classifierVersion, crop: crop.image, details };
  }
}
