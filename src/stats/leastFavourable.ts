/**
 * The Dirichlet-mixture e-value of sequential.ts, made robust to what the
 * reader could not tell us: rolls it declined (unresolved) and rolls it may
 * have misread.
 *
 * Unresolved rolls. The e-value at time n depends on the counts only:
 *   log BF(x) = lnΓ(A) − lnΓ(A + n) + Σ_i [lnΓ(a_i + x_i) − lnΓ(a_i) − x_i ln p0_i].
 * With resolved counts c and U unresolved rolls, the true counts are c + u for
 * some assignment u ≥ 0 with Σ u = U. n is fixed, so log BF(c + u) is a sum of
 * one convex function per face (lnΓ is convex), and its minimum over integer
 * assignments is found exactly by the greedy rule "give each unresolved roll to
 * the face where it raises log BF least", i.e. to the face with the smallest
 * (a_i + x_i) / p0_i: the least favourable assignment tops up the faces that
 * came up less than expected. {@link allocateLeastFavourable} does this from
 * the continuous water level, then places the last few rolls one by one. The
 * result is the EXACT minimum over every assignment (checked against brute
 * force in the tests).
 *
 * Why the minimum is a valid e-process: the die's true faces are i.i.d. whatever
 * the reader declines, so the e-value of the TRUE sequence is a test martingale
 * under the expected odds (Ville: P(sup ≥ 1/α) ≤ α). The minimum over
 * assignments is below it at every n, so crossing 1/α with the minimum is at
 * most as likely. It stays valid if the reader's declines depend on the face
 * (that is the point) and if some unresolved rolls are reviewed later.
 *
 * Misreads. If each roll of face i is read as another face with probability at
 * most r_i (independently from roll to roll), the read faces are i.i.d. from
 * some q with q_i ≥ (1 − r_i) p0_i under the expected odds. min over such q of
 * BF_q is an e-process for that composite null (each BF_q is one for its own q,
 * and the true q is among them). We bound it from below without an optimiser:
 * ln(q_i/p0_i) ≤ q_i/p0_i − 1 and a linear programme over q give
 *   log BF_q(x) ≥ log BF(x) − max_j [R x_j / p0_j − Σ_i r_i x_i],   R = Σ_i r_i p0_i,
 * so min_{q,u} log BF_q(c + u) ≥ min_j min_u [log BF(c + u) − R (c_j + u_j)/p0_j + Σ r_i (c_i + u_i)],
 * each inner minimum again separable convex (the same greedy with tilted
 * weights). With misreads the value is therefore a LOWER BOUND on the exact
 * minimum (loose by the second-order term of ln(1 + d) ≤ d, i.e. O(r²) per
 * roll); without misreads it is the exact minimum.
 */
import gammaln from '@stdlib/math-base-special-gammaln';

/** The Dirichlet mixture of sequential.ts: expected odds p0 and prior concentration A (α = A·p0). */
export interface DirichletMixture {
  readonly expected: readonly number[];
  readonly priorConcentration: number;
}

/** Counts known per face (possibly fractional, for projections) and the rolls whose face is unknown. */
export interface PartialCounts {
  readonly counts: ArrayLike<number>;
  readonly unresolved: number;
}

/** log BF of the Dirichlet mixture against p0 at counts `counts` (closed form; fractional counts allowed). */
export function dirichletLogBayesFactor(counts: ArrayLike<number>, mixture: DirichletMixture): number {
  return logBayesFactorWithWeights(counts, mixture, mixture.expected);
}

/** log BF with face i's likelihood term x_i·ln(w_i) in place of x_i·ln(p0_i) (w = p0 gives the Bayes factor). */
function logBayesFactorWithWeights(x: ArrayLike<number>, mixture: DirichletMixture, weights: ArrayLike<number>): number {
  const A = mixture.priorConcentration;
  let n = 0;
  for (let i = 0; i < x.length; i++) n += x[i] as number;
  let sum = gammaln(A) - gammaln(A + n);
  for (let i = 0; i < x.length; i++) {
    const c = x[i] as number;
    const a = A * (mixture.expected[i] as number);
    sum += gammaln(a + c) - gammaln(a) - (c > 0 ? c * Math.log(weights[i] as number) : 0);
  }
  return sum;
}

/**
 * Adds `units` rolls to the faces so as to minimise Σ_i [lnΓ(base_i + x_i) − x_i ln w_i]
 * (x_i the rolls added to face i): each roll goes where (base_i + x_i)/w_i is
 * smallest. Exact for integer `units` (greedy on a separable convex function);
 * a fractional remainder goes to the cheapest face. Returns the rolls added per face.
 *
 * The greedy picks the `units` smallest values (base_i + m)/w_i, m = 0, 1, ...
 * The continuous water level T (Σ max(0, T w_i − base_i) = units) is found in
 * closed form; every value below T − 1/min w is among the smallest (there are at
 * most `units` of them), and the few rolls left are placed one by one.
 */
export function allocateLeastFavourable(base: ArrayLike<number>, weights: ArrayLike<number>, units: number): Float64Array {
  const k = base.length;
  const added = new Float64Array(k);
  if (!(units > 0)) return added;
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => (base[x] as number) / (weights[x] as number) - (base[y] as number) / (weights[y] as number));
  let sumBase = 0;
  let sumWeight = 0;
  let level = 0;
  let minWeight = Infinity;
  for (let j = 0; j < k; j++) {
    const i = order[j] as number;
    sumBase += base[i] as number;
    sumWeight += weights[i] as number;
    minWeight = Math.min(minWeight, weights[i] as number);
    level = (units + sumBase) / sumWeight;
    const next = order[j + 1];
    if (next === undefined || level <= (base[next] as number) / (weights[next] as number)) break;
  }
  const safe = level - 1 / minWeight;
  let left = units;
  for (let i = 0; i < k; i++) {
    const m = Math.max(0, Math.ceil(safe * (weights[i] as number) - (base[i] as number)));
    added[i] = m;
    left -= m;
  }
  while (left > 1e-12) {
    let best = 0;
    let bestValue = Infinity;
    for (let i = 0; i < k; i++) {
      const v = ((base[i] as number) + (added[i] as number)) / (weights[i] as number);
      if (v < bestValue) {
        bestValue = v;
        best = i;
      }
    }
    const step = Math.min(1, left);
    added[best] = (added[best] as number) + step;
    left -= step;
  }
  return added;
}

/** The least favourable e-value and the counts that give it. */
export interface RobustEvidence {
  /** Lower bound on log BF over every assignment of the unresolved rolls (and every misread pattern within the rates): exact without misreads. */
  readonly logE: number;
  /** The completed counts (known + assigned unresolved) at which it is reached. */
  readonly counts: number[];
}

/**
 * min over assignments of the unresolved rolls (and, with `misreadRates`, over
 * misread patterns within those per-face rates) of log BF; see the module comment.
 */
export function leastFavourableEvidence(partial: PartialCounts, mixture: DirichletMixture, misreadRates?: readonly number[]): RobustEvidence {
  const k = mixture.expected.length;
  const A = mixture.priorConcentration;
  const base = new Float64Array(k);
  for (let i = 0; i < k; i++) base[i] = A * (mixture.expected[i] as number) + (partial.counts[i] as number);
  const tilts = misreadTilts(mixture.expected, misreadRates);
  let best: RobustEvidence | null = null;
  for (const weights of tilts) {
    const added = allocateLeastFavourable(base, weights, partial.unresolved);
    const x = Array.from({ length: k }, (_, i) => (partial.counts[i] as number) + (added[i] as number));
    const logE = logBayesFactorWithWeights(x, mixture, weights);
    if (best === null || logE < best.logE) best = { logE, counts: x };
  }
  return best as RobustEvidence;
}

/**
 * The largest log BF any assignment of the unresolved rolls could give, ignoring
 * misreads: a convex function's maximum over the assignments is at a corner,
 * every unresolved roll on one face.
 */
export function mostFavourableLogE(partial: PartialCounts, mixture: DirichletMixture): number {
  const k = mixture.expected.length;
  const x = Array.from({ length: k }, (_, i) => partial.counts[i] as number);
  let best = -Infinity;
  for (let j = 0; j < k; j++) {
    x[j] = (partial.counts[j] as number) + partial.unresolved;
    best = Math.max(best, dirichletLogBayesFactor(x, mixture));
    x[j] = partial.counts[j] as number;
  }
  return best;
}

/**
 * Likelihood weights of the misread bound: for each face j that may receive the
 * misread mass, w_i = p0_i·exp(−r_i + [i = j]·R/p0_j). Without misreads, p0 alone.
 */
function misreadTilts(expected: readonly number[], rates: readonly number[] | undefined): Float64Array[] {
  if (!rates || rates.every((r) => r === 0)) return [Float64Array.from(expected)];
  let R = 0;
  expected.forEach((p, i) => (R += p * (rates[i] as number)));
  return expected.map((pj, j) => Float64Array.from(expected, (p, i) => p * Math.exp(-(rates[i] as number) + (i === j ? R / pj : 0))));
}
