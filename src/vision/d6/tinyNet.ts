/**
 * A tiny convolutional network in plain TypeScript (no dependencies): 3x3
 * convolutions with ReLU, 2x2 max pooling, global average pooling and one dense
 * layer to class scores. Small enough to train on a few thousand crops on one
 * core and to run in well under a millisecond. Training is seeded (He
 * initialisation, Adam), so the same samples give the same weights.
 */
import type { RandomSource } from '../../stats/random.js';
import { drawNormal } from '../../stats/random.js';
import type { ConvLayer } from './convKernels.js';
import { WasmTrainingConvs } from './trainConvsWasm.js';
import { WasmConvs } from './tinyNetWasm.js';

/** One 3x3 convolution (padding 1) followed by ReLU, optionally by 2x2 max pooling. */
export interface ConvSpec {
  readonly out: number;
  readonly pool: boolean;
}

export interface NetSpec {
  /** Input channels and side (square). */
  readonly channels: number;
  readonly size: number;
  readonly convs: readonly ConvSpec[];
  readonly classes: number;
}

/** Per-sample activations kept for the backward pass. */
interface Trace {
  /** Input of each conv layer, its ReLU output, and (when pooled) the pooled output with argmax. */
  readonly inputs: Float32Array[];
  readonly relus: Float32Array[];
  readonly argmax: (Int32Array | undefined)[];
  readonly pooled: Float32Array;
  readonly probs: Float32Array;
}

/** The network: weights, inference and seeded training. */
export class TinyNet {
  readonly spec: NetSpec;
  private readonly layers: ConvLayer[];
  /** Dense layer: [classes][lastChannels] weights, then [classes] biases. */
  private readonly dw: Float32Array;
  private readonly db: Float32Array;
  /** Inference's convolutions, made on first use, and whether they hold the current weights (they keep a copy). */
  private fast: WasmConvs | undefined;
  private fastLoaded = false;
  /** Training's convolutions (the plain loops' sums, on the WebAssembly kernel), made on first use. */
  private trainConvs: WasmTrainingConvs | undefined;

  constructor(spec: NetSpec, random?: RandomSource, weights?: Float32Array) {
    this.spec = spec;
    this.layers = [];
    let cin = spec.channels;
    let n = spec.size;
    for (const c of spec.convs) {
      this.layers.push({ cin, cout: c.out, n, pool: c.pool, w: new Float32Array(c.out * cin * 9), b: new Float32Array(c.out), patches: new Float32Array(n * n * cin * 9) });
      cin = c.out;
      if (c.pool) n = n >> 1;
    }
    this.dw = new Float32Array(spec.classes * cin);
    this.db = new Float32Array(spec.classes);
    if (weights) this.setWeights(weights);
    else if (random) this.initialise(random);
  }

  /** Every parameter array, in a fixed order (for saving, loading and the optimiser). */
  private params(): Float32Array[] {
    return [...this.layers.flatMap((l) => [l.w, l.b]), this.dw, this.db];
  }

  /** Number of parameters. */
  get size(): number {
    return this.params().reduce((s, p) => s + p.length, 0);
  }

  /** All parameters in one array. */
  weights(): Float32Array {
    const out = new Float32Array(this.size);
    let o = 0;
    for (const p of this.params()) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }

  setWeights(all: Float32Array): void {
    if (all.length !== this.size) throw new RangeError(`The weights hold ${all.length} numbers but this network has ${this.size} parameters.`);
    let o = 0;
    for (const p of this.params()) {
      p.set(all.subarray(o, o + p.length));
      o += p.length;
    }
    this.fastLoaded = false;
  }

  /** He initialisation from a seeded source (Box-Muller normals). */
  private initialise(random: RandomSource): void {
    const normal = (): number => drawNormal(random);
    for (const l of this.layers) {
      const sd = Math.sqrt(2 / (l.cin * 9));
      for (let i = 0; i < l.w.length; i++) l.w[i] = normal() * sd;
    }
    const sd = Math.sqrt(1 / (this.dw.length / this.spec.classes));
    for (let i = 0; i < this.dw.length; i++) this.dw[i] = normal() * sd;
  }

  /** Class probabilities for one input (channel-first planes). */
  predict(input: Float32Array): Float32Array {
    return this.infer(input).probs;
  }

  /** Class probabilities and the pooled features the dense layer reads (an embedding a new last layer can be fitted on). */
  embed(input: Float32Array): { probs: Float32Array; embedding: Float32Array } {
    const t = this.infer(input);
    return { probs: t.probs, embedding: t.pooled };
  }

  /**
   * Class probabilities by training's convolutions (sums in double, the plain
   * loops' numbers): inference as it was before the float32 WebAssembly kernel,
   * kept as the reference that kernel is checked and benchmarked against.
   * Agrees with `predict` to float rounding.
   */
  predictPlain(input: Float32Array): Float32Array {
    return this.run(input, false).probs;
  }

  /** Inference: the convolutions on the WebAssembly kernel, then the head. */
  private infer(input: Float32Array): { pooled: Float32Array; probs: Float32Array } {
    const { data, stride } = this.fastConvs().lastPlanes(input);
    return this.head(data, stride);
  }

  /** The convolutions for inference, holding the current weights. */
  private fastConvs(): WasmConvs {
    const fast = (this.fast ??= new WasmConvs(this.layers));
    if (!this.fastLoaded) {
      this.layers.forEach((l, i) => fast.load(i, l.w, l.b));
      this.fastLoaded = true;
    }
    return fast;
  }

  /** Training's forward pass: the plain loops' sums (the sums the weights were always fitted with, on trainConvsWasm.ts), keeping what the backward pass needs (with `keep`, the pooling choices too). */
  private run(input: Float32Array, keep: boolean): Trace {
    const inputs: Float32Array[] = [];
    const relus: Float32Array[] = [];
    const argmax: (Int32Array | undefined)[] = [];
    let x = input;
    for (const l of this.layers) {
      inputs.push(x);
      const plane = l.n * l.n;
      const y = new Float32Array(l.cout * plane);
      (this.trainConvs ??= new WasmTrainingConvs(this.layers)).forward(l, x, y);
      for (let i = 0; i < y.length; i++) if ((y[i] as number) < 0) y[i] = 0;
      relus.push(y);
      if (l.pool) {
        const m = l.n >> 1;
        const p = new Float32Array(l.cout * m * m);
        const am = keep ? new Int32Array(p.length) : undefined;
        for (let c = 0; c < l.cout; c++) {
          for (let py = 0; py < m; py++) {
            for (let px = 0; px < m; px++) {
              let best = -1;
              let bi = 0;
              for (let q = 0; q < 4; q++) {
                const idx = c * plane + (2 * py + (q >> 1)) * l.n + 2 * px + (q & 1);
                const v = y[idx] as number;
                if (v > best) {
                  best = v;
                  bi = idx;
                }
              }
              const o = (c * m + py) * m + px;
              p[o] = best;
              if (am) am[o] = bi;
            }
          }
        }
        argmax.push(am);
        x = p;
      } else {
        argmax.push(undefined);
        x = y;
      }
    }
    return { inputs, relus, argmax, ...this.head(x) };
  }

  /** Global average pooling of the last layer's planes `x` (plane c from `x[c * stride]`), then the dense layer and softmax. */
  private head(x: Float32Array, stride?: number): { pooled: Float32Array; probs: Float32Array } {
    const last = this.layers[this.layers.length - 1] as ConvLayer;
    const n = last.pool ? last.n >> 1 : last.n;
    const plane = n * n;
    const step = stride ?? plane;
    const pooled = new Float32Array(last.cout);
    for (let c = 0; c < last.cout; c++) {
      let s = 0;
      for (let i = 0; i < plane; i++) s += x[c * step + i] as number;
      pooled[c] = s / plane;
    }
    const k = this.spec.classes;
    const probs = new Float32Array(k);
    let max = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < k; j++) {
      let s = this.db[j] as number;
      for (let c = 0; c < last.cout; c++) s += (this.dw[j * last.cout + c] as number) * (pooled[c] as number);
      probs[j] = s;
      if (s > max) max = s;
    }
    let z = 0;
    for (let j = 0; j < k; j++) {
      probs[j] = Math.exp((probs[j] as number) - max);
      z += probs[j] as number;
    }
    for (let j = 0; j < k; j++) probs[j] = (probs[j] as number) / z;
    return { pooled, probs };
  }

  /**
   * Trains with Adam on mini-batches, `epochs` passes over the samples in a
   * seeded order. `augment` may transform a sample's input each time it is used.
   * Returns the mean cross-entropy of each epoch.
   */
  train(
    samples: readonly { readonly input: Float32Array; readonly label: number }[],
    options: { readonly epochs: number; readonly batch: number; readonly learningRate: number; readonly weightDecay: number; readonly random: RandomSource; readonly augment?: (input: Float32Array, random: RandomSource) => Float32Array; readonly onEpoch?: (epoch: number, loss: number) => void },
  ): number[] {
    const params = this.params();
    const grads = params.map((p) => new Float32Array(p.length));
    const m1 = params.map((p) => new Float32Array(p.length));
    const m2 = params.map((p) => new Float32Array(p.length));
    const beta1 = 0.9;
    const beta2 = 0.999;
    let step = 0;
    const losses: number[] = [];
    const order = samples.map((_, i) => i);
    const nl = this.layers.length;
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(options.random() * (i + 1));
        [order[i], order[j]] = [order[j] as number, order[i] as number];
      }
      // Cosine decay of the learning rate over the run.
      let lossSum = 0;
      for (let start = 0; start < order.length; start += options.batch) {
        const lr = options.learningRate * 0.5 * (1 + Math.cos((Math.PI * (epoch + start / order.length)) / options.epochs));
        for (const g of grads) g.fill(0);
        const end = Math.min(order.length, start + options.batch);
        for (let s = start; s < end; s++) {
          const sample = samples[order[s] as number] as { input: Float32Array; label: number };
          const input = options.augment ? options.augment(sample.input, options.random) : sample.input;
          const t = this.run(input, true);
          lossSum -= Math.log(Math.max(1e-12, t.probs[sample.label] as number));
          // Softmax cross-entropy gradient, then the dense layer.
          const last = this.layers[nl - 1] as ConvLayer;
          const gdw = grads[2 * nl] as Float32Array;
          const gdb = grads[2 * nl + 1] as Float32Array;
          const gPooled = new Float32Array(last.cout);
          for (let j = 0; j < this.spec.classes; j++) {
            const g = (t.probs[j] as number) - (j === sample.label ? 1 : 0);
            gdb[j] = (gdb[j] as number) + g;
            for (let c = 0; c < last.cout; c++) {
              gdw[j * last.cout + c] = (gdw[j * last.cout + c] as number) + g * (t.pooled[c] as number);
              gPooled[c] = (gPooled[c] as number) + g * (this.dw[j * last.cout + c] as number);
            }
          }
          // Back through global average pooling, then each conv layer (pool, ReLU, convolution).
          const outN = last.pool ? last.n >> 1 : last.n;
          let g: Float32Array = new Float32Array(last.cout * outN * outN);
          for (let c = 0; c < last.cout; c++) g.fill((gPooled[c] as number) / (outN * outN), c * outN * outN, (c + 1) * outN * outN);
          for (let li = nl - 1; li >= 0; li--) {
            const l = this.layers[li] as ConvLayer;
            const relu = t.relus[li] as Float32Array;
            let gy: Float32Array;
            if (l.pool) {
              gy = new Float32Array(relu.length);
              const am = t.argmax[li] as Int32Array;
              for (let q = 0; q < g.length; q++) gy[am[q] as number] = g[q] as number;
            } else gy = g;
            for (let q = 0; q < gy.length; q++) if ((relu[q] as number) <= 0) gy[q] = 0;
            const gx = li > 0 ? new Float32Array(l.cin * l.n * l.n) : undefined;
            (this.trainConvs ??= new WasmTrainingConvs(this.layers)).backward(l, t.inputs[li] as Float32Array, gy, grads[2 * li] as Float32Array, grads[2 * li + 1] as Float32Array, gx);
            if (gx) g = gx;
          }
        }
        step++;
        const count = end - start;
        const c1 = 1 - beta1 ** step;
        const c2 = 1 - beta2 ** step;
        params.forEach((p, pi) => {
          const gr = grads[pi] as Float32Array;
          const a = m1[pi] as Float32Array;
          const v = m2[pi] as Float32Array;
          // Decoupled weight decay on weights only (biases are the odd entries before the dense pair).
          const decay = pi % 2 === 0 ? options.weightDecay : 0;
          for (let q = 0; q < p.length; q++) {
            const gq = (gr[q] as number) / count;
            a[q] = beta1 * (a[q] as number) + (1 - beta1) * gq;
            v[q] = beta2 * (v[q] as number) + (1 - beta2) * gq * gq;
            p[q] = (p[q] as number) - lr * ((a[q] as number) / c1 / (Math.sqrt((v[q] as number) / c2) + 1e-8) + decay * (p[q] as number));
          }
        });
        this.fastLoaded = false;
      }
      const loss = lossSum / order.length;
      losses.push(loss);
      options.onEpoch?.(epoch, loss);
    }
    return losses;
  }
}
