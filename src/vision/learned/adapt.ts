/**
 * Adapting the learned reader to the user's own dice at calibration: the
 * shipped network stays as it is; a new last layer (multinomial logistic
 * regression) is fitted on its embeddings of the user's labelled dice, each
 * seen in its 8 turns/mirrors and a few shifted and scaled cuts (augmentation).
 * Whole images are held back (dice in one image share its light); the
 * rejection threshold is set on them: above the most confident flat die read
 * as a wrong face (a flat die the head calls cocked is declined at any
 * confidence; a cocked die read as a face is the cocked checks' to catch).
 * Seeded and pure: the same samples give the same head.
 */
import type { RandomSource } from '../../stats/random.js';
import { seededRandom, shuffled } from '../../stats/random.js';
import type { DieCrop } from '../faceRead.js';
import type { LearnedHead } from './model.js';
import { COCKED_LABEL, isFlatFaceMisread } from '../labelledEval.js';
import { headProbabilities } from './reader.js';
import type { LearnedReader } from './reader.js';

export interface AdaptSample {
  readonly crop: DieCrop;
  readonly label: string;
  /** Image the die is in (held back image by image). */
  readonly group: string;
}

export interface AdaptOptions {
  /** Fraction of images held back to set the threshold. */
  readonly holdBack: number;
  /** Turns/mirrors of each fitted sample (1..8). */
  readonly turns: number;
  readonly iterations: number;
  readonly learningRate: number;
  /** L2 penalty on the weights. */
  readonly l2: number;
  /** Weigh each class's dice so every class counts as much in the fit (a rare face is not pulled towards a common one). */
  readonly balance: boolean;
  /** Threshold = most confident held-back flat die read as a wrong face + margin, at least `floor`, at most `ceiling`. */
  readonly margin: number;
  readonly floor: number;
  readonly ceiling: number;
  readonly seed: number;
  readonly version: string;
}

// l2 1e-2 chosen on the tune renders' held-back images (1e-3: 86 of 153 read at a 0.995 threshold; 1e-2: 132 of 153, none wrong, threshold 0.907).
export const defaultAdaptOptions: AdaptOptions = { holdBack: 0.25, turns: 8, iterations: 300, learningRate: 0.05, l2: 1e-2, balance: true, margin: 0.02, floor: 0.6, ceiling: 0.995, seed: 3, version: 'head/3' };

export interface HeldBackScore {
  readonly total: number;
  readonly read: number;
  readonly correct: number;
  /** Highest probability of a wrong face read of a held-back flat die (0 when none; a flat die called cocked is declined, not wrong). */
  readonly worstWrong: number;
}

export interface AdaptResult {
  readonly head: LearnedHead;
  readonly heldBack: HeldBackScore;
  readonly fitted: number;
}

/** Seeded split of the images: the last `fraction` of a shuffled list are held back. */
export function splitGroups(groups: readonly string[], fraction: number, random: RandomSource): { fit: Set<string>; held: Set<string> } {
  const names = shuffled([...new Set(groups)].sort(), random);
  const nHeld = names.length > 1 ? Math.max(1, Math.round(names.length * fraction)) : 0;
  return { fit: new Set(names.slice(0, names.length - nHeld)), held: new Set(names.slice(names.length - nHeld)) };
}

/**
 * Fits softmax-regression weights on embeddings (full batch, Adam).
 * Calibration's wait: each number is summed in the same order as the plain loops (a row's logit over the embedding,
 * a weight's gradient over the samples), so the fit is the same to the bit; but three classes' sums run side by side
 * (one addition no longer waits on the one before), on the samples copied once into one Float64Array. A D6 check's
 * six fits (852 samples of 96 numbers, 6 faces, 500 steps) took 9.3 s of CPU, now 4.7 s.
 */
export function fitSoftmax(xs: readonly Float32Array[], ys: readonly number[], classes: number, options: Pick<AdaptOptions, 'iterations' | 'learningRate' | 'l2'> & Partial<Pick<AdaptOptions, 'balance'>>): { weights: number[]; bias: number[] } {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const k = classes;
  // Balanced: a sample of class c weighs n / (classes seen * n_c), so each class's samples weigh n / (classes seen) in all.
  const count = new Array<number>(classes).fill(0);
  for (const y of ys) count[y] = (count[y] as number) + 1;
  const seen = count.filter((c) => c > 0).length;
  const weightOf = count.map((c) => (options.balance === true && c > 0 ? n / (seen * c) : 1));
  const x = new Float64Array(n * d);
  xs.forEach((row, i) => x.set(row, i * d));
  // Row-major: class j's weights are w[j * d .. j * d + d).
  const w = new Float64Array(k * d);
  const b = new Float64Array(k);
  const [m1w, m2w, gw] = [new Float64Array(w.length), new Float64Array(w.length), new Float64Array(w.length)];
  const [m1b, m2b, gb] = [new Float64Array(k), new Float64Array(k), new Float64Array(k)];
  const z = new Float64Array(k);
  const g = new Float64Array(k);
  for (let it = 1; it <= options.iterations; it++) {
    gw.fill(0);
    gb.fill(0);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let j = 0;
      for (; j + 2 < k; j += 3) {
        let s0 = b[j] as number;
        let s1 = b[j + 1] as number;
        let s2 = b[j + 2] as number;
        for (let c = 0, r = j * d; c < d; c++, r++) {
          const xc = x[o + c] as number;
          s0 += (w[r] as number) * xc;
          s1 += (w[r + d] as number) * xc;
          s2 += (w[r + 2 * d] as number) * xc;
        }
        z[j] = s0;
        z[j + 1] = s1;
        z[j + 2] = s2;
      }
      for (; j < k; j++) {
        let s0 = b[j] as number;
        for (let c = 0, r = j * d; c < d; c++, r++) s0 += (w[r] as number) * (x[o + c] as number);
        z[j] = s0;
      }
      let max = Number.NEGATIVE_INFINITY;
      for (let q = 0; q < k; q++) if ((z[q] as number) > max) max = z[q] as number;
      let sum = 0;
      for (let q = 0; q < k; q++) {
        z[q] = Math.exp((z[q] as number) - max);
        sum += z[q] as number;
      }
      const y = ys[i] as number;
      const weight = weightOf[y] as number;
      for (let q = 0; q < k; q++) {
        g[q] = (weight * ((z[q] as number) / sum - (q === y ? 1 : 0))) / n;
        gb[q] = (gb[q] as number) + (g[q] as number);
      }
      j = 0;
      for (; j + 2 < k; j += 3) {
        const g0 = g[j] as number;
        const g1 = g[j + 1] as number;
        const g2 = g[j + 2] as number;
        for (let c = 0, r = j * d; c < d; c++, r++) {
          const xc = x[o + c] as number;
          gw[r] = (gw[r] as number) + g0 * xc;
          gw[r + d] = (gw[r + d] as number) + g1 * xc;
          gw[r + 2 * d] = (gw[r + 2 * d] as number) + g2 * xc;
        }
      }
      for (; j < k; j++) {
        const g0 = g[j] as number;
        for (let c = 0, r = j * d; c < d; c++, r++) gw[r] = (gw[r] as number) + g0 * (x[o + c] as number);
      }
    }
    for (let q = 0; q < w.length; q++) gw[q] = (gw[q] as number) + options.l2 * (w[q] as number);
    const correct1 = 1 - 0.9 ** it;
    const correct2 = 1 - 0.999 ** it;
    adamStep(w, gw, m1w, m2w, options.learningRate, correct1, correct2);
    adamStep(b, gb, m1b, m2b, options.learningRate, correct1, correct2);
  }
  return { weights: [...w], bias: [...b] };
}

/** One Adam step of parameters `p` on gradient `g`, moments `a` and `v`, bias corrections `correct1` and `correct2`. */
function adamStep(p: Float64Array, g: Float64Array, a: Float64Array, v: Float64Array, learningRate: number, correct1: number, correct2: number): void {
  for (let q = 0; q < p.length; q++) {
    a[q] = 0.9 * (a[q] as number) + 0.1 * (g[q] as number);
    v[q] = 0.999 * (v[q] as number) + 0.001 * (g[q] as number) ** 2;
    p[q] = (p[q] as number) - (learningRate * ((a[q] as number) / correct1)) / (Math.sqrt((v[q] as number) / correct2) + 1e-8);
  }
}

/** Fits a calibration head for `reader`'s network on labelled samples and sets its threshold on held-back images. */
export function adaptReader(reader: LearnedReader, samples: readonly AdaptSample[], options: AdaptOptions = defaultAdaptOptions): AdaptResult {
  const random = seededRandom(options.seed);
  const classes = [...new Set(samples.map((s) => s.label))].sort();
  const { held } = splitGroups(
    samples.map((s) => s.group),
    options.holdBack,
    random,
  );
  const xs: Float32Array[] = [];
  const ys: number[] = [];
  const turns = Math.max(1, Math.min(reader.maxViews, Math.floor(options.turns)));
  for (const s of samples) {
    if (held.has(s.group)) continue;
    for (const x of reader.inputs(s.crop, turns)) {
      xs.push(reader.embedInput(x));
      ys.push(classes.indexOf(s.label));
    }
  }
  const fit = fitSoftmax(xs, ys, classes.length, options);
  const draft = { version: options.version, classes, ...fit, minProbability: 0 };
  let worstWrong = 0;
  const heldOut = samples.filter((s) => held.has(s.group));
  const views = reader.viewCount;
  const confidences: { p: number; right: boolean; cocked: boolean }[] = [];
  for (const s of heldOut) {
    const mean = new Float32Array(classes.length);
    for (const x of reader.inputs(s.crop, views)) {
      const p = headProbabilities(draft, reader.embedInput(x));
      for (let j = 0; j < mean.length; j++) mean[j] = (mean[j] as number) + (p[j] as number) / views;
    }
    let best = 0;
    for (let j = 1; j < mean.length; j++) if ((mean[j] as number) > (mean[best] as number)) best = j;
    const named = classes[best] as string;
    const right = named === s.label;
    // Only a flat die read as a wrong face sets the threshold (head/3), as in fine-tuning. Calling a flat die cocked
    // declines it whatever the threshold (on one foreign artwork a green focus called cocked at 0.97 had lifted it to
    // 0.99); a cocked die read as a face is the cocked checks' to catch (on foreign-1 one at 0.83 had lifted it to 0.85).
    const cocked = named === COCKED_LABEL;
    if (isFlatFaceMisread(s.label, named)) worstWrong = Math.max(worstWrong, mean[best] as number);
    confidences.push({ p: mean[best] as number, right, cocked });
  }
  const minProbability = Math.min(options.ceiling, Math.max(options.floor, worstWrong + options.margin));
  const read = confidences.filter((c) => !c.cocked && c.p >= minProbability);
  return {
    head: { ...draft, minProbability },
    heldBack: { total: heldOut.length, read: read.length, correct: read.filter((c) => c.right).length, worstWrong },
    fitted: xs.length / turns,
  };
}
