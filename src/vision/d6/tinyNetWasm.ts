/**
 * TinyNet's forward convolutions (3x3 with ReLU, optional 2x2 max pooling) on a
 * WebAssembly SIMD kernel (tinyNetConv.wat). Each network keeps its own memory
 * holding its padded weights and its activations; the module is compiled once,
 * synchronously, from bytes shipped in tinyNetConvWasm.ts (no file reads).
 */
import { wasmKernel } from '../../core/wasmKernel.js';
import { tinyNetConvWasmBase64 } from './tinyNetConvWasm.js';

/** A 3x3 convolution's shape: input channels, output channels, side of the (square) input, and whether 2x2 max pooling follows. */
export interface ConvShape {
  readonly cin: number;
  readonly cout: number;
  readonly n: number;
  readonly pool: boolean;
}

interface Kernel {
  readonly unroll: (x: number, xstride: number, cin: number, n: number, taps: number, stride: number) => void;
  readonly conv: (p: number, k9: number, stride: number, pixels: number, w: number, b: number, cout: number, out: number, list: number, packed: number) => void;
  readonly convRows: (x: number, xstride: number, cin: number, n: number, w: number, b: number, cout: number, out: number, stride: number, list: number, packed: number) => void;
  readonly convQuads: (x: number, xstride: number, cin: number, w: number, b: number, cout: number, out: number, stride: number, list: number, packed: number) => void;
  readonly pool: (y: number, c: number, n: number, stride: number, out: number) => void;
}

const convKernel = wasmKernel<Kernel>(tinyNetConvWasmBase64);

/** Rounds up to a multiple of `m` (a power of two). */
const roundUp = (v: number, m: number): number => (v + m - 1) & -m;

interface Slot {
  readonly shape: ConvShape;
  /** Pixels computed: n x n rounded up to the kernel's eight-pixel passes. */
  readonly pixels: number;
  /** Floats from one tap row (and output plane) to the next: `pixels` and eight more (see the constructor). */
  readonly stride: number;
  /** Output channels padded to the kernel's four-channel passes (with zero weights). */
  readonly coutP: number;
  /** Float offsets of the weight rows [coutP][cin x 9] and biases [coutP] in the memory. */
  readonly w: number;
  readonly b: number;
}

/**
 * The convolution layers of one network, in one WebAssembly memory: their
 * weights, the activations between layers, the tap rows (the unrolled input of
 * the layer running) and the outputs before pooling. The memory never grows,
 * so the view of it stays valid.
 */
export class WasmConvs {
  private readonly memory: Float32Array;
  private readonly kernel: Kernel;
  private readonly slots: Slot[];
  /** Float offsets of the network's input and pooled outputs, of the tap rows and of the outputs (coutP rows of `stride`). */
  private readonly act: number;
  private readonly taps: number;
  private readonly out: number;
  /** Offsets of the kernel's scratch for a pass of eight pixels: the inputs of the taps it reads, eight floats a tap, and their weights' offsets. */
  private readonly packed: number;
  private readonly list: number;

  constructor(shapes: readonly ConvShape[]) {
    // Every buffer starts on a 32-byte boundary, so the kernel's vector loads and stores are aligned.
    let at = 0;
    let actFloats = 0;
    let tapFloats = 0;
    let outFloats = 0;
    let listInts = 0;
    this.slots = shapes.map((shape) => {
      const pixels = roundUp(shape.n * shape.n, 8);
      // Rows a power of two apart (1024 pixels, 4 KiB) would all fall in the same few cache sets, and the hundreds of
      // tap rows a pass of eight pixels reads would evict each other: eight floats more shift each row to other sets.
      const stride = pixels + 8;
      const coutP = roundUp(shape.cout, 4);
      const slot = { shape, pixels, stride, coutP, w: at, b: roundUp(at + coutP * shape.cin * 9, 8) };
      at = roundUp(slot.b + coutP, 8);
      actFloats = Math.max(actFloats, shape.cin * shape.n * shape.n);
      tapFloats = Math.max(tapFloats, shape.cin * 9 * stride);
      outFloats = Math.max(outFloats, coutP * stride);
      listInts = Math.max(listInts, shape.cin * 9);
      return slot;
    });
    this.act = at;
    this.taps = roundUp(this.act + actFloats, 8);
    this.out = roundUp(this.taps + tapFloats, 8);
    this.packed = roundUp(this.out + outFloats, 8);
    this.list = roundUp(this.packed + 8 * listInts, 8);
    const { kernel, buffer } = convKernel((this.list + listInts) * 4);
    this.kernel = kernel;
    this.memory = new Float32Array(buffer);
  }

  /**
   * Copies layer `i`'s weights ([cout][cin x 9]) and biases in (the padding channels stay zero). The kernel reads the
   * weights of four channels at a tap side by side, so they are stored [cout / 4][cin x 9][4].
   */
  load(i: number, w: Float32Array, b: Float32Array): void {
    const s = this.slots[i] as Slot;
    const { cin, cout } = s.shape;
    const k9 = cin * 9;
    for (let co = 0; co < cout; co++) {
      const at = s.w + (co >> 2) * k9 * 4 + (co & 3);
      for (let k = 0; k < k9; k++) this.memory[at + 4 * k] = w[co * k9 + k] as number;
    }
    this.memory.set(b, s.b);
  }

  /**
   * The last layer's planes (after ReLU and pooling) for `input` (the first layer's cin planes n x n), where the kernel
   * left them: plane c from `data[c * stride]` (a view of the memory, valid until the next call; an unpooled side that
   * is not a multiple of 8 leaves padding between planes, which the reader skips).
   */
  lastPlanes(input: Float32Array): { data: Float32Array; stride: number } {
    const { unroll, conv, convRows, convQuads, pool } = this.kernel;
    const first = (this.slots[0] as Slot).shape;
    if (input.length !== first.cin * first.n * first.n) throw new RangeError(`The input holds ${input.length} numbers but this network reads ${first.cin} planes of ${first.n} x ${first.n}.`);
    this.memory.set(input, this.act);
    // The current layer's input: at x, planes xstride floats apart.
    let x = this.act;
    let xstride = first.n * first.n;
    let planes = 0;
    for (const s of this.slots) {
      const { cin, cout, n } = s.shape;
      if (n % 8 === 0 || n === 4) {
        // A pass's eight pixels lie in one row (or two rows of four): the kernel reads the input planes themselves, no
        // tap rows (for a side of 4, unrolling them took as long as the layer's sums). They must not be the outputs it
        // writes: an unpooled layer's outputs are moved to the input's place first.
        if (x !== this.act) {
          for (let c = 0; c < cin; c++) this.memory.copyWithin(this.act + c * n * n, x + c * xstride, x + c * xstride + n * n);
          x = this.act;
          xstride = n * n;
        }
        if (n === 4) convQuads(x * 4, xstride, cin, s.w * 4, s.b * 4, s.coutP, this.out * 4, s.stride, this.list * 4, this.packed * 4);
        else convRows(x * 4, xstride, cin, n, s.w * 4, s.b * 4, s.coutP, this.out * 4, s.stride, this.list * 4, this.packed * 4);
      } else {
        unroll(x * 4, xstride, cin, n, this.taps * 4, s.stride);
        conv(this.taps * 4, cin * 9, s.stride, s.pixels, s.w * 4, s.b * 4, s.coutP, this.out * 4, this.list * 4, this.packed * 4);
      }
      planes = cout;
      if (s.shape.pool) {
        pool(this.out * 4, cout, n, s.stride, this.act * 4);
        x = this.act;
        xstride = (n >> 1) * (n >> 1);
      } else {
        x = this.out;
        xstride = s.stride;
      }
    }
    return { data: this.memory.subarray(x, x + planes * xstride), stride: xstride };
  }
}
