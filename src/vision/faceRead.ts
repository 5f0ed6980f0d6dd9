/**
 * What every face reader returns, and the interface a reader implements, so the
 * pip counter and a learned classifier (templates, features, a small network
 * trained from calibration samples) are interchangeable.
 */
import type { Point, RgbImage } from '../core/image.js';

/** `read`: a face with a confidence; `cocked`: not lying flat (re-tumble); `unreadable`: declined. */
export type ReadStatus = 'read' | 'cocked' | 'unreadable';

/**
 * Why a die was declined, as a stable code a tally can group by (the `reason` says it in words):
 * `unsure` the reader's confidence is under its threshold; `disputed` a second opinion reads another face;
 * `tilted` the reader itself sees a die not lying flat; `outline` the die's outline or surroundings look tilted;
 * `glare` the top face is lost in a highlight; `touching` dice touch and cannot be read apart;
 * `shadow` one die joined by its hard shadow in one blob; `other-die` a die of a type the profile does not read;
 * `not-located` a labelled die read as a session reads frames had no located die of its own;
 * `die-size` the die is larger or smaller than the profile was calibrated for (camera moved, stale profile).
 */
export type DeclineCause = 'unsure' | 'disputed' | 'tilted' | 'outline' | 'glare' | 'touching' | 'shadow' | 'other-die' | 'not-located' | 'die-size';

export interface FaceRead {
  readonly status: ReadStatus;
  /** The symbol read (`'1'`..`'6'` for a D6, an icon name for a d8); only when status is `read`. */
  readonly symbol?: string;
  /** Die type id the reader recognised (`red` or `green` for X-Wing dice, told apart by colour); absent when the caller fixes it. */
  readonly die?: string;
  /** 0..1; reads under the reader's acceptance threshold are declined, never returned as `read`. */
  readonly confidence: number;
  /** Which reader (and which version of its thresholds or training) produced this. */
  readonly classifierVersion: string;
  /** The pixels the read was made from, kept as evidence in the roll log. */
  readonly crop: RgbImage;
  /** Why a die was declined or called cocked, in words. */
  readonly reason?: string;
  /** Why a die was declined or called cocked, as a code; absent when the reader does not say (or the die was read). */
  readonly cause?: DeclineCause;
  /** Reader-specific measurements (pip count, layout error, ...), for debugging and calibration. */
  readonly details?: Readonly<Record<string, number>>;
}

/** A die's pixels as handed to a reader. */
export interface DieCrop {
  /** Image around one die, the die roughly centred. */
  readonly image: RgbImage;
  /** Approximate side (D6) or across-corners size (d8) of the die in this image, in pixels. */
  readonly sizePx: number;
  /**
   * Where the die lies in its frame: the direction from the optical centre to the die, radians (atan2 of the image's
   * y and x offsets). Perspective shows the die's sides on the side facing the centre, so a reader can turn the crop to
   * put that side one way. Absent: a die straight below the lens, no direction (read as if it pointed down, +y).
   */
  readonly radial?: number;
  /**
   * The die's angle off the lens axis, degrees (from the frame's centre and the camera's field of view), for a learned
   * network trained to be told where the die lies (`LearnedModel.offAxisPlaneDeg`). Absent: not known, read as 0.
   */
  readonly offAxisDeg?: number;
  /**
   * Where the die (a learned reader's crop: its top face) lies in `image`, when not at its middle: the frame's edge cut
   * the crop's square short. Absent: the middle.
   */
  readonly center?: Point;
}

export interface FaceReader {
  readonly classifierVersion: string;
  /**
   * The reader judges a die's tilt itself, from the whole die (a learned reader's outline check, trained on rendered
   * dice with their side faces, shading and shadows). The pipeline then leaves out its own blob-shape and look-beside
   * checks, made for the flat simulated camera and for cubes: on rendered d8s they called most flat dice cocked.
   */
  readonly judgesTilt?: boolean;
  read(crop: DieCrop): FaceRead;
}
