import { describe, expect, it } from 'vitest';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { TinyNet } from '../../src/vision/d6/tinyNet.js';
import type { NetSpec } from '../../src/vision/d6/tinyNet.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { seededRandom } from '../../src/stats/random.js';
import type { RandomSource } from '../../src/stats/random.js';
import { maxPool2x2 } from './support/maxPool.js';

const f = Math.fround;

/**
 * The convolutions as inference defines them, in float32 one operation at a time: each output is its bias, then for
 * each input channel, kernel row and kernel column in order the product (rounded) added (rounded), a tap outside the
 * image reading 0; then ReLU and 2x2 max pooling. The last layer's planes are averaged as TinyNet's head averages
 * them (in double, pixel after pixel), so its embedding is the same to the bit if the kernel's planes are.
 */
function float32Embedding(spec: NetSpec, weights: Float32Array, input: Float32Array): Float32Array {
  let o = 0;
  const take = (count: number): Float32Array => weights.subarray(o, (o += count));
  let x = Float32Array.from(input);
  let cin = spec.channels;
  let n = spec.size;
  for (const conv of spec.convs) {
    const w = take(conv.out * cin * 9);
    const b = take(conv.out);
    const y = new Float32Array(conv.out * n * n);
    for (let co = 0; co < conv.out; co++) {
      for (let py = 0; py < n; py++) {
        for (let px = 0; px < n; px++) {
          let a = b[co] as number;
          for (let ci = 0; ci < cin; ci++) {
            for (let ky = 0; ky < 3; ky++) {
              for (let kx = 0; kx < 3; kx++) {
                const sy = py + ky - 1;
                const sx = px + kx - 1;
                const v = sy >= 0 && sy < n && sx >= 0 && sx < n ? (x[(ci * n + sy) * n + sx] as number) : 0;
                a = f(a + f((w[((co * cin + ci) * 3 + ky) * 3 + kx] as number) * v));
              }
            }
          }
          y[(co * n + py) * n + px] = a > 0 ? a : 0;
        }
      }
    }
    if (conv.pool) {
      x = maxPool2x2(y, conv.out, n, new Float32Array(conv.out * (n >> 1) * (n >> 1)));
      n >>= 1;
    } else x = y;
    cin = conv.out;
  }
  const plane = n * n;
  const embedding = new Float32Array(cin);
  for (let c = 0; c < cin; c++) {
    let s = 0;
    for (let i = 0; i < plane; i++) s += x[c * plane + i] as number;
    embedding[c] = s / plane;
  }
  return embedding;
}

/** Inputs like the readers' (about -3..3), with runs of zeros (a turned die's dark margin) so whole blocks of eight are 0. */
function inputWithZeros(spec: NetSpec, random: RandomSource): Float32Array {
  const x = new Float32Array(spec.channels * spec.size * spec.size).map(() => 6 * random() - 3);
  for (let i = 0; i < x.length; i++) if (random() < 0.3) x.fill(0, i, Math.min(x.length, i + 1 + Math.floor(random() * 24)));
  return x;
}

const bits = (a: Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

describe('TinyNet inference on the WebAssembly kernel, to the bit', () => {
  it('gives the float32 sums taken in order, for the shipped D6 and X-Wing networks, blocks of zero inputs included', () => {
    const random = seededRandom(77);
    const models = [...shippedD6Net.nets, ...Object.values(shippedLearnedModels)];
    for (const m of models) {
      const net = new TinyNet(m.spec, undefined, decodeWeights(m.weightsBase64));
      for (let i = 0; i < 3; i++) {
        const x = inputWithZeros(m.spec, random);
        expect(bits(net.embed(x).embedding)).toBe(bits(float32Embedding(m.spec, net.weights(), x)));
      }
    }
  });

  it('does so for awkward shapes: channel counts not multiples of 4, odd sides, sides of 8 and 16 read from the planes, layers without pooling', () => {
    const random = seededRandom(78);
    const specs: NetSpec[] = [
      { channels: 3, size: 16, convs: [{ out: 5, pool: false }, { out: 6, pool: false }, { out: 7, pool: true }, { out: 3, pool: false }, { out: 2, pool: true }], classes: 2 },
      { channels: 1, size: 8, convs: [{ out: 4, pool: false }, { out: 9, pool: true }], classes: 2 },
      { channels: 5, size: 7, convs: [{ out: 6, pool: true }, { out: 3, pool: false }, { out: 5, pool: true }], classes: 3 },
      { channels: 2, size: 9, convs: [{ out: 5, pool: true }, { out: 7, pool: false }, { out: 6, pool: true }], classes: 3 },
      { channels: 3, size: 12, convs: [{ out: 8, pool: false }, { out: 4, pool: true }, { out: 9, pool: false }], classes: 2 },
    ];
    for (const spec of specs) {
      const net = new TinyNet(spec, random);
      for (let i = 0; i < 5; i++) {
        const x = inputWithZeros(spec, random);
        expect(bits(net.embed(x).embedding)).toBe(bits(float32Embedding(spec, net.weights(), x)));
      }
    }
  });
});
