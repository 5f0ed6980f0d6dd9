/**
 * The grey image of 4x4 blocks on a WebAssembly kernel (grayKernel.wat): the settle check shrinks every camera frame
 * this way, and the kernel does it in vectors some 3-4 times faster than the JavaScript word path (frame copied in
 * included). The bytes are the same: each block's R + 2G + B over its 16 pixels, over 64, rounded half up.
 * Also the locator's colour sums of 4x4 blocks (`sums4Kernel`), the same integers as the JavaScript word path, and
 * with them which blocks changed from the empty platform's (`sums4ChangedKernel`).
 */
import { grayKernelWasmBase64 } from './grayKernelWasm.js';
import { wasmKernel, type KernelInstance } from './wasmKernel.js';

interface Kernel {
  gray4(rgb: number, width: number, height: number, out: number): void;
  sums4(rgb: number, width: number, height: number, out: number): void;
  changed(a: number, b: number, blocks: number, thr: number, out: number): void;
}

const grayKernel = wasmKernel<Kernel>(grayKernelWasmBase64);

/** One instance for the process, on a memory as large as the widest frame's strip yet (a new one when a wider comes). */
let instance: KernelInstance<Kernel> | undefined;

/**
 * Rows copied in and shrunk at a time: a strip (180 kB of a 1280-pixel frame) stays in the cache between its copy and
 * the kernel's read, where a whole frame copied in would be read from memory twice. A multiple of 4.
 */
const STRIP_ROWS = 48;

/** The process's instance, on a memory of `bytes` at least (a new one, larger, when a wider frame comes). */
function instanceOf(bytes: number): KernelInstance<Kernel> {
  if (instance === undefined || instance.buffer.byteLength < bytes) instance = grayKernel(bytes);
  return instance;
}

/** Whether `gray4Kernel` and `sums4Kernel` take frames of this width: whole 48-byte groups of 16 pixels a row. */
export const kernelTakesWidth = (width: number): boolean => width > 0 && width % 16 === 0;

/**
 * Writes the `width / 4` x `height / 4` grey blocks of an RGB frame (`rgb`, its width a multiple of 16) into `out`.
 * (The frame comes as its bytes and size, not as image.ts's RgbImage, which would make the two modules import each other.)
 */
export function gray4Kernel(rgb: Uint8Array, width: number, height: number, out: Uint8Array): void {
  if (!kernelTakesWidth(width)) throw new RangeError(`the grey kernel takes widths that are a multiple of 16, not ${width}`);
  const w = width / 4;
  const h = Math.floor(height / 4);
  if (out.length !== w * h) throw new RangeError(`the grey of a ${width}x${height} frame is ${w * h} bytes, not ${out.length}`);
  const rowBytes = width * 3;
  // Only the rows of whole blocks are read.
  if (rgb.length < rowBytes * h * 4) throw new RangeError(`a ${width}x${height} RGB frame is ${width * height * 3} bytes, not ${rgb.length}`);
  const stripBytes = rowBytes * STRIP_ROWS;
  const stripOut = (STRIP_ROWS / 4) * w;
  const { kernel, buffer } = instanceOf(stripBytes + stripOut);
  const memory = new Uint8Array(buffer);
  for (let y = 0; y < h * 4; y += STRIP_ROWS) {
    const rows = Math.min(STRIP_ROWS, h * 4 - y);
    memory.set(rgb.subarray(y * rowBytes, (y + rows) * rowBytes), 0);
    kernel.gray4(0, width, rows, stripBytes);
    out.set(memory.subarray(stripBytes, stripBytes + (rows / 4) * w), (y / 4) * w);
  }
}

/**
 * Writes the R, G, B sums of the `width / 4` x `height / 4` blocks of 4x4 pixels of an RGB frame (`rgb`, its width a
 * multiple of 16) into `out`, 3 values a block, row-major: what image.ts's `blockSums` gives with factor 4, some three
 * times faster than its JavaScript word path, the frame's copy in included.
 */
export function sums4Kernel(rgb: Uint8Array, width: number, height: number, out: Uint32Array): void {
  if (!kernelTakesWidth(width)) throw new RangeError(`the block-sum kernel takes widths that are a multiple of 16, not ${width}`);
  const w = width / 4;
  const h = Math.floor(height / 4);
  if (out.length !== w * h * 3) throw new RangeError(`the block sums of a ${width}x${height} frame are ${w * h * 3} values, not ${out.length}`);
  const rowBytes = width * 3;
  if (rgb.length < rowBytes * h * 4) throw new RangeError(`a ${width}x${height} RGB frame is ${width * height * 3} bytes, not ${rgb.length}`);
  const stripBytes = rowBytes * STRIP_ROWS;
  const stripValues = (STRIP_ROWS / 4) * w * 3;
  const { kernel, buffer } = instanceOf(stripBytes + 4 * stripValues);
  const memory = new Uint8Array(buffer);
  // The sums' words start right after the strip (its length a multiple of 4: 3 bytes x a multiple of 16 pixels).
  const sums = new Uint32Array(buffer, stripBytes, stripValues);
  for (let y = 0; y < h * 4; y += STRIP_ROWS) {
    const rows = Math.min(STRIP_ROWS, h * 4 - y);
    memory.set(rgb.subarray(y * rowBytes, (y + rows) * rowBytes), 0);
    kernel.sums4(0, width, rows, stripBytes);
    out.set(sums.subarray(0, (rows / 4) * w * 3), (y / 4) * w * 3);
  }
}

/**
 * `sums4Kernel`, and for each block whether it changed from the reference's sums (`reference`, the same layout): 1 in
 * `changed` where some channel's sum differs from the reference's by more than `threshold` (a whole number, 0 or more),
 * else 0. The locator's mask looks only at changed blocks (a frame is mostly unchanged platform); compared in vectors,
 * strip by strip while the sums are at hand, rather than in JavaScript over the whole frame's sums again.
 */
export function sums4ChangedKernel(rgb: Uint8Array, width: number, height: number, out: Uint32Array, reference: Uint32Array, threshold: number, changed: Uint8Array): void {
  if (!kernelTakesWidth(width)) throw new RangeError(`the block-sum kernel takes widths that are a multiple of 16, not ${width}`);
  const w = width / 4;
  const h = Math.floor(height / 4);
  if (out.length !== w * h * 3 || reference.length !== out.length) throw new RangeError(`the block sums of a ${width}x${height} frame are ${w * h * 3} values, not ${out.length} (reference ${reference.length})`);
  if (changed.length !== w * h) throw new RangeError(`a ${width}x${height} frame has ${w * h} blocks, not ${changed.length}`);
  if (!Number.isInteger(threshold) || threshold < 0 || threshold > 0x7fffffff) throw new RangeError(`the change threshold must be a whole number from 0, not ${threshold}`);
  const rowBytes = width * 3;
  if (rgb.length < rowBytes * h * 4) throw new RangeError(`a ${width}x${height} RGB frame is ${width * height * 3} bytes, not ${rgb.length}`);
  const stripBytes = rowBytes * STRIP_ROWS;
  const stripBlocks = (STRIP_ROWS / 4) * w;
  const stripValues = stripBlocks * 3;
  // The strip, its sums, the reference's sums for it, then a byte a block.
  const refAt = stripBytes + 4 * stripValues;
  const flagsAt = refAt + 4 * stripValues;
  const { kernel, buffer } = instanceOf(flagsAt + stripBlocks);
  const memory = new Uint8Array(buffer);
  const sums = new Uint32Array(buffer, stripBytes, stripValues);
  const ref = new Uint32Array(buffer, refAt, stripValues);
  for (let y = 0; y < h * 4; y += STRIP_ROWS) {
    const rows = Math.min(STRIP_ROWS, h * 4 - y);
    const blocks = (rows / 4) * w;
    const first = (y / 4) * w;
    memory.set(rgb.subarray(y * rowBytes, (y + rows) * rowBytes), 0);
    kernel.sums4(0, width, rows, stripBytes);
    ref.set(reference.subarray(first * 3, (first + blocks) * 3));
    kernel.changed(stripBytes, refAt, blocks, threshold, flagsAt);
    out.set(sums.subarray(0, blocks * 3), first * 3);
    changed.set(memory.subarray(flagsAt, flagsAt + blocks), first);
  }
}
