/**
 * Softmax regression (multinomial logistic) fitted full batch with Adam: the last layer calibration learns on the
 * shipped networks' embeddings of the user's dice (an X-Wing profile's head, a D6 check's learned faces). What
 * `calibrate` waits on: a D6 check fits six heads of 500 steps on ~850 samples of 96 numbers.
 *
 * The step's two sums (every sample's logits, the weights' gradient) run on a WebAssembly SIMD kernel
 * (softmaxFit.wat), each number summed in the order of the plain loops, so the heads are the same to the bit as
 * theirs (test/vision/softmaxFit.test.ts): the softmax (Math.exp), the bias gradient and the Adam steps stay here.
 * One fit of a D6 check (852 samples of 96 numbers, 6 faces, 500 steps): 1.07 s of CPU in the JavaScript loops, 0.2 s
 * on the kernel; a check makes six.
 */
import { wasmKernel } from '../../core/wasmKernel.js';
import { softmaxFitWasmBase64 } from './softmaxFitWasm.js';

export interface SoftmaxFitOptions {
  readonly iterations: number;
  readonly learningRate: number;
  /** L2 penalty on the weights. */
  readonly l2: number;
  /** Weigh each class's samples so every class counts as much in the fit (a rare face is not pulled towards a common one). */
  readonly balance?: boolean;
}

interface Kernel {
  readonly logits: (xq: number, quads: number, d: number, w: number, b: number, k: number, z: number) => void;
  readonly grad: (xr: number, pairs: number, d: number, g: number, k: number, gw: number) => void;
}

const fitKernel = wasmKernel<Kernel>(softmaxFitWasmBase64);

/** Fits softmax-regression weights (row-major, one row of the embedding's length a class) and biases on embeddings `xs` of classes `ys`. */
export function fitSoftmax(xs: readonly Float32Array[], ys: readonly number[], classes: number, options: SoftmaxFitOptions): { weights: number[]; bias: number[] } {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const k = classes;
  // Balanced: a sample of class c weighs n / (classes seen * n_c), so each class's samples weigh n / (classes seen) in all.
  const count = new Array<number>(classes).fill(0);
  for (const y of ys) count[y] = (count[y] as number) + 1;
  const seen = count.filter((c) => c > 0).length;
  const weightOf = count.map((c) => (options.balance === true && c > 0 ? n / (seen * c) : 1));

  // The kernel takes samples four at a time and classes three at a time: the padding samples are zeros with zero
  // gradient factors (adding their +0 products leaves every sum as it was), the padding classes zero rows never stepped.
  const n4 = Math.ceil(n / 4) * 4;
  const k3 = Math.max(3, Math.ceil(k / 3) * 3);
  // Float offsets in the kernel's memory: the samples interleaved four by four (logits), the samples row after row
  // (gradient), weights, biases, logits, gradient factors, weights' gradient.
  const xq = 0;
  const xr = xq + n4 * d;
  const wAt = xr + n4 * d;
  const bAt = wAt + k3 * d;
  const zAt = bAt + k3;
  const gAt = zAt + n4 * k3;
  const gwAt = gAt + n4 * k3;
  const { kernel, buffer } = fitKernel((gwAt + k3 * d) * 8);
  const mem = new Float64Array(buffer);
  xs.forEach((row, i) => {
    mem.set(row, xr + i * d);
    const at = xq + (i >> 2) * 4 * d + (i & 3);
    for (let c = 0; c < d; c++) mem[at + 4 * c] = row[c] as number;
  });
  const w = mem.subarray(wAt, wAt + k * d);
  const b = mem.subarray(bAt, bAt + k);
  const z = mem.subarray(zAt, zAt + n4 * k3);
  const g = mem.subarray(gAt, gAt + n4 * k3);
  const gwAll = mem.subarray(gwAt, gwAt + k3 * d);
  const gw = gwAll.subarray(0, k * d);
  const gb = new Float64Array(k);
  const [m1w, m2w] = [new Float64Array(w.length), new Float64Array(w.length)];
  const [m1b, m2b] = [new Float64Array(k), new Float64Array(k)];
  const e = new Float64Array(k);
  for (let it = 1; it <= options.iterations; it++) {
    gwAll.fill(0);
    gb.fill(0);
    kernel.logits(xq * 8, n4 / 4, d, wAt * 8, bAt * 8, k3, zAt * 8);
    for (let i = 0; i < n; i++) {
      const o = i * k3;
      let max = Number.NEGATIVE_INFINITY;
      for (let q = 0; q < k; q++) if ((z[o + q] as number) > max) max = z[o + q] as number;
      let sum = 0;
      for (let q = 0; q < k; q++) {
        e[q] = Math.exp((z[o + q] as number) - max);
        sum += e[q] as number;
      }
      const y = ys[i] as number;
      const weight = weightOf[y] as number;
      for (let q = 0; q < k; q++) {
        const f = (weight * ((e[q] as number) / sum - (q === y ? 1 : 0))) / n;
        g[o + q] = f;
        gb[q] = (gb[q] as number) + f;
      }
    }
    kernel.grad(xr * 8, n4 / 2, d, gAt * 8, k3, gwAt * 8);
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
