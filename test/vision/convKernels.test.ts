/**
 * TinyNet's training convolutions against the plain loops they replaced (kept here as the reference, as they were in
 * src/vision/d6/tinyNet.ts up to commit 8f35dec): the same sums in the same order, so the same float32 results bit
 * for bit (Object.is, so a zero's sign counts too), and so the same trained weights.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { convBackward, convForward, type ConvLayer } from '../../src/vision/d6/convKernels.js';
import { TinyNet, type NetSpec } from '../../src/vision/d6/tinyNet.js';
import { seededRandom } from '../../src/stats/random.js';

/** Tap (ky, kx)'s offset and the output rows and columns it reaches inside an n x n plane (padding 1). */
function tap(n: number, ky: number, kx: number) {
  const dy = ky - 1;
  const dx = kx - 1;
  return { dy, dx, ya: Math.max(0, -dy), yb: Math.min(n, n - dy), xa: Math.max(0, -dx), xb: Math.min(n, n - dx) };
}

/** The reference forward pass: each output summed from its bias, then over (ci, ky, kx), a padded tap adding w x 0. */
function plainForward(l: ConvLayer, x: Float32Array, y: Float32Array): void {
  const { cin, cout, n, w, b } = l;
  for (let co = 0; co < cout; co++) {
    for (let yy = 0; yy < n; yy++) {
      for (let xx = 0; xx < n; xx++) {
        let s = b[co] as number;
        for (let ci = 0; ci < cin; ci++) {
          for (let ky = 0; ky < 3; ky++) {
            for (let kx = 0; kx < 3; kx++) {
              const [sy, sx] = [yy + ky - 1, xx + kx - 1];
              const v = sy >= 0 && sy < n && sx >= 0 && sx < n ? (x[ci * n * n + sy * n + sx] as number) : 0;
              s += (w[((co * cin + ci) * 3 + ky) * 3 + kx] as number) * v;
            }
          }
        }
        y[co * n * n + yy * n + xx] = s;
      }
    }
  }
}

/** The reference backward pass, as it was written before. */
function plainBackward(l: ConvLayer, x: Float32Array, gy: Float32Array, gw: Float32Array, gb: Float32Array, gx: Float32Array | undefined): void {
  const { cin, cout, n, w } = l;
  const plane = n * n;
  if (gx) gx.fill(0);
  for (let co = 0; co < cout; co++) {
    const yo = co * plane;
    let sb = 0;
    for (let i = 0; i < plane; i++) sb += gy[yo + i] as number;
    gb[co] = (gb[co] as number) + sb;
    for (let ci = 0; ci < cin; ci++) {
      const xo = ci * plane;
      for (let ky = 0; ky < 3; ky++) {
        for (let kx = 0; kx < 3; kx++) {
          const wi = ((co * cin + ci) * 3 + ky) * 3 + kx;
          const wv = w[wi] as number;
          const { dy, dx, ya, yb, xa, xb } = tap(n, ky, kx);
          let s = 0;
          for (let yy = ya; yy < yb; yy++) {
            const yi = yo + yy * n;
            const xi = xo + (yy + dy) * n + dx;
            for (let xx = xa; xx < xb; xx++) {
              const g = gy[yi + xx] as number;
              s += g * (x[xi + xx] as number);
              if (gx) gx[xi + xx] = (gx[xi + xx] as number) + wv * g;
            }
          }
          gw[wi] = (gw[wi] as number) + s;
        }
      }
    }
  }
}

function layer(cin: number, cout: number, n: number, random: () => number): ConvLayer {
  return {
    cin,
    cout,
    n,
    pool: false,
    w: Float32Array.from({ length: cout * cin * 9 }, () => random() - 0.5),
    b: Float32Array.from({ length: cout }, () => random() - 0.5),
    patches: new Float32Array(n * n * cin * 9),
  };
}

/** Values as ReLU and pooling leave them: a share exactly zero, the rest of either sign for gradients. */
const sparse = (length: number, zeros: number, random: () => number, positive = false): Float32Array =>
  Float32Array.from({ length }, () => (random() < zeros ? 0 : positive ? random() : random() - 0.5));

const same = (a: Float32Array, b: Float32Array): number => a.findIndex((v, i) => !Object.is(v, b[i]));

// The shipped networks' layer shapes (cin, cout, side), and odd ones: output channels not a multiple of four, odd
// planes, and planes of one and two pixels.
const SHAPES: [number, number, number][] = [
  [3, 12, 32],
  [12, 24, 16],
  [32, 64, 8],
  [64, 64, 4],
  [5, 7, 9],
  [2, 3, 1],
  [3, 6, 2],
  [4, 5, 3],
];

describe("TinyNet's training convolutions", () => {
  it.each(SHAPES)('give the forward sums of the plain loops bit for bit (cin %i, cout %i, side %i)', (cin, cout, n) => {
    const random = seededRandom(cin * 1000 + cout * 10 + n);
    const l = layer(cin, cout, n, random);
    const x = sparse(cin * n * n, 0.4, random, true);
    const [fast, plain] = [new Float32Array(cout * n * n), new Float32Array(cout * n * n)];
    convForward(l, x, fast);
    plainForward(l, x, plain);
    expect(same(fast, plain)).toBe(-1);
  });

  it.each(SHAPES)('give the weight, bias and input gradients of the plain loops bit for bit, added to what the gradients held (cin %i, cout %i, side %i)', (cin, cout, n) => {
    const random = seededRandom(cin * 7 + cout * 3 + n);
    const l = layer(cin, cout, n, random);
    const x = sparse(cin * n * n, 0.4, random, true);
    // Pooling passes back one gradient in four, ReLU about half of those.
    const gy = sparse(cout * n * n, 0.8, random);
    // At least one term on the smallest planes, so that the gradients held are seen to change.
    [x[0], gy[0]] = [0.5, 0.25];
    const held = { gw: Float32Array.from({ length: cout * cin * 9 }, () => random() - 0.5), gb: Float32Array.from({ length: cout }, () => random() - 0.5) };
    const fast = { gw: held.gw.slice(), gb: held.gb.slice(), gx: new Float32Array(cin * n * n).fill(7) };
    const plain = { gw: held.gw.slice(), gb: held.gb.slice(), gx: new Float32Array(cin * n * n) };
    convBackward(l, x, gy, fast.gw, fast.gb, fast.gx);
    plainBackward(l, x, gy, plain.gw, plain.gb, plain.gx);
    expect(same(fast.gw, plain.gw)).toBe(-1);
    expect(same(fast.gb, plain.gb)).toBe(-1);
    expect(same(fast.gx, plain.gx)).toBe(-1);
    expect(fast.gw.some((v, i) => v !== held.gw[i])).toBe(true);
    // Without an input gradient asked for (the first layer), the weight gradients are the same.
    const alone = held.gw.slice();
    convBackward(l, x, gy, alone, held.gb.slice(), undefined);
    expect(same(alone, plain.gw)).toBe(-1);
  });

  // Weights trained by the loops before this change (commit 8f35dec, its tinyNet.js built and run with this same
  // recipe): the sha256 of net.weights() after training, so a change of summation order anywhere shows here.
  it.each([
    ['the X-Wing face networks', { channels: 3, size: 32, convs: [{ out: 12, pool: true }, { out: 24, pool: true }, { out: 48, pool: true }, { out: 48, pool: false }], classes: 8 }, 48, 2, 'a4e14d6811428a194658ee642bbf24a73846a4084e31c2d9dbe6f80d21c0e4da'],
    ['odd sides and channel counts', { channels: 2, size: 9, convs: [{ out: 5, pool: true }, { out: 7, pool: false }, { out: 6, pool: true }], classes: 3 }, 40, 3, '52f1a13b7351759ccb8f7f43c6a45b60cf04cfacc231d1928f6bf31ac078678f'],
  ] as [string, NetSpec, number, number, string][])('train %s to the weights the plain loops trained, bit for bit', (_name, spec, count, epochs, sha256) => {
    const random = seededRandom(7);
    const length = spec.channels * spec.size * spec.size;
    const samples = Array.from({ length: count }, (_, i) => ({ input: Float32Array.from({ length }, () => random() * 2 - 1), label: i % spec.classes }));
    const net = new TinyNet(spec, seededRandom(3));
    net.train(samples, { epochs, batch: 16, learningRate: 1e-3, weightDecay: 1e-4, random: seededRandom(5) });
    expect(createHash('sha256').update(Buffer.from(net.weights().buffer)).digest('hex')).toBe(sha256);
  });
});
