import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import type { RgbImage } from '../../src/core/image.js';
import { SettleDetector, defaultSettleOptions } from '../../src/vision/settle.js';

/** Two throws in each of four lightings (three of them tuning presets, and the held-out evening). */
function* simulatedThrows() {
  for (const [seed, lighting] of [
    [1, 'studio'],
    [2, 'dim'],
    [3, 'desk-lamp'],
    [4, 'evening'],
  ] as const) {
    const cam = new SimulatedCamera({ seed, lighting, channels: 4, cockedRate: 0.2 });
    for (let t = 0; t < 2; t++) yield cam.throwSequence();
  }
}

function flat(width: number, height: number, value: number): RgbImage {
  return { width, height, data: new Uint8Array(width * height * 3).fill(value) };
}

describe('settle detector', () => {
  it('declares settled after K still frames and reports the rest frame and the time it took', () => {
    const d = new SettleDetector({ ...defaultSettleOptions, stillFrames: 3 });
    const moving = [flat(64, 64, 10), flat(64, 64, 90), flat(64, 64, 180)];
    const states = [...moving, flat(64, 64, 180), flat(64, 64, 180), flat(64, 64, 180)].map((f, i) => d.push(f, i * 40));
    expect(states.map((s) => s.settled)).toEqual([false, false, false, false, false, true]);
    expect(states[5]?.restFrameIndex).toBe(2);
    expect(states[5]?.settleMs).toBe(80);
  });

  it('never declares settled while a simulated die still moves, and does within K+1 frames of the true settle', async () => {
    const k = defaultSettleOptions.stillFrames;
    for (const { frames, truth } of simulatedThrows()) {
      const d = new SettleDetector();
      let declared: number | undefined;
      for await (const frame of frames) {
        const s = d.push(frame.image, frame.timestampMs);
        if (s.settled && declared === undefined) {
          declared = frame.index;
          expect(s.restFrameIndex).toBe(truth.settleFrameIndex);
        }
      }
      expect(declared).toBeDefined();
      // A die moves until settleFrameIndex; K still differences are needed after it.
      expect(declared as number).toBeGreaterThanOrEqual(truth.settleFrameIndex + k);
      expect(declared as number).toBeLessThanOrEqual(truth.settleFrameIndex + k + 1);
    }
  });

  it('lets the caller drop frames after strong motion, never declaring rest early and noticing it at most 2 frames late', async () => {
    const k = defaultSettleOptions.stillFrames;
    let seen = 0;
    let examined = 0;
    for (const { frames, truth } of simulatedThrows()) {
      const d = new SettleDetector();
      const times = new Map<number, number>();
      let declared: { index: number; restMs: number } | undefined;
      let first: number | undefined;
      for await (const frame of frames) {
        seen++;
        times.set(frame.index, frame.timestampMs);
        first ??= frame.timestampMs;
        if (!d.wantsFrame()) continue;
        examined++;
        const s = d.push(frame.image, frame.timestampMs);
        if (s.settled && declared === undefined) declared = { index: frame.index, restMs: first + (s.settleMs ?? 0) };
      }
      expect(declared).toBeDefined();
      const { index, restMs } = declared as { index: number; restMs: number };
      expect(index).toBeGreaterThanOrEqual(truth.settleFrameIndex + k);
      expect(index).toBeLessThanOrEqual(truth.settleFrameIndex + k + 1 + 2);
      // The rest pose it reports is a frame at or after the true settle, at most 2 frames after.
      expect(restMs).toBeGreaterThanOrEqual(times.get(truth.settleFrameIndex) as number);
      expect(restMs).toBeLessThanOrEqual(times.get(truth.settleFrameIndex + 2) as number);
    }
    // Most of a throw's frames show tumbling dice: a good share need no look.
    expect(examined / seen).toBeLessThan(0.75);
  });

  it('shrinks a frame pushed again (a camera repeating its rest frame) once, and sees it as still', () => {
    const d = new SettleDetector();
    const a = flat(64, 64, 10);
    const b = flat(64, 64, 200);
    expect(d.push(a, 0).changedPixels).toBe(0);
    expect(d.push(b, 33).changedPixels).toBe(16 * 16);
    expect(d.push(b, 66)).toMatchObject({ changedPixels: 0, still: true });
    expect(d.push(a, 99).changedPixels).toBe(16 * 16);
  });
});
