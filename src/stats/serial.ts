/**
 * Does the rig really tumble? Checks on one die's faces in throw order. A rig
 * that lets a die slide instead of tumble makes the same face come up again
 * too often ("sticky"); one that tips it a quarter turn lands it on an
 * adjacent face too often (so same-or-opposite too rarely). Either way the
 * rolls are not independent and the fairness tests' error rates are wrong, so
 * a suspect rig gates the per-die verdicts (RIG_SUSPECT).
 *
 * Every check is conditional on the face counts actually seen (a permutation
 * null: under independent rolls, every ordering of the observed faces is
 * equally likely). The expected repeat rate is therefore computed from the
 * observed counts, not from the die's declared odds Σ p_j²: with declared
 * odds, a red die 1.5× heavy on hit would have its repeat rate rise from
 * 0.281 to 0.385 and be flagged as a rig fault within a few hundred rolls,
 * hiding exactly the bias we are looking for. The permutation variance also
 * accounts for overlapping pairs being dependent, which makes a plain
 * binomial test on repeats anti-conservative for non-uniform odds (variance
 * 6.8 % above binomial for the red die). The declared odds only fix the runs-test split,
 * so that split is chosen before seeing the data.
 *
 * The checks:
 * - repeat: pairs (x_{i−1}, x_i) with the same face; exact permutation mean
 *   and variance, normal approximation with continuity correction.
 * - same-or-opposite (dice with an opposite-face map): the same test on the
 *   sequence of {face, opposite} pairs.
 * - transitions: the k × k table of (previous, next) counts, Pearson test of
 *   independence (Anderson & Goodman 1957); run only once the table averages
 *   at least 5 counts per cell, where the chi-square approximation is sound.
 * - runs: Wald–Wolfowitz runs test, exact, on a binary split: the faces with
 *   the largest expected odds, taken in order (ties by index) while that
 *   brings their share closer to 1/2, against the rest (red d8 by symbol:
 *   hit vs the rest; D6: faces 1–3 vs 4–6).
 *
 * Holm's step-down controls the chance of gating a good rig across the checks
 * at `alpha`, default 0.01: a fair die on a good rig is gated at most 1 % of
 * the time (measured 0.2–1.3 %, 1 % within Monte Carlo error, over 1,000
 * seeded sequences each of red and D6 dice, 100 to 2,000 throws), while the rigs worth catching are still
 * caught over 2,000 throws (seeded simulation): 10 % sticky, 200 of 200
 * (repeat z ≈ 7); 5 % sticky, 74–79 %; a D6 tipped a quarter turn 25 % of
 * the time, 200 of 200; 10 % of the time, 58 %. A stricter 0.001 catches only
 * 53 % of 5 % sticky rigs at 2,000 throws, and such a rig already pushes a
 * fixed-n fairness test from 5 % to ~7 % false alarms (statistics.md).
 */
import binomcoefln from '@stdlib/math-base-special-binomcoefln';
import { InputError } from '../core/errors.js';
import { contingencyTest } from './homogeneity.js';
import { holmAdjust } from './multiplicity.js';
import { normalTwoSided, type TailProbability } from './special.js';
import { validateProbabilities } from './validate.js';
import { formatCount, formatProbability } from '../core/format.js';
import { type FailedCheck, type RigSuspectVerdict } from './verdict.js';

/** Default family-wise alpha of the rig checks (see the module comment). */
export const DEFAULT_SERIAL_ALPHA = 0.01;
/** The transition test runs once the table has at least this many pairs per cell on average. */
const MIN_PAIRS_PER_CELL = 5;

export type SerialCheckName = 'repeat' | 'same-or-opposite' | 'transitions' | 'runs';

export interface SerialCheck {
  readonly name: SerialCheckName;
  /** Repeat and same-or-opposite: the count of pairs; transitions: Pearson X²; runs: number of runs. */
  readonly statistic: number;
  /** The statistic's mean under independent rolls (degrees of freedom for transitions). */
  readonly expected: number;
  readonly p: number;
  readonly logP: number;
  /** Holm-adjusted p across the checks that ran (1 for a skipped check). */
  readonly adjustedP: number;
  /** True when there were too few rolls for this check; it then has p = 1 and takes no part in Holm. */
  readonly skipped: boolean;
  readonly detail: string;
}

export interface SerialChecksResult {
  readonly n: number;
  readonly alpha: number;
  readonly checks: SerialCheck[];
  /** True when some check's Holm-adjusted p is at most alpha. */
  readonly suspect: boolean;
  readonly failed: SerialCheck[];
  /** Face indices on the first side of the runs-test split. */
  readonly runsSplit: number[];
}

export interface SerialOptions {
  /** For each face index, the index of the opposite face (an involution, e.g. D6: i ↔ 5 − i). */
  readonly opposite?: readonly number[];
  /** Family-wise error rate across the checks. Default 0.01. */
  readonly alpha?: number;
  /** Face names for the details. Default "face 1", "face 2", ... */
  readonly labels?: readonly string[];
}

/**
 * Runs the rig checks on one die's face indices in throw order. `expected`
 * gives the die's declared odds per face (used for the number of faces and
 * the runs-test split). Throws `InputError` for a face index out of range,
 * invalid odds, or an opposite map that is not an involution over the faces.
 */
export function serialChecks(sequence: readonly number[], expected: readonly number[], options: SerialOptions = {}): SerialChecksResult {
  validateProbabilities(expected);
  const k = expected.length;
  const alpha = options.alpha ?? DEFAULT_SERIAL_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`serial-check alpha must be in (0, 1), got ${alpha}`);
  const labels = options.labels ?? Array.from({ length: k }, (_, i) => `face ${i + 1}`);
  if (labels.length !== k) throw new InputError(`There are ${labels.length} labels for ${k} faces; give one label per face.`);
  sequence.forEach((x, i) => {
    if (!(Number.isInteger(x) && x >= 0 && x < k)) throw new InputError(`Throw ${i} shows face index ${x}, which is not a face of this die (0..${k - 1}).`);
  });

  const raw: Omit<SerialCheck, 'adjustedP'>[] = [repeatCheck(sequence, k)];
  if (options.opposite) raw.push(sameOrOppositeCheck(sequence, validateOpposite(options.opposite, k)));
  raw.push(transitionCheck(sequence, k, labels));
  const split = runsTestSplit(expected);
  raw.push(runsCheck(sequence, split, k, labels));

  const adjusted = holm(raw.map((c) => (c.skipped ? null : c.p)));
  const checks = raw.map((c, i) => ({ ...c, adjustedP: adjusted[i] as number }));
  const failed = checks.filter((c) => !c.skipped && c.adjustedP <= alpha);
  return { n: sequence.length, alpha, checks, suspect: failed.length > 0, failed, runsSplit: split };
}

/** The RIG_SUSPECT verdict for a suspect result, or null when the rig passed. */
export function rigSuspectVerdict(result: SerialChecksResult): RigSuspectVerdict | null {
  if (!result.suspect) return null;
  const failedChecks: FailedCheck[] = result.failed.map((c) => ({ name: c.name, p: c.p, logP: c.logP, adjustedP: c.adjustedP, detail: c.detail }));
  return { kind: 'RIG_SUSPECT', n: result.n, alpha: result.alpha, failedChecks };
}

/**
 * The runs-test split: faces sorted by expected probability (descending, ties
 * by index), taking a prefix while that brings its total closer to 1/2 (at
 * least one face, never all).
 */
export function runsTestSplit(expected: readonly number[]): number[] {
  const order = expected.map((p, i) => ({ p, i })).sort((x, y) => y.p - x.p || x.i - y.i);
  const out: number[] = [];
  let share = 0;
  for (const { p, i } of order) {
    if (out.length > 0 && (out.length === expected.length - 1 || Math.abs(share + p - 0.5) >= Math.abs(share - 0.5))) break;
    out.push(i);
    share += p;
  }
  return out;
}

/** Count of i ≥ 1 with classOf(x_i) = classOf(x_{i−1}), with its exact permutation mean and variance given the class counts. */
export interface RepeatStatistic {
  readonly count: number;
  readonly pairs: number;
  readonly mean: number;
  readonly variance: number;
  readonly z: number;
  readonly tail: TailProbability;
}

/**
 * The repeat statistic of a sequence of class labels 0..classes−1 against the
 * permutation null. With N items, class counts n_j and m = N − 1 pairs:
 *   a = Σ n_j(n_j − 1) / (N(N − 1))          P(a pair repeats)
 *   b = Σ n_j(n_j − 1)(n_j − 2) / (N)_3      P(two overlapping pairs repeat)
 *   c = [Σ (n_j)_4 + (Σ (n_j)_2)² − Σ (n_j)_2²] / (N)_4   P(two disjoint pairs repeat)
 *   Var = m a(1 − a) + 2(m − 1)(b − a²) + (m − 1)(m − 2)(c − a²)
 * (checked against exhaustive enumeration of small multisets in the tests).
 */
export function repeatStatistic(labels: ArrayLike<number>, classes: number): RepeatStatistic {
  const N = labels.length;
  const counts = new Float64Array(classes);
  let count = 0;
  for (let i = 0; i < N; i++) {
    const x = labels[i] as number;
    counts[x] = (counts[x] as number) + 1;
    if (i > 0 && x === labels[i - 1]) count++;
  }
  const m = N - 1;
  if (N < 4) return { count, pairs: Math.max(0, m), mean: count, variance: 0, z: 0, tail: { p: 1, logP: 0 } };
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s22 = 0;
  for (const n of counts) {
    const f2 = n * (n - 1);
    s2 += f2;
    s3 += f2 * (n - 2);
    s4 += f2 * (n - 2) * (n - 3);
    s22 += f2 * f2;
  }
  const a = s2 / (N * (N - 1));
  const b = s3 / (N * (N - 1) * (N - 2));
  const c = (s4 + s2 * s2 - s22) / (N * (N - 1) * (N - 2) * (N - 3));
  const mean = m * a;
  const variance = Math.max(0, m * a * (1 - a) + 2 * (m - 1) * (b - a * a) + (m - 1) * (m - 2) * (c - a * a));
  if (!(variance > 1e-12)) return { count, pairs: m, mean, variance: 0, z: 0, tail: { p: 1, logP: 0 } };
  const d = count - mean;
  const z = (Math.sign(d) * Math.max(0, Math.abs(d) - 0.5)) / Math.sqrt(variance);
  return { count, pairs: m, mean, variance, z, tail: normalTwoSided(z) };
}

/** Exact two-sided Wald–Wolfowitz runs test on a binary sequence (doubling the smaller tail). */
export interface RunsStatistic {
  readonly runs: number;
  readonly n1: number;
  readonly n2: number;
  readonly mean: number;
  readonly tail: TailProbability;
}

/**
 * Number of runs in a 0/1 sequence and its exact two-sided p given n1 ones and
 * n2 zeros: P(R = 2r) = 2 C(n1−1, r−1) C(n2−1, r−1) / C(N, n1),
 * P(R = 2r+1) = [C(n1−1, r) C(n2−1, r−1) + C(n1−1, r−1) C(n2−1, r)] / C(N, n1).
 * Only the tail beyond the observed count, away from the mean, is summed, term
 * by term until the terms no longer matter (O(√N) terms, not O(N)); the other
 * tail is 1 − that + P(R = observed).
 */
export function runsStatistic(bits: ArrayLike<number>): RunsStatistic {
  const N = bits.length;
  let n1 = 0;
  let runs = N > 0 ? 1 : 0;
  for (let i = 0; i < N; i++) {
    if (bits[i]) n1++;
    if (i > 0 && bits[i] !== bits[i - 1]) runs++;
  }
  const n2 = N - n1;
  const mean = N > 0 ? 1 + (2 * n1 * n2) / N : 0;
  if (n1 === 0 || n2 === 0) return { runs, n1, n2, mean, tail: { p: 1, logP: 0 } };

  const logTotal = binomcoefln(N, n1);
  const lc = (n: number, k: number): number => (k < 0 || k > n ? -Infinity : binomcoefln(n, k));
  const logPmf = (u: number): number => {
    const r = u >> 1;
    return u % 2 === 0
      ? Math.LN2 + lc(n1 - 1, r - 1) + lc(n2 - 1, r - 1) - logTotal
      : logAdd(lc(n1 - 1, r) + lc(n2 - 1, r - 1), lc(n1 - 1, r - 1) + lc(n2 - 1, r)) - logTotal;
  };
  const maxRuns = 2 * Math.min(n1, n2) + (n1 === n2 ? 0 : 1);
  const step = runs <= mean ? -1 : 1;
  const logHere = logPmf(runs);
  let logOuter = logHere;
  let previous = logHere;
  for (let u = runs + step; u >= 2 && u <= maxRuns; u += step) {
    const term = logPmf(u);
    logOuter = logAdd(logOuter, term);
    // Moving away from the mode the terms fall; two in a row below 1e-17 of the sum end it.
    if (term < logOuter - 39 && previous < logOuter - 39) break;
    previous = term;
  }
  const outer = Math.exp(logOuter);
  const inner = 1 - outer + Math.exp(logHere);
  const logP = Math.min(0, Math.LN2 + (outer <= inner ? logOuter : Math.log(inner)));
  return { runs, n1, n2, mean, tail: { p: Math.exp(logP), logP } };
}

function repeatCheck(sequence: readonly number[], k: number): Omit<SerialCheck, 'adjustedP'> {
  return repeatLikeCheck('repeat', repeatStatistic(sequence, k), 'the same face', 'too few rolls, or too few different faces, to judge repeats');
}

function sameOrOppositeCheck(sequence: readonly number[], opposite: readonly number[]): Omit<SerialCheck, 'adjustedP'> {
  // Class of a face = the smaller index of {face, opposite}: "same or opposite" is "same class".
  const classes = new Int32Array(sequence.length);
  for (let i = 0; i < sequence.length; i++) {
    const x = sequence[i] as number;
    classes[i] = Math.min(x, opposite[x] as number);
  }
  return repeatLikeCheck('same-or-opposite', repeatStatistic(classes, opposite.length), 'the same or the opposite face', 'too few rolls to judge same-or-opposite landings');
}

function repeatLikeCheck(name: SerialCheckName, s: RepeatStatistic, what: string, tooFew: string): Omit<SerialCheck, 'adjustedP'> {
  if (s.variance === 0) return skipped(name, s.count, s.mean, tooFew);
  return {
    name,
    statistic: s.count,
    expected: s.mean,
    p: s.tail.p,
    logP: s.tail.logP,
    skipped: false,
    detail:
      `${what} as the throw before came up in ${formatCount(s.count)} of ${formatCount(s.pairs)} throws ` +
      `(${formatProbability(s.count / s.pairs)}; ${formatProbability(s.mean / s.pairs)} expected from the face counts)`,
  };
}

function transitionCheck(sequence: readonly number[], k: number, labels: readonly string[]): Omit<SerialCheck, 'adjustedP'> {
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 1; i < sequence.length; i++) (table[sequence[i - 1] as number] as number[])[sequence[i] as number]! += 1;
  const result = contingencyTest(table);
  const cells = result.rowsUsed.length * result.columnsUsed.length;
  const pairs = Math.max(0, sequence.length - 1);
  if (result.pearson.df === 0 || pairs < MIN_PAIRS_PER_CELL * cells) {
    return skipped('transitions', result.pearson.statistic, result.pearson.df, `too few throws for the ${k}×${k} transition table (needs ${MIN_PAIRS_PER_CELL} per cell on average)`);
  }
  let top = { z: -Infinity, from: 0, to: 0 };
  result.residuals.forEach((row, i) =>
    row.forEach((z, j) => {
      if (z > top.z) top = { z, from: result.rowsUsed[i] as number, to: result.columnsUsed[j] as number };
    }),
  );
  return {
    name: 'transitions',
    statistic: result.pearson.statistic,
    expected: result.pearson.df,
    p: result.pearson.p,
    logP: result.pearson.logP,
    skipped: false,
    detail:
      `the next face depends on the previous one (X² = ${formatProbability(result.pearson.statistic)}, df ${result.pearson.df}); ` +
      `most over-represented: ${labels[top.from]} then ${labels[top.to]} (adjusted residual ${top.z.toFixed(1)})`,
  };
}

function runsCheck(sequence: readonly number[], split: readonly number[], k: number, labels: readonly string[]): Omit<SerialCheck, 'adjustedP'> {
  const inSplit = new Uint8Array(k);
  for (const i of split) inSplit[i] = 1;
  const bits = Uint8Array.from(sequence, (x) => inSplit[x] as number);
  const s = runsStatistic(bits);
  const group = split.map((i) => labels[i]).join('/');
  if (s.n1 === 0 || s.n2 === 0) return skipped('runs', s.runs, s.mean, `every throw fell on the same side of the runs split (${group} vs the rest)`);
  return {
    name: 'runs',
    statistic: s.runs,
    expected: s.mean,
    p: s.tail.p,
    logP: s.tail.logP,
    skipped: false,
    detail: `${formatCount(s.runs)} runs of ${group} vs the rest, ${formatProbability(s.mean)} expected`,
  };
}

function skipped(name: SerialCheckName, statistic: number, expected: number, why: string): Omit<SerialCheck, 'adjustedP'> {
  return { name, statistic, expected, p: 1, logP: 0, skipped: true, detail: why };
}

function validateOpposite(opposite: readonly number[], k: number): readonly number[] {
  if (opposite.length !== k) throw new InputError(`The opposite-face map has ${opposite.length} entries for ${k} faces; give one per face.`);
  opposite.forEach((o, i) => {
    if (!(Number.isInteger(o) && o >= 0 && o < k)) throw new InputError(`The opposite of face ${i} is ${o}, which is not a face index (0..${k - 1}).`);
    if (opposite[o] !== i) throw new InputError(`The opposite of face ${i} is face ${o}, but the opposite of face ${o} is face ${opposite[o]}; the map must pair faces.`);
  });
  return opposite;
}

/** Holm step-down adjusted p-values; null entries (skipped checks) get 1 and do not count in the family. */
/** Holm over the checks that ran; a skipped check (null) keeps adjusted p = 1 and does not count. */
function holm(ps: readonly (number | null)[]): number[] {
  const live = ps.flatMap((p, i) => (p === null ? [] : [i]));
  const adjusted = holmAdjust(live.map((i) => ps[i] as number));
  const out = ps.map(() => 1);
  live.forEach((i, k) => (out[i] = adjusted[k] as number));
  return out;
}

function logAdd(x: number, y: number): number {
  if (x === -Infinity) return y;
  if (y === -Infinity) return x;
  const hi = Math.max(x, y);
  return hi + Math.log1p(Math.exp(Math.min(x, y) - hi));
}
