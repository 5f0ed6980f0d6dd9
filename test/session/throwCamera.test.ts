import { describe, expect, it } from 'vitest';
import { frameSourceFrom, type Frame } from '../../src/camera/frameSource.js';
import { SimulatedClock } from '../../src/core/clock.js';
import { streamThrowCamera } from '../../src/session/throwCamera.js';
import { createRgb } from '../../src/core/image.js';

const image = createRgb(4, 4);

/** A live camera at 30 fps on the simulated clock, stamping frames with the clock. */
function liveSource(clock: SimulatedClock) {
  const state = { produced: 0 };
  const source = frameSourceFrom('test camera', async function* (): AsyncGenerator<Frame> {
    for (let i = 0; ; i++) {
      await clock.sleep(1000 / 30);
      state.produced++;
      yield { image, timestampMs: clock.now(), index: i };
    }
  });
  return { source, state };
}

async function take(frames: AsyncIterable<Frame>, n: number): Promise<Frame[]> {
  const out: Frame[] = [];
  for await (const f of frames) {
    out.push(f);
    if (out.length >= n) break;
  }
  return out;
}

describe('a live camera as a throw camera', () => {
  it('hands out only frames taken after the motion ended, never frames left over from before', async () => {
    const clock = new SimulatedClock(0);
    const { source, state } = liveSource(clock);
    const camera = streamThrowCamera(source, clock);
    // The rig tumbles for a second while nobody looks at the frames.
    await clock.sleep(1000);
    const first = await take(camera.watch(1000, { durationMs: 1000 }), 3);
    expect(first[0]?.timestampMs).toBeGreaterThanOrEqual(1000);
    expect(first[0]?.index).toBeGreaterThanOrEqual(29);
    expect(first.map((f) => f.index)).toEqual([first[0]?.index, (first[0]?.index ?? 0) + 1, (first[0]?.index ?? 0) + 2]);
    await clock.sleep(1500);
    const since = clock.now();
    const second = await take(camera.watch(since, { durationMs: 1200 }), 2);
    expect(second[0]?.timestampMs).toBeGreaterThanOrEqual(since);
    await camera.close();
    const after = state.produced;
    await clock.sleep(500);
    expect(state.produced).toBeLessThanOrEqual(after + 1);
  });

  it('replays a recording frame by frame, its time line moved to the session clock', async () => {
    const clock = new SimulatedClock(5000);
    const source = frameSourceFrom('recording', async function* (): AsyncGenerator<Frame> {
      for (let i = 0; i < 6; i++) yield { image, timestampMs: (i * 1000) / 30, index: i };
    });
    const camera = streamThrowCamera(source, clock, { replay: true });
    const a = await take(camera.watch(0, { durationMs: 1 }), 4);
    const b = await take(camera.watch(0, { durationMs: 1 }), 4);
    expect(a.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    expect(b.map((f) => f.index)).toEqual([4, 5]);
    expect(a[0]?.timestampMs).toBe(5000);
  });
});
