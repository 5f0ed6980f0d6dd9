/**
 * The icon classifier: a Gaussian nearest-class-mean model on the ring-harmonic
 * features, learned from calibration samples. Features are standardised by the
 * pooled within-class spread; each class is its mean. A read's posterior comes
 * from the squared distances (softmax of -d²/2T, T fitted on held-back samples
 * and never below 1, so fitting can only make the model less sure of itself),
 * and a die far from every class mean is "unlike anything calibrated" whatever
 * its posterior says.
 *
 * Chosen over a softmax regression and 1-nearest-neighbour, measured on the
 * simulated camera (trained on four lighting presets, tested on the held-out
 * one): all three made no error, but the class-mean model trains in closed form
 * (deterministic, no learning rate), stores one vector per class, and gives the
 * distance that rejects what it was never shown.
 */

export interface IconSample {
  readonly features: ArrayLike<number>;
  readonly label: string;
}

export interface IconModel {
  readonly classes: readonly string[];
  /** Per-feature mean and spread used to standardise. */
  readonly center: readonly number[];
  readonly scale: readonly number[];
  /** Class means in standardised units, aligned with `classes`. */
  readonly centroids: readonly (readonly number[])[];
  /** Softmax temperature on -d²/2 (>= 1). */
  readonly temperature: number;
  /** Largest accepted mean squared standardised distance (per feature) to the nearest class mean. */
  readonly noveltyLimit: number;
}

export interface IconScore {
  /** Index of the most likely class. */
  readonly best: number;
  readonly label: string;
  /** Posterior per class, aligned with `classes`. */
  readonly posterior: readonly number[];
  /** Mean squared standardised distance to the best class mean. */
  readonly distance: number;
  /** Whether the die is farther from every class than anything calibrated. */
  readonly novel: boolean;
}

export interface IconTrainOptions {
  /** Classes whose spread is not pooled into the standardisation (their samples vary by nature, e.g. `cocked`). */
  readonly unpooled?: readonly string[];
  /** Spread floor as a fraction of the median feature spread (keeps near-constant features from amplifying noise). */
  readonly scaleFloor?: number;
  /** Novelty limit as a multiple of the largest training distance to its own class (and at least `minNovelty`). */
  readonly noveltyMargin?: number;
  readonly minNovelty?: number;
}

function compareSamples(a: IconSample, b: IconSample): number {
  if (a.label !== b.label) return a.label < b.label ? -1 : 1;
  for (let j = 0; j < a.features.length; j++) {
    const d = (a.features[j] as number) - (b.features[j] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** Trains the class-mean model. The result does not depend on the order of the samples. */
export function trainIconModel(samples: readonly IconSample[], options: IconTrainOptions = {}): IconModel {
  if (samples.length === 0) throw new RangeError('Cannot train an icon model from no samples.');
  // A canonical order: floating-point sums depend on order, and the profile's hash must not.
  samples = [...samples].sort(compareSamples);
  const dim = samples[0]!.features.length;
  const classes = [...new Set(samples.map((s) => s.label))].sort();
  const unpooled = new Set(options.unpooled ?? []);
  const byClass = classes.map((c) => samples.filter((s) => s.label === c));
  const rawMeans = byClass.map((group) => {
    const m = new Array<number>(dim).fill(0);
    for (const s of group) for (let j = 0; j < dim; j++) m[j]! += s.features[j] as number;
    return m.map((v) => v / group.length);
  });
  const center = new Array<number>(dim).fill(0);
  for (const s of samples) for (let j = 0; j < dim; j++) center[j]! += (s.features[j] as number) / samples.length;
  const variance = new Array<number>(dim).fill(0);
  let pooledCount = 0;
  byClass.forEach((group, k) => {
    if (unpooled.has(classes[k] as string)) return;
    const m = rawMeans[k] as number[];
    for (const s of group) for (let j = 0; j < dim; j++) variance[j]! += ((s.features[j] as number) - (m[j] as number)) ** 2;
    pooledCount += group.length;
  });
  const spread = variance.map((v) => Math.sqrt(v / Math.max(1, pooledCount - classes.length)));
  const sorted = [...spread].sort((a, b) => a - b);
  const floor = Math.max(1e-4, (sorted[sorted.length >> 1] as number) * (options.scaleFloor ?? 0.25));
  const scale = spread.map((s) => Math.max(s, floor));
  const centroids = rawMeans.map((m) => m.map((v, j) => (v - (center[j] as number)) / (scale[j] as number)));
  const base: IconModel = { classes, center, scale, centroids, temperature: 1, noveltyLimit: Number.POSITIVE_INFINITY };
  // Novelty: beyond the farthest any pooled training sample lies from its own class, with room to spare.
  let worst = 0;
  samples.forEach((s) => {
    if (unpooled.has(s.label)) return;
    const k = classes.indexOf(s.label);
    worst = Math.max(worst, squaredDistance(base, s.features, k) / dim);
  });
  const noveltyLimit = Math.max(options.minNovelty ?? 4, worst * (options.noveltyMargin ?? 2));
  return { ...base, noveltyLimit };
}

/** Squared standardised distance from `features` to class `k`'s mean. */
function squaredDistance(model: IconModel, features: ArrayLike<number>, k: number): number {
  const c = model.centroids[k] as readonly number[];
  let d = 0;
  for (let j = 0; j < c.length; j++) {
    const z = ((features[j] as number) - (model.center[j] as number)) / (model.scale[j] as number) - (c[j] as number);
    d += z * z;
  }
  return d;
}

/** Squared standardised distances to every class mean, aligned with `classes`. */
export function classDistances(model: IconModel, features: ArrayLike<number>): number[] {
  return model.classes.map((_, k) => squaredDistance(model, features, k));
}

/** Posterior per class from squared distances at temperature `t`. */
export function posteriorOf(d2: readonly number[], t: number): number[] {
  const min = Math.min(...d2);
  const w = d2.map((d) => Math.exp(-(d - min) / (2 * t)));
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((v) => v / sum);
}

/** Scores one feature vector. */
export function scoreIcon(model: IconModel, features: ArrayLike<number>, temperature = model.temperature): IconScore {
  const d2 = classDistances(model, features);
  let best = 0;
  for (let k = 1; k < d2.length; k++) if ((d2[k] as number) < (d2[best] as number)) best = k;
  const distance = (d2[best] as number) / model.center.length;
  return { best, label: model.classes[best] as string, posterior: posteriorOf(d2, temperature), distance, novel: distance > model.noveltyLimit };
}

/** A scored sample for fitting the temperature: squared distances to each class and the true class's index. */
export interface ScoredSample {
  readonly d2: readonly number[];
  readonly truth: number;
}

/**
 * The temperature (>= 1) minimising the negative log-likelihood of the true
 * classes of samples the model did not learn from (held-out folds).
 */
export function fitTemperature(samples: readonly ScoredSample[]): number {
  if (samples.length === 0) return 1;
  const nll = (t: number): number => samples.reduce((acc, s) => acc - Math.log(Math.max(1e-300, posteriorOf(s.d2, t)[s.truth] as number)), 0);
  // Golden-section search on log T over [0, ln 1000]: the likelihood is unimodal in T for fixed distances.
  let a = 0;
  let b = Math.log(1000);
  const phi = (Math.sqrt(5) - 1) / 2;
  let c = b - phi * (b - a);
  let d = a + phi * (b - a);
  let fc = nll(Math.exp(c));
  let fd = nll(Math.exp(d));
  for (let i = 0; i < 60; i++) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - phi * (b - a);
      fc = nll(Math.exp(c));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + phi * (b - a);
      fd = nll(Math.exp(d));
    }
  }
  const t = Math.exp((a + b) / 2);
  // Perfectly separated samples keep improving towards T -> 0: never sharpen past the model's own T = 1.
  return nll(1) <= nll(t) ? 1 : t;
}
