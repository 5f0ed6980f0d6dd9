/**
 * The throw loop when the camera stops delivering frames: stalled (the stream
 * open, no frame), ended (ffmpeg exited: the camera unplugged), or a recording
 * that runs out. Scripted rig and vision on a simulated clock; no real waits.
 */
import { describe, expect, it } from 'vitest';
import { ffmpegStopped } from '../../src/camera/ffmpegSource.js';
import { frameSourceFrom, type Frame } from '../../src/camera/frameSource.js';
import { cameraOpenError } from '../../src/camera/v4l2Camera.js';
import type { SimulatedClock } from '../../src/core/clock.js';
import type { SessionEvent } from '../../src/session/events.js';
import { runSession } from '../../src/session/runner.js';
import { StreamRoller, StreamThrowError, type StreamRetumble } from '../../src/session/streamRoller.js';
import { streamThrowCamera, type ThrowCamera } from '../../src/session/throwCamera.js';
import { frameImage, ScriptedCamera, scriptedSession, storeWithDice, ScriptedRig, ScriptedVision, type ChannelScript } from './support/fakes.js';

const faces = ['1', '2', '3', '4', '5', '6'];
const cycle = (call: number, channel: number): ChannelScript => faces[(call + channel * 2) % 6] as string;

const UNPLUGGED = '[video4linux2,v4l2 @ 0x5581] ioctl(VIDIOC_DQBUF): No such device\n';

type Breakdown = 'stall' | 'end';

/**
 * A device camera that breaks down at given watches (1-based): `stall` (its stream open, no frame ever again) or
 * `end` (ffmpeg exits as when the camera is unplugged). Each `reopen` takes the next of `comebacks`: `ok` (frames
 * again), `stall` (opened, no frame) or `gone` (the device is not there); after the list, `ok`.
 */
class BreakingCamera implements ThrowCamera {
  readonly description = 'camera /dev/video9';
  watches = 0;
  reopens = 0;
  private broken: Breakdown | undefined;
  private readonly frames: ScriptedCamera;

  constructor(
    clock: SimulatedClock,
    private readonly breakdowns: ReadonlyMap<number, Breakdown>,
    private readonly comebacks: ('ok' | 'stall' | 'gone')[] = [],
  ) {
    this.frames = new ScriptedCamera(clock);
  }

  async *watch(since: number): AsyncGenerator<Frame> {
    this.watches++;
    this.broken = this.breakdowns.get(this.watches) ?? this.broken;
    if (this.broken === 'stall') await new Promise(() => undefined);
    if (this.broken === 'end') throw ffmpegStopped(this.description, 1, null, 1234, `frame warnings\n${UNPLUGGED}`);
    yield* this.frames.watch(since);
  }

  async reopen(): Promise<void> {
    this.reopens++;
    const next = this.comebacks.shift() ?? 'ok';
    if (next === 'gone') throw cameraOpenError('/dev/video9', 'Cannot open video device /dev/video9: No such file or directory');
    this.broken = next === 'ok' ? undefined : next;
  }

  async close(): Promise<void> {}
}

function breakingSession(breakdowns: ReadonlyMap<number, Breakdown>, comebacks: ('ok' | 'stall' | 'gone')[] = [], budgetRolls = 6) {
  const s = scriptedSession({ fallback: cycle, rules: { budgetRolls } });
  const camera = new BreakingCamera(s.clock, breakdowns, comebacks);
  const events: SessionEvent[] = [];
  return { ...s, camera, events, deps: { ...s.deps, camera, onEvent: (e: SessionEvent) => events.push(e) } };
}

/** The void throws the session told its listeners of. */
const voids = (s: ReturnType<typeof breakingSession>) => s.events.flatMap((e) => (e.type === 'throw' && e.status === 'void' ? [e] : []));

describe('a camera that stalls mid-session', () => {
  it('is a camera fault naming the camera once it has delivered no frame for the settle timeout: the throw is void, the camera opened again, and the session goes on', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[3, 'stall']]));
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'finished', stop: 'roll-budget' });
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 7, ok: 6, rerolled: 0, void: 1 });
    expect(voids(s).map((t) => [t.index, t.why])).toEqual([[3, 'camera /dev/video9 delivered no frame for 5 s']]);
    expect(s.camera.reopens).toBe(1);
    const fault = s.store.events(s.session.id).find((e) => e.kind === 'fault');
    expect(fault).toMatchObject({ throwIndex: 3, detail: { fault: 'camera', camera: 'camera /dev/video9', consecutive: 1 } });
    expect(s.events.find((e) => e.type === 'recovered')).toMatchObject({ message: 'Camera /dev/video9 was opened again and delivers frames; the session goes on.' });
    // Each good throw: 1200 ms tumble and 400 ms of frames; the stalled one: its tumble, 5 s without a frame, the 1 s pause and the first frame again.
    expect(result.clock.elapsedMs).toBeGreaterThanOrEqual(200 + 7 * 1200 + 6 * 400 + 5000 + 1000);
    expect(result.clock.elapsedMs).toBeLessThan(200 + 7 * 1200 + 6 * 400 + 5000 + 1000 + 100);
  });

  it('that stays stalled once opened again stops the session before another tumble, saying the camera delivered no frame and how to resume', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[2, 'stall']]), ['stall']);
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'aborted', stop: 'camera-lost' });
    expect(result.reason).toBe(
      'Camera /dev/video9 delivered no frame for 5 s; opened again, it delivered no frame in 10 s. No more tumbles until it is back: resume with --resume once it delivers frames again.',
    );
    expect(s.rig.tumbles).toBe(2);
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 2, ok: 1, void: 1 });
    expect(s.store.getSession(s.session.id)?.state).toBe('aborted');
  });
});

describe('a camera unplugged mid-session (ffmpeg exits)', () => {
  it('stops the session at once when the camera does not come back, naming the device and what ffmpeg last said, with no re-tumbles', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[3, 'end']]), ['gone']);
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'aborted', stop: 'camera-lost' });
    expect(result.reason).toMatch(/^Camera \/dev\/video9 stopped: ffmpeg exited with code 1 after 1234 frames, saying "\[video4linux2,v4l2 @ 0x5581\] ioctl\(VIDIOC_DQBUF\): No such device"; opening it again failed: Camera \/dev\/video9 could not be opened: it does not exist: plug the camera in/);
    expect(result.reason).toMatch(/resume with --resume once it delivers frames again\.$/);
    expect(s.rig.tumbles).toBe(3);
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 3, ok: 2, rerolled: 0, void: 1 });
    expect(voids(s)[0]?.why).toMatch(/^camera \/dev\/video9 stopped: ffmpeg exited with code 1/);
    expect(s.events.filter((e) => e.type === 'fault')).toHaveLength(1);
  });

  it('goes on once the camera, opened again, delivers frames', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[2, 'end']]), ['ok']);
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'finished', stop: 'roll-budget' });
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 7, ok: 6, void: 1 });
    expect(s.camera.reopens).toBe(1);
  });

  it('is not opened a second time when it stops again before any throw was read', { timeout: 20_000 }, async () => {
    // Opened again, the camera shows its first frame, then ends again at the next throw.
    const s = breakingSession(new Map([[2, 'end'], [4, 'end']]), ['ok']);
    const result = await runSession(s.deps, s.plan);
    expect(result).toMatchObject({ state: 'aborted', stop: 'camera-lost' });
    expect(result.reason).toMatch(/; it stopped again after it had been opened again, before any throw was read\./);
    expect(s.camera.reopens).toBe(1);
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 3, ok: 1, void: 2 });
  });
});

describe('a throw the user stops while the camera is stopping', () => {
  it('is stored void as stopped by the user, never as a throw whose dice did not settle, when a Ctrl-C ends ffmpeg too', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[3, 'end']]));
    const controller = new AbortController();
    // The terminal's Ctrl-C reaches ffmpeg and dicerig together: dicerig hears it a moment after ffmpeg's exit.
    s.rig.onTumble = (n) => {
      if (n === 3) void s.clock.sleep(1200 + 20).then(() => controller.abort());
    };
    const result = await runSession({ ...s.deps, signal: controller.signal }, s.plan);
    expect(result).toMatchObject({ state: 'stopped', stop: 'user' });
    expect(result.reason).toBe('Stopped by the user during throw 3, which is stored void: its dice were not read.');
    expect(s.store.counts(s.session.id)).toMatchObject({ throws: 3, ok: 2, rerolled: 0, void: 1 });
    expect(voids(s)[0]?.why).toMatch(/^stopped by the user before the dice were read \(camera \/dev\/video9 stopped: /);
    expect(s.store.events(s.session.id).filter((e) => e.kind === 'not-settled' || e.kind === 'fault')).toEqual([]);
    expect(s.camera.reopens).toBe(0);
    expect(s.rig.tumbles).toBe(3);
  });

  it('is stored void as stopped by the user when the stop came while the camera stalled', { timeout: 20_000 }, async () => {
    const s = breakingSession(new Map([[2, 'stall']]));
    const controller = new AbortController();
    s.rig.onTumble = (n) => {
      if (n === 2) void s.clock.sleep(3000).then(() => controller.abort());
    };
    const result = await runSession({ ...s.deps, signal: controller.signal }, s.plan);
    expect(result).toMatchObject({ state: 'stopped', stop: 'user' });
    expect(voids(s)[0]?.why).toBe('stopped by the user before the dice were read (camera /dev/video9 delivered no frame for 5 s)');
    expect(s.camera.reopens).toBe(0);
  });
});

describe('a replayed recording that runs out', () => {
  it('ends the session cleanly, saying so, with no re-tumbles', { timeout: 20_000 }, async () => {
    const s = scriptedSession({ fallback: cycle, rules: { budgetRolls: 1000 } });
    // 40 frames of dice at rest: each throw's settle detector takes a few of them.
    const recording = frameSourceFrom('folder /recordings/run-1', async function* (): AsyncGenerator<Frame> {
      for (let i = 0; i < 40; i++) yield { image: frameImage(20), timestampMs: (i * 1000) / 30, index: i };
    });
    const camera = streamThrowCamera(recording, s.clock, { replay: true });
    const result = await runSession({ ...s.deps, camera }, s.plan);
    expect(result).toMatchObject({ state: 'finished', stop: 'recording-ended' });
    const { throws, ok } = s.store.counts(s.session.id);
    expect(throws).toBeGreaterThan(3);
    expect(s.store.counts(s.session.id)).toMatchObject({ ok: throws, rerolled: 0, void: 0 });
    expect(result.reason).toBe(`The recording has run out: folder /recordings/run-1 has no more frames after throw ${ok}. The session ends here; its undecided dice are INCONCLUSIVE.`);
    expect(s.rig.tumbles).toBe(throws + 1);
  });
});

describe('rolling on stream with a camera that stops', () => {
  function streamRoller(camera: BreakingCamera, clock: SimulatedClock) {
    const { store, dice, session } = storeWithDice(['d6', 'd6']);
    const vision = new ScriptedVision(2, [], cycle);
    const roll = new StreamRoller(
      { rig: new ScriptedRig(clock), camera, readThrow: vision.readThrow, store, clock, timeOrigin: 0 },
      { sessionId: session.id, dice, settle: { mode: 'detect', timeoutMs: 5000 } },
    );
    return { roll, store, session };
  }

  it('stores the throw void, opens the camera again and tumbles again for the viewer', { timeout: 20_000 }, async () => {
    const s = scriptedSession({});
    const camera = new BreakingCamera(s.clock, new Map([[1, 'stall']]));
    const { roll, store, session } = streamRoller(camera, s.clock);
    const retumbles: StreamRetumble[] = [];
    const got = await roll.throwFor([0, 1], (r) => retumbles.push(r));
    expect(got.attempts).toBe(2);
    expect(retumbles).toEqual([{ index: 1, status: 'void', reason: 'camera /dev/video9 delivered no frame for 5 s', problems: [] }]);
    expect(store.counts(session.id)).toMatchObject({ throws: 2, ok: 1, void: 1 });
    expect(camera.reopens).toBe(1);
  });

  it('gives up at once, saying why, when the camera does not come back', { timeout: 20_000 }, async () => {
    const s = scriptedSession({});
    const camera = new BreakingCamera(s.clock, new Map([[1, 'end']]), ['gone']);
    const { roll } = streamRoller(camera, s.clock);
    const e = await roll.throwFor([0, 1]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StreamThrowError);
    expect((e as Error).message).toMatch(/^Camera \/dev\/video9 stopped: .*No such device"; opening it again failed: /);
  });
});
