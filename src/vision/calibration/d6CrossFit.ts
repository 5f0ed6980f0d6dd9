/**
 * A D6 check of a reader that learned faces on the check's own dice: fair only
 * on dice the head was not fitted on. The images are split into folds; each
 * image's dice are read with a head fitted on the other folds' dice (dice in
 * one image share its light, so they go together), and the head a session
 * reads with is fitted on all of them. Each head is fitted on fewer dice than
 * the shipped one, so the misreads the check counts lean high, not low.
 *
 * Pure: reads already made whole frame by whole frame are read again from the
 * crops the session's reader was handed; the pipeline's own verdicts (a blob
 * of touching dice, a die called cocked by its outline, a die not located)
 * did not ask the reader and stand as they were.
 */
import { seededRandom, shuffled } from '../../stats/random.js';
import type { D6SecondOpinion } from '../d6/combinedReader.js';
import { d6TurnEmbeddings, type D6NetOutputs } from '../d6/netEmbedding.js';
import type { TinyNet } from '../d6/tinyNet.js';
import type { DeclineCause, DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { D6FaceHeadOpinion, D6_HEAD_FACES, FIT_TURNS, fitD6FaceHead, type D6FaceHead, type D6FaceSample } from './d6FaceHead.js';

/** A labelled die and what the reader made of it; `group` is its image. */
export interface CheckedD6Read {
  readonly group: string;
  readonly truth: string;
  readonly read: FaceRead;
}

export interface D6CrossFitOptions {
  readonly nets: readonly TinyNet[];
  /** The networks' version, recorded in the head. */
  readonly netsVersion: string;
  /** The session's reader with a head as the pip counter's second opinion (the rule, the face on top). */
  readonly readerWith: (opinion: D6SecondOpinion) => FaceReader;
  /** The face a labelled die shows the camera: its label, or the opposite face when the camera sees the bottom. */
  readonly seen: (label: string) => string;
  /** Die size the session reads with, pixels. */
  readonly sizePx: number;
  /** Folds (at most one an image). */
  readonly folds: number;
  readonly seed: number;
  /** Fewest flat dice of each face the head must learn from. */
  readonly minPerFace: number;
  /** Told after each fit (the folds', then the one on all dice): a fit of a thousand dice takes some seconds. */
  readonly onFitted?: (done: number, total: number) => void;
  /** What the networks made of dice read before (a guided check's grouping of the same kept throws). */
  readonly netOutputs?: D6NetOutputs;
}

export interface D6CrossFit {
  /** The head a session reads with: fitted on every labelled flat die. */
  readonly head: D6FaceHead;
  /** Each die read as the session's reader would, with a head not fitted on its image. */
  readonly reads: readonly CheckedD6Read[];
  readonly folds: number;
}

/** Faces with too few flat dice to learn: each face and its count. */
export class TooFewFacesError extends RangeError {
  constructor(readonly short: readonly { readonly face: string; readonly dice: number }[], readonly minPerFace: number) {
    super(`too few dice of ${short.map((s) => `${s.face} (${s.dice})`).join(', ')} to learn their faces: at least ${minPerFace} flat dice of each face are needed`);
  }
}

/** Verdicts the pipeline makes before asking the reader. */
const PIPELINE_CAUSES: ReadonlySet<DeclineCause> = new Set(['outline', 'touching', 'shadow', 'not-located']);

function askedTheReader(read: FaceRead): boolean {
  return read.status !== 'cocked' && !(read.cause !== undefined && PIPELINE_CAUSES.has(read.cause));
}

/** Seeded assignment of images to folds, round the shuffled list. */
export function d6Folds(groups: readonly string[], folds: number, seed: number): Map<string, number> {
  const names = shuffled([...new Set(groups)].sort(), seededRandom(seed));
  return new Map(names.map((n, i) => [n, i % folds]));
}

/**
 * One head per fold, each fitted on the samples outside it (undefined for a fold with no samples outside it); `onFitted`
 * hears of each as it is fitted.
 */
export function headsOutOfFold<S extends D6FaceSample>(samples: readonly S[], foldOf: (sample: S) => number, folds: number, version: string, onFitted?: (fold: number) => void): (D6FaceHead | undefined)[] {
  return Array.from({ length: folds }, (_, k) => {
    const outside = samples.filter((s) => foldOf(s) !== k);
    if (outside.length === 0) return undefined;
    const head = fitD6FaceHead(outside, version);
    onFitted?.(k);
    return head;
  });
}

/** Fits the heads and reads every die as described above. */
export function crossFitD6Reads(reads: readonly CheckedD6Read[], options: D6CrossFitOptions): D6CrossFit {
  // The dice fitted on (with their face), counted before the networks look at any: too few is said at once.
  const fitted: { readonly at: number; readonly face: string }[] = [];
  reads.forEach((r, at) => {
    const face = D6_HEAD_FACES.includes(r.truth) ? options.seen(r.truth) : undefined;
    if (face !== undefined && askedTheReader(r.read)) fitted.push({ at, face });
  });
  const short = D6_HEAD_FACES.map((face) => ({ face, dice: fitted.filter((s) => s.face === face).length })).filter((s) => s.dice < options.minPerFace);
  if (short.length > 0) throw new TooFewFacesError(short, options.minPerFace);
  const samples: (D6FaceSample & { readonly at: number })[] = [];
  // Each fitted die's turns, by its crop, for reading it again below: the networks' work, done once a die.
  const embedded = new Map<DieCrop['image'], Float32Array[]>();
  for (const { at, face } of fitted) {
    const crop = (reads[at] as CheckedD6Read).read.crop;
    const turns = d6TurnEmbeddings(options.nets, { image: crop, sizePx: options.sizePx }, FIT_TURNS, 0, options.netOutputs);
    embedded.set(crop, turns);
    for (const embedding of turns) samples.push({ at, face, embedding });
  }
  const turnEmbeddings = (crop: DieCrop, turns: number, from: number): Float32Array[] => embedded.get(crop.image)?.slice(from, Math.min(turns, FIT_TURNS)) ?? d6TurnEmbeddings(options.nets, crop, turns, from, options.netOutputs);

  const groups = reads.map((r) => r.group);
  const folds = Math.max(2, Math.min(options.folds, new Set(groups).size));
  const fold = d6Folds(groups, folds, options.seed);
  // Every face has dice (checked above), so every fold's head has samples outside it.
  const heads = headsOutOfFold(samples, (s) => fold.get(groups[s.at] as string) as number, folds, options.netsVersion, (k) => options.onFitted?.(k + 1, folds + 1));
  const readers = heads.map((head) => options.readerWith(new D6FaceHeadOpinion(options.nets, head as D6FaceHead, turnEmbeddings)));
  const reread = reads.map((r) => {
    if (!askedTheReader(r.read)) return r;
    const reader = readers[fold.get(r.group) as number] as FaceReader;
    return { ...r, read: reader.read({ image: r.read.crop, sizePx: options.sizePx }) };
  });
  const head = fitD6FaceHead(samples, options.netsVersion);
  options.onFitted?.(folds + 1, folds + 1);
  return { head, reads: reread, folds };
}
