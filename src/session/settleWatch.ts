/**
 * Watching a throw's frames from the end of the motion until the dice are
 * still (or, in fixed mode, until the wait is over): the fairness loop and the
 * stream roller watch the same way.
 *
 * Every wait for a frame is bounded on the session clock, so a camera whose
 * stream stays open but delivers nothing cannot hang the loop: no frame for
 * `noFrameMs` (the settle timeout) is a camera fault naming the camera, as is
 * a live stream that ends or fails. A recording that runs out is told apart:
 * it is the end of the input, not a fault. Dice still moving at the timeout
 * are the only "not settled" (a re-tumble).
 */
import { CameraFaultError, RecordingEndedError } from '../camera/cameraErrors.js';
import { withImage, type Frame } from '../camera/frameSource.js';
import type { Clock } from '../core/clock.js';
import type { MotionResult } from '../rig/driver.js';
import type { SettleDetector, SettleOptions } from '../vision/settle.js';
import type { HostTiming } from './hostTiming.js';
import type { ThrowCamera } from './throwCamera.js';

export type SettleRule =
  | { readonly mode: 'detect'; readonly timeoutMs: number; readonly detector?: SettleOptions }
  | { readonly mode: 'fixed'; readonly waitMs: number };

/** Fixed mode: the longest a camera may go without a frame once the wait is over (detect mode uses its timeout). */
export const FIXED_NO_FRAME_MS = 5000;

/** The longest a camera (re)opened may take to deliver its first frame: ffmpeg opening a device takes seconds. */
export const OPENING_MS = 10_000;

/** The longest the camera may go without a frame before it is a camera fault. */
export function noFrameMs(rule: SettleRule): number {
  return rule.mode === 'detect' ? rule.timeoutMs : FIXED_NO_FRAME_MS;
}

/** What watching a throw gave. */
export type Watched =
  /** Still: the frame to read, how long the dice took to settle, and the frames still to come (for re-reads; the caller closes them). */
  | { readonly frame: Frame; readonly settleMs: number; readonly frames: AsyncIterator<Frame> }
  /** Not still in time (or a throw's own frames ended first): a re-tumble. */
  | { readonly reason: string }
  /** The camera stopped delivering frames: no throw was seen. */
  | { readonly fault: CameraFaultError }
  /** A recording ran out of frames. */
  | { readonly ended: RecordingEndedError };

export interface SettleWatch {
  readonly camera: ThrowCamera;
  readonly clock: Clock;
  readonly rule: SettleRule;
  readonly detector: SettleDetector;
  /** Host time of the settle detector, when the caller measures it. */
  readonly timing?: HostTiming;
}

/** Why a watchdog's timer was called off. */
const CALLED_OFF = 'the watchdog was stopped';

/**
 * The camera's silence, watched with one timer for a run of frames rather than one per frame (a timer set and called
 * off costs more than a frame of the simulated camera): `late` resolves once no frame has come for `ms` of the clock
 * since the watchdog started or since the last frame. `stop` calls the timer off.
 */
export class FrameWatchdog {
  private last: number;
  private readonly off = new AbortController();
  readonly late: Promise<'late'>;

  constructor(
    private readonly clock: Clock,
    readonly ms: number,
  ) {
    this.last = clock.now();
    this.late = this.watch();
  }

  /** A frame came. */
  fed(): void {
    this.last = this.clock.now();
  }

  stop(): void {
    // With a reason of its own: abort() with none makes a DOMException, whose stack trace cost a scripted session
    // some 5 % of its time (two watchdogs a throw). Nothing reads the reason: a clock's sleep just ends.
    this.off.abort(CALLED_OFF);
  }

  private async watch(): Promise<'late'> {
    for (;;) {
      const wait = this.last + this.ms - this.clock.now();
      if (wait <= 0) return 'late';
      await this.clock.sleep(wait, this.off.signal);
      // Called off: never late.
      if (this.off.signal.aborted) return new Promise<'late'>(() => undefined);
    }
  }
}

/** The next frame, the end of the frames, or `late` when the watchdog says the camera has gone silent. Errors are the camera's. */
export async function nextFrame(frames: AsyncIterator<Frame>, watchdog: FrameWatchdog): Promise<IteratorResult<Frame> | 'late'> {
  const next = frames.next();
  // Still pending when the camera is late: its eventual failure (the camera closed) is nobody's to hear.
  next.catch(() => undefined);
  const r = await Promise.race([next, watchdog.late]);
  if (r !== 'late') watchdog.fed();
  return r;
}

/** The next frame within `ms` of the clock (one wait: a camera opening, a calibration's frame). */
export async function nextFrameWithin(frames: AsyncIterator<Frame>, clock: Clock, ms: number): Promise<IteratorResult<Frame> | 'late'> {
  const watchdog = new FrameWatchdog(clock, ms);
  try {
    return await nextFrame(frames, watchdog);
  } finally {
    watchdog.stop();
  }
}

/** `frames` ended: awaited unless a `next` is still pending (a stalled camera's would never let `return` finish). */
async function release(frames: AsyncIterator<Frame>, pending: boolean): Promise<void> {
  const done = frames.return?.();
  if (done === undefined) return;
  if (pending) void done.catch(() => undefined);
  else await done;
}

/** The fault of a camera (as its source describes it) that delivered no frame for `ms`. */
export function noFrame(camera: string, ms: number): CameraFaultError {
  const s = ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
  return new CameraFaultError(`${camera} delivered no frame for ${s}`, camera, 'no-frame');
}

/**
 * Frames for re-reading a settled throw: they end (rather than hang or fail) once the camera delivers no frame for
 * `ms` or stops; a camera that stopped shows itself again at the next throw's watch.
 */
function boundedFrames(frames: AsyncIterator<Frame>, clock: Clock, ms: number): AsyncIterator<Frame> {
  let stuck = false;
  // Set at the first re-read frame, not before: what the loop does until then is no wait for the camera.
  let watchdog: FrameWatchdog | undefined;
  const over: IteratorResult<Frame> = { done: true, value: undefined };
  return {
    async next() {
      if (stuck) return over;
      try {
        watchdog ??= new FrameWatchdog(clock, ms);
        const r = await nextFrame(frames, watchdog);
        if (r !== 'late') return r;
      } catch (e) {
        if (!(e instanceof CameraFaultError || e instanceof RecordingEndedError)) throw e;
      }
      stuck = true;
      return over;
    },
    async return() {
      watchdog?.stop();
      await release(frames, stuck);
      return over;
    },
  };
}

/** Whether `camera` delivers a frame within `ms` of the clock: a camera opened again shows it is back. Errors are the camera's. */
export async function firstFrameWithin(camera: ThrowCamera, clock: Clock, ms: number): Promise<boolean> {
  const frames = camera.watch(clock.now(), { durationMs: 0 })[Symbol.asyncIterator]();
  let late = false;
  try {
    const r = await nextFrameWithin(frames, clock, ms);
    late = r === 'late';
    return r !== 'late' && r.done !== true;
  } finally {
    await release(frames, late);
  }
}

/** Watches the frames after a motion until the dice are still (see the module comment). */
export async function watchUntilStill(watch: SettleWatch, motionEnd: number, motion: MotionResult): Promise<Watched> {
  const frames = watch.camera.watch(motionEnd, motion)[Symbol.asyncIterator]();
  const limit = noFrameMs(watch.rule);
  let pending = false;
  // Set at the first wait for a frame: in fixed mode the wait before it is no silence of the camera's.
  let watchdog: FrameWatchdog | undefined;
  try {
    const seen = await until(watch, motionEnd, async () => {
      pending = true;
      watchdog ??= new FrameWatchdog(watch.clock, limit);
      const r = await nextFrame(frames, watchdog);
      if (r === 'late') throw noFrame(watch.camera.description, limit);
      pending = false;
      return r;
    }).finally(() => watchdog?.stop());
    if ('frame' in seen) return { ...seen, frames: boundedFrames(frames, watch.clock, limit) };
    await release(frames, pending);
    return seen;
  } catch (e) {
    await release(frames, pending);
    if (e instanceof CameraFaultError) return { fault: e };
    if (e instanceof RecordingEndedError) return { ended: e };
    throw e;
  }
}

async function until(watch: SettleWatch, motionEnd: number, next: () => Promise<IteratorResult<Frame>>): Promise<{ frame: Frame; settleMs: number } | { reason: string }> {
  const { rule, detector, clock, timing } = watch;
  if (rule.mode === 'fixed') {
    await clock.sleep(rule.waitMs);
    for (let r = await next(); r.done !== true; r = await next()) {
      // Rendered here if the camera had not yet (`withImage`): the camera's time, not the reader's.
      if (r.value.timestampMs >= motionEnd + rule.waitMs) return { frame: withImage(r.value), settleMs: r.value.timestampMs - motionEnd };
    }
    return { reason: `the camera gave no frame ${rule.waitMs} ms after the motion` };
  }
  detector.reset();
  let first: number | undefined;
  for (let r = await next(); r.done !== true; r = await next()) {
    const frame = r.value;
    first ??= frame.timestampMs;
    // Frames right after strong motion are dropped unexamined (the detector says which).
    if (detector.wantsFrame()) {
      // Asked for before the settle detector's clock starts: a simulated camera renders a frame when its image is first asked for.
      const image = frame.image;
      const t0 = timing?.tick() ?? 0;
      const state = detector.push(image, frame.timestampMs);
      timing?.tock(t0, 'settle');
      if (state.settled) return { frame, settleMs: first + (state.settleMs ?? 0) - motionEnd };
    }
    if (frame.timestampMs - motionEnd > rule.timeoutMs) return { reason: `the dice were still moving ${rule.timeoutMs} ms after the motion` };
  }
  // Only a camera that renders each throw's frames (the simulated one) ends a watch: its throw was too short to settle.
  return { reason: "the throw's frames ended before the dice were still" };
}
