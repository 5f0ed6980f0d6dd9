/**
 * Exact rational numbers on BigInt, always normalised (denominator > 0, gcd 1),
 * so `equals` and `toString` are canonical. Game odds are exact fractions
 * (15/16, 3/8); floating point would turn a printed erratum into a rounding debate.
 */
export class Rational {
  private constructor(
    /** Numerator, carrying the sign. */
    readonly num: bigint,
    /** Denominator, always positive. */
    readonly den: bigint,
  ) {}

  static readonly ZERO = new Rational(0n, 1n);
  static readonly ONE = new Rational(1n, 1n);

  /** The fraction n/d in lowest terms; throws RangeError on a zero denominator or a non-integer number. */
  static of(n: bigint | number, d: bigint | number = 1n): Rational {
    const nb = toBigInt(n);
    const db = toBigInt(d);
    if (db === 0n) throw new RangeError('A rational number cannot have a zero denominator.');
    const sign = db < 0n ? -1n : 1n;
    const g = gcd(abs(nb), abs(db));
    return new Rational((sign * nb) / g, (sign * db) / g);
  }

  /**
   * Parses an exact decimal or fraction text: `3/8`, `-1/6`, `0.125`, `2`, `1e-3`.
   * Returns undefined when the text is not one of those forms.
   */
  static parse(text: string): Rational | undefined {
    const t = text.trim();
    const frac = /^([+-]?\d+)\s*\/\s*([+-]?\d+)$/.exec(t);
    if (frac) {
      const d = BigInt(frac[2] as string);
      return d === 0n ? undefined : Rational.of(BigInt(frac[1] as string), d);
    }
    const dec = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
    if (!dec || ((dec[2] ?? '') === '' && (dec[3] ?? '') === '')) return undefined;
    const sign = dec[1] === '-' ? -1n : 1n;
    const intPart = dec[2] ?? '';
    const fracPart = dec[3] ?? '';
    const exp = Number(dec[4] ?? '0') - fracPart.length;
    if (Math.abs(exp) > 400) return undefined;
    const digits = BigInt((intPart + fracPart).replace(/^0+(?=\d)/, '') || '0') * sign;
    return exp >= 0 ? Rational.of(digits * 10n ** BigInt(exp)) : Rational.of(digits, 10n ** BigInt(-exp));
  }

  /**
   * The exact value of a finite JavaScript number as written by `String(x)`
   * (its shortest decimal form), so `0.1` becomes 1/10 rather than the binary
   * neighbour 3602879701896397/36028797018963968.
   */
  static fromNumber(x: number): Rational {
    if (!Number.isFinite(x)) throw new RangeError(`${x} is not a finite number.`);
    const r = Rational.parse(String(x));
    if (!r) throw new RangeError(`${x} cannot be read as a decimal.`);
    return r;
  }

  /**
   * The simplest fraction with denominator <= maxDenominator within `tolerance`
   * (relative) of x, by continued fractions, or undefined when none is that
   * close. Recovers 1/6 from 0.16666666666666666; the tolerance is a few
   * hundred ulps, far below the ~1/q^2 error of a chance convergent, so a
   * number that is not a simple fraction (pi) is refused.
   */
  static approximate(x: number, maxDenominator = 1_000_000, tolerance = 1e-14): Rational | undefined {
    if (!Number.isFinite(x)) return undefined;
    let h0 = 0;
    let h1 = 1;
    let k0 = 1;
    let k1 = 0;
    let rest = x;
    for (let i = 0; i < 64; i++) {
      const a = Math.floor(rest);
      const h2 = a * h1 + h0;
      const k2 = a * k1 + k0;
      if (k2 > maxDenominator) break;
      [h0, h1, k0, k1] = [h1, h2, k1, k2];
      if (Math.abs(x - h1 / k1) <= tolerance * Math.max(1, Math.abs(x))) return Rational.of(h1, k1);
      const frac = rest - a;
      if (frac === 0) break;
      rest = 1 / frac;
    }
    return undefined;
  }

  add(o: Rational): Rational {
    return Rational.of(this.num * o.den + o.num * this.den, this.den * o.den);
  }

  sub(o: Rational): Rational {
    return Rational.of(this.num * o.den - o.num * this.den, this.den * o.den);
  }

  mul(o: Rational): Rational {
    return Rational.of(this.num * o.num, this.den * o.den);
  }

  /** Throws RangeError when dividing by zero. */
  div(o: Rational): Rational {
    if (o.num === 0n) throw new RangeError('Division of a rational number by zero.');
    return Rational.of(this.num * o.den, this.den * o.num);
  }

  neg(): Rational {
    return new Rational(-this.num, this.den);
  }

  /** 1 - this: the complement of a probability. */
  complement(): Rational {
    return Rational.ONE.sub(this);
  }

  /** this^k for an integer k >= 0. */
  pow(k: number): Rational {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`Exponent ${k} is not a non-negative integer.`);
    return new Rational(this.num ** BigInt(k), this.den ** BigInt(k));
  }

  /** Negative, zero or positive as this <, =, > o. */
  compare(o: Rational): number {
    const d = this.num * o.den - o.num * this.den;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }

  equals(o: Rational): boolean {
    return this.num === o.num && this.den === o.den;
  }

  isZero(): boolean {
    return this.num === 0n;
  }

  /** Nearest double (exactly rounded when numerator and denominator are below 2^53, within an ulp beyond). */
  toNumber(): number {
    const n = Number(this.num);
    const d = Number(this.den);
    if (Math.abs(n) <= 2 ** 53 && d <= 2 ** 53) return n / d;
    // Integer quotient with 64 significant bits, then scale by a power of two in two steps (no overflow or early underflow).
    const k = 64 + bitLength(this.den) - bitLength(abs(this.num));
    const q = k >= 0 ? (abs(this.num) << BigInt(k)) / this.den : abs(this.num) / (this.den << BigInt(-k));
    const half = Math.trunc(k / 2);
    const value = Number(q) * 2 ** -half * 2 ** -(k - half);
    return this.num < 0n ? -value : value;
  }

  /** `15/16`, `0`, `-1/6`, `3` — the canonical exact text used in JSON output. */
  toString(): string {
    return this.den === 1n ? this.num.toString() : `${this.num}/${this.den}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** The sum of a list of rationals (0 for an empty list). */
export function sumRationals(values: Iterable<Rational>): Rational {
  let acc = Rational.ZERO;
  for (const v of values) acc = acc.add(v);
  return acc;
}

function toBigInt(x: bigint | number): bigint {
  if (typeof x === 'bigint') return x;
  if (!Number.isSafeInteger(x)) throw new RangeError(`${x} is not a safe integer, so it cannot be an exact numerator or denominator.`);
  return BigInt(x);
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}
