/**
 * The seam to the camera: an async iterable of frames with timestamps. Real
 * camera (V4L2 through ffmpeg), replay of an image folder, and the
 * simulated camera all look the same to the session and to vision.
 */
import type { RgbImage } from '../core/image.js';

export interface Frame {
  /** The pixels; a simulated camera renders them when this is first read (frames nobody looks at are never rendered). */
  readonly image: RgbImage;
  /** Milliseconds on the source's clock (capture time; for replays and the simulator, frame index / fps). */
  readonly timestampMs: number;
  /** 0-based frame number since the source was opened. */
  readonly index: number;
}

export interface FrameSource extends AsyncIterable<Frame> {
  /** Human-readable origin (device path, folder, `simulated`), used in errors and logs. */
  readonly description: string;
  /** Stops capture and releases the device or child process; safe to call twice. */
  close(): Promise<void>;
  /**
   * A fresh source on the same device (a new ffmpeg, the controls locked again), for a live camera that stopped
   * delivering frames; absent where opening again cannot help (a recording, the simulated camera).
   */
  reopen?(): FrameSource;
}

/** The frame with its image at hand: a simulated camera renders a frame's image when it is first asked for. */
export function withImage(frame: Frame): Frame {
  return { image: frame.image, timestampMs: frame.timestampMs, index: frame.index };
}

/** Wraps an async generator of frames as a `FrameSource` with an explicit close. */
export function frameSourceFrom(description: string, generate: () => AsyncGenerator<Frame>, onClose?: () => Promise<void> | void): FrameSource {
  let closed = false;
  let active: AsyncGenerator<Frame> | undefined;
  return {
    description,
    [Symbol.asyncIterator](): AsyncIterator<Frame> {
      active = generate();
      return active;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // The process first: a generator waiting on a stalled pipe finishes its `return` only once the pipe closes.
      await onClose?.();
      await active?.return(undefined);
    },
  };
}

/** Reads at most `limit` frames from a source into memory (tests, replays of short clips). */
export async function takeFrames(source: FrameSource, limit = Number.POSITIVE_INFINITY): Promise<Frame[]> {
  const out: Frame[] = [];
  if (limit <= 0) return out;
  for await (const frame of source) {
    out.push(frame);
    if (out.length >= limit) break;
  }
  return out;
}
