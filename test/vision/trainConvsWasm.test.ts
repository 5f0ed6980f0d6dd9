/**
 * Training's convolutions on the WebAssembly kernel against the plain loops of convKernels.ts (themselves held to the
 * loops they replaced by convKernels.test.ts): the same float32 numbers bit for bit (Object.is, so a zero's sign
 * counts), on the shipped networks' layer shapes and on odd ones. The kernel's bytes are the compiled .wat's
 * (tinyNetWasm.test.ts), and trainings pinned to the plain loops' weights are in convKernels.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { convBackward, convForward, type ConvLayer } from '../../src/vision/d6/convKernels.js';
import { WasmTrainingConvs } from '../../src/vision/d6/trainConvsWasm.js';
import { seededRandom } from '../../src/stats/random.js';

function layer(cin: number, cout: number, n: number, random: () => number, scale = 1): ConvLayer {
  return {
    cin,
    cout,
    n,
    pool: false,
    w: Float32Array.from({ length: cout * cin * 9 }, () => (random() - 0.5) * scale),
    b: Float32Array.from({ length: cout }, () => (random() - 0.5) * scale),
    patches: new Float32Array(n * n * cin * 9),
  };
}

/** Values as ReLU and pooling leave them: a share exactly zero, the rest of either sign (or positive) and of any size. */
const sparse = (length: number, zeros: number, random: () => number, positive = false): Float32Array =>
  Float32Array.from({ length }, () => (random() < zeros ? 0 : (positive ? random() : random() - 0.5) * 2 ** Math.floor(random() * 40 - 20)));

const same = (a: Float32Array, b: Float32Array): number => a.findIndex((v, i) => !Object.is(v, b[i]));

// The shipped D6 and X-Wing networks' layer shapes (cin, cout, side), and odd ones: output channels and tap rows not
// a multiple of four, planes not a multiple of four pixels, planes of one and two pixels.
const SHAPES: [number, number, number][] = [
  [3, 16, 32],
  [16, 16, 32],
  [16, 32, 16],
  [32, 64, 8],
  [64, 96, 4],
  [3, 12, 32],
  [12, 24, 16],
  [48, 48, 4],
  [5, 7, 9],
  [2, 3, 1],
  [3, 6, 2],
  [4, 5, 3],
  [1, 1, 5],
  [7, 9, 7],
];

describe("TinyNet's training convolutions on the WebAssembly kernel", () => {
  it.each(SHAPES)('give the forward sums of the plain loops bit for bit (cin %i, cout %i, side %i)', (cin, cout, n) => {
    const random = seededRandom(cin * 1000 + cout * 10 + n);
    const l = layer(cin, cout, n, random);
    const x = sparse(cin * n * n, 0.4, random, true);
    const [fast, plain] = [new Float32Array(cout * n * n).fill(7), new Float32Array(cout * n * n)];
    new WasmTrainingConvs([l]).forward(l, x, fast);
    convForward(l, x, plain);
    expect(same(fast, plain)).toBe(-1);
  });

  it.each(SHAPES)('give the weight, bias and input gradients of the plain loops bit for bit, added to what the gradients held (cin %i, cout %i, side %i)', (cin, cout, n) => {
    const random = seededRandom(cin * 7 + cout * 3 + n);
    const l = layer(cin, cout, n, random);
    const x = sparse(cin * n * n, 0.4, random, true);
    const gy = sparse(cout * n * n, 0.7, random);
    [x[0], gy[0]] = [0.5, 0.25];
    const held = { gw: Float32Array.from({ length: cout * cin * 9 }, () => random() - 0.5), gb: Float32Array.from({ length: cout }, () => random() - 0.5) };
    const fast = { gw: held.gw.slice(), gb: held.gb.slice(), gx: new Float32Array(cin * n * n).fill(7) };
    const plain = { gw: held.gw.slice(), gb: held.gb.slice(), gx: new Float32Array(cin * n * n) };
    new WasmTrainingConvs([l]).backward(l, x, gy, fast.gw, fast.gb, fast.gx);
    convBackward(l, x, gy, plain.gw, plain.gb, plain.gx);
    expect(same(fast.gw, plain.gw)).toBe(-1);
    expect(same(fast.gb, plain.gb)).toBe(-1);
    expect(same(fast.gx, plain.gx)).toBe(-1);
    expect(fast.gw.some((v, i) => v !== held.gw[i])).toBe(true);
  });

  it("serve every layer of a network from one memory, each call the plain loops' numbers whatever layer ran before", () => {
    const random = seededRandom(11);
    // A network's layers, small and large, run in an order that leaves a larger layer's numbers in the memory.
    const layers = [layer(3, 16, 32, random), layer(16, 6, 9, random), layer(5, 7, 3, random, 1e3), layer(6, 5, 2, random)];
    const convs = new WasmTrainingConvs(layers);
    for (const i of [0, 1, 2, 0, 3, 1, 3, 2]) {
      const l = layers[i] as ConvLayer;
      const plane = l.n * l.n;
      const x = sparse(l.cin * plane, 0.3, random, true);
      const gy = sparse(l.cout * plane, 0.5, random);
      const [fast, plain] = [new Float32Array(l.cout * plane), new Float32Array(l.cout * plane)];
      convs.forward(l, x, fast);
      convForward(l, x, plain);
      expect(same(fast, plain)).toBe(-1);
      const [fw, pw] = [new Float32Array(l.w.length), new Float32Array(l.w.length)];
      const [fb, pb] = [new Float32Array(l.cout), new Float32Array(l.cout)];
      convs.backward(l, x, gy, fw, fb, undefined);
      convBackward(l, x, gy, pw, pb, undefined);
      expect(same(fw, pw)).toBe(-1);
      expect(same(fb, pb)).toBe(-1);
    }
  });

  it('refuse an input of the wrong size', () => {
    const l = layer(2, 4, 3, seededRandom(1));
    expect(() => new WasmTrainingConvs([l]).forward(l, new Float32Array(17), new Float32Array(36))).toThrow('The input holds 17 numbers but this layer reads 2 planes of 3 x 3.');
  });
});
