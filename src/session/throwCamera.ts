/**
 * The camera as the throw loop sees it: after each motion, the frames from the
 * moment the motion ended, stamped on the session clock. A real camera streams
 * continuously (frames from before the motion ended are skipped); the
 * simulated camera renders each throw's frames on demand.
 */
import type { Clock } from '../core/clock.js';
import { CameraFaultError, RecordingEndedError } from '../camera/cameraErrors.js';
import type { Frame, FrameSource } from '../camera/frameSource.js';
import type { MotionResult } from '../rig/driver.js';

export interface ThrowCamera {
  /** Where the frames come from, for messages. */
  readonly description: string;
  /**
   * Frames captured from `since` (session-clock ms, when the motion ended) on,
   * in time order, each stamped on the session clock. The caller stops
   * iterating once it has what it needs.
   */
  watch(since: number, motion: MotionResult): AsyncIterable<Frame>;
  /**
   * Opens the camera again after it stopped delivering frames (a `CameraFaultError` from `watch`), as the rig driver
   * reconnects to a board; absent where opening again cannot help. Whether it came back, the next frame tells.
   */
  reopen?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps only the newest frame of a live source. A live camera must be read all
 * the time: frames left waiting in the pipe and the driver's queue while the
 * rig tumbles would come out later stamped with the time they were read, and
 * a frame of the dice before the throw would look like dice at rest.
 */
class LatestFrame {
  private latest: Frame | undefined;
  private ended = false;
  private failure: unknown;
  private waiters: (() => void)[] = [];
  private started = false;

  constructor(private readonly source: FrameSource) {}

  /** Starts reading the source (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const pump = async (): Promise<void> => {
      try {
        for await (const frame of this.source) {
          this.latest = frame;
          this.wake();
        }
      } catch (e) {
        this.failure = e;
      } finally {
        this.ended = true;
        this.wake();
      }
    };
    void pump();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The newest frame whose index is above `after`, waiting for one; undefined once the source has ended. */
  async next(after: number): Promise<Frame | undefined> {
    this.start();
    for (;;) {
      if (this.latest !== undefined && this.latest.index > after) return this.latest;
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/**
 * A live camera as a throw camera: read continuously, only its newest frame
 * kept. A stream that ends or fails is a `CameraFaultError` (a live camera
 * never runs out of frames); `reopen` starts the source afresh when it can.
 */
class LiveThrowCamera implements ThrowCamera {
  private latest: LatestFrame;

  constructor(private source: FrameSource) {
    this.latest = new LatestFrame(source);
    this.latest.start();
  }

  get description(): string {
    return this.source.description;
  }

  async *watch(since: number): AsyncGenerator<Frame> {
    const latest = this.latest;
    let index = -1;
    for (;;) {
      // A source that fails says why itself (a camera that could not be opened, or one that stopped: a CameraFaultError).
      const frame = await latest.next(index);
      if (frame === undefined) throw new CameraFaultError(`${this.description} stopped: its stream ended`, this.description, 'ended');
      index = frame.index;
      if (frame.timestampMs >= since) yield frame;
    }
  }

  reopen(): Promise<void> {
    const again = this.source.reopen?.bind(this.source);
    if (again === undefined) return Promise.reject(new CameraFaultError(`${this.description} cannot be opened again`, this.description, 'ended'));
    return this.source.close().then(() => {
      this.source = again();
      this.latest = new LatestFrame(this.source);
      this.latest.start();
    });
  }

  close(): Promise<void> {
    return this.source.close();
  }
}

/**
 * A continuous source as a throw camera. A live camera (`replay` false) is
 * read continuously and only its newest frame kept; its timestamps must be on
 * the session clock (`systemClock`, as the V4L2 source stamps them). A
 * recording (`replay` true) is read frame by frame in order, each frame used
 * once, its timestamps shifted so that its first frame is "now"; once it has
 * no more frames, `watch` throws a `RecordingEndedError`.
 */
export function streamThrowCamera(source: FrameSource, clock: Clock, options: { readonly replay?: boolean } = {}): ThrowCamera {
  if (!options.replay) return new LiveThrowCamera(source);
  let iterator: AsyncIterator<Frame> | undefined;
  let offset: number | undefined;
  return {
    description: source.description,
    async *watch(): AsyncGenerator<Frame> {
      iterator ??= source[Symbol.asyncIterator]();
      for (;;) {
        const r = await iterator.next();
        if (r.done) throw new RecordingEndedError(source.description);
        // A recording has its own time line: line it up with the session clock at its first frame.
        offset ??= clock.now() - r.value.timestampMs;
        yield { ...r.value, timestampMs: r.value.timestampMs + offset };
      }
    },
    close: () => source.close(),
  };
}
