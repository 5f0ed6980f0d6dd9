/**
 * One settled frame to one read per channel: locate the dice, judge each
 * outline and what lies beside it (cocked?), crop and read the flat ones. A
 * reader that judges tilt itself (`FaceReader.judgesTilt`) reads every die
 * that is not touching another.
 * Touching dice (one blob for two), a die joined by its hard shadow
 * (`hardShadow.ts`) and channels with missing or extra dice are reported,
 * never guessed.
 */
import { channelBounds, type ChannelRegion } from './channels.js';
import { judgeOutline } from './cocked/outline.js';
import type { CockedOptions } from './cocked/outline.js';
import { SurroundingsJudge } from './cocked/surroundings.js';
import { defaultSurroundingsLimits } from './cocked/surroundingsLimits.js';
import type { SurroundingsOptions } from './cocked/surroundingsLimits.js';
import type { FaceRead, FaceReader } from './faceRead.js';
import { cropRgb, cropSquare } from '../core/image.js';
import type { Point, RgbImage } from '../core/image.js';
import { hardShadowPixels, isDieWithShadow } from './hardShadow.js';
import { locateDice } from './locate.js';
import type { LocateOptions, LocatedDie, LocateResult } from './locate.js';

export interface DieReading {
  readonly channel: number | undefined;
  readonly die: LocatedDie;
  readonly read: FaceRead;
}

/** A channel where fewer dice were located than it holds, with the frame cut to the channel's bounds. */
export interface EmptyChannel {
  readonly channel: number;
  /** What a person looks at to label a die the locator missed, or to see that it is gone. */
  readonly crop: RgbImage;
}

export interface FrameReading {
  readonly located: LocateResult;
  readonly readings: readonly DieReading[];
  /** The channels missing a die (`located.missing`), each with its crop. */
  readonly emptyChannels: readonly EmptyChannel[];
  /** The reader's version: it names the reads of this frame, a missing die's unresolved roll included. */
  readonly classifierVersion: string;
}

export interface PipelineOptions {
  readonly locate: LocateOptions;
  readonly cocked: Omit<CockedOptions, 'expectedArea'>;
  /** Die size the reader is told (D6 side / d8 across-corners), pixels. */
  readonly dieSizePx: number;
  /** Crop side as a multiple of the die size. */
  readonly cropScale: number;
  /**
   * The look beside each flat-looking die for a side face (default `defaultSurroundingsLimits`).
   * It is made for cubes (D6): a die whose side faces always show from above (a d8) passes `null`.
   */
  readonly surroundings?: Omit<SurroundingsOptions, 'dieSizePx'> | null;
  /** Where the reader's crop is centred, from the located centre (default: there; the learned reader moves it onto the top face, see `topFaceCentre`). */
  readonly cropCentre?: (located: Point) => Point;
  /** The die's radial direction in the frame, from the located centre (`DieCrop.radial`; the learned reader's cocked check turns the crop by it). */
  readonly cropRadial?: (located: Point) => number | undefined;
  /** The die's angle off the lens axis, degrees, from the located centre (`DieCrop.offAxisDeg`; a learned network told where the die lies reads it). */
  readonly cropOffAxis?: (located: Point) => number;
}

export const defaultCockedLimits: Omit<CockedOptions, 'expectedArea'> = { maxElongation: 1.09, areaRange: [0.8, 1.26] };

/**
 * The look beside the dice, one for every frame: its scratch (some 0.2 MB of cell sums for four dice) was made afresh
 * for each frame, short-lived buffers the engine counts against its old generation's limit until a collection frees
 * them (bench/gcSessions.ts). `readFrame` runs to its end without yielding, so no two frames share it at once.
 */
const surroundings = new SurroundingsJudge();

/** Reads every die on a settled frame. */
export function readFrame(frame: RgbImage, reference: RgbImage, channels: readonly ChannelRegion[], reader: FaceReader, options: PipelineOptions): FrameReading {
  const located = locateDice(frame, reference, channels, options.locate);
  const readings: DieReading[] = located.dice.map((die) => {
    const cut = cropSquare(frame, options.cropCentre ? options.cropCentre(die.center) : die.center, options.dieSizePx * options.cropScale);
    const crop = cut.image;
    const base = { classifierVersion: reader.classifierVersion, crop };
    if (die.estimatedCount > 1) {
      const dieArea = options.locate.expectedDieArea;
      const shadow = hardShadowPixels(frame, reference, die.bbox, options.locate);
      const details = { blobDice: die.estimatedCount, shadowDice: shadow / dieArea };
      if (isDieWithShadow(die.area, shadow, dieArea)) {
        const reason = `One die joined by its hard shadow in a blob the size of about ${die.estimatedCount} dice (${(shadow / dieArea).toFixed(1)} dice of it shadow); it cannot be read apart.`;
        // The crop a person labels the die by holds the whole blob: centred on the die's, it would cut the die off.
        const b = die.bbox;
        const whole = cropSquare(frame, { x: b.x + b.width / 2, y: b.y + b.height / 2 }, Math.max(b.width, b.height) * 1.15).image;
        return { channel: die.channel, die, read: { ...base, crop: whole, status: 'unreadable', cause: 'shadow', confidence: 0, reason, details } };
      }
      return { channel: die.channel, die, read: { ...base, status: 'unreadable', cause: 'touching', confidence: 0, details, reason: `A blob the size of about ${die.estimatedCount} dice, not one die and its shadow: dice touching each other, a cocked die showing two faces, or a die against a wall's edge; it cannot be read apart.` } };
    }
    // A reader that judges tilt from the whole die (a learned reader) is not second-guessed by checks made for flat
    // drawn dice and cubes: the blob holds the d8's shadow and side faces, and they called most flat rendered d8s cocked.
    const radial = options.cropRadial?.(die.center);
    const offAxisDeg = options.cropOffAxis?.(die.center);
    const readFlat = (): DieReading => ({ channel: die.channel, die, read: reader.read({ ...cut, sizePx: options.dieSizePx, ...(radial !== undefined ? { radial } : {}), ...(offAxisDeg !== undefined ? { offAxisDeg } : {}) }) });
    if (reader.judgesTilt === true) return readFlat();
    const verdict = judgeOutline(die, { ...options.cocked, expectedArea: options.locate.expectedDieArea });
    if (verdict.cocked) {
      return { channel: die.channel, die, read: { ...base, status: 'cocked', cause: 'outline', confidence: 1, reason: verdict.reason as string, details: { elongation: verdict.elongation, areaRatio: verdict.areaRatio } } };
    }
    const limits = options.surroundings === undefined ? defaultSurroundingsLimits : options.surroundings;
    const others = located.dice.filter((d) => d !== die).map((d) => d.bbox);
    const beside = limits ? surroundings.judge(frame, reference, die, others, { ...limits, dieSizePx: options.dieSizePx }) : undefined;
    if (beside?.cocked) {
      const details: Record<string, number> = { elongation: verdict.elongation, areaRatio: verdict.areaRatio, markedCells: beside.markedCells };
      if (beside.silhouetteElongation !== undefined) details.silhouetteElongation = beside.silhouetteElongation;
      return { channel: die.channel, die, read: { ...base, status: 'cocked', cause: 'outline', confidence: 1, reason: beside.reason as string, details } };
    }
    return readFlat();
  });
  const emptyChannels = located.missing.flatMap((m) => {
    const region = channels.find((c) => c.id === m.channel);
    return region ? [{ channel: m.channel, crop: cropRgb(frame, channelBounds(region)) }] : [];
  });
  return { located, readings, emptyChannels, classifierVersion: reader.classifierVersion };
}
