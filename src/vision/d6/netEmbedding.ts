/**
 * What the shipped D6 networks see in a die, for grouping dice a person then
 * names (the guided D6 check): the pooled features their last layer reads,
 * averaged over the four turns of the crop and over the ensemble, scaled to
 * length 1, and the face they read. The networks are not the pip counter a
 * check measures, so dice are grouped by something other than the reader the
 * check is of, and a named die they read otherwise is shown to be checked.
 */
import { createHash } from 'node:crypto';
import { unitLength } from '../../core/unitLength.js';
import type { RgbImage } from '../../core/image.js';
import type { DieCrop } from '../faceRead.js';
import { transformInput } from './augment.js';
import { netInput } from './netInput.js';
import type { TinyNet } from './tinyNet.js';

/** Turns of the crop whose embeddings are averaged: a face groups whichever way it lies. */
const TURNS = 4;

/** What the networks see in a die: its embedding (length 1) and their face probabilities ('1'..'6'), both averaged over turns and networks. */
export interface D6NetView {
  readonly embedding: Float32Array;
  readonly probabilities: Float32Array;
}

export function d6NetView(nets: readonly TinyNet[], crop: DieCrop, seen?: D6NetOutputs): D6NetView {
  let sum: Float32Array | undefined;
  const probabilities = new Float32Array(6);
  let views = 0;
  eachTurn(nets, crop, 0, TURNS, seen, (_, { embedding, probs }) => {
    sum = addInto(sum, embedding);
    for (let j = 0; j < probabilities.length; j++) probabilities[j] = (probabilities[j] as number) + (probs[j] as number);
    views++;
  });
  return { embedding: unitLength(sum ?? new Float32Array(0)), probabilities: probabilities.map((p) => p / Math.max(1, views)) };
}

/** The face the networks find likeliest ('1'..'6'). */
export function likeliestFace(view: D6NetView): string {
  let best = 0;
  for (let j = 1; j < view.probabilities.length; j++) if ((view.probabilities[j] as number) > (view.probabilities[best] as number)) best = j;
  return String(best + 1);
}

/**
 * What the networks see in turns `from`..`turns - 1` of the crop (at most 4): per turn, the embedding averaged over
 * the networks and scaled to length 1. Faces learned on a user's dice are fitted on every turn and read on the first,
 * and on the others only when the first leaves them unsure.
 */
export function d6TurnEmbeddings(nets: readonly TinyNet[], crop: DieCrop, turns: number, from = 0, seen?: D6NetOutputs): Float32Array[] {
  const sums: Float32Array[] = [];
  eachTurn(nets, crop, from, Math.min(TURNS, turns), seen, (t, { embedding }) => {
    sums[t - from] = addInto(sums[t - from], embedding);
  });
  return sums.map(unitLength);
}

interface NetOutput {
  readonly embedding: Float32Array;
  readonly probs: Float32Array;
}

/**
 * The networks' outputs for the inputs they have read, by network and by the input's bytes (what a network makes of
 * a die depends on nothing else). A guided D6 check of kept throws that learns faces groups the dice by what the
 * networks see (`d6NetView`), then learns from the same dice cut again from the same files (`d6TurnEmbeddings`):
 * without this, each network read each of those dice's turns twice. Throws taken live are cut again from the JPEG
 * files they were saved to, which need not give the same pixels: such dice are read afresh. One for a command; about
 * 1.6 kB a die and network.
 */
export class D6NetOutputs {
  private readonly byNet = new Map<TinyNet, Map<string, NetOutput[]>>();

  /** The outputs known for this input, by turn (an array the caller fills in). */
  turns(net: TinyNet, input: Float32Array): NetOutput[] {
    let known = this.byNet.get(net);
    if (known === undefined) this.byNet.set(net, (known = new Map()));
    const key = createHash('sha256').update(new Uint8Array(input.buffer, input.byteOffset, input.byteLength)).digest('base64');
    let turns = known.get(key);
    if (turns === undefined) known.set(key, (turns = []));
    return turns;
  }
}

/** Each network's output for turns `from`..`to - 1` of the crop, network by network, handed to `use`; `seen` remembers them and gives them again. */
function eachTurn(nets: readonly TinyNet[], crop: DieCrop, from: number, to: number, seen: D6NetOutputs | undefined, use: (turn: number, output: NetOutput) => void): void {
  for (const net of nets) {
    const size = net.spec.size;
    const input = inputOf(crop.image, size);
    const known = seen?.turns(net, input);
    for (let t = from; t < to; t++) {
      let output = known?.[t];
      if (output === undefined) {
        output = net.embed(t === 0 ? input : transformInput(input, size, t, 0, 1));
        // Arrays of its own, which the callers only add into sums of their own.
        if (known !== undefined) known[t] = output;
      }
      use(t, output);
    }
  }
}

/**
 * The last crop's network inputs, by side. The networks of a model read the same input, and faces learned on the dice
 * ask for a crop's first turn and then, when unsure, for its other turns: resampling and normalising it each time cost
 * about a third of a network's pass. Crops are not modified once cut, so the same image gives the same input.
 */
let last: { readonly image: RgbImage; readonly inputs: Map<number, Float32Array> } | undefined;

function inputOf(image: RgbImage, size: number): Float32Array {
  if (last?.image !== image) last = { image, inputs: new Map() };
  let input = last.inputs.get(size);
  if (input === undefined) last.inputs.set(size, (input = netInput(image, size).data));
  return input;
}

/** `sum` (a new one when undefined) with `e` added to it. */
function addInto(sum: Float32Array | undefined, e: Float32Array): Float32Array {
  const out = sum ?? new Float32Array(e.length);
  if (e.length !== out.length) throw new RangeError('the D6 networks of one model give embeddings of different lengths');
  for (let j = 0; j < e.length; j++) out[j] = (out[j] as number) + (e[j] as number);
  return out;
}
