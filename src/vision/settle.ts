/**
 * Settle detection: the dice are at rest once K consecutive frames differ from
 * their predecessor by no more than sensor noise. Works on a small grey image
 * (box-averaged over every pixel, so noise shrinks), made in one pass over the
 * frame into buffers reused from frame to frame.
 */
import { downscaleToGray } from '../core/image.js';
import type { GrayImage, RgbImage } from '../core/image.js';

export interface SettleOptions {
  /** Integer downscale factor before differencing (1280x720 / 4 = 320x180). */
  readonly downscale: number;
  /** Grey-level change of a downscaled pixel that counts as motion (above noise after averaging). */
  readonly pixelThreshold: number;
  /** A frame is still when fewer than this many downscaled pixels changed. */
  readonly maxChangedPixels: number;
  /** Consecutive still frames needed to declare the dice settled. */
  readonly stillFrames: number;
  /**
   * Frames a caller may drop after a frame with this much motion, as [changed pixels, frames] pairs,
   * largest first (see `wantsFrame`). Dropping never makes the detector declare rest early (a still
   * run is still K still differences in a row, and a difference across dropped frames shows any
   * motion in between); it can notice rest at most that many frames late.
   */
  readonly skipWhileMoving: readonly (readonly [changedPixels: number, frames: number])[];
}

export const defaultSettleOptions: SettleOptions = {
  downscale: 4,
  pixelThreshold: 10,
  maxChangedPixels: 2,
  stillFrames: 3,
  // Dice tumbling in the simulator change 1,000-4,000 of the 57,600 small pixels a frame at first,
  // and 100-1,000 as they slow down; at rest, none.
  skipWhileMoving: [
    [1000, 2],
    [100, 1],
  ],
};

export interface SettleState {
  /** Index of the frame just pushed (counted from the first push since reset). */
  readonly index: number;
  /** Downscaled pixels that changed since the previous frame (0 on the first frame). */
  readonly changedPixels: number;
  /** Whether this frame differs from the previous one by no more than noise. */
  readonly still: boolean;
  /** Consecutive still frames ending at this one. */
  readonly stillRun: number;
  readonly settled: boolean;
  /** When settled: index of the first frame of the still run (the dice's rest pose). */
  readonly restFrameIndex?: number;
  /** When settled: time from the first frame pushed to the first frame of the still run. */
  readonly settleMs?: number;
}

/** Counts downscaled pixels whose grey level differs by more than `threshold`. */
export function countChangedPixels(a: GrayImage, b: GrayImage, threshold: number): number {
  const da = a.data;
  const db = b.data;
  let n = 0;
  for (let i = 0; i < da.length; i++) {
    const d = (da[i] as number) - (db[i] as number);
    if (d > threshold || d < -threshold) n++;
  }
  return n;
}

/** Stateful detector fed one frame at a time; `reset()` before each throw. */
export class SettleDetector {
  private previous: GrayImage | undefined;
  private firstTimestamp = 0;
  private index = -1;
  private run = 0;
  private runStartIndex = 0;
  private runStartTimestamp = 0;
  private lastTimestamp = 0;
  /** Frames the caller may still drop (see `wantsFrame`). */
  private skip = 0;
  /** The last frame pushed: the same image pushed again (a camera repeating its rest frame) is not shrunk again. */
  private lastFrame: RgbImage | undefined;
  /** Two grey buffers, alternately the current and the previous frame's (no allocation per frame). */
  private readonly buffers: [Uint8Array, Uint8Array] = [new Uint8Array(0), new Uint8Array(0)];

  constructor(readonly options: SettleOptions = defaultSettleOptions) {}

  reset(): void {
    this.previous = undefined;
    this.lastFrame = undefined;
    this.index = -1;
    this.run = 0;
    this.skip = 0;
  }

  /**
   * Whether the next frame is worth pushing. After a frame with strong motion the dice cannot be
   * judged at rest for a few frames anyway: a caller may drop those frames unexamined (this call
   * counts them down), saving the work of shrinking them.
   */
  wantsFrame(): boolean {
    if (this.skip === 0) return true;
    this.skip--;
    return false;
  }

  /** Feeds the next frame; returns whether the dice have settled as of this frame. */
  push(frame: RgbImage, timestampMs: number): SettleState {
    // Images are not modified once captured: the same one again shrinks to the same grey.
    if (frame === this.lastFrame && this.previous !== undefined) return this.compare(this.previous, timestampMs);
    this.lastFrame = frame;
    // Into whichever buffer does not hold the previous frame.
    const slot = this.previous?.data === this.buffers[0] ? 1 : 0;
    const f = Math.max(1, Math.floor(this.options.downscale));
    const n = Math.floor(frame.width / f) * Math.floor(frame.height / f);
    if (this.buffers[slot].length !== n) this.buffers[slot] = new Uint8Array(n);
    return this.compare(downscaleToGray(frame, f, this.buffers[slot]), timestampMs);
  }

  /** As `push`, for a frame already downscaled to grey (callers that share the small image). */
  pushGray(small: GrayImage, timestampMs: number): SettleState {
    this.lastFrame = undefined;
    return this.compare(small, timestampMs);
  }

  private compare(small: GrayImage, timestampMs: number): SettleState {
    this.index++;
    const prev = this.previous;
    this.previous = small;
    if (prev === undefined || prev.width !== small.width || prev.height !== small.height) {
      // The first frame has nothing to compare with: it starts no still run.
      this.firstTimestamp = timestampMs;
      this.lastTimestamp = timestampMs;
      this.run = 0;
      return { index: this.index, changedPixels: 0, still: false, stillRun: 0, settled: false };
    }
    // A frame compared with itself (a camera repeating its rest frame, see `push`) changed nowhere.
    const changed = prev === small ? 0 : countChangedPixels(prev, small, this.options.pixelThreshold);
    const still = changed < this.options.maxChangedPixels;
    this.skip = this.options.skipWhileMoving.find(([atLeast]) => changed >= atLeast)?.[1] ?? 0;
    if (still) {
      if (this.run === 0) {
        // The rest pose is the frame before the first still difference.
        this.runStartIndex = this.index - 1;
        this.runStartTimestamp = this.lastTimestamp;
      }
      this.run++;
    } else {
      this.run = 0;
    }
    this.lastTimestamp = timestampMs;
    const settled = this.run >= this.options.stillFrames;
    return settled
      ? {
          index: this.index,
          changedPixels: changed,
          still,
          stillRun: this.run,
          settled,
          restFrameIndex: this.runStartIndex,
          settleMs: this.runStartTimestamp - this.firstTimestamp,
        }
      : { index: this.index, changedPixels: changed, still, stillRun: this.run, settled };
  }
}
