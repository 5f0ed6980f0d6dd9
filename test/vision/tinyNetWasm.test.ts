import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kernelModuleSource, TINY_NET_KERNEL } from '../../scripts/wasm-kernel.js';
import { tinyNetConvWasmBase64 } from '../../src/vision/d6/tinyNetConvWasm.js';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { TinyNet } from '../../src/vision/d6/tinyNet.js';
import type { NetSpec } from '../../src/vision/d6/tinyNet.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { networksOf } from '../../src/vision/learned/model.js';
import { seededRandom } from '../../src/stats/random.js';
import type { RandomSource } from '../../src/stats/random.js';
import { maxPool2x2 } from './support/maxPool.js';

/**
 * The network written out as plainly as possible, in double precision: direct
 * 3x3 convolutions (padding 1), ReLU, 2x2 max pooling, global average pooling,
 * dense layer, softmax. Weights in TinyNet's order. Each output's sum is taken
 * bias first, then input channel, kernel row and kernel column in order, the
 * taps outside the image left out: the same doubles as summing each output on
 * its own, worked out tap by tap over a whole plane (this reference, one
 * output at a time, was most of this file's time).
 */
function referenceForward(spec: NetSpec, weights: Float32Array, input: Float32Array): { probs: number[]; embedding: number[] } {
  let o = 0;
  const take = (count: number): Float32Array => weights.subarray(o, (o += count));
  let x = Float64Array.from(input);
  let cin = spec.channels;
  let n = spec.size;
  for (const conv of spec.convs) {
    const w = take(conv.out * cin * 9);
    const b = take(conv.out);
    const y = new Float64Array(conv.out * n * n);
    for (let co = 0; co < conv.out; co++) {
      // Every output of this channel at once, tap by tap: each output's sum still takes its taps in the order above.
      const sum = y.subarray(co * n * n, (co + 1) * n * n).fill(b[co] as number);
      for (let ci = 0; ci < cin; ci++) {
        for (let ky = 0; ky < 3; ky++) {
          for (let kx = 0; kx < 3; kx++) {
            const wt = w[((co * cin + ci) * 3 + ky) * 3 + kx] as number;
            // The outputs whose tap (ky, kx) lies inside the image.
            const xFrom = Math.max(0, 1 - kx);
            const xTo = Math.min(n, n + 1 - kx);
            for (let py = Math.max(0, 1 - ky), yTo = Math.min(n, n + 1 - ky); py < yTo; py++) {
              const from = (ci * n + py + ky - 1) * n + kx - 1;
              const to = py * n;
              for (let px = xFrom; px < xTo; px++) sum[to + px] = (sum[to + px] as number) + wt * (x[from + px] as number);
            }
          }
        }
      }
      for (let i = 0; i < sum.length; i++) sum[i] = Math.max(0, sum[i] as number);
    }
    if (conv.pool) {
      x = maxPool2x2(y, conv.out, n, new Float64Array(conv.out * (n >> 1) * (n >> 1)));
      n >>= 1;
    } else x = y;
    cin = conv.out;
  }
  const plane = n * n;
  const embedding = Array.from({ length: cin }, (_, c) => x.subarray(c * plane, (c + 1) * plane).reduce((a, v) => a + v, 0) / plane);
  const dw = take(spec.classes * cin);
  const db = take(spec.classes);
  const scores = Array.from({ length: spec.classes }, (_, j) => embedding.reduce((s, v, c) => s + (dw[j * cin + c] as number) * v, db[j] as number));
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const z = e.reduce((a, v) => a + v, 0);
  return { probs: e.map((v) => v / z), embedding };
}

/** Inputs in the range of the readers' normalised crops (about -2.5..2.5). */
function randomInput(spec: NetSpec, random: RandomSource): Float32Array {
  return new Float32Array(spec.channels * spec.size * spec.size).map(() => 5 * random() - 2.5);
}

/**
 * The largest difference between the network's probabilities and those of the
 * plain double-precision network or of its own plain path (training's
 * convolutions, `predictPlain`), over `count` random inputs; embeddings are
 * checked on the way.
 */
function largestDifference(net: TinyNet, count: number, random: RandomSource): number {
  let worst = 0;
  for (let i = 0; i < count; i++) {
    const x = randomInput(net.spec, random);
    const ref = referenceForward(net.spec, net.weights(), x);
    const plain = net.predictPlain(x);
    const { probs, embedding } = net.embed(x);
    expect(Array.from(net.predict(x))).toEqual(Array.from(probs));
    ref.embedding.forEach((v, c) => expect(Math.abs((embedding[c] as number) - v)).toBeLessThan(1e-4 * Math.max(1, Math.abs(v))));
    for (let j = 0; j < probs.length; j++) {
      const p = probs[j] as number;
      worst = Math.max(worst, Math.abs(p - (ref.probs[j] as number)), Math.abs(p - (plain[j] as number)));
    }
  }
  return worst;
}

/** A network of awkward sizes: channel counts not multiples of 4, an odd side (pooling drops the last row and column), a layer without pooling, a 1x1 last plane. */
const oddSpec: NetSpec = { channels: 5, size: 7, convs: [{ out: 6, pool: true }, { out: 3, pool: false }, { out: 5, pool: true }], classes: 3 };

/** The kernel's own exports on a fresh memory of 64 pages (NaN-filled, so a float left unwritten shows). */
function bareKernel(): {
  unroll: (x: number, xstride: number, cin: number, n: number, taps: number, stride: number) => void;
  pool: (y: number, c: number, n: number, stride: number, out: number) => void;
  f: Float32Array;
} {
  const api = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => { buffer: ArrayBuffer }; Module: new (b: Uint8Array) => object; Instance: new (m: object, i: object) => { exports: Record<string, unknown> } } }).WebAssembly;
  const memory = new api.Memory({ initial: 64 });
  const exports = new api.Instance(new api.Module(Buffer.from(tinyNetConvWasmBase64, 'base64')), { env: { memory } }).exports;
  const f = new Float32Array(memory.buffer).fill(Number.NaN);
  return { unroll: exports['unroll'] as ReturnType<typeof bareKernel>['unroll'], pool: exports['pool'] as ReturnType<typeof bareKernel>['pool'], f };
}

describe('TinyNet inference on the WebAssembly kernel', () => {
  it('ships the module its .wat compiles to, byte for byte', async () => {
    expect(await kernelModuleSource(TINY_NET_KERNEL)).toBe(readFileSync(TINY_NET_KERNEL.ts, 'utf8'));
  });

  it('gives the probabilities of the plain paths (double precision, and training\'s convolutions) for every shipped model', () => {
    const models = [...shippedD6Net.nets.map((n, i) => ({ ...n, version: `${shippedD6Net.version} network ${i + 1}` })), ...Object.values(shippedLearnedModels).flatMap(networksOf)];
    expect(models.length).toBe(shippedD6Net.nets.length + 4);
    const random = seededRandom(31);
    for (const m of models) {
      const net = new TinyNet(m.spec, undefined, decodeWeights(m.weightsBase64));
      expect(largestDifference(net, 40, random), m.version).toBeLessThan(1e-5);
    }
  });

  it('unrolls each pixel\'s 3x3 neighbourhood exactly, zero outside the image, and writes nothing but the tap rows', () => {
    const k = bareKernel();
    const X = 16; // float offsets of the input planes and of the tap rows
    const TAPS = 100_000;
    for (let n = 1; n <= 19; n++) {
      for (const cin of [1, 3, 5]) {
        const stride = (n * n + 7) & -8;
        for (const xstride of [n * n, stride + 8]) {
          k.f.fill(Number.NaN);
          for (let i = 0; i < cin * xstride; i++) k.f[X + i] = i + 0.25;
          k.unroll(X * 4, xstride, cin, n, TAPS * 4, stride);
          for (let ci = 0; ci < cin; ci++) {
            for (let ky = 0; ky < 3; ky++) {
              for (let kx = 0; kx < 3; kx++) {
                const row = TAPS + ((ci * 3 + ky) * 3 + kx) * stride;
                for (let y = 0; y < n; y++) {
                  for (let x = 0; x < n; x++) {
                    const sy = y + ky - 1;
                    const sx = x + kx - 1;
                    const want = sy >= 0 && sy < n && sx >= 0 && sx < n ? ci * xstride + sy * n + sx + 0.25 : 0;
                    if (k.f[row + y * n + x] !== want) expect({ n, cin, xstride, ci, ky, kx, y, x, got: k.f[row + y * n + x] }).toEqual({ n, cin, xstride, ci, ky, kx, y, x, got: want });
                  }
                }
                // The padding after each row's n x n pixels is not the kernel's to write.
                for (let q = n * n; q < stride; q++) expect(k.f[row + q]).toBeNaN();
              }
            }
          }
          expect(k.f[TAPS + cin * 9 * stride]).toBeNaN();
          expect(k.f[TAPS - 1]).toBeNaN();
        }
      }
    }
  });

  it('pools each 2x2 block of ReLU outputs to its largest value, four outputs at a time and the rest one by one, and writes nothing but the pooled planes', () => {
    const k = bareKernel();
    const Y = 16; // float offsets of the planes pooled and of the pooled planes
    const OUT = 100_000;
    const random = seededRandom(34);
    for (let n = 2; n <= 21; n++) {
      for (const c of [1, 3, 5]) {
        const stride = (n * n + 7) & -8;
        const m = n >> 1;
        k.f.fill(Number.NaN);
        // After ReLU: +0 (ties of zeros included) or positive, a few equal values.
        for (let i = 0; i < c * stride; i++) k.f[Y + i] = random() < 0.3 ? 0 : Math.round(random() * 40) / 8;
        k.pool(Y * 4, c, n, stride, OUT * 4);
        for (let ch = 0; ch < c; ch++) {
          for (let py = 0; py < m; py++) {
            for (let px = 0; px < m; px++) {
              const at = (y: number, x: number): number => k.f[Y + ch * stride + y * n + x] as number;
              const want = Math.max(at(2 * py, 2 * px), at(2 * py, 2 * px + 1), at(2 * py + 1, 2 * px), at(2 * py + 1, 2 * px + 1));
              const got = k.f[OUT + (ch * m + py) * m + px];
              if (!Object.is(got, want)) expect({ n, c, ch, py, px, got }).toEqual({ n, c, ch, py, px, got: want });
            }
          }
        }
        expect(k.f[OUT + c * m * m]).toBeNaN();
        expect(k.f[OUT - 1]).toBeNaN();
      }
    }
  });

  it('handles channel counts that are not multiples of 4, odd sides and layers without pooling', () => {
    const random = seededRandom(32);
    for (let seed = 0; seed < 10; seed++) expect(largestDifference(new TinyNet(oddSpec, seededRandom(100 + seed)), 20, random)).toBeLessThan(1e-5);
  });

  it('refuses an input of the wrong size', () => {
    const net = new TinyNet(oddSpec, seededRandom(1));
    expect(() => net.predict(new Float32Array(5 * 7 * 7 + 1))).toThrow(/holds 246 numbers but this network reads 5 planes of 7 x 7/);
  });

  it('reads with the new weights after they are set or trained', () => {
    const random = seededRandom(33);
    const net = new TinyNet(oddSpec, seededRandom(1));
    const x = randomInput(oddSpec, random);
    const before = Array.from(net.predict(x));
    net.setWeights(new TinyNet(oddSpec, seededRandom(2)).weights());
    expect(Array.from(net.predict(x))).not.toEqual(before);
    expect(largestDifference(net, 5, random)).toBeLessThan(1e-5);
    const trained = Array.from(net.predict(x));
    const samples = Array.from({ length: 8 }, (_, i) => ({ input: randomInput(oddSpec, random), label: i % 3 }));
    net.train(samples, { epochs: 1, batch: 4, learningRate: 0.05, weightDecay: 0, random });
    expect(Array.from(net.predict(x))).not.toEqual(trained);
    expect(largestDifference(net, 5, random)).toBeLessThan(1e-5);
  });
});
