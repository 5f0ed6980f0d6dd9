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

/** The kernel reads whole f32x4 lanes: rows and channel groups are padded to multiples of 4. */
const up4 = (v: number): number => (v + 3) & ~3;

const PAGE_BYTES = 65_536;

interface Slot {
  readonly shape: ConvShape;
  /** Patch row length (cin x 9, padded) and output channels padded. */
  readonly k9p: number;
  readonly coutP: number;
  /** Float offsets of the weight rows [coutP][k9p] and biases [coutP] in the memory. */
  readonly w: number;
  readonly b: number;
}

/** The convolution layers of one network, in one WebAssembly memory. */
export class WasmConvs {
  private readonly memory: Float32Array;
  private readonly kernel: ConvKernel;
  private readonly slots: Slot[];
  /** Float offsets of the patch buffer (one padded row per pixel) and the output buffer (coutP planes). */
  private readonly patches: number;
  private readonly out: number;

  constructor(shapes: readonly ConvShape[]) {
    let at = 0;
    let patchFloats = 0;
    let outFloats = 0;
    this.slots = shapes.map((shape) => {
      const k9p = up4(shape.cin * 9);
      const coutP = up4(shape.cout);
      const slot = { shape, k9p, coutP, w: at, b: at + coutP * k9p };
      at += coutP * k9p + coutP;
      patchFloats = Math.max(patchFloats, shape.n * shape.n * k9p);
      outFloats = Math.max(outFloats, shape.n * shape.n * coutP);
      return slot;
    });
    this.patches = at;
    this.out = at + patchFloats;
    const memory = new wasm.Memory({ initial: Math.ceil(((this.out + outFloats) * 4) / PAGE_BYTES) });
    const instance = new wasm.Instance(kernelModule(), { env: { memory } });
    this.kernel = instance.exports['conv'] as ConvKernel;
    // The memory never grows, so this view stays valid.
    this.memory = new Float32Array(memory.buffer);
  }

  /** Copies layer `i`'s weights ([cout][cin x 9]) and biases into its padded rows (the padding stays zero). */
  load(i: number, w: Float32Array, b: Float32Array): void {
    const s = this.slots[i] as Slot;
    const k9 = s.shape.cin * 9;
    for (let co = 0; co < s.shape.cout; co++) this.memory.set(w.subarray(co * k9, (co + 1) * k9), s.w + co * s.k9p);
    this.memory.set(b, s.b);
  }

  /** Layer `i`'s patch buffer (a row of `stride` floats per pixel, zeroed) for the caller to unroll its input into. */
  patchRows(i: number): { rows: Float32Array; stride: number } {
    const s = this.slots[i] as Slot;
    const rows = this.memory.subarray(this.patches, this.patches + s.shape.n * s.shape.n * s.k9p);
    rows.fill(0);
    return { rows, stride: s.k9p };
  }

  /** Runs layer `i` on its patch rows: its cout planes after ReLU, a view valid until the next run. */
  run(i: number): Float32Array {
    const s = this.slots[i] as Slot;
    const plane = s.shape.n * s.shape.n;
    this.kernel(this.patches * 4, s.k9p, plane, s.w * 4, s.b * 4, s.coutP, this.out * 4);
    return this.memory.subarray(this.out, this.out + s.shape.cout * plane);
  }
}
