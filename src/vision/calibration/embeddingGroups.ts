/**
 * The learned reader's guided calibration groups dice by what the shipped
 * network sees in them: each die's embedding (the input of the network's last
 * layer, averaged over turned views, so a face groups whichever way it lies)
 * goes into the seeded k-means of `cluster.ts`; the dice the network's outline
 * check calls tilted are set apart as one group. Measured on 150 renders of an
 * artwork the network never saw (`tune-xwing-f2`, 600 dice): the flat dice in 16,
 * 24, 32 or 48 groups, no group mixing two faces; the outline check set apart
 * all 27 cocked dice and nothing else (`training/learned/groupPurity.ts`).
 */
import type { RandomSource } from '../../stats/random.js';
import type { DieCrop } from '../faceRead.js';
import type { LearnedReader } from '../learned/reader.js';
import { kMeans } from './cluster.js';

/** Turned views whose embeddings are averaged. */
const EMBEDDING_VIEWS = 4;

/** A die's embedding, averaged over turned views and scaled to length 1. */
export function dieEmbedding(reader: LearnedReader, crop: DieCrop): Float32Array {
  const inputs = reader.inputs(crop, EMBEDDING_VIEWS);
  let mean: Float32Array | undefined;
  for (const x of inputs) {
    const e = reader.embedInput(x);
    mean ??= new Float32Array(e.length);
    for (let j = 0; j < e.length; j++) mean[j] = (mean[j] as number) + (e[j] as number) / inputs.length;
  }
  const m = mean ?? new Float32Array(0);
  let norm = 0;
  for (const v of m) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  return m.map((v) => v / norm);
}

export interface EmbeddingGroup {
  /** From 1: the groups of flat-looking dice, largest first, then those of each other look. */
  readonly id: number;
  /** Indexes of the dice, those nearest the group's centre first. */
  readonly members: readonly number[];
  readonly look: DieLook;
}

function sq(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let j = 0; j < a.length; j++) d += ((a[j] as number) - (b[j] as number)) ** 2;
  return d;
}

/** Groups `indexes` (of `embeddings`) into at most `k` by k-means: each group's members nearest its centre first, largest group first. */
export function kMeansGroups(embeddings: readonly Float32Array[], indexes: readonly number[], k: number, random: RandomSource): number[][] {
  const km = kMeans(
    indexes.map((i) => embeddings[i] as Float32Array),
    k,
    random,
  );
  const byCluster = new Map<number, number[]>();
  km.assignments.forEach((c, j) => byCluster.set(c, [...(byCluster.get(c) ?? []), j]));
  return [...byCluster.entries()]
    .map(([c, js]) => {
      const centre = km.centroids[c] as readonly number[];
      const near = js.map((j) => ({ i: indexes[j] as number, d: sq(embeddings[indexes[j] as number] as Float32Array, centre) })).sort((a, b) => a.d - b.d || a.i - b.i);
      return near.map((n) => n.i);
    })
    .sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
}

/** How a die looks before it is grouped: whether the network's outline check calls it tilted, and whether its outline is clearly longer than a flat d8's. */
export interface DieLook {
  readonly tilted: boolean;
  readonly elongated: boolean;
}

const lookSet = (l: DieLook): number => (l.tilted ? 1 : 0) + (l.elongated ? 2 : 0);

/**
 * Groups dice by embedding, each of the four looks apart, into its share of `k` groups (at least one). Left among
 * flat-looking dice, cocked ones joined groups of blanks on the renders (3 of 27), and would be named as faces. The
 * two signs fail on different cameras: on the renders the outline check set apart every cocked die and no flat one,
 * while most flat dice's outlines there are longer than 1.1 (perspective); on the simulated camera's flat-drawn dice
 * the outline's length sets the cocked ones apart and the check calls half the flat ones tilted. Kept apart by both,
 * each set still groups by face, which the user names as they see it. Deterministic for a seeded `random`.
 */
export function groupByEmbedding(embeddings: readonly Float32Array[], looks: readonly DieLook[], k: number, random: RandomSource): EmbeddingGroup[] {
  const groups: { members: number[]; look: DieLook }[] = [];
  for (const set of [0, 1, 2, 3]) {
    const these = embeddings.flatMap((_, i) => (lookSet(looks[i] as DieLook) === set ? [i] : []));
    if (these.length === 0) continue;
    const share = Math.max(1, Math.round((k * these.length) / embeddings.length));
    for (const members of kMeansGroups(embeddings, these, share, random)) groups.push({ members, look: { tilted: (set & 1) === 1, elongated: (set & 2) === 2 } });
  }
  return groups.map((g, i) => ({ id: i + 1, ...g }));
}

/**
 * The dice whose embedding lies nearer the mean of another name than of their own (names given per die; undefined:
 * not named), compared among the names `comparable` says belong together (one die type's faces), each with the
 * nearest such name. Such a die may be named wrong, or may just be hard to read: on the tune renders with their true
 * labels, 0 of 600 dice (foreign-2), 7 of 600 (the same regraded harsh: red crits) and 16 of 594 (foreign-3: green
 * evades) were.
 */
export function doubtfulDice(embeddings: readonly Float32Array[], names: readonly (string | undefined)[], comparable: (a: string, b: string) => boolean): Map<number, string> {
  const sums = new Map<string, { sum: Float64Array; n: number }>();
  embeddings.forEach((e, i) => {
    const name = names[i];
    if (name === undefined) return;
    const s = sums.get(name) ?? { sum: new Float64Array(e.length), n: 0 };
    for (let j = 0; j < e.length; j++) s.sum[j] = (s.sum[j] as number) + (e[j] as number);
    s.n++;
    sums.set(name, s);
  });
  const means = [...sums.entries()].map(([name, s]) => ({ name, mean: s.sum.map((v) => v / s.n) }));
  const out = new Map<number, string>();
  embeddings.forEach((e, i) => {
    const name = names[i];
    if (name === undefined) return;
    const own = sq(e, (means.find((m) => m.name === name) as { mean: Float64Array }).mean);
    let nearest: { name: string; d: number } | undefined;
    for (const m of means) {
      if (m.name === name || !comparable(m.name, name)) continue;
      const d = sq(e, m.mean);
      if (d < own && (nearest === undefined || d < nearest.d)) nearest = { name: m.name, d };
    }
    if (nearest !== undefined) out.set(i, nearest.name);
  });
  return out;
}
