/**
 * The simulated camera's sensor: a frame (RGBA, as drawn) scaled by each pixel's gain (lighting gradient and
 * vignette) and the light's tint, its glare added, then one sensor-noise value per channel, stored as RGB bytes.
 *
 * Run on a WebAssembly kernel (sensorKernel.wat, its bytes in sensorKernelWasm.ts): the same loop in JavaScript took
 * 12-20 ms a 1280x720 frame, most of a simulated session's time. Wherever the frame is its empty platform (all of it
 * but the squares around the dice), the scaled and lit value of each channel is worked out once, so only the noise is
 * added there. The kernel does each sum in the order JavaScript did, in doubles, and stores a byte as a
 * Uint8ClampedArray does: the frames are byte for byte what the JavaScript loop made.
 *
 * The frames the camera draws into live in the kernel's memory (`frameBuffer`), so they are not copied in.
 */
import type { Square } from './frameSquares.js';
import { DicerigError } from '../../core/errors.js';
import type { KernelInstance } from '../../core/wasmKernel.js';
import { WASM_PAGE_BYTES, wasmKernel } from '../../core/wasmKernel.js';
import { sensorKernelWasmBase64 } from './sensorKernelWasm.js';

interface Kernel {
  readonly light: (rgba: number, gain: number, glare: number, noise: number, mask: number, u: number, out: number, n: number, tr: number, tg: number, tb: number) => void;
  readonly lightLit: (lit: number, noise: number, mask: number, u: number, out: number, n: number) => void;
}

const sensorKernel = wasmKernel<Kernel>(sensorKernelWasmBase64);

/** The noise table's copies of its first values, past its end: the kernel reads four neighbours at once. */
const NOISE_PAD = 4;

/**
 * Memories of released sensors (`Sensor.release`), taken by the next sensor of the same size: a fresh 1280x720
 * sensor's 38 MB cost some 30 ms of CPU to fault in, zero and free again, a third of a simulated session's set-up.
 * A sensor writes every value a frame is made of before reading it (frames, gain, glare, lit values, noise; what the
 * kernel reads past their ends, working in fours, goes only to output bytes cut off), so what a memory held before
 * changes no frame. At most two are kept (76 MB), the latest released.
 */
const spares: KernelInstance<Kernel>[] = [];
const MAX_SPARES = 2;

/** A released sensor was asked to capture. */
export class SensorReleasedError extends DicerigError {}

export class Sensor {
  private readonly kernel: Kernel;
  private readonly buffer: ArrayBuffer;
  private readonly pixels: number;
  /** Byte offsets in the kernel's memory. */
  private readonly at: { readonly frames: readonly number[]; readonly gain: number; readonly glare: number; readonly lit: number; readonly noise: number; readonly out: number };
  /** The noise table in the order a frame reads it, filled by the camera before each capture. */
  readonly noise: Float32Array;
  /** The same table followed by copies of its first values (`NOISE_PAD`), as the kernel reads it. */
  private readonly padded: Float32Array;
  private litFrom: Uint8ClampedArray | undefined;
  private released = false;

  /**
   * A sensor of `width` x `height` pixels with `frames` frame buffers, each pixel's `gain` and `glare`, the light's
   * `tint`, and a noise table of `noiseLength` values (a power of two). The gain and glare are given as arrays, or as
   * functions that fill them in the sensor's memory (every value: the memory may hold another sensor's), which spares
   * a copy and two fresh 1280x720 arrays.
   */
  constructor(
    private readonly width: number,
    height: number,
    frames: number,
    gain: Float32Array | ((into: Float32Array) => void),
    glare: Float32Array | ((into: Float32Array) => void),
    private readonly tint: readonly [number, number, number],
    noiseLength: number,
  ) {
    const n = width * height;
    this.pixels = n;
    if ((typeof gain !== 'function' && gain.length !== n) || (typeof glare !== 'function' && glare.length !== n)) {
      throw new RangeError(`a ${width}x${height} sensor needs a gain and a glare for each of its ${n} pixels (given ${typeof gain === 'function' ? 'a filler' : gain.length} and ${typeof glare === 'function' ? 'a filler' : glare.length})`);
    }
    // The kernel wraps round the table with a mask.
    if (!(noiseLength >= NOISE_PAD && (noiseLength & (noiseLength - 1)) === 0)) throw new RangeError(`a sensor's noise table holds a power of two values, at least ${NOISE_PAD} (given ${noiseLength})`);
    // Every buffer on a 16-byte boundary: the kernel's vector loads of the lit values and the noise.
    const align = (v: number): number => Math.ceil(v / 16) * 16;
    const frameAt = Array.from({ length: frames }, (_, i) => i * align(4 * n));
    const gainAt = frames * align(4 * n);
    const glareAt = gainAt + align(4 * n);
    const litAt = glareAt + align(4 * n);
    // The lit values and the output run 4 channels past the end: the kernel works in fours.
    const noiseAt = litAt + align(8 * (3 * n + 4));
    const outAt = noiseAt + align(4 * (noiseLength + NOISE_PAD));
    this.at = { frames: frameAt, gain: gainAt, glare: glareAt, lit: litAt, noise: noiseAt, out: outAt };
    const bytes = Math.ceil((outAt + 3 * n + 4) / WASM_PAGE_BYTES) * WASM_PAGE_BYTES;
    let spare = spares.length - 1;
    while (spare >= 0 && spares[spare]?.buffer.byteLength !== bytes) spare--;
    const { kernel, buffer } = spare >= 0 ? (spares.splice(spare, 1)[0] as KernelInstance<Kernel>) : sensorKernel(bytes);
    this.kernel = kernel;
    this.buffer = buffer;
    for (const [values, at] of [[gain, gainAt], [glare, glareAt]] as const) {
      const into = new Float32Array(this.buffer, at, n);
      if (typeof values === 'function') values(into);
      else into.set(values);
    }
    this.padded = new Float32Array(this.buffer, noiseAt, noiseLength + NOISE_PAD);
    this.noise = this.padded.subarray(0, noiseLength);
  }

  /** Frame buffer `i` (RGBA), in the kernel's memory: what the camera draws into. */
  frameBuffer(i: number): Uint8ClampedArray {
    this.checkLive();
    const at = this.at.frames[i];
    if (at === undefined) throw new RangeError(`this sensor has ${this.at.frames.length} frame buffers, not a buffer ${i}`);
    return new Uint8ClampedArray(this.buffer, at, 4 * this.pixels);
  }

  /**
   * Frame `rgba` (one of the frame buffers) through the sensor, its noise read from `noise[u + 1]` on (wrapping round):
   * `rgba` must equal `platform` except in the `changed` squares. A fresh RGB image's bytes.
   */
  capture(rgba: Uint8ClampedArray, platform: Uint8ClampedArray, changed: readonly Square[], u: number): Uint8Array {
    this.checkLive();
    if (rgba.buffer !== this.buffer) throw new RangeError('the sensor reads only frames drawn into its own frame buffers');
    const { kernel, at, width, noise } = this;
    const mask = noise.length - 1;
    this.padded.copyWithin(noise.length, 0, NOISE_PAD);
    kernel.lightLit(this.lit(platform), at.noise, mask, u, at.out, 3 * this.pixels);
    const [tr, tg, tb] = this.tint;
    for (const { x0, y0, x1, y1 } of changed) {
      for (let y = y0; y < y1; y++) {
        const p = y * width + x0;
        kernel.light(rgba.byteOffset + 4 * p, at.gain + 4 * p, at.glare + 4 * p, at.noise, mask, (u + 3 * p) & mask, at.out + 3 * p, x1 - x0, tr, tg, tb);
      }
    }
    return new Uint8Array(this.buffer, at.out, 3 * this.pixels).slice();
  }

  /**
   * Gives this sensor's memory to the next sensor made of its size. This sensor and the frame buffers it gave out are
   * not to be used again: its captures throw.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    // The latest released first: the oldest spare makes way.
    if (spares.length >= MAX_SPARES) spares.shift();
    spares.push({ kernel: this.kernel, buffer: this.buffer });
  }

  /** Throws once the sensor is released: its memory, frame buffers included, may be another sensor's by then. */
  checkLive(): void {
    if (this.released) throw new SensorReleasedError('A simulated camera was used after it was released: its sensor memory may be another camera\'s now.');
  }

  /** The byte offset of `platform`'s channels scaled and lit, worked out the first time it is asked for. */
  private lit(platform: Uint8ClampedArray): number {
    if (this.litFrom !== platform) {
      const lit = new Float64Array(this.buffer, this.at.lit, 3 * this.pixels);
      const gain = new Float32Array(this.buffer, this.at.gain, this.pixels);
      const glare = new Float32Array(this.buffer, this.at.glare, this.pixels);
      const [tr, tg, tb] = this.tint;
      for (let i = 0, j = 0, o = 0; i < this.pixels; i++, j += 4, o += 3) {
        const g = gain[i] as number;
        const add = glare[i] as number;
        lit[o] = (platform[j] as number) * g * tr + add;
        lit[o + 1] = (platform[j + 1] as number) * g * tg + add;
        lit[o + 2] = (platform[j + 2] as number) * g * tb + add;
      }
      this.litFrom = platform;
    }
    return this.at.lit;
  }
}
