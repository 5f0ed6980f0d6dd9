/**
 * TinyNet's forward convolutions on a WebAssembly SIMD kernel (tinyNetConv.wat):
 * the dot products of unrolled patches and weight rows, four floats at a time,
 * with the ReLU applied. Each network keeps its own memory holding its padded
 * weights, one patch buffer and one output buffer; the module is compiled once,
 * synchronously, from bytes shipped in tinyNetConvWasm.ts (no file reads).
 */
import { tinyNetConvWasmBase64 } from './tinyNetConvWasm.js';

/** A 3x3 convolution's shape: input channels, output channels, side of the (square) input. */
export interface ConvShape {
  readonly cin: number;
  readonly cout: number;
  readonly n: number;
}

type ConvKernel = (p: number, k9p: number, plane: number, w: number, b: number, cout: number, out: number) => void;

/** The part of the WebAssembly JS API used here: Node 20 has it, but @types/node 20 does not declare it (nor does lib ES2022). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: { readonly env: { readonly memory: object } }) => { readonly exports: Readonly<Record<string, unknown>> };
  readonly Memory: new (descriptor: { readonly initial: number }) => { readonly buffer: ArrayBuffer };
}

const wasm = (globalThis as unknown as { readonly WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

/** Compiled once (synchronously: the readers' API is synchronous, and the module is small). */
function kernelModule(): object {
  compiled ??= new wasm.Module(Buffer.from(tinyNetConvWasmBase64, 'base64'));
  return compiled;
}

/** Rounds up to a multiple of `m` (a power of two). */
const roundUp = (v: number, m: number): number => (v + m - 1) & -m;

const PAGE_BYTES = 65_536;

interface Slot {
  readonly shape: ConvShape;
  /** Pixels per tap row: n x n padded to the kernel's eight-pixel passes. */
  readonly stride: number;
  /** Output channels padded to the kernel's four-channel passes (with zero weights). */
  readonly coutP: number;
  /** Float offsets of the weight rows [coutP][cin x 9] and biases [coutP] in the memory. */
  readonly w: number;
  readonly b: number;
}

/**
 * The convolution layers of one network, in one WebAssembly memory: their
 * weights, one buffer of tap rows (the unrolled input of the layer running) and
 * one of outputs. The memory never grows, so the views into it stay valid.
 */
export class WasmConvs {
  private readonly memory: Float32Array;
  private readonly kernel: ConvKernel;
  private readonly slots: Slot[];
  /** Float offsets of the tap rows and of the outputs (coutP rows of `stride`). */
  private readonly taps: number;
  private readonly out: number;

  constructor(shapes: readonly ConvShape[]) {
    // Every buffer starts on a 32-byte boundary, so the kernel's loads and stores are aligned.
    let at = 0;
    let tapFloats = 0;
    let outFloats = 0;
    this.slots = shapes.map((shape) => {
      const stride = roundUp(shape.n * shape.n, 8);
      const coutP = roundUp(shape.cout, 4);
      const slot = { shape, stride, coutP, w: at, b: roundUp(at + coutP * shape.cin * 9, 8) };
      at = roundUp(slot.b + coutP, 8);
      tapFloats = Math.max(tapFloats, shape.cin * 9 * stride);
      outFloats = Math.max(outFloats, coutP * stride);
      return slot;
    });
    this.taps = at;
    this.out = roundUp(at + tapFloats, 8);
    const memory = new wasm.Memory({ initial: Math.ceil(((this.out + outFloats) * 4) / PAGE_BYTES) });
    const instance = new wasm.Instance(kernelModule(), { env: { memory } });
    this.kernel = instance.exports['conv'] as ConvKernel;
    this.memory = new Float32Array(memory.buffer);
  }

  /** Copies layer `i`'s weights ([cout][cin x 9]) and biases in (the padding channels stay zero). */
  load(i: number, w: Float32Array, b: Float32Array): void {
    const s = this.slots[i] as Slot;
    this.memory.set(w, s.w);
    this.memory.set(b, s.b);
  }

  /**
   * Layer `i`'s convolution (padding 1) and ReLU of `x` (cin planes n x n): its
   * cout planes, a view valid until the next run.
   */
  run(i: number, x: Float32Array): Float32Array {
    const s = this.slots[i] as Slot;
    const { cin, cout, n } = s.shape;
    const plane = n * n;
    this.unroll(s, x);
    this.kernel(this.taps * 4, cin * 9, s.stride, s.w * 4, s.b * 4, s.coutP, this.out * 4);
    if (s.stride === plane) return this.memory.subarray(this.out, this.out + cout * plane);
    // A plane not a multiple of 8 pixels (the small last layers): drop the padding at the end of each row.
    const y = new Float32Array(cout * plane);
    for (let c = 0; c < cout; c++) y.set(this.memory.subarray(this.out + c * s.stride, this.out + c * s.stride + plane), c * plane);
    return y;
  }

  /**
   * Writes the tap rows of `x`: row (ci, ky, kx) holds, for each pixel, the
   * input it sees through that tap of the kernel (0 outside the image). Every
   * pixel of every row is written, so nothing needs clearing first.
   */
  private unroll(s: Slot, x: Float32Array): void {
    const m = this.memory;
    const { cin, n } = s.shape;
    const plane = n * n;
    let row = this.taps;
    for (let ci = 0; ci < cin; ci++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          // Columns xa..xb-1 see inside the image; column 0 (dx -1) or n-1 (dx 1) sees the padding.
          const xa = dx < 0 ? 1 : 0;
          const xb = dx > 0 ? n - 1 : n;
          for (let yy = 0; yy < n; yy++) {
            const o = row + yy * n;
            const sy = yy + dy;
            if (sy < 0 || sy >= n) {
              m.fill(0, o, o + n);
              continue;
            }
            const xi = ci * plane + sy * n + dx;
            if (xa > 0) m[o] = 0;
            for (let xx = xa; xx < xb; xx++) m[o + xx] = x[xi + xx] as number;
            if (xb < n) m[o + n - 1] = 0;
          }
          row += s.stride;
        }
      }
    }
  }
}
