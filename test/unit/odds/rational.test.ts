import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rational, sumRationals } from '../../../src/core/rational.js';

const r = (n: number, d = 1): Rational => Rational.of(n, d);

describe('Rational', () => {
  it('normalises to lowest terms with a positive denominator', () => {
    expect(r(6, 8).toString()).toBe('3/4');
    expect(r(3, -6).toString()).toBe('-1/2');
    expect(r(0, -5).toString()).toBe('0');
    expect(r(10, 5).toString()).toBe('2');
    expect(r(-4, -8).equals(r(1, 2))).toBe(true);
  });

  it('refuses a zero denominator and non-integer parts', () => {
    expect(() => r(1, 0)).toThrow(RangeError);
    expect(() => Rational.of(0.5)).toThrow(/safe integer/);
  });

  it('adds, subtracts, multiplies and divides exactly', () => {
    expect(r(1, 2).add(r(1, 3)).toString()).toBe('5/6');
    expect(r(1, 2).sub(r(3, 4)).toString()).toBe('-1/4');
    expect(r(3, 8).mul(r(4, 9)).toString()).toBe('1/6');
    expect(r(3, 8).div(r(3, 4)).toString()).toBe('1/2');
    expect(() => r(1).div(Rational.ZERO)).toThrow(RangeError);
    expect(r(1, 4).complement().toString()).toBe('3/4');
    expect(r(3, 4).pow(3).toString()).toBe('27/64');
    expect(r(-2, 3).neg().toString()).toBe('2/3');
  });

  it('compares by value', () => {
    expect(r(1, 3).compare(r(1, 2))).toBe(-1);
    expect(r(2, 4).compare(r(1, 2))).toBe(0);
    expect(r(-1, 2).compare(r(-2, 3))).toBe(1);
  });

  it('parses fractions, decimals and exponents, and rejects other text', () => {
    expect(Rational.parse('3/8')?.toString()).toBe('3/8');
    expect(Rational.parse(' -2 / 6 ')?.toString()).toBe('-1/3');
    expect(Rational.parse('0.125')?.toString()).toBe('1/8');
    expect(Rational.parse('.5')?.toString()).toBe('1/2');
    expect(Rational.parse('2')?.toString()).toBe('2');
    expect(Rational.parse('1.5e-2')?.toString()).toBe('3/200');
    expect(Rational.parse('1/0')).toBeUndefined();
    expect(Rational.parse('abc')).toBeUndefined();
    expect(Rational.parse('.')).toBeUndefined();
    expect(Rational.parse('1/2/3')).toBeUndefined();
  });

  it('reads a double as the decimal it prints as', () => {
    expect(Rational.fromNumber(0.1).toString()).toBe('1/10');
    expect(Rational.fromNumber(0.375).toString()).toBe('3/8');
    expect(Rational.fromNumber(1e-7).toString()).toBe('1/10000000');
    expect(() => Rational.fromNumber(Infinity)).toThrow(RangeError);
  });

  it('recovers simple fractions from doubles and gives up on others', () => {
    expect(Rational.approximate(1 / 6)?.toString()).toBe('1/6');
    expect(Rational.approximate(0.125)?.toString()).toBe('1/8');
    expect(Rational.approximate(2 / 3)?.toString()).toBe('2/3');
    expect(Rational.approximate(0)?.toString()).toBe('0');
    expect(Rational.approximate(Math.PI)).toBeUndefined();
    expect(Rational.approximate(NaN)).toBeUndefined();
  });

  it('converts to the nearest double, also for huge numerators and denominators', () => {
    expect(r(15, 16).toNumber()).toBe(0.9375);
    expect(r(-1, 3).toNumber()).toBe(-1 / 3);
    const tiny = Rational.of(1n, 3n ** 700n); // 3^-700 ≈ 10^-334: below the smallest double
    expect(tiny.toNumber()).toBe(0);
    const small = Rational.of(2n, 3n ** 600n); // 2·3^-600 ≈ 1.6e-286
    expect(small.toNumber() / (2 * Math.pow(3, -300) * Math.pow(3, -300))).toBeCloseTo(1, 12);
    const big = Rational.of(10n ** 400n + 1n, 10n ** 399n);
    expect(big.toNumber()).toBe(10);
  });

  it('sums a list of rationals', () => {
    expect(sumRationals([r(1, 2), r(1, 3), r(1, 6)]).toString()).toBe('1');
    expect(sumRationals([]).toString()).toBe('0');
  });

  it('prints the canonical fraction in JSON', () => {
    expect(JSON.stringify({ p: r(30, 32) })).toBe('{"p":"15/16"}');
  });

  it('obeys the field laws on random fractions (seeded)', () => {
    const frac = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 })).map(([n, d]) => r(n, d));
    fc.assert(
      fc.property(frac, frac, frac, (a, b, c) => {
        expect(a.add(b).sub(b).equals(a)).toBe(true);
        expect(a.mul(b.add(c)).equals(a.mul(b).add(a.mul(c)))).toBe(true);
        if (!b.isZero()) expect(a.mul(b).div(b).equals(a)).toBe(true);
        expect(Math.sign(a.compare(b))).toBe(Math.sign(a.toNumber() - b.toNumber()));
        expect(Rational.parse(a.toString())?.equals(a)).toBe(true);
      }),
      { seed: 20240611, numRuns: 300 },
    );
  });
});
