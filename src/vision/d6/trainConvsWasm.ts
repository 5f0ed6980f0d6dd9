/**
 * TinyNet's training convolutions (the forward sums, the weights' and the input's gradients) on the WebAssembly SIMD
 * kernel (tinyNetConv.wat's trainConv, weightSums and inputScatter): each number summed in double in the order of
 * the plain loops of convKernels.ts and rounded to float32 where they round it, so training fits the same weights to
 * the bit (test/vision/trainConvsWasm.test.ts); they are only faster (a D6 network's layers, per sample: forward
 * ~9.5 -> 2.6 ms, gradients ~12 -> 5 ms of CPU). The biases' gradient (one short sum a channel) stays in
 * convKernels.ts. One memory per network, sized for its largest layer, holds the input, its tap rows, the weights,
 * the outputs and the gradients of the layer at hand; it never grows, so the views of it stay valid.
 */
import { wasmKernel } from '../../core/wasmKernel.js';
import { biasGradients, type ConvLayer } from './convKernels.js';
import { tinyNetConvWasmBase64 } from './tinyNetConvWasm.js';

interface Kernel {
  readonly unroll: (x: number, xstride: number, cin: number, n: number, taps: number, stride: number) => void;
  readonly trainConv: (p: number, k9: number, stride: number, w: number, b: number, cout: number, out: number) => void;
  readonly weightSums: (p: number, k4: number, stride: number, plane: number, g: number, cout4: number, acc: number) => void;
  readonly inputScatter: (gy: number, n: number, cin: number, cout: number, w: number, gp: number) => void;
}

const convKernel = wasmKernel<Kernel>(tinyNetConvWasmBase64);

/** Rounds up to a multiple of `m` (a power of two). */
const roundUp = (v: number, m: number): number => (v + m - 1) & -m;

/** A layer's sizes as the kernel takes them: pixels per tap row (n x n padded to 4), tap rows and channels padded to 4. */
function padded(l: ConvLayer): { plane: number; stride: number; k9: number; k4: number; cout4: number } {
  const plane = l.n * l.n;
  const k9 = l.cin * 9;
  return { plane, stride: roundUp(plane, 4), k9, k4: roundUp(k9, 4), cout4: roundUp(l.cout, 4) };
}

/** The training convolutions of one network's layers, in one WebAssembly memory. */
export class WasmTrainingConvs {
  private readonly kernel: Kernel;
  private readonly f32: Float32Array;
  private readonly f64: Float64Array;
  /** Float offsets (32-byte aligned) of the input, tap rows, weights, biases, outputs (or the output gradients), output gradients (pixel-major) and the weights' sums (doubles)... */
  private readonly x: number;
  private readonly taps: number;
  private readonly w: number;
  private readonly b: number;
  private readonly out: number;
  private readonly g: number;
  private readonly acc: number;
  /** ... and of the input's gradient, in planes with a ring of padding. */
  private readonly gp: number;

  constructor(layers: readonly ConvLayer[]) {
    let x = 0;
    let taps = 0;
    let w = 0;
    let b = 0;
    let out = 0;
    let g = 0;
    let acc = 0;
    let gp = 0;
    for (const l of layers) {
      const { plane, stride, k9, k4, cout4 } = padded(l);
      x = Math.max(x, l.cin * plane);
      taps = Math.max(taps, k4 * stride);
      w = Math.max(w, cout4 * k9);
      b = Math.max(b, cout4);
      out = Math.max(out, cout4 * stride);
      g = Math.max(g, plane * cout4);
      acc = Math.max(acc, cout4 * k4);
      gp = Math.max(gp, l.cin * (l.n + 2) * (l.n + 2) + 4);
    }
    this.x = 0;
    this.taps = roundUp(this.x + x, 8);
    this.w = roundUp(this.taps + taps, 8);
    this.b = roundUp(this.w + w, 8);
    this.out = roundUp(this.b + b, 8);
    this.g = roundUp(this.out + out, 8);
    this.acc = roundUp(this.g + g, 8);
    this.gp = roundUp(this.acc + 2 * acc, 8);
    const { kernel, buffer } = convKernel((this.gp + gp) * 4);
    this.kernel = kernel;
    this.f32 = new Float32Array(buffer);
    this.f64 = new Float64Array(buffer);
  }

  /** Copies `x` (the layer's cin planes n x n) in and unrolls it into tap rows. */
  private unroll(l: ConvLayer, x: Float32Array, stride: number): void {
    const plane = l.n * l.n;
    if (x.length !== l.cin * plane) throw new RangeError(`The input holds ${x.length} numbers but this layer reads ${l.cin} planes of ${l.n} x ${l.n}.`);
    this.f32.set(x, this.x);
    this.kernel.unroll(this.x * 4, plane, l.cin, l.n, this.taps * 4, stride);
  }

  /** Convolution with padding 1 of `x` into `y` (cout planes n x n), bias included, no ReLU: convForward's sums. */
  forward(l: ConvLayer, x: Float32Array, y: Float32Array): void {
    const { plane, stride, k9, cout4 } = padded(l);
    this.unroll(l, x, stride);
    // The padding channels' weights are zeros (their outputs are dropped; zeros keep them plain numbers).
    this.f32.set(l.w, this.w);
    this.f32.fill(0, this.w + l.w.length, this.w + cout4 * k9);
    this.f32.set(l.b, this.b);
    this.f32.fill(0, this.b + l.cout, this.b + cout4);
    this.kernel.trainConv(this.taps * 4, k9, stride, this.w * 4, this.b * 4, cout4, this.out * 4);
    if (stride === plane) y.set(this.f32.subarray(this.out, this.out + l.cout * plane));
    else for (let co = 0; co < l.cout; co++) y.set(this.f32.subarray(this.out + co * stride, this.out + co * stride + plane), co * plane);
  }

  /** Gradients of the convolution, as convBackward: accumulates into gw and gb and (when given) writes gx. */
  backward(l: ConvLayer, x: Float32Array, gy: Float32Array, gw: Float32Array, gb: Float32Array, gx: Float32Array | undefined): void {
    biasGradients(l, gy, gb);
    this.weightGradients(l, x, gy, gw);
    if (gx) this.inputGradients(l, gy, gx);
  }

  /** The input's gradient as convKernels.ts's inputGradients makes it (the same terms in the same order, rounded alike). */
  private inputGradients(l: ConvLayer, gy: Float32Array, gx: Float32Array): void {
    const { cin, cout, n } = l;
    const plane = n * n;
    const m = n + 2;
    const mm = m * m;
    const f32 = this.f32;
    f32.set(gy, this.out);
    f32.set(l.w, this.w);
    f32.fill(0, this.gp, this.gp + cin * mm + 4);
    this.kernel.inputScatter(this.out * 4, n, cin, cout, this.w * 4, this.gp * 4);
    for (let ci = 0; ci < cin; ci++) {
      for (let y = 0; y < n; y++) gx.set(f32.subarray(this.gp + ci * mm + (y + 1) * m + 1, this.gp + ci * mm + (y + 1) * m + 1 + n), ci * plane + y * n);
    }
  }

  /**
   * Each weight's gradient: the products of the output gradients and the unrolled input summed in double over the
   * output pixels in raster order, then added to gw (a padded tap's zero and a zero gradient add +-0, which leaves a
   * sum as it was: a sum of finite numbers is never -0 from a start at +0).
   */
  private weightGradients(l: ConvLayer, x: Float32Array, gy: Float32Array, gw: Float32Array): void {
    const { cout } = l;
    const { plane, stride, k9, k4, cout4 } = padded(l);
    this.unroll(l, x, stride);
    // The output gradients pixel after pixel, four channels to a load; the padding channels' are zero.
    const g = this.f32;
    const go = this.g;
    if (cout4 !== cout) g.fill(0, go, go + plane * cout4);
    for (let co = 0; co < cout; co++) {
      const yo = co * plane;
      for (let q = 0; q < plane; q++) g[go + q * cout4 + co] = gy[yo + q] as number;
    }
    this.kernel.weightSums(this.taps * 4, k4, stride, plane, go * 4, cout4, this.acc * 4);
    const acc = this.f64;
    const ao = this.acc / 2;
    for (let co = 0; co < cout; co++) {
      for (let k = 0; k < k9; k++) gw[co * k9 + k] = (gw[co * k9 + k] as number) + (acc[ao + co * k4 + k] as number);
    }
  }
}
