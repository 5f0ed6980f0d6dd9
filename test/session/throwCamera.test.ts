import { describe, expect, it } from 'vitest';
import { CameraFaultError, RecordingEndedError } from '../../src/camera/cameraErrors.js';
import { ffmpegStopped } from '../../src/camera/ffmpegSource.js';
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

  it('replays a recording frame by frame, its time line moved to the session clock, and says when it has no more frames', async () => {
    const clock = new SimulatedClock(5000);
    const source = frameSourceFrom('recording', async function* (): AsyncGenerator<Frame> {
      for (let i = 0; i < 6; i++) yield { image, timestampMs: (i * 1000) / 30, index: i };
    });
    const camera = streamThrowCamera(source, clock, { replay: true });
    const a = await take(camera.watch(0, { durationMs: 1 }), 4);
    const b: Frame[] = [];
    const end = await (async () => {
      for await (const f of camera.watch(0, { durationMs: 1 })) b.push(f);
    })().catch((e: unknown) => e);
    expect(a.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    expect(b.map((f) => f.index)).toEqual([4, 5]);
    expect(a[0]?.timestampMs).toBe(5000);
    expect(end).toBeInstanceOf(RecordingEndedError);
    expect((end as Error).message).toBe('recording has no more frames');
  });
});

describe('a live camera that stops', () => {
  /** A live source of `n` frames on the clock that then ends as `ending` says: ffmpeg's exit after frames, or a clean end. */
  function stoppingSource(clock: SimulatedClock, n: number, ending: 'fault' | 'clean', name = 'camera /dev/video7') {
    return frameSourceFrom(name, async function* (): AsyncGenerator<Frame> {
      for (let i = 0; i < n; i++) {
        await clock.sleep(1000 / 30);
        yield { image, timestampMs: clock.now(), index: i };
      }
      if (ending === 'fault') throw ffmpegStopped(name, 1, null, n, 'ioctl(VIDIOC_DQBUF): No such device\n');
    });
  }

  it('says so as a camera fault naming it and what ffmpeg last said, rather than ending the frames', async () => {
    const clock = new SimulatedClock(0);
    const camera = streamThrowCamera(stoppingSource(clock, 3, 'fault'), clock);
    const seen: number[] = [];
    const e = await (async () => {
      for await (const f of camera.watch(0, { durationMs: 1 })) seen.push(f.index);
    })().catch((x: unknown) => x);
    expect(seen.length).toBeGreaterThan(0);
    expect(e).toBeInstanceOf(CameraFaultError);
    expect(e).toMatchObject({ camera: 'camera /dev/video7', fault: 'ended', lastWords: 'ioctl(VIDIOC_DQBUF): No such device' });
    expect((e as Error).message).toBe('camera /dev/video7 stopped: ffmpeg exited with code 1 after 3 frames, saying "ioctl(VIDIOC_DQBUF): No such device"');
  });

  it('whose stream just ends is a camera fault too: a live camera never runs out of frames', async () => {
    const clock = new SimulatedClock(0);
    const camera = streamThrowCamera(stoppingSource(clock, 2, 'clean'), clock);
    const e = await take(camera.watch(0, { durationMs: 1 }), 10).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CameraFaultError);
    expect((e as Error).message).toBe('camera /dev/video7 stopped: its stream ended');
  });

  it('opened again, hands out the fresh source\'s frames, numbered afresh from 0', async () => {
    const clock = new SimulatedClock(0);
    let opened = 0;
    const open = (): ReturnType<typeof frameSourceFrom> & { reopen(): ReturnType<typeof frameSourceFrom> } => {
      opened++;
      return Object.assign(stoppingSource(clock, opened === 1 ? 2 : 1000, opened === 1 ? 'fault' : 'clean'), { reopen: open });
    };
    const camera = streamThrowCamera(open(), clock);
    await expect(take(camera.watch(0, { durationMs: 1 }), 10)).rejects.toBeInstanceOf(CameraFaultError);
    await camera.reopen?.();
    const since = clock.now();
    const after = await take(camera.watch(since, { durationMs: 1 }), 3);
    expect(opened).toBe(2);
    expect(after).toHaveLength(3);
    expect(after[0]?.timestampMs).toBeGreaterThanOrEqual(since);
    await camera.close();
  });

  it('cannot be opened again when its source cannot (the error says so)', async () => {
    const clock = new SimulatedClock(0);
    const camera = streamThrowCamera(stoppingSource(clock, 1, 'fault'), clock);
    await expect(camera.reopen?.()).rejects.toThrow('camera /dev/video7 cannot be opened again');
  });
});
