import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Distribution, numberKey } from '../../../src/odds/distribution.js';
import { Rational } from '../../../src/core/rational.js';

const r = (n: number, d = 1): Rational => Rational.of(n, d);
const coin = (): Distribution<number> => Distribution.uniform([0, 1], numberKey);
const d6 = (): Distribution<number> => Distribution.uniform([1, 2, 3, 4, 5, 6], numberKey);

describe('Distribution', () => {
  it('refuses weights that do not sum to 1 or are negative', () => {
    expect(() => Distribution.of([{ outcome: 1, probability: r(1, 2) }], numberKey)).toThrow(/sum to 1, not 1\/2/);
    expect(() =>
      Distribution.of(
        [
          { outcome: 1, probability: r(3, 2) },
          { outcome: 2, probability: r(-1, 2) },
        ],
        numberKey,
      ),
    ).toThrow(/negative/);
    expect(() => Distribution.uniform([], numberKey)).toThrow(RangeError);
  });

  it('merges equal outcomes and drops zero weights', () => {
    const d = Distribution.of(
      [
        { outcome: 1, probability: r(1, 4) },
        { outcome: 1, probability: r(1, 4) },
        { outcome: 2, probability: r(1, 2) },
        { outcome: 3, probability: Rational.ZERO },
      ],
      numberKey,
    );
    expect(d.support.map((e) => [e.outcome, e.probability.toString()])).toEqual([
      [1, '1/2'],
      [2, '1/2'],
    ]);
    expect(d.probabilityOf(3).isZero()).toBe(true);
  });

  it('gives the two-dice sum distribution by convolution', () => {
    const sum = d6().combine(d6(), (a, b) => a + b, numberKey);
    expect(sum.probabilityOf(7).toString()).toBe('1/6');
    expect(sum.probabilityOf(2).toString()).toBe('1/36');
    expect(sum.expectation((v) => v).toString()).toBe('7');
    expect(sum.probability((v) => v >= 10).toString()).toBe('1/6');
  });

  it('counts heads of n coins as a binomial through repeat', () => {
    const heads = coin().repeat<number>(4, 0, (s, x) => s + x, numberKey);
    expect(heads.sorted((a, b) => a - b).map((e) => e.probability.toString())).toEqual(['1/16', '1/4', '3/8', '1/4', '1/16']);
    expect(coin().repeat<number>(0, 0, (s, x) => s + x, numberKey).probabilityOf(0).toString()).toBe('1');
    expect(() => coin().repeat<number>(-1, 0, (s, x) => s + x, numberKey)).toThrow(RangeError);
  });

  it('tallies n draws with the multinomial law, agreeing with step-by-step repeat (seeded)', () => {
    const weights = fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 4 }).filter((w) => w.some((x) => x > 0));
    fc.assert(
      fc.property(weights, fc.integer({ min: 0, max: 5 }), (w, n) => {
        const total = w.reduce((a, b) => a + b, 0);
        const die = Distribution.of(
          w.map((x, i) => ({ outcome: i, probability: r(x, total) })),
          numberKey,
        );
        const k = die.support.length;
        const viaCounts = die.counts(n);
        const viaRepeat = die.repeat<number[]>(
          n,
          Array<number>(k).fill(0),
          (c, o) => c.map((x, i) => (die.support[i]?.outcome === o ? x + 1 : x)),
          (c) => c.join(','),
        );
        expect(viaCounts.totalProbability().toString()).toBe('1');
        expect(viaCounts.support.length).toBe(viaRepeat.support.length);
        for (const e of viaRepeat.support) expect(viaCounts.probabilityOf(e.outcome).equals(e.probability)).toBe(true);
      }),
      { seed: 11, numRuns: 60 },
    );
    expect(() => coin().counts(-1)).toThrow(RangeError);
  });

  it('rerolls once: a failed 4+ gets one more chance, and the second result is final', () => {
    const rerolled = d6().rerollOnce((v) => v < 4);
    expect(rerolled.probability((v) => v >= 4).toString()).toBe('3/4');
    // A 1 after the reroll stays: P(1) = P(fail) * 1/6.
    expect(rerolled.probabilityOf(1).toString()).toBe('1/12');
  });

  it('maps and flatMaps with merging', () => {
    const parity = d6().map((v) => v % 2, numberKey);
    expect(parity.probabilityOf(0).toString()).toBe('1/2');
    const chained = coin().flatMap((x) => (x === 0 ? Distribution.certain<number>(0, numberKey) : d6()), numberKey);
    expect(chained.probabilityOf(0).toString()).toBe('1/2');
    expect(chained.probabilityOf(6).toString()).toBe('1/12');
  });

  it('keeps total probability exactly 1 through random chains of operations (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 6 }), (ops, t) => {
        let d = d6();
        for (const op of ops) {
          if (op === 0) d = d.combine(d6(), (a, b) => (a + b) % 7, numberKey);
          else if (op === 1) d = d.rerollOnce((v) => v < t);
          else if (op === 2) d = d.map((v) => Math.floor(v / 2), numberKey);
          else d = d.flatMap((v) => Distribution.uniform([v, v + 1], numberKey), numberKey);
        }
        expect(d.totalProbability().equals(Rational.ONE)).toBe(true);
      }),
      { seed: 7, numRuns: 100 },
    );
  });
});
