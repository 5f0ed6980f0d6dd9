import { Rational, sumRationals } from '../core/rational.js';

/** Turns an outcome into a string that is equal exactly when the outcomes are equal. */
export type OutcomeKey<T> = (outcome: T) => string;

/** One outcome with its exact probability. */
export interface Weighted<T> {
  readonly outcome: T;
  readonly probability: Rational;
}

/**
 * A finite probability distribution with exact rational weights. Outcomes are
 * merged by key, so equal outcomes reached by different paths (e.g. 1 hit
 * from the first die or from the second) add up into one entry. Immutable.
 */
export class Distribution<T> {
  private constructor(
    private readonly entries: ReadonlyMap<string, Weighted<T>>,
    /** How outcomes are compared; kept so derived distributions merge the same way. */
    readonly key: OutcomeKey<T>,
  ) {}

  /**
   * Builds a distribution from weighted outcomes, merging equal keys and
   * dropping zero weights. Throws RangeError when a weight is negative or the
   * weights do not sum to exactly 1: a distribution that leaks mass is a bug.
   */
  static of<T>(items: Iterable<Weighted<T>>, key: OutcomeKey<T>): Distribution<T> {
    const d = Distribution.unchecked(items, key);
    const total = sumRationals([...d.entries.values()].map((e) => e.probability));
    if (!total.equals(Rational.ONE)) throw new RangeError(`Probabilities of a distribution must sum to 1, not ${total}.`);
    return d;
  }

  /** A single certain outcome. */
  static certain<T>(outcome: T, key: OutcomeKey<T>): Distribution<T> {
    return new Distribution(new Map([[key(outcome), { outcome, probability: Rational.ONE }]]), key);
  }

  /** Each outcome with probability 1/n. */
  static uniform<T>(outcomes: readonly T[], key: OutcomeKey<T>): Distribution<T> {
    if (outcomes.length === 0) throw new RangeError('A uniform distribution needs at least one outcome.');
    const p = Rational.of(1, outcomes.length);
    return Distribution.of(
      outcomes.map((outcome) => ({ outcome, probability: p })),
      key,
    );
  }

  private static unchecked<T>(items: Iterable<Weighted<T>>, key: OutcomeKey<T>): Distribution<T> {
    const map = new Map<string, Weighted<T>>();
    for (const { outcome, probability } of items) {
      if (probability.compare(Rational.ZERO) < 0) throw new RangeError(`Probability ${probability} is negative.`);
      if (probability.isZero()) continue;
      const k = key(outcome);
      const prev = map.get(k);
      map.set(k, prev ? { outcome: prev.outcome, probability: prev.probability.add(probability) } : { outcome, probability });
    }
    return new Distribution(map, key);
  }

  /** Outcomes with non-zero probability, in first-reached order. */
  get support(): readonly Weighted<T>[] {
    return [...this.entries.values()];
  }

  /** Outcomes sorted by `compare`, for printing. */
  sorted(compare: (a: T, b: T) => number): Weighted<T>[] {
    return this.support.slice().sort((a, b) => compare(a.outcome, b.outcome));
  }

  /** Exact probability of one outcome (0 when absent). */
  probabilityOf(outcome: T): Rational {
    return this.entries.get(this.key(outcome))?.probability ?? Rational.ZERO;
  }

  /** Exact probability that `event` holds. */
  probability(event: (outcome: T) => boolean): Rational {
    return sumRationals(this.support.filter((e) => event(e.outcome)).map((e) => e.probability));
  }

  /** Exact mean of `value(outcome)` (value must be an integer or a Rational). */
  expectation(value: (outcome: T) => number | Rational): Rational {
    return sumRationals(
      this.support.map((e) => {
        const v = value(e.outcome);
        return e.probability.mul(typeof v === 'number' ? Rational.of(v) : v);
      }),
    );
  }

  /** The distribution of f(outcome); outcomes that map to the same key merge. */
  map<U>(f: (outcome: T) => U, key: OutcomeKey<U>): Distribution<U> {
    return Distribution.unchecked(
      this.support.map((e) => ({ outcome: f(e.outcome), probability: e.probability })),
      key,
    );
  }

  /** Each outcome leads to a further random step: the law of total probability. */
  flatMap<U>(f: (outcome: T) => Distribution<U>, key: OutcomeKey<U>): Distribution<U> {
    const items: Weighted<U>[] = [];
    for (const e of this.support) {
      for (const inner of f(e.outcome).support) items.push({ outcome: inner.outcome, probability: e.probability.mul(inner.probability) });
    }
    return Distribution.unchecked(items, key);
  }

  /** The distribution of combine(a, b) for independent a ~ this, b ~ other (a convolution when combine adds). */
  combine<U, V>(other: Distribution<U>, combine: (a: T, b: U) => V, key: OutcomeKey<V>): Distribution<V> {
    return this.flatMap((a) => other.map((b) => combine(a, b), key), key);
  }

  /**
   * n independent copies folded with `step` from `start`: e.g. the number of
   * hits in n dice. Repeated squaring is not used because `step` need not be associative.
   */
  repeat<S>(n: number, start: S, step: (state: S, outcome: T) => S, key: OutcomeKey<S>): Distribution<S> {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Cannot repeat a roll ${n} times.`);
    let acc = Distribution.certain(start, key);
    for (let i = 0; i < n; i++) acc = acc.combine(this, step, key);
    return acc;
  }

  /**
   * How many times each outcome comes up in n independent draws (the
   * multinomial distribution): `counts[i]` counts `support[i].outcome`. Same
   * law as tallying with `repeat`, but each count vector is weighted once by
   * n!/(c1!...ck!) p1^c1...pk^ck instead of being reached step by step, so
   * 30 dice cost thousands of operations, not millions.
   */
  counts(n: number): Distribution<readonly number[]> {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Cannot draw ${n} times.`);
    const probs = this.support.map((e) => e.probability);
    const k = probs.length;
    const factorial: bigint[] = [1n];
    for (let i = 1; i <= n; i++) factorial.push((factorial[i - 1] as bigint) * BigInt(i));
    // powers[i][c] = p_i^c as numerator and denominator, so each term costs k multiplications.
    const powers = probs.map((p) => {
      const nums: bigint[] = [1n];
      const dens: bigint[] = [1n];
      for (let c = 1; c <= n; c++) {
        nums.push((nums[c - 1] as bigint) * p.num);
        dens.push((dens[c - 1] as bigint) * p.den);
      }
      return { nums, dens };
    });
    const items: Weighted<readonly number[]>[] = [];
    const counts = new Array<number>(k).fill(0);
    const visit = (i: number, left: number): void => {
      if (i === k - 1) {
        counts[i] = left;
        let num = factorial[n] as bigint;
        let den = 1n;
        counts.forEach((c, j) => {
          const pw = powers[j]!;
          num *= pw.nums[c] as bigint;
          den *= (factorial[c] as bigint) * (pw.dens[c] as bigint);
        });
        items.push({ outcome: counts.slice(), probability: Rational.of(num, den) });
        return;
      }
      for (let c = 0; c <= left; c++) {
        counts[i] = c;
        visit(i + 1, left - c);
      }
    };
    if (k > 0) visit(0, n);
    return Distribution.unchecked(items, (c) => c.join(','));
  }

  /**
   * Rerolls, once, every outcome for which `shouldReroll` holds; the second
   * result is final whatever it is (a die is rerolled at most once).
   */
  rerollOnce(shouldReroll: (outcome: T) => boolean): Distribution<T> {
    const pReroll = this.probability(shouldReroll);
    const kept = this.support
      .filter((e) => !shouldReroll(e.outcome))
      .map((e) => ({ outcome: e.outcome, probability: e.probability }));
    const rerolled = this.support.map((e) => ({ outcome: e.outcome, probability: e.probability.mul(pReroll) }));
    return Distribution.unchecked([...kept, ...rerolled], this.key);
  }

  /** Total probability; always exactly 1 for a distribution built by this class (kept as a self-check for tests). */
  totalProbability(): Rational {
    return sumRationals(this.support.map((e) => e.probability));
  }
}

/** Key for integer outcomes. */
export const numberKey: OutcomeKey<number> = (n) => String(n);
