/**
 * Calibration's softmax fit on its WebAssembly kernel gives the heads of the plain loops to the bit: a D6 check's file,
 * its hash and the reader it names depend on every bit of the fitted weights.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kernelModuleSource, SOFTMAX_FIT_KERNEL } from '../../scripts/wasm-kernel.js';
import { seededRandom } from '../../src/stats/random.js';
import { fitSoftmax, type SoftmaxFitOptions } from '../../src/vision/learned/softmaxFit.js';

/** The fit written out as plainly as possible: full batch, each sum left to right, Adam. */
function plainFit(xs: readonly Float32Array[], ys: readonly number[], k: number, options: SoftmaxFitOptions): { weights: number[]; bias: number[] } {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const count = Array.from({ length: k }, (_, c) => ys.filter((y) => y === c).length);
  const seen = count.filter((c) => c > 0).length;
  const weightOf = count.map((c) => (options.balance === true && c > 0 ? n / (seen * c) : 1));
  const w = new Array<number>(k * d).fill(0);
  const b = new Array<number>(k).fill(0);
  const [m1w, m2w, m1b, m2b] = [new Array<number>(k * d).fill(0), new Array<number>(k * d).fill(0), new Array<number>(k).fill(0), new Array<number>(k).fill(0)];
  const adam = (p: number[], g: number[], a: number[], v: number[], c1: number, c2: number): void => {
    for (let q = 0; q < p.length; q++) {
      a[q] = 0.9 * (a[q] as number) + 0.1 * (g[q] as number);
      v[q] = 0.999 * (v[q] as number) + 0.001 * (g[q] as number) ** 2;
      p[q] = (p[q] as number) - (options.learningRate * ((a[q] as number) / c1)) / (Math.sqrt((v[q] as number) / c2) + 1e-8);
    }
  };
  for (let it = 1; it <= options.iterations; it++) {
    const gw = new Array<number>(k * d).fill(0);
    const gb = new Array<number>(k).fill(0);
    xs.forEach((x, i) => {
      const z = Array.from({ length: k }, (_, j) => {
        let s = b[j] as number;
        for (let c = 0; c < d; c++) s += (w[j * d + c] as number) * (x[c] as number);
        return s;
      });
      const max = Math.max(...z);
      const e = z.map((v) => Math.exp(v - max));
      const sum = e.reduce((s, v) => s + v, 0);
      const y = ys[i] as number;
      for (let j = 0; j < k; j++) {
        const g = ((weightOf[y] as number) * ((e[j] as number) / sum - (j === y ? 1 : 0))) / n;
        gb[j] = (gb[j] as number) + g;
        for (let c = 0; c < d; c++) gw[j * d + c] = (gw[j * d + c] as number) + g * (x[c] as number);
      }
    });
    for (let q = 0; q < w.length; q++) gw[q] = (gw[q] as number) + options.l2 * (w[q] as number);
    adam(w, gw, m1w, m2w, 1 - 0.9 ** it, 1 - 0.999 ** it);
    adam(b, gb, m1b, m2b, 1 - 0.9 ** it, 1 - 0.999 ** it);
  }
  return { weights: w, bias: b };
}

/** Seeded samples: `n` embeddings of `d` numbers (unit length, as the networks' are), classes shifted apart, a class left out if asked. */
function samples(seed: number, n: number, d: number, k: number, missing?: number): { xs: Float32Array[]; ys: number[] } {
  const random = seededRandom(seed);
  const ys = Array.from({ length: n }, (_, i) => (i % k === missing ? (i + 1) % k : Math.floor(random() * k)));
  const xs = ys.map((y) => {
    const x = Float32Array.from({ length: d }, (_, c) => random() - 0.5 + (c % k === y ? 0.8 : 0));
    const norm = Math.hypot(...x);
    return x.map((v) => v / norm);
  });
  return { xs, ys };
}

describe('the softmax fit on its kernel', () => {
  it('is the compiled softmaxFit.wat', async () => {
    expect(await kernelModuleSource(SOFTMAX_FIT_KERNEL)).toBe(readFileSync(SOFTMAX_FIT_KERNEL.ts, 'utf8'));
  });

  it('fits the weights and biases of the plain loops to the bit, for any count of samples, numbers and classes', () => {
    // Samples not a multiple of four, classes not a multiple of three, odd embeddings: the kernel's padding and tails.
    const cases = [
      { seed: 1, n: 213, d: 96, k: 6, balance: true },
      { seed: 2, n: 37, d: 17, k: 4, balance: false },
      { seed: 3, n: 50, d: 8, k: 2, balance: true, missing: 1 },
      { seed: 4, n: 1, d: 5, k: 7, balance: true },
      { seed: 5, n: 66, d: 33, k: 3, balance: true },
    ];
    for (const { seed, n, d, k, balance, missing } of cases) {
      const { xs, ys } = samples(seed, n, d, k, missing);
      const options = { iterations: 40, learningRate: 0.05, l2: 1e-3, balance };
      const fit = fitSoftmax(xs, ys, k, options);
      const plain = plainFit(xs, ys, k, options);
      expect(fit.weights.length).toBe(k * d);
      // toEqual tells 0 from -0 and compares every bit of each number.
      expect(fit).toEqual(plain);
    }
  });

  it('fits nothing from no samples: zero weights and biases', () => {
    expect(fitSoftmax([], [], 3, { iterations: 5, learningRate: 0.1, l2: 0 })).toEqual({ weights: [], bias: [0, 0, 0] });
  });
});
