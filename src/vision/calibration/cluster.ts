/**
 * Cheap labelling: group the calibration crops by similarity so a person names
 * each group once instead of every die. Icon features and face colour go into
 * a seeded k-means (k-means++ starts, best of a few restarts); groups are
 * numbered by size, largest first, so the same crops give the same questions.
 * More groups than faces is deliberate: two groups of hits cost one extra
 * answer, one group mixing hits and crits costs a wrong label.
 */
import type { RandomSource } from '../../stats/random.js';
import type { D8Description } from '../d8/describe.js';
import { chromaticity } from '../d8/iconFeatures.js';

export interface KMeansResult {
  /** Cluster index per point. */
  readonly assignments: readonly number[];
  readonly centroids: readonly (readonly number[])[];
  /** Sum of squared distances to the assigned centroid. */
  readonly inertia: number;
}

/** Squared Euclidean distance. */
export function squaredDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let j = 0; j < a.length; j++) d += ((a[j] as number) - (b[j] as number)) ** 2;
  return d;
}

/** k-means with k-means++ seeding; the best of `restarts` runs by inertia. Deterministic for a seeded `random`. */
export function kMeans(points: readonly ArrayLike<number>[], k: number, random: RandomSource, restarts = 4, iterations = 60): KMeansResult {
  const n = points.length;
  if (n === 0) return { assignments: [], centroids: [], inertia: 0 };
  const kk = Math.max(1, Math.min(k, n));
  const dim = (points[0] as ArrayLike<number>).length;
  let best: KMeansResult | undefined;
  for (let r = 0; r < restarts; r++) {
    const centroids: number[][] = [Array.from(points[Math.floor(random() * n)] as ArrayLike<number>)];
    const nearest = points.map((p) => squaredDistance(p, centroids[0] as number[]));
    while (centroids.length < kk) {
      const total = nearest.reduce((a, b) => a + b, 0);
      let u = random() * total;
      let pick = n - 1;
      for (let i = 0; i < n; i++) {
        u -= nearest[i] as number;
        if (u <= 0) {
          pick = i;
          break;
        }
      }
      const c = Array.from(points[pick] as ArrayLike<number>);
      centroids.push(c);
      points.forEach((p, i) => {
        nearest[i] = Math.min(nearest[i] as number, squaredDistance(p, c));
      });
    }
    const assignments = new Array<number>(n).fill(0);
    for (let it = 0; it < iterations; it++) {
      let changed = it === 0;
      points.forEach((p, i) => {
        let bk = 0;
        let bd = Number.POSITIVE_INFINITY;
        centroids.forEach((c, j) => {
          const d = squaredDistance(p, c);
          if (d < bd) {
            bd = d;
            bk = j;
          }
        });
        if (assignments[i] !== bk) {
          assignments[i] = bk;
          changed = true;
        }
      });
      if (!changed) break;
      const sums = centroids.map(() => new Array<number>(dim).fill(0));
      const counts = centroids.map(() => 0);
      points.forEach((p, i) => {
        const a = assignments[i] as number;
        counts[a]!++;
        const s = sums[a] as number[];
        for (let j = 0; j < dim; j++) s[j]! += p[j] as number;
      });
      centroids.forEach((c, j) => {
        if ((counts[j] as number) > 0) for (let d = 0; d < dim; d++) c[d] = (sums[j]![d] as number) / (counts[j] as number);
      });
    }
    const inertia = points.reduce((acc, p, i) => acc + squaredDistance(p, centroids[assignments[i] as number] as number[]), 0);
    if (!best || inertia < best.inertia) best = { assignments, centroids, inertia };
  }
  return best as KMeansResult;
}

/** How strongly face colour counts against icon shape when grouping (colour must never mix in one group). */
const COLOUR_WEIGHT = 6;

/** The grouping vector of a die: standardised icon features plus heavily weighted chromaticity. */
export function clusterVectors(descriptions: readonly D8Description[]): number[][] {
  if (descriptions.length === 0) return [];
  const raw = descriptions.map((d) => [...Array.from(d.features), ...chromaticity(d.outline.faceColor)]);
  const dim = (raw[0] as number[]).length;
  const iconDim = dim - 3;
  const mean = new Array<number>(dim).fill(0);
  for (const r of raw) for (let j = 0; j < dim; j++) mean[j]! += (r[j] as number) / raw.length;
  const sd = mean.map((m, j) => Math.sqrt(raw.reduce((a, r) => a + ((r[j] as number) - m) ** 2, 0) / raw.length));
  const sorted = sd.slice(0, iconDim).sort((a, b) => a - b);
  const floor = Math.max(1e-4, (sorted[sorted.length >> 1] ?? 0) * 0.25);
  // Icon features share one overall scale per feature; colour is scaled so that red and green sit far apart.
  return raw.map((r) => r.map((v, j) => ((v - (mean[j] as number)) / Math.max(j < iconDim ? floor : 0.01, sd[j] as number)) * (j < iconDim ? 1 : COLOUR_WEIGHT)));
}

export interface CropCluster {
  /** 1-based, largest group first. */
  readonly id: number;
  /** Indices into the described crops. */
  readonly members: readonly number[];
  /** Member indices nearest the group's centre first (the ones to show a person). */
  readonly typical: readonly number[];
}

/**
 * Groups `vectors` into at most `k` clusters by `kMeans`: members in index order and nearest the centre first, the
 * largest group first (ties: the one holding the lowest index), ids from 1.
 */
export function kMeansClusters(vectors: readonly ArrayLike<number>[], k: number, random: RandomSource): CropCluster[] {
  const { assignments, centroids } = kMeans(vectors, k, random);
  const groups = centroids
    .map((c, j) => {
      const members = assignments.flatMap((a, i) => (a === j ? [i] : []));
      const typical = [...members].sort((p, q) => squaredDistance(vectors[p] as ArrayLike<number>, c) - squaredDistance(vectors[q] as ArrayLike<number>, c));
      return { members, typical };
    })
    .filter((g) => g.members.length > 0)
    .sort((a, b) => b.members.length - a.members.length || (a.members[0] as number) - (b.members[0] as number));
  return groups.map((g, i) => ({ id: i + 1, ...g }));
}

/** Groups described crops into at most `k` clusters. */
export function clusterCrops(descriptions: readonly D8Description[], k: number, random: RandomSource): CropCluster[] {
  return kMeansClusters(clusterVectors(descriptions), k, random);
}
