/**
 * The guided calibration's first three steps on the rig, whichever reader it
 * calibrates: an empty-platform reference, the channel regions found on it,
 * and the throws, each die located in its channel. A die outside every
 * channel, or in a blob of touching dice that could not be split, is left out.
 * A die split from the dice it touches is left out too unless `splitDice` is
 * set: its crop holds part of another die, which can blur the groups the user
 * names, but a session reads such dice, so a reader calibrated on them has seen
 * what it will read.
 */
import { DicerigError } from '../../core/errors.js';
import type { Point, Rect, RgbImage } from '../../core/image.js';
import { channelBounds, type ChannelRegion } from '../channels.js';
import { locateDice, xwingLocateOptions } from '../locate.js';
import { detectChannelRegions } from './channelRegions.js';

/** A camera over the rig, as the guided steps need it. */
export interface CalibrationCamera {
  readonly description: string;
  /** A frame of the empty platform (a real camera asks the user to clear it first). */
  emptyPlatform(): Promise<RgbImage>;
  /** The settled frame of throw `index` (a real camera asks the user to throw); the simulator also knows the truth. */
  nextThrow(index: number): Promise<{ readonly image: RgbImage; readonly truth?: readonly { readonly center: Point; readonly label: string }[] }>;
  /** How many throws it holds, when it replays kept ones (a live camera throws as many as asked). */
  readonly kept?: number;
  /**
   * Throw `index`'s frame again, read back from where it was kept (a folder of kept throws), so the steps need not
   * hold every frame (2.7 MB each at 1280x720: 1.6 GB for 600 throws); absent, the frames stay in memory.
   */
  reread?(index: number): Promise<RgbImage>;
}

/** One die located in a channel: alone, or split from the dice it touched. */
export interface GuidedDie {
  readonly center: Point;
  readonly bbox: Rect;
  /** Simulated camera only: the die's true class. */
  readonly truth?: string;
  /** Split from the dice it touched (kept with `splitDice` only). */
  readonly split?: true;
}

export interface GuidedThrow {
  /** The throw's number from 0, which names its image (`throwName`). */
  readonly index: number;
  /** The frame's size (the frame itself: `GuidedThrows.frame`). */
  readonly width: number;
  readonly height: number;
  readonly dice: readonly GuidedDie[];
}

export interface GuidedThrows {
  readonly reference: RgbImage;
  readonly referenceFile?: { readonly file: string; readonly sha256: string };
  readonly channels: readonly ChannelRegion[];
  readonly throws: readonly GuidedThrow[];
  /** Dice located but left out: touching others (split ones too, without `splitDice`), or outside every channel. */
  readonly skippedDice: number;
  /** Throw `index`'s frame: read back from where the camera kept it, or held in memory when it cannot be. */
  frame(index: number): Promise<RgbImage>;
}

export interface GuidedThrowsOptions {
  readonly camera: CalibrationCamera;
  readonly throws: number;
  readonly channels: number;
  readonly dicePerChannel?: number;
  /** Across-corners size of a d8 in the frames, pixels (for locating). */
  readonly dieSizePx: number;
  readonly log: (line: string) => void;
  /** Keeps the reference image (e.g. a file beside the profile) and says where. */
  readonly saveReference?: (image: RgbImage) => Promise<{ readonly file: string; readonly sha256: string }>;
  /** Keeps the dice split from the dice they touch (default: left out). */
  readonly splitDice?: boolean;
}

/** A named die whose look points to another named face than its own: named wrong, or hard to read. Kept, and shown to check. */
export interface DoubtfulDie {
  readonly throwIndex: number;
  /** Where it lies in its throw's frame. */
  readonly centre: Point;
  readonly label: string;
  /** The named face it looks more like. */
  readonly nearer: string;
  /** Why it is doubtful, when not because it looks more like `nearer` (a D6 the pip counter read as another face). */
  readonly because?: string;
  readonly crop: RgbImage;
  /** Its line in its throw's label file, from 1, once the throws are labelled. */
  readonly labelLine?: number;
}

/** A throw's name in a folder of kept throws, and in the group it is held back by. */
export function throwName(index: number): string {
  return `throw-${String(index + 1).padStart(4, '0')}`;
}

/** Runs steps 1 to 3 of 4 (the last, naming, is the reader's). */
export async function collectGuidedThrows(options: GuidedThrowsOptions): Promise<GuidedThrows> {
  const { camera, log } = options;
  log(`Step 1 of 4: empty-platform reference from ${camera.description}.`);
  const reference = await camera.emptyPlatform();
  const referenceFile = options.saveReference ? await options.saveReference(reference) : undefined;

  log(`Step 2 of 4: channel regions.`);
  const channels = detectChannelRegions(reference, options.channels, options.dicePerChannel ?? 1);
  if (typeof channels === 'string') throw new DicerigError(channels, { camera: camera.description });
  for (const c of channels) {
    const b = channelBounds(c);
    log(`  channel ${c.id}: x ${b.x}-${b.x + b.width}, y ${b.y}-${b.y + b.height}`);
  }

  const count = camera.kept ?? options.throws;
  log(`Step 3 of 4: ${count} throws${camera.kept !== undefined ? ' kept from an earlier calibration' : ''}.`);
  const locate = xwingLocateOptions(options.dieSizePx);
  const throws: GuidedThrow[] = [];
  const held = new Map<number, RgbImage>();
  let skippedDice = 0;
  for (let t = 0; t < count; t++) {
    const { image, truth } = await camera.nextThrow(t);
    const dice: GuidedDie[] = [];
    for (const die of locateDice(image, reference, channels, locate).dice) {
      if (die.estimatedCount > 1 || (die.splitFrom !== undefined && options.splitDice !== true) || die.channel === undefined) {
        skippedDice += die.estimatedCount;
        continue;
      }
      const known = truth?.reduce<{ label: string; d: number } | undefined>((best, x) => {
        const d = Math.hypot(x.center.x - die.center.x, x.center.y - die.center.y);
        return d < options.dieSizePx / 2 && (!best || d < best.d) ? { label: x.label, d } : best;
      }, undefined);
      dice.push({ center: die.center, bbox: die.bbox, ...(known ? { truth: known.label } : {}), ...(die.splitFrom !== undefined ? { split: true as const } : {}) });
    }
    throws.push({ index: t, width: image.width, height: image.height, dice });
    if (camera.reread === undefined) held.set(t, image);
  }
  const alone = throws.reduce((n, t) => n + t.dice.filter((d) => !d.split).length, 0);
  const split = throws.reduce((n, t) => n + t.dice.length, 0) - alone;
  // Dice are told apart by their expected area: with the die size far too small, every lone die counts as touching
  // (and is split in pieces where a channel expects several dice).
  if (skippedDice + split > alone) {
    const what = split > 0 ? `${skippedDice + split} dice were found touching others (${split} of them split apart and kept) or outside the channels` : `${skippedDice} dice were left out as touching or outside the channels`;
    log(
      `  warning: ${what} against ${alone} alone in a channel: unless your dice touch that often, check --die-size (${options.dieSizePx} px across corners; measure a die in a frame) and the channel count.`,
    );
  }
  const frame = (index: number): Promise<RgbImage> => {
    const image = held.get(index);
    if (image !== undefined) return Promise.resolve(image);
    if (camera.reread === undefined || index < 0 || index >= throws.length) return Promise.reject(new RangeError(`no throw ${index} was taken`));
    return camera.reread(index);
  };
  return { reference, ...(referenceFile ? { referenceFile } : {}), channels, throws, skippedDice, frame };
}
