/**
 * The camera as the throw loop sees it: after each motion, the frames from the
 * moment the motion ended, stamped on the session clock. A real camera streams
 * continuously (frames from before the motion ended are skipped); the
 * simulated camera renders each throw's frames on demand.
 */
import type { Clock } from '../core/clock.js';
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
 * A continuous source as a throw camera. A live camera (`replay` false) is
 * read continuously and only its newest frame kept; its timestamps must be on
 * the session clock (`systemClock`, as the V4L2 source stamps them). A
 * recording (`replay` true) is read frame by frame in order, each frame used
 * once, its timestamps shifted so that its first frame is "now".
 */
export function streamThrowCamera(source: FrameSource, clock: Clock, options: { readonly replay?: boolean } = {}): ThrowCamera {
  if (!options.replay) {
    const latest = new LatestFrame(source);
    latest.start();
    return {
      description: source.description,
      async *watch(since: number): AsyncGenerator<Frame> {
        let index = -1;
        for (;;) {
          const frame = await latest.next(index);
          if (frame === undefined) return;
          index = frame.index;
          if (frame.timestampMs >= since) yield frame;
        }
      },
      close: () => source.close(),
    };
  }
  let iterator: AsyncIterator<Frame> | undefined;
  let offset: number | undefined;
  return {
    description: source.description,
    async *watch(): AsyncGenerator<Frame> {
      iterator ??= source[Symbol.asyncIterator]();
      for (;;) {
        const r = await iterator.next();
        if (r.done) return;
        // A recording has its own time line: line it up with the session clock at its first frame.
        offset ??= clock.now() - r.value.timestampMs;
        yield { ...r.value, timestampMs: r.value.timestampMs + offset };
      }
    },
    close: () => source.close(),
  };
}
