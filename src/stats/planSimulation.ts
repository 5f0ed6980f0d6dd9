/**
 * What a verdict costs, found by running the product's own decision rules on
 * simulated dice rather than by a closed-form approximation of them.
 *
 * Why simulate: a session certifies FAIR_WITHIN(δ) when every face's
 * anytime-valid confidence sequence (a beta mixture, at α/K per die) fits the
 * margin, and calls a die UNFAIR when its Dirichlet-mixture e-value reaches
 * K/α. Both are wider or slower than the fixed-n Goodman interval or Pearson
 * test (a fair d6 at α = 0.001, four dice, δ = 0.05: median 2,180 rolls to
 * certify, where the Goodman half-width at the expected odds reaches δ at 788),
 * and a fair die's own fluctuations delay it further, so a plan from the
 * fixed-n formula left budgeted sessions INCONCLUSIVE.
 *
 * A simulated die is fed to a monitor built as a session builds one
 * (`sessionMonitor` under `sessionErrorControl(alpha, dice)`), roll by roll up
 * to `BATCHES` rolls, then in batches of 1/`BATCHES` of the rolls so far
 * (`observeCounts`: the same rule checked less often), so a stopping time is
 * late by at most 0.5 %, well inside the spread of a quantile over a few hundred
 * dice (a few percent), and a plan stays interactive (< 1 s for a d6 at ±0.03)
 * up to 10⁸ rolls.
 */
import { sessionErrorControl, sessionMonitor } from './dieVerdict.js';
import { goodmanCertifier } from './intervals.js';
import { ReadDieRules } from './planDie.js';
import { binomialDrawer, cumulativeOf, drawIndex, drawNormal, logFactorials, type RandomSource } from './random.js';

/** Past this many rolls, the rolls come in batches of 1/BATCHES of the rolls so far (below it, one at a time). */
const BATCHES = 200;
/** Above this many rolls a batch's counts are drawn from the normal approximation (the exact draw tabulates n log-factorials). */
const EXACT_DRAW_LIMIT = 1_000;

/**
 * A drawer of the counts per face of `n` rolls: exact conditional binomials up to `exactUpTo` rolls (their
 * log-factorial table made once, for every draw of that size), else their normal approximation (each face's count
 * then has a standard deviation of 10 rolls or more for the odds of any catalogued die, and a die's counts are
 * sums of many such batches, so the approximation's error is far below what a quantile over a few hundred dice resolves).
 */
export function countsDrawer(n: number, probabilities: readonly number[], exactUpTo = EXACT_DRAW_LIMIT): (random: RandomSource) => number[] {
  const draw = countsDrawerInto(n, probabilities, exactUpTo);
  return (random) => Array.from(draw(new Float64Array(probabilities.length), random));
}

/** {@link countsDrawer}, writing the counts into `out` (the same draws from the same random numbers: no allocation a draw). */
export function countsDrawerInto(n: number, probabilities: readonly number[], exactUpTo = EXACT_DRAW_LIMIT): (out: Float64Array, random: RandomSource) => Float64Array {
  const table = n <= exactUpTo ? logFactorials(n) : null;
  const k = probabilities.length;
  // Each face's conditional odds are the same from draw to draw (the faces before it take their share of the mass).
  const conditional: number[] = [];
  let before = 1;
  for (const p of probabilities) {
    conditional.push(before > 0 ? Math.min(1, p / before) : 1);
    before -= p;
  }
  const binomials = table ? conditional.map((q) => binomialDrawer(q, table)) : null;
  return (out, random) => {
    let left = n;
    for (let i = 0; i < k; i++) {
      let c = left;
      if (i < k - 1) {
        const q = conditional[i] as number;
        c = binomials
          ? (binomials[i] as (n: number, random: RandomSource) => number)(left, random)
          : Math.min(left, Math.max(0, Math.round(left * q + Math.sqrt(left * q * (1 - q)) * drawNormal(random))));
      }
      out[i] = c;
      left -= c;
    }
    return out;
  };
}

export interface SessionSimulation {
  /** The odds the monitor tests against. */
  readonly expected: readonly number[];
  /** The odds the simulated die rolls with (the expected ones for a fair die). */
  readonly truth: readonly number[];
  /** The session's family-wise alpha and its number of dice (each die decided at alpha / dice). */
  readonly alpha: number;
  readonly dice: number;
  readonly delta: number;
  /** Per-face misread bounds the monitor allows for (the die is read as it falls). */
  readonly misreadRates?: readonly number[];
  /** Which decision to time. */
  readonly target: 'FAIR_WITHIN' | 'UNFAIR';
  /** Simulated dice. */
  readonly runs: number;
  /** Rolls after which a die still undecided counts as never reaching the target. */
  readonly cap: number;
  readonly random: RandomSource;
}

/** When the simulated dice decided. */
export interface SessionStops {
  /** The roll at which each die reached the target decision, sorted; Infinity for a die that did not by the cap. */
  readonly rolls: number[];
  /** Dice that reached the other decision first (final in a session, so they never reach the target). */
  readonly other: number;
}

/** Runs `runs` simulated dice through a session's monitor each, until it decides or `cap` rolls. */
export function sessionStoppingRolls(s: SessionSimulation): SessionStops {
  const control = sessionErrorControl(s.alpha, s.dice);
  const options = { delta: s.delta, ...(s.misreadRates ? { misreadRates: s.misreadRates } : {}) };
  // The monitor a session builds: it checks the settings, and dice read with misread bounds run through it.
  const first = sessionMonitor(control, s.expected, options);
  const cumulative = cumulativeOf(s.truth);
  const rolls: number[] = [];
  let other = 0;
  // Batch sizes repeat from die to die: one drawer (and log-factorial table) per size.
  const drawers = new Map<number, (out: Float64Array, random: RandomSource) => Float64Array>();
  const counts = new Float64Array(s.truth.length);
  const batch = (size: number): Float64Array => {
    let d = drawers.get(size);
    if (d === undefined) drawers.set(size, (d = countsDrawerInto(size, s.truth)));
    return d(counts, s.random);
  };
  const record = (kind: string, at: number) => {
    rolls.push(kind === s.target ? at : Infinity);
    if (kind !== s.target && kind !== 'INCONCLUSIVE') other++;
  };
  if (first.misreadRates === null) {
    // Every roll read: the monitor's rules without its allocations (planDie.ts), the same decisions at the same rolls.
    const die = new ReadDieRules(first);
    for (let r = 0; r < s.runs; r++) {
      die.reset();
      while (die.decision === null && die.rolls < s.cap) {
        if (die.rolls < BATCHES) die.observe(drawIndex(cumulative, s.random));
        else die.observeCounts(batch(Math.floor(die.rolls / BATCHES)));
      }
      record(die.decision ?? 'INCONCLUSIVE', die.rolls);
    }
  } else {
    for (let r = 0; r < s.runs; r++) {
      const monitor = r === 0 ? first : sessionMonitor(control, s.expected, options);
      while (!monitor.decided && monitor.rolls < s.cap) {
        if (monitor.rolls < BATCHES) monitor.observe(drawIndex(cumulative, s.random));
        else monitor.observeCounts(Array.from(batch(Math.floor(monitor.rolls / BATCHES))));
      }
      record(monitor.decided ? monitor.verdict().kind : 'INCONCLUSIVE', monitor.rolls);
    }
  }
  return { rolls: rolls.sort((a, b) => a - b), other };
}

/** The q-quantile of sorted stopping rolls (the smallest value at least a share q of them reach), or null when it is Infinity. */
export function stoppingQuantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) throw new RangeError('no stopping times');
  const value = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] as number;
  return Number.isFinite(value) ? value : null;
}

/**
 * For each q of `quantiles`: the fewest rolls at which a fair die's file of that many rolls is certified by analyze's
 * fixed-n rule with probability at least q, estimated on `runs` simulated files at each size (the same random numbers'
 * seed for every size, so the search compares like with like); null beyond `cap`. A size's share is simulated once for
 * every q (it depends on the size alone).
 */
export function fixedSampleCertifyRolls(expected: readonly number[], alpha: number, delta: number, quantiles: readonly number[], runs: number, cap: number, seed: () => RandomSource): (number | null)[] {
  const certifies = goodmanCertifier(expected, alpha, delta);
  const shares = new Map<number, number>();
  const share = (n: number): number => {
    let known = shares.get(n);
    if (known === undefined) {
      const random = seed();
      const draw = countsDrawer(n, expected, 1_000_000);
      let certified = 0;
      for (let r = 0; r < runs; r++) if (certifies(draw(random))) certified++;
      shares.set(n, (known = certified / runs));
    }
    return known;
  };
  return quantiles.map((q) => {
    let lo = 1;
    let hi = 64;
    while (share(hi) < q) {
      lo = hi;
      hi *= 2;
      if (hi > cap) return null;
    }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (share(mid) >= q) hi = mid;
      else lo = mid;
    }
    return hi;
  });
}

/**
 * The fewest rolls at which analyze's fixed-n rule certifies a file whose faces come up exactly at their odds (counts
 * n·p, fractional): a floor under every figure above, since a fair die's fluctuations only delay certification and a
 * session's anytime-valid intervals are wider than Goodman's. Null beyond `cap`.
 */
export function exactShareCertifyRolls(expected: readonly number[], alpha: number, delta: number, cap: number): number | null {
  const rule = goodmanCertifier(expected, alpha, delta);
  const certifies = (n: number) => rule(expected.map((p) => p * n));
  let lo = 1;
  let hi = 64;
  while (!certifies(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > cap * 2) return null;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (certifies(mid)) hi = mid;
    else lo = mid;
  }
  return hi <= cap ? hi : null;
}
