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

  /** What the detectors made of one simulated throw. */
  interface ThrowSeen {
    readonly settleFrameIndex: number;
    /** Each frame's timestamp by index. */
    readonly times: ReadonlyMap<number, number>;
    /** A detector shown every frame: the frame it declared rest on, and the rest frame it reported. */
    readonly everyFrame: { index: number; restFrameIndex: number | undefined } | undefined;
    /** A detector that drops frames it does not want: the frame it declared rest on, and when it says the dice came to rest. */
    readonly dropping: { index: number; restMs: number } | undefined;
    readonly seen: number;
    readonly examined: number;
  }

  // Rendering the throws' frames is most of these tests' time: one pass shows each frame to both detectors.
  let throwsSeen: Promise<ThrowSeen[]> | undefined;
  const seeThrows = (): Promise<ThrowSeen[]> =>
    (throwsSeen ??= (async () => {
      const out: ThrowSeen[] = [];
      for (const { frames, truth } of simulatedThrows()) {
        const every = new SettleDetector();
        const dropping = new SettleDetector();
        const times = new Map<number, number>();
        let everyFrame: ThrowSeen['everyFrame'];
        let dropped: ThrowSeen['dropping'];
        let first: number | undefined;
        let seen = 0;
        let examined = 0;
        for await (const frame of frames) {
          seen++;
          times.set(frame.index, frame.timestampMs);
          first ??= frame.timestampMs;
          const s = every.push(frame.image, frame.timestampMs);
          if (s.settled && everyFrame === undefined) everyFrame = { index: frame.index, restFrameIndex: s.restFrameIndex };
          if (!dropping.wantsFrame()) continue;
          examined++;
          const t = dropping.push(frame.image, frame.timestampMs);
          if (t.settled && dropped === undefined) dropped = { index: frame.index, restMs: first + (t.settleMs ?? 0) };
        }
        out.push({ settleFrameIndex: truth.settleFrameIndex, times, everyFrame, dropping: dropped, seen, examined });
      }
      return out;
    })());

  it('never declares settled while a simulated die still moves, and does within K+1 frames of the true settle', async () => {
    const k = defaultSettleOptions.stillFrames;
    for (const t of await seeThrows()) {
      expect(t.everyFrame).toBeDefined();
      const { index, restFrameIndex } = t.everyFrame as { index: number; restFrameIndex: number | undefined };
      expect(restFrameIndex).toBe(t.settleFrameIndex);
      // A die moves until settleFrameIndex; K still differences are needed after it.
      expect(index).toBeGreaterThanOrEqual(t.settleFrameIndex + k);
      expect(index).toBeLessThanOrEqual(t.settleFrameIndex + k + 1);
    }
  });

  it('lets the caller drop frames after strong motion, never declaring rest early and noticing it at most 2 frames late', async () => {
    const k = defaultSettleOptions.stillFrames;
    const all = await seeThrows();
    for (const t of all) {
      expect(t.dropping).toBeDefined();
      const { index, restMs } = t.dropping as { index: number; restMs: number };
      expect(index).toBeGreaterThanOrEqual(t.settleFrameIndex + k);
      expect(index).toBeLessThanOrEqual(t.settleFrameIndex + k + 1 + 2);
      // The rest pose it reports is a frame at or after the true settle, at most 2 frames after.
      expect(restMs).toBeGreaterThanOrEqual(t.times.get(t.settleFrameIndex) as number);
      expect(restMs).toBeLessThanOrEqual(t.times.get(t.settleFrameIndex + 2) as number);
    }
    // Most of a throw's frames show tumbling dice: a good share need no look.
    const seen = all.reduce((n, t) => n + t.seen, 0);
    const examined = all.reduce((n, t) => n + t.examined, 0);
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
