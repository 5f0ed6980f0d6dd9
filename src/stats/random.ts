/**
 * Seeded random sources. Everything random in dicerig (Monte Carlo p-values,
 * simulated rigs, property tests) takes a `RandomSource`, so a run is
 * reproducible from its seed and tests are deterministic.
 */
export type RandomSource = () => number;

/** sfc32, seeded through splitmix32: fast, 128-bit state, passes PractRand far beyond our needs. */
export function seededRandom(seed: number): RandomSource {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  // 53 random bits, so even tiny probabilities are sampled without lattice artefacts.
  return () => (next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53;
}

/** Draws an index from a discrete distribution given by its cumulative probabilities (last entry ~1). */
export function drawIndex(cumulative: readonly number[], random: RandomSource): number {
  const u = random();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (u < (cumulative[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Cumulative sums of `probabilities`, with the last entry forced to exactly 1. */
export function cumulativeOf(probabilities: readonly number[]): number[] {
  const out: number[] = [];
  let acc = 0;
  for (const p of probabilities) out.push((acc += p));
  if (out.length > 0) out[out.length - 1] = 1;
  return out;
}
