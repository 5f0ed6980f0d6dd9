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
 * the tangent ln y ≤ ln t − 1 + y/t of ln(q_i/p0_i) makes the likelihood ratio
 * linear in q, a linear programme puts all the misread mass R = Σ r_i p0_i on
 * one face j, and for each j the minimum over assignments is again the greedy
 * with tilted weights. Any tangent point gives a valid bound; we take the
 * better of t = 1 and t = the misread pattern most likely for the counts the
 * first pass found. With misreads the value is therefore a LOWER BOUND on the
 * exact minimum (in the tests it matches the exact minimum, by brute force
 * over assignments and water-filling over q, to 1e-9 on 200 random cases);
 * without misreads it is the exact minimum.
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
  allocateInto(base, weights, units, added, new Float64Array(k), new Int32Array(k));
  return added;
}

/** allocateLeastFavourable into `added` (all k entries written), with `ratio` and `order` as scratch: no allocation, for the projections' many calls. */
function allocateInto(base: ArrayLike<number>, weights: ArrayLike<number>, units: number, added: Float64Array, ratio: Float64Array, order: Int32Array): void {
  const k = base.length;
  added.fill(0);
  if (!(units > 0)) return;
  // Faces in increasing order of their first value base_i/w_i (insertion sort: k is a die's faces).
  for (let i = 0; i < k; i++) {
    const r = (base[i] as number) / (weights[i] as number);
    let j = i;
    while (j > 0 && (ratio[j - 1] as number) > r) {
      ratio[j] = ratio[j - 1] as number;
      order[j] = order[j - 1] as number;
      j--;
    }
    ratio[j] = r;
    order[j] = i;
  }
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
    if (j === k - 1 || level <= (ratio[j + 1] as number)) break;
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
  const prepared = preparedFor(mixture);
  const { k, scratch } = prepared;
  const A = mixture.priorConcentration;
  const base = scratch.base;
  for (let i = 0; i < k; i++) base[i] = A * (mixture.expected[i] as number) + (partial.counts[i] as number);
  if (!misreadRates || misreadRates.every((r) => r === 0)) return over(prepared, partial, [prepared.expectedTilt]);
  // Tangent at q/p0 = 1, then at the misread pattern most likely for the counts found:
  // both are valid lower bounds; the second is tight where the first one's counts are.
  const first = over(prepared, partial, firstTilts(prepared, misreadRates));
  const tangent = mostLikelyMisreadPattern(first.counts, mixture.expected, misreadRates).map((q, i) => q / (mixture.expected[i] as number));
  const second = over(prepared, partial, misreadTilts(mixture.expected, misreadRates, tangent, scratch.tilts));
  return second.logE > first.logE ? second : first;
}

/** Likelihood weights of one face pattern and their logs (the log-likelihood's x_i·ln w_i). */
interface Tilt {
  readonly weights: Float64Array;
  readonly logs: Float64Array;
}

/**
 * What every call for one mixture works out the same, kept with the mixture: the
 * projections ask for the bound some 30 times per throw, and each first pass's k
 * misread weightings (k² exp and log) depend on the odds and rates only.
 * Buffers in `scratch` are overwritten by every call.
 */
interface Prepared {
  readonly k: number;
  /** The odds and prior it was made for: a mixture whose values changed since is prepared again. */
  readonly expected: Float64Array;
  readonly priorConcentration: number;
  readonly lnGammaA: number;
  /** lnΓ(A·p0_i). */
  readonly lnGammaPrior: Float64Array;
  /** w = p0: the Bayes factor itself. */
  readonly expectedTilt: Tilt;
  /** The misread rates the first pass's tilts were made for (null: none yet). */
  misreadRates: Float64Array | null;
  firstTilts: Tilt[];
  readonly scratch: { base: Float64Array; added: Float64Array; ratio: Float64Array; order: Int32Array; x: Float64Array; best: Float64Array; tilts: Tilt[] };
}

const preparedMixtures = new WeakMap<DirichletMixture, Prepared>();

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function newTilt(k: number): Tilt {
  return { weights: new Float64Array(k), logs: new Float64Array(k) };
}

function preparedFor(mixture: DirichletMixture): Prepared {
  const known = preparedMixtures.get(mixture);
  if (known && known.priorConcentration === mixture.priorConcentration && sameValues(known.expected, mixture.expected)) return known;
  const k = mixture.expected.length;
  const A = mixture.priorConcentration;
  const expected = Float64Array.from(mixture.expected);
  const prepared: Prepared = {
    k,
    expected,
    priorConcentration: A,
    lnGammaA: gammaln(A),
    lnGammaPrior: Float64Array.from(mixture.expected, (p) => gammaln(A * p)),
    expectedTilt: { weights: expected, logs: Float64Array.from(expected, (p) => Math.log(p)) },
    misreadRates: null,
    firstTilts: [],
    scratch: { base: new Float64Array(k), added: new Float64Array(k), ratio: new Float64Array(k), order: new Int32Array(k), x: new Float64Array(k), best: new Float64Array(k), tilts: Array.from({ length: k }, () => newTilt(k)) },
  };
  preparedMixtures.set(mixture, prepared);
  return prepared;
}

/** The first pass's tilts (tangent at q/p0 = 1) for these rates, made once per mixture and rates. */
function firstTilts(prepared: Prepared, rates: readonly number[]): Tilt[] {
  if (prepared.misreadRates === null || !sameValues(prepared.misreadRates, rates)) {
    const tilts = Array.from({ length: prepared.k }, () => newTilt(prepared.k));
    prepared.firstTilts = misreadTilts(prepared.expected, rates, Array.from(prepared.expected, () => 1), tilts);
    prepared.misreadRates = Float64Array.from(rates);
  }
  return prepared.firstTilts;
}

/**
 * The least favourable completion over `tilts` (scratch.base holds A·p0 + the known counts):
 * the smallest log-likelihood ratio, each tilt's unresolved rolls placed by the greedy.
 */
function over(prepared: Prepared, partial: PartialCounts, tilts: readonly Tilt[]): RobustEvidence {
  const { k, scratch } = prepared;
  const { base, added, ratio, order, x, best } = scratch;
  let bestLogE = 0;
  let found = false;
  for (const tilt of tilts) {
    allocateInto(base, tilt.weights, partial.unresolved, added, ratio, order);
    for (let i = 0; i < k; i++) x[i] = (partial.counts[i] as number) + (added[i] as number);
    const logE = logBayesFactorWithLogs(x, prepared, tilt.logs);
    if (!found || logE < bestLogE) {
      found = true;
      bestLogE = logE;
      best.set(x);
    }
  }
  return { logE: bestLogE, counts: Array.from(best) };
}

/** logBayesFactorWithWeights with lnΓ(A), lnΓ(a_i) and ln w_i as prepared: the same operations on the same values, so the same bits. */
function logBayesFactorWithLogs(x: Float64Array, prepared: Prepared, logs: Float64Array): number {
  const A = prepared.priorConcentration;
  let n = 0;
  for (let i = 0; i < x.length; i++) n += x[i] as number;
  let sum = prepared.lnGammaA - gammaln(A + n);
  for (let i = 0; i < x.length; i++) {
    const c = x[i] as number;
    const a = A * (prepared.expected[i] as number);
    sum += gammaln(a + c) - (prepared.lnGammaPrior[i] as number) - (c > 0 ? c * (logs[i] as number) : 0);
  }
  return sum;
}

/**
 * Likelihood weights of the misread bound, from the tangent ln y ≤ ln t − 1 + y/t
 * of ln(q_i/p0_i) at t_i and the vertex of the misread set that takes the
 * linear bound's maximum (all the misread mass R = Σ r_i p0_i on one face j):
 *   ln w_i = ln p0_i + ln t_i − 1 + (1 − r_i)/t_i + [i = j]·R/(p0_j t_j).
 * Written into `tilts` (tilt j for vertex j) with their logs. Off the diagonal,
 * w_i is the same for every j (the bracket adds exactly 0), so it is worked out
 * once per face: k exp and log in place of k².
 */
function misreadTilts(expected: ArrayLike<number>, rates: readonly number[], tangent: readonly number[], tilts: Tilt[]): Tilt[] {
  const k = expected.length;
  let R = 0;
  for (let i = 0; i < k; i++) R += (expected[i] as number) * (rates[i] as number);
  for (let i = 0; i < k; i++) {
    const p = expected[i] as number;
    const t = tangent[i] as number;
    const exponent = Math.log(t) - 1 + (1 - (rates[i] as number)) / t;
    const off = p * Math.exp(exponent);
    const offLog = Math.log(off);
    const on = p * Math.exp(exponent + R / (p * t));
    for (let j = 0; j < k; j++) {
      const tilt = tilts[j] as Tilt;
      tilt.weights[i] = i === j ? on : off;
      tilt.logs[i] = i === j ? Math.log(on) : offLog;
    }
  }
  return tilts;
}

/**
 * The read-face odds q with q_i ≥ (1 − r_i) p0_i that make counts x most likely:
 * q_i = max((1 − r_i) p0_i, x_i/λ) with Σ q = 1. The faces above their floor are
 * those with the largest x_i/floor_i; for each candidate set, λ follows in closed form.
 */
export function mostLikelyMisreadPattern(x: readonly number[], expected: readonly number[], rates: readonly number[]): number[] {
  const k = expected.length;
  const floor = expected.map((p, i) => (1 - (rates[i] as number)) * p);
  const total = x.reduce((a, b) => a + b, 0);
  if (total === 0) return [...expected];
  const order = Array.from({ length: k }, (_, i) => i).sort((i, j) => (x[j] as number) / (floor[j] as number) - (x[i] as number) / (floor[i] as number));
  let freeCounts = 0;
  let floorLeft = floor.reduce((a, b) => a + b, 0);
  let lambda = total;
  for (let m = 0; m < k; m++) {
    const i = order[m] as number;
    freeCounts += x[i] as number;
    floorLeft -= floor[i] as number;
    lambda = freeCounts / (1 - floorLeft);
    const next = order[m + 1];
    // Stop once the next face's count over λ no longer clears its floor.
    if (next === undefined || (x[next] as number) / lambda <= (floor[next] as number)) break;
  }
  const q = x.map((c, i) => Math.max(floor[i] as number, c / lambda));
  const sum = q.reduce((a, b) => a + b, 0);
  return q.map((v) => v / sum);
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
