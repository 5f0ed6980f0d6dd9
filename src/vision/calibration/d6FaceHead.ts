/**
 * Faces learned on the user's own D6s: a last layer (softmax regression) fitted
 * on what the shipped D6 networks see in each labelled die (`d6NetView`), for
 * dice whose faces the pip counter cannot count, such as a logo in place of the
 * 6's or the 1's pips. A session reads with it as the pip counter's second
 * opinion (`CombinedD6Reader`): a face with no pips to count is read when the
 * head alone is sure, and a pip count it firmly disputes is declined.
 *
 * Pure: fitting, probabilities, and the head's identity (a hash of its numbers),
 * which names the reader a D6 check measured.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { d6TurnEmbeddings } from '../d6/netEmbedding.js';
import type { D6SecondOpinion } from '../d6/combinedReader.js';
import type { TinyNet } from '../d6/tinyNet.js';
import type { DieCrop } from '../faceRead.js';
import { fitSoftmax } from '../learned/adapt.js';
import { headProbabilities } from '../learned/reader.js';

export const D6_FACE_HEAD_VERSION = 'd6-faces/1';

/** The faces a head reads, in the order of its rows: the D6 networks' order. */
export const D6_HEAD_FACES: readonly string[] = ['1', '2', '3', '4', '5', '6'];

export const d6FaceHeadSchema = z.strictObject({
  version: z.literal(D6_FACE_HEAD_VERSION),
  /** The D6 networks whose embedding it reads (their `version`): another dicerig's networks see dice otherwise. */
  nets: z.string().min(1),
  /** Row-major, one row per face of `D6_HEAD_FACES`, each as long as the embedding. */
  weights: z.array(z.number()),
  bias: z.array(z.number()).length(6),
});

export type D6FaceHead = z.infer<typeof d6FaceHeadSchema>;

/**
 * Turns of a crop the head is fitted on, each a sample, and read on: the first turn, and all of them (probabilities
 * averaged) unless the first already agrees with the pip counter's sure count or is `EARLY_AT` sure (the shipped D6
 * networks' own early stop). Read on four turns always, a frame of 4 D6s took 30.3 ms, twice the 15 ms frame budget
 * (bench/vision.ts); a first turn 0.99 sure was too rare to save it (16 % of simulated dice). Stopping on agreement
 * too, it took 14.5 ms. The check reads its dice with this same rule, so what it measured is what a session does.
 */
export const FIT_TURNS = 4;
const EARLY_AT = 0.99;

/** A labelled die as the networks see it in one turn (`d6TurnEmbeddings`), and the face it shows the camera. */
export interface D6FaceSample {
  readonly embedding: Float32Array;
  readonly face: string;
}

// Settings of the X-Wing calibration head (`defaultAdaptOptions`): unit-length embeddings of a few hundred dice, each
// face weighed alike so a rare face is not pulled towards a common one.
const FIT = { iterations: 500, learningRate: 0.05, l2: 1e-4, balance: true } as const;

/** Fits a head on labelled dice (faces outside '1'..'6' are left out). */
export function fitD6FaceHead(samples: readonly D6FaceSample[], nets: string): D6FaceHead {
  const fitted = samples.filter((s) => D6_HEAD_FACES.includes(s.face));
  if (fitted.length === 0) throw new RangeError('A D6 face head needs labelled dice showing faces 1 to 6.');
  const { weights, bias } = fitSoftmax(
    fitted.map((s) => s.embedding),
    fitted.map((s) => D6_HEAD_FACES.indexOf(s.face)),
    D6_HEAD_FACES.length,
    FIT,
  );
  // Rounded so the file, its hash and a session's reads are the same numbers.
  const round = (v: number): number => Number(v.toPrecision(7));
  return { version: D6_FACE_HEAD_VERSION, nets, weights: weights.map(round), bias: bias.map(round) };
}

/** Face probabilities ('1'..'6') of an embedding: the softmax an X-Wing calibration head reads with. */
export function d6FaceHeadProbabilities(head: D6FaceHead, embedding: Float32Array): Float32Array {
  const d = embedding.length;
  if (head.weights.length !== D6_HEAD_FACES.length * d) throw new RangeError(`The D6 face head has ${head.weights.length} weights, not 6 x ${d} for these networks' embedding.`);
  return headProbabilities({ classes: D6_HEAD_FACES, weights: head.weights, bias: head.bias }, embedding);
}

/** The head's identity: its version, networks and a hash of its numbers. */
export function d6FaceHeadId(head: D6FaceHead): string {
  const hash = createHash('sha256').update(JSON.stringify([head.nets, head.weights, head.bias])).digest('hex').slice(0, 12);
  return `${head.version}@${head.nets}:${hash}`;
}

/** The head as the pip counter's second opinion in a session. */
export class D6FaceHeadOpinion implements D6SecondOpinion {
  readonly classifierVersion: string;

  /**
   * `embeddings`: `d6TurnEmbeddings` of these networks, or a memory of it (a check reads again the dice it fitted on,
   * whose turns it has already embedded).
   */
  constructor(
    private readonly nets: readonly TinyNet[],
    readonly head: D6FaceHead,
    private readonly embeddings: (crop: DieCrop, turns: number, from: number) => Float32Array[] = (crop, turns, from) => d6TurnEmbeddings(nets, crop, turns, from),
  ) {
    this.classifierVersion = d6FaceHeadId(head);
  }

  probabilities(crop: DieCrop, counted?: string): Float32Array {
    const first = d6FaceHeadProbabilities(this.head, this.embeddings(crop, 1, 0)[0] as Float32Array);
    const best = Math.max(...first);
    // Agreeing with a sure count, the first turn's read is that count; more turns could only turn it into a dispute.
    if (best >= EARLY_AT || (counted !== undefined && D6_HEAD_FACES[first.indexOf(best)] === counted)) return first;
    const rest = this.embeddings(crop, FIT_TURNS, 1).map((e) => d6FaceHeadProbabilities(this.head, e));
    return first.map((v, j) => rest.reduce((sum, q) => sum + (q[j] as number), v) / (1 + rest.length));
  }
}
