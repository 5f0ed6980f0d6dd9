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

/** A shuffled copy (Fisher-Yates from the last item down, one draw an item). */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A standard normal draw (Box-Muller, the cosine half: two uniforms per draw). */
export function drawNormal(random: RandomSource): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
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

/** ln c! for c = 0..n (a table for drawBinomial and the Monte Carlo tests). */
export function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let c = 1; c <= n; c++) table[c] = (table[c - 1] as number) + Math.log(c);
  return table;
}

/**
 * One Binomial(n, p) draw by inversion (`logFactorial[c]` = ln c! for c ≤ n), visiting the support in the order
 * mode, mode+1, mode−1, mode+2, … — any fixed order gives an exact draw, and
 * this one needs about one standard deviation of steps instead of n.
 */
export function drawBinomial(n: number, p: number, random: RandomSource, logFactorial: Float64Array): number {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const odds = p / (1 - p);
  const pmfMode = Math.exp(
    (logFactorial[n] as number) - (logFactorial[mode] as number) - (logFactorial[n - mode] as number) + mode * Math.log(p) + (n - mode) * Math.log1p(-p),
  );
  return walkFromMode(n, mode, odds, pmfMode, random);
}

/**
 * drawBinomial(·, p, ·, logFactorial) for many draws with the same p and n ≤ the table's: the same draws from the same
 * random numbers, the logarithms of p computed once and each n's probability at the mode once (a draw is then the walk).
 */
export function binomialDrawer(p: number, logFactorial: Float64Array): (n: number, random: RandomSource) => number {
  if (p <= 0) return () => 0;
  if (p >= 1) return (n) => n;
  const odds = p / (1 - p);
  const logP = Math.log(p);
  const log1mP = Math.log1p(-p);
  const pmfModes = new Float64Array(logFactorial.length).fill(NaN);
  return (n, random) => {
    const mode = Math.min(n, Math.floor((n + 1) * p));
    let pmfMode = pmfModes[n] as number;
    if (Number.isNaN(pmfMode)) {
      pmfModes[n] = pmfMode = Math.exp((logFactorial[n] as number) - (logFactorial[mode] as number) - (logFactorial[n - mode] as number) + mode * logP + (n - mode) * log1mP);
    }
    return walkFromMode(n, mode, odds, pmfMode, random);
  };
}

/** The inversion of drawBinomial from the mode outwards, given the mode's probability. */
function walkFromMode(n: number, mode: number, odds: number, pmfMode: number, random: RandomSource): number {
  let u = random() - pmfMode;
  if (u < 0) return mode;
  let up = mode;
  let down = mode;
  let pmfUp = pmfMode;
  let pmfDown = pmfMode;
  while (up < n || down > 0) {
    if (up < n) {
      pmfUp *= ((n - up) / (up + 1)) * odds;
      up++;
      u -= pmfUp;
      if (u < 0) return up;
    }
    if (down > 0) {
      pmfDown *= down / (n - down + 1) / odds;
      down--;
      u -= pmfDown;
      if (u < 0) return down;
    }
  }
  return mode; // only reachable through rounding of the last ~1e-15 of mass
}

/** Counts per face of `n` rolls with the given odds (conditional binomials: O(k·√n), not O(n)). */
export function drawMultinomial(n: number, probabilities: readonly number[], random: RandomSource): number[] {
  const table = logFactorials(n);
  const counts: number[] = [];
  let left = n;
  let mass = 1;
  probabilities.forEach((p, i) => {
    const c = i === probabilities.length - 1 ? left : drawBinomial(left, mass > 0 ? Math.min(1, p / mass) : 1, random, table);
    counts.push(c);
    left -= c;
    mass -= p;
  });
  return counts;
}
