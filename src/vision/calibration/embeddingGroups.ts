/**
 * The learned reader's guided calibration groups dice by what the shipped
 * network sees in them: each die's embedding (the input of the network's last
 * layer, averaged over turned views, so a face groups whichever way it lies)
 * goes into the seeded k-means of `cluster.ts`, each of four looks apart (the
 * network's outline check calling it tilted or not, its outline long or not).
 * Measured on the tune renders (`training/learned/groupPurity.ts`; figures in
 * training/README.md): on `tune-xwing-f2` (600 dice, an artwork the network never
 * saw) 21 groups put 1 die among another face's; splitting the groups that mixed
 * faces left none.
 */
import { unitLength } from '../../core/unitLength.js';
import { seededRandom } from '../../stats/random.js';
import type { RandomSource } from '../../stats/random.js';
import type { DieCrop } from '../faceRead.js';
import type { LearnedReader } from '../learned/reader.js';
import { kMeansClusters, squaredDistance } from './cluster.js';
import { COCKED_CLASS, parseClassName } from './profile.js';

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
  return unitLength(mean ?? new Float32Array(0));
}

export interface EmbeddingGroup {
  /** From 1: the groups of flat-looking dice, largest first, then those of each other look. */
  readonly id: number;
  /** Indexes of the dice, those nearest the group's centre first. */
  readonly members: readonly number[];
  readonly look: DieLook;
}

/** Groups `indexes` (of `embeddings`) into at most `k` by k-means: each group's members nearest its centre first, largest group first. */
export function kMeansGroups(embeddings: readonly Float32Array[], indexes: readonly number[], k: number, random: RandomSource): number[][] {
  return kMeansClusters(
    indexes.map((i) => embeddings[i] as Float32Array),
    k,
    random,
  ).map((g) => g.typical.map((j) => indexes[j] as number));
}

/**
 * How a group answered `split` is grouped again: into `parts` by k-means on the same embeddings, seeded by `seed` and
 * the group's first die, so that a replay of the same throws splits it the same way.
 */
export function embeddingSplit(embeddings: readonly Float32Array[], seed: number): (members: readonly number[], parts: number) => number[][] {
  return (members, parts) => kMeansGroups(embeddings, members, parts, seededRandom(seed + (members[0] as number)));
}

/** Whether two names are faces of one die type (a cocked die is judged by its tilt, never compared by its icon). */
export function sameDieFaces(a: string, b: string): boolean {
  const die = (name: string): string | undefined => {
    const parsed = parseClassName(name);
    return parsed === undefined || parsed === COCKED_CLASS ? undefined : parsed.die;
  };
  return die(a) !== undefined && die(a) === die(b);
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
    const own = squaredDistance(e, (means.find((m) => m.name === name) as { mean: Float64Array }).mean);
    let nearest: { name: string; d: number } | undefined;
    for (const m of means) {
      if (m.name === name || !comparable(m.name, name)) continue;
      const d = squaredDistance(e, m.mean);
      if (d < own && (nearest === undefined || d < nearest.d)) nearest = { name: m.name, d };
    }
    if (nearest !== undefined) out.set(i, nearest.name);
  });
  return out;
}
