import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { cumulativeOf, drawIndex, seededRandom, type RandomSource } from '../../../src/stats/random.js';
import { repeatStatistic, rigSuspectVerdict, runsStatistic, runsTestSplit, serialChecks } from '../../../src/stats/serial.js';
import { describeVerdict } from '../../../src/stats/verdict.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const D6 = [1, 2, 3, 4, 5, 6].map(() => 1 / 6);
/** D6 faces 1..6 at indices 0..5; opposite faces sum to 7. */
const D6_OPPOSITE = [5, 4, 3, 2, 1, 0];

function iid(probs: readonly number[], n: number, random: RandomSource): number[] {
  const cumulative = cumulativeOf(probs);
  return Array.from({ length: n }, () => drawIndex(cumulative, random));
}

/** A rig that fails to tumble with probability `stick`: the previous face comes up again. */
function stickyRig(probs: readonly number[], n: number, stick: number, random: RandomSource): number[] {
  const cumulative = cumulativeOf(probs);
  const out = [drawIndex(cumulative, random)];
  while (out.length < n) out.push(random() < stick ? (out[out.length - 1] as number) : drawIndex(cumulative, random));
  return out;
}

/** A d6 rig that, with probability `tip`, only tips the die a quarter turn onto one of the four adjacent faces. */
function quarterTurnRig(n: number, tip: number, random: RandomSource): number[] {
  const out = [Math.floor(random() * 6)];
  while (out.length < n) {
    const previous = out[out.length - 1] as number;
    if (random() < tip) {
      const adjacent = [0, 1, 2, 3, 4, 5].filter((f) => f !== previous && f !== D6_OPPOSITE[previous]);
      out.push(adjacent[Math.floor(random() * 4)] as number);
    } else out.push(Math.floor(random() * 6));
  }
  return out;
}

/*
 * Exact runs-test p-values from integer combinatorics (Python 3, fractions; no rounding until the end):
 *
 *   from math import comb
 *   from fractions import Fraction
 *   def runs_p(bits):
 *       n1 = sum(bits); n2 = len(bits) - n1; N = len(bits)
 *       u = 1 + sum(1 for i in range(1, N) if bits[i] != bits[i-1])
 *       tot = comb(N, n1)
 *       def pmf(v):
 *           r = v // 2
 *           if v % 2 == 0: return Fraction(2*comb(n1-1, r-1)*comb(n2-1, r-1), tot)
 *           return Fraction(comb(n1-1, r)*comb(n2-1, r-1) + comb(n1-1, r-1)*comb(n2-1, r), tot)
 *       mx = 2*min(n1, n2) + (0 if n1 == n2 else 1)
 *       lo = sum(pmf(v) for v in range(2, u+1)); hi = sum(pmf(v) for v in range(u, mx+1))
 *       assert sum(pmf(v) for v in range(2, mx+1)) == 1
 *       return u, n1, n2, min(1.0, float(2*min(lo, hi)))
 *   runs_p([int(c) for c in '11010001110010111000'])                    # (10, 10, 10, 0.8281408993483297)
 *   runs_p([1 if (i*i + 3*i) % 7 < 3 else 0 for i in range(2000)])      # (1143, 572, 1428, 2.2268029591689548e-100)
 *   runs_p([1 if (i // 3) % 2 == 0 else 0 for i in range(300)])         # (100, 150, 150, 3.7000579218496445e-09)
 *   runs_p([1 if (i*7907) % 10009 < 3000 else 0 for i in range(5000)])  # (2101, 1497, 3503, 0.9524273632225672)
 */
describe('runsStatistic', () => {
  it.each([
    ['a short mixed sequence', [...'11010001110010111000'].map(Number), 10, 10, 10, 0.8281408993483297],
    ['2,000 bits with too many runs', Array.from({ length: 2000 }, (_, i) => ((i * i + 3 * i) % 7 < 3 ? 1 : 0)), 1143, 572, 1428, 2.2268029591689548e-100],
    ['300 bits in runs of three (too few runs)', Array.from({ length: 300 }, (_, i) => (Math.floor(i / 3) % 2 === 0 ? 1 : 0)), 100, 150, 150, 3.7000579218496445e-9],
    ['5,000 bits with about the expected number of runs', Array.from({ length: 5000 }, (_, i) => ((i * 7907) % 10009 < 3000 ? 1 : 0)), 2101, 1497, 3503, 0.9524273632225672],
  ])('gives the exact two-sided p that integer combinatorics gives for %s', (_name, bits, runs, n1, n2, p) => {
    const s = runsStatistic(bits);
    expect([s.runs, s.n1, s.n2]).toEqual([runs, n1, n2]);
    expect(s.tail.p / p).toBeCloseTo(1, 9);
    expect(s.tail.logP).toBeCloseTo(Math.log(p), 8);
  });

  it('has nothing to test when only one kind of bit occurs', () => {
    expect(runsStatistic([1, 1, 1, 1]).tail.p).toBe(1);
  });
});

/*
 * Exact permutation mean and variance of the repeat count by exhaustive enumeration (Python 3):
 *
 *   from itertools import permutations
 *   from fractions import Fraction
 *   def moments(base):
 *       perms = set(permutations(base))
 *       R = [sum(1 for i in range(1, len(p)) if p[i] == p[i-1]) for p in perms]
 *       m = Fraction(sum(R), len(R)); v = Fraction(sum(r*r for r in R), len(R)) - m*m
 *       return len(perms), m, v
 *   moments((0,0,0,1,1,2,2))           # (210, 10/7, 148/147)
 *   moments((0,0,0,0,1,1,1,2,3,3))     # (12600, 2, 4/3)
 */
describe('repeatStatistic', () => {
  it.each([
    [[0, 0, 0, 1, 1, 2, 2], 3, 10 / 7, 148 / 147],
    [[0, 0, 0, 0, 1, 1, 1, 2, 3, 3], 4, 2, 4 / 3],
  ])('gives the exact permutation mean and variance of repeats for %j', (labels, classes, mean, variance) => {
    const s = repeatStatistic(labels, classes);
    expect(s.mean).toBeCloseTo(mean, 12);
    expect(s.variance).toBeCloseTo(variance, 12);
    expect(s.count).toBe(labels.filter((x, i) => i > 0 && x === labels[i - 1]).length);
  });
});

describe('runsTestSplit', () => {
  it('splits by expected odds, as close to half as a prefix of the likeliest faces gets', () => {
    expect(runsTestSplit(RED)).toEqual([0]); // hit (0.375) vs the rest; hit+focus would be 0.625, no closer
    expect(runsTestSplit([3 / 8, 2 / 8, 3 / 8])).toEqual([0]); // evade vs focus/blank
    expect(runsTestSplit(D6)).toEqual([0, 1, 2]);
    expect(runsTestSplit(new Array(8).fill(1 / 8))).toEqual([0, 1, 2, 3]);
    expect(runsTestSplit([0.9, 0.1])).toEqual([0]);
  });
});

/*
 * Monte Carlo slack: with family-wise alpha 0.01, the flagged count over D good-rig
 * sequences is at most Binomial(D, 0.01); we allow its 0.999 quantile (SciPy):
 *   scipy.stats.binom.ppf(0.999, 300, 0.01) = 10
 *   scipy.stats.binom.ppf(0.999, 100, 0.01) = 5
 */
describe('serialChecks', () => {
  it('rarely flags fair red dice on a good rig (300 sequences of 500 throws, at most 1 % plus slack)', () => {
    const random = seededRandom(1001);
    let flagged = 0;
    for (let i = 0; i < 300; i++) if (serialChecks(iid(RED, 500, random), RED).suspect) flagged++;
    expect(flagged).toBeLessThanOrEqual(10);
  });

  it('rarely flags fair d6s on a good rig, with the same-or-opposite check (300 sequences of 500 throws)', () => {
    const random = seededRandom(1002);
    let flagged = 0;
    for (let i = 0; i < 300; i++) if (serialChecks(iid(D6, 500, random), D6, { opposite: D6_OPPOSITE }).suspect) flagged++;
    expect(flagged).toBeLessThanOrEqual(10);
  });

  it('does not blame the rig for a biased die: a red die 1.5x heavy on hit, thrown independently, is rarely flagged', () => {
    const heavy = RED.map((p, i) => (i === 0 ? 0.5625 : (p * 0.4375) / 0.625));
    const random = seededRandom(1003);
    let flagged = 0;
    for (let i = 0; i < 100; i++) if (serialChecks(iid(heavy, 3000, random), RED).suspect) flagged++;
    expect(flagged).toBeLessThanOrEqual(5);
  });

  it('flags a 10 % sticky rig over 2,000 red-die throws, through the repeat check (20 of 20 seeds)', () => {
    for (let seed = 0; seed < 20; seed++) {
      const result = serialChecks(stickyRig(RED, 2000, 0.1, seededRandom(seed)), RED);
      expect(result.suspect).toBe(true);
      const repeat = result.checks.find((c) => c.name === 'repeat');
      expect(repeat?.statistic).toBeGreaterThan(repeat?.expected ?? Infinity);
      expect(result.failed.map((c) => c.name)).toContain('repeat');
    }
  });

  it('flags a d6 rig that tips a quarter turn a quarter of the time, through too few same-or-opposite landings', () => {
    for (let seed = 0; seed < 10; seed++) {
      const result = serialChecks(quarterTurnRig(2000, 0.25, seededRandom(seed)), D6, { opposite: D6_OPPOSITE });
      expect(result.suspect).toBe(true);
      const same = result.checks.find((c) => c.name === 'same-or-opposite');
      expect(same?.statistic).toBeLessThan(same?.expected ?? -Infinity);
      expect(result.failed.map((c) => c.name)).toContain('same-or-opposite');
    }
  });

  it('skips the transition table until it has 5 throws per cell on average, and leaves skipped checks out of Holm', () => {
    const result = serialChecks(iid(RED, 60, seededRandom(4)), RED);
    const transitions = result.checks.find((c) => c.name === 'transitions');
    expect(transitions?.skipped).toBe(true);
    expect(transitions?.adjustedP).toBe(1);
    const live = result.checks.filter((c) => !c.skipped);
    expect(live.map((c) => c.name)).toEqual(['repeat', 'runs']);
    // Holm with two tests: the smaller p is doubled, the larger kept (or raised to the smaller's adjusted value).
    const [a, b] = [...live].sort((x, y) => x.p - y.p);
    expect(a?.adjustedP).toBeCloseTo(Math.min(1, 2 * (a?.p ?? NaN)), 15);
    expect(b?.adjustedP).toBeCloseTo(Math.max(a?.adjustedP ?? NaN, b?.p ?? NaN), 15);
  });

  it('reports RIG_SUSPECT for a suspect rig and nothing for a good one', () => {
    const bad = serialChecks(stickyRig(D6, 2000, 0.1, seededRandom(5)), D6, { opposite: D6_OPPOSITE, labels: ['1', '2', '3', '4', '5', '6'] });
    const verdict = rigSuspectVerdict(bad);
    expect(verdict?.kind).toBe('RIG_SUSPECT');
    expect(verdict?.failedChecks.length).toBeGreaterThan(0);
    expect(describeVerdict(verdict!)).toMatch(/^RIG_SUSPECT: the rig may not be tumbling the dice independently: the same face as the throw before came up in [\d,]+ of 1,999 throws/);
    expect(rigSuspectVerdict(serialChecks([0, 1, 2, 3, 0, 2], RED))).toBeNull();
  });

  it('refuses face indices outside the die and opposite maps that do not pair faces', () => {
    expect(() => serialChecks([0, 1, 4], RED)).toThrow(InputError);
    expect(() => serialChecks([0, 1], D6, { opposite: [5, 4, 3, 2, 1] })).toThrow(InputError);
    expect(() => serialChecks([0, 1], D6, { opposite: [5, 4, 3, 2, 1, 1] })).toThrow(/must pair faces/);
    expect(() => serialChecks([0, 1], [0.5, 0.6])).toThrow(InputError);
  });

  it('passes a sequence too short to judge, with every check skipped', () => {
    const result = serialChecks([2], RED);
    expect(result.suspect).toBe(false);
    expect(result.checks.every((c) => c.skipped)).toBe(true);
  });
});
