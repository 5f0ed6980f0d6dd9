import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { downscaleToGray } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { SettleDetector, countChangedPixels, defaultSettleOptions } from '../../src/vision/settle.js';

describe('settle detector buffers', () => {
  it('reports the same states whether it shrinks each frame itself (reusing two buffers) or is handed a new small image', async () => {
    const cam = new SimulatedCamera({ seed: 31, lighting: 'desk-lamp', channels: 3 });
    const { frames } = cam.throwSequence();
    const own = new SettleDetector();
    const handed = new SettleDetector();
    const smalls: Uint8Array[] = [];
    let moving = 0;
    for await (const frame of frames) {
      const small = downscaleToGray(frame.image, defaultSettleOptions.downscale);
      const a = own.push(frame.image, frame.timestampMs);
      const b = handed.pushGray(small, frame.timestampMs);
      expect(a).toEqual(b);
      // The count is the one between this frame's grey and the previous frame's, both made afresh.
      const previous = smalls[smalls.length - 1];
      if (previous) expect(a.changedPixels).toBe(countChangedPixels({ ...small, data: previous }, small, defaultSettleOptions.pixelThreshold));
      if (a.changedPixels > 0) moving++;
      smalls.push(small.data);
    }
    // The sequence has motion in it, so the comparison above is not between still frames only.
    expect(moving).toBeGreaterThan(3);
  });

  it('starts afresh after reset and when the frame size changes', () => {
    const flat = (w: number, h: number, v: number): RgbImage => ({ width: w, height: h, data: new Uint8Array(w * h * 3).fill(v) });
    const d = new SettleDetector();
    d.push(flat(64, 32, 10), 0);
    expect(d.push(flat(64, 32, 10), 40).still).toBe(true);
    expect(d.push(flat(32, 32, 10), 80)).toMatchObject({ still: false, changedPixels: 0, stillRun: 0 });
    expect(d.push(flat(32, 32, 200), 120).changedPixels).toBe(64);
    d.reset();
    expect(d.push(flat(32, 32, 200), 160)).toMatchObject({ index: 0, still: false });
    expect(d.push(flat(32, 32, 200), 200)).toMatchObject({ index: 1, still: true, changedPixels: 0 });
  });
});
