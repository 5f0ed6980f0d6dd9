import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kernelModuleSource, SENSOR_KERNEL } from '../../scripts/wasm-kernel.js';
import { Sensor } from '../../src/camera/sim/sensor.js';
import type { Square } from '../../src/camera/sim/frameSquares.js';
import { seededRandom } from '../../src/stats/random.js';

/** The sensor as the simulated camera computed it in JavaScript before the kernel: every pixel through one formula. */
function reference(rgba: Uint8ClampedArray, gain: Float32Array, glare: Float32Array, tint: readonly [number, number, number], noise: Float32Array, u: number): Uint8Array {
  const out = new Uint8ClampedArray(gain.length * 3);
  const mask = noise.length - 1;
  const [tr, tg, tb] = tint;
  for (let i = 0, j = 0, o = 0; i < gain.length; i++, j += 4, o += 3) {
    const g = gain[i] as number;
    const add = glare[i] as number;
    out[o] = (rgba[j] as number) * g * tr + add + (noise[(u = (u + 1) & mask)] as number);
    out[o + 1] = (rgba[j + 1] as number) * g * tg + add + (noise[(u = (u + 1) & mask)] as number);
    out[o + 2] = (rgba[j + 2] as number) * g * tb + add + (noise[(u = (u + 1) & mask)] as number);
  }
  return new Uint8Array(out.buffer);
}

interface Scene {
  readonly sensor: Sensor;
  readonly gain: Float32Array;
  readonly glare: Float32Array;
  readonly tint: readonly [number, number, number];
  readonly platform: Uint8ClampedArray;
}

function scene(width: number, height: number, seed: number, noiseLength = 64): Scene {
  const random = seededRandom(seed);
  const n = width * height;
  const gain = Float32Array.from({ length: n }, () => 0.4 + 1.2 * random());
  // Some glare strong enough to saturate, most pixels none.
  const glare = Float32Array.from({ length: n }, () => (random() < 0.2 ? 300 * random() : 0));
  const tint = [1.05, 1, 0.9] as const;
  const platform = Uint8ClampedArray.from({ length: 4 * n }, () => Math.floor(256 * random()));
  // Exact halves after the noise, to check the rounding: gain 1, no glare, a whole byte, a noise of 0.5 below.
  for (let i = 0; i < Math.min(n, 6); i++) {
    gain[i] = 1;
    glare[i] = 0;
  }
  return { sensor: new Sensor(width, height, 2, gain, glare, tint, noiseLength), gain, glare, tint, platform };
}

function fillNoise(sensor: Sensor, seed: number): void {
  const random = seededRandom(seed);
  for (let i = 0; i < sensor.noise.length; i++) sensor.noise[i] = i < 20 ? 0.5 * (i % 2 === 0 ? 1 : -1) : 60 * (random() - 0.5);
}

describe("the simulated camera's sensor", () => {
  it('ships the module its .wat compiles to, byte for byte', async () => {
    expect(await kernelModuleSource(SENSOR_KERNEL)).toBe(readFileSync(SENSOR_KERNEL.ts, 'utf8'));
  });

  it('lights a frame byte for byte as the JavaScript formula did, inside and outside the changed squares, across the noise table\'s wrap', () => {
    // 3 channels x 35 pixels is not a multiple of the kernel's four: the last channels are done too.
    for (const [width, height] of [[7, 5], [16, 9], [33, 20]] as const) {
      const s = scene(width, height, width);
      const frame = s.sensor.frameBuffer(0);
      frame.set(s.platform);
      const random = seededRandom(height);
      const changed: Square[] = [
        { x0: 1, y0: 1, x1: 4, y1: 3 },
        { x0: 2, y0: 2, x1: width, y1: height },
      ];
      for (const { x0, y0, x1, y1 } of changed) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) for (let c = 0; c < 3; c++) frame[(y * width + x) * 4 + c] = Math.floor(256 * random());
      for (const u of [0, 5, 62, 63]) {
        fillNoise(s.sensor, u + 1);
        const got = s.sensor.capture(frame, s.platform, changed, u);
        expect(Array.from(got), `${width}x${height}, u ${u}`).toEqual(Array.from(reference(frame, s.gain, s.glare, s.tint, s.sensor.noise, u)));
      }
    }
  });

  it('lights a frame drawn into its second buffer over another platform, the platform\'s lit values made again', () => {
    const s = scene(12, 8, 3);
    fillNoise(s.sensor, 9);
    const plain = s.sensor.frameBuffer(0);
    plain.set(s.platform);
    expect(Array.from(s.sensor.capture(plain, s.platform, [], 7))).toEqual(Array.from(reference(plain, s.gain, s.glare, s.tint, s.sensor.noise, 7)));
    const other = s.platform.map((v) => 255 - v);
    const second = s.sensor.frameBuffer(1);
    second.set(other);
    expect(Array.from(s.sensor.capture(second, other, [], 7))).toEqual(Array.from(reference(second, s.gain, s.glare, s.tint, s.sensor.noise, 7)));
  });

  it('returns an image of its own, not a view its next capture overwrites', () => {
    const s = scene(6, 4, 4);
    fillNoise(s.sensor, 1);
    const frame = s.sensor.frameBuffer(0);
    frame.set(s.platform);
    const first = s.sensor.capture(frame, s.platform, [], 0);
    const kept = Array.from(first);
    s.sensor.noise.fill(100);
    s.sensor.capture(frame, s.platform, [], 0);
    expect(Array.from(first)).toEqual(kept);
  });

  it('lends a released sensor\'s memory to the next one of its size, which lights frames as on fresh memory whatever it held, and refuses the released one', () => {
    const [width, height] = [33, 20];
    const changed: Square[] = [{ x0: 3, y0: 2, x1: 30, y1: 17 }];
    const lit = (s: Scene): number[] => {
      const frame = s.sensor.frameBuffer(0);
      frame.set(s.platform);
      for (const { x0, y0, x1, y1 } of changed) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) frame[(y * width + x) * 4] = 255 - (frame[(y * width + x) * 4] as number);
      fillNoise(s.sensor, 2);
      return Array.from(s.sensor.capture(frame, s.platform, changed, 5));
    };
    const fresh = lit(scene(width, height, 8));
    const first = scene(width, height, 9);
    const memory = first.sensor.frameBuffer(0).buffer;
    first.sensor.release();
    // Whatever the memory holds (here a byte no frame, gain or lit value would leave everywhere), the next sensor lights alike.
    new Uint8Array(memory).fill(0xab);
    const next = scene(width, height, 8);
    expect(next.sensor.frameBuffer(0).buffer).toBe(memory);
    expect(lit(next)).toEqual(fresh);
    expect(() => first.sensor.frameBuffer(0)).toThrow(/used after it was released/);
    expect(() => first.sensor.capture(next.sensor.frameBuffer(0), first.platform, [], 0)).toThrow(/used after it was released/);
    // Released again, the memory goes to the next sensor of its size only: one of another size takes fresh memory.
    next.sensor.release();
    expect(scene(width, height + 40, 8).sensor.frameBuffer(0).buffer).not.toBe(memory);
    expect(scene(width, height, 8).sensor.frameBuffer(0).buffer).toBe(memory);
  });

  it('refuses a frame drawn outside its buffers, a buffer it does not have, lighting of the wrong size and a noise table it cannot wrap round', () => {
    const s = scene(6, 4, 5);
    expect(() => s.sensor.capture(new Uint8ClampedArray(96), s.platform, [], 0)).toThrow(/own frame buffers/);
    expect(() => s.sensor.frameBuffer(2)).toThrow(/2 frame buffers, not a buffer 2/);
    expect(() => new Sensor(6, 4, 1, new Float32Array(23), new Float32Array(24), [1, 1, 1], 64)).toThrow(/each of its 24 pixels \(given 23 and 24\)/);
    expect(() => new Sensor(6, 4, 1, new Float32Array(24), new Float32Array(24), [1, 1, 1], 48)).toThrow(/power of two values, at least 4 \(given 48\)/);
  });
});
