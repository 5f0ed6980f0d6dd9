/**
 * The guided calibration on the rig for the learned reader: the throws of
 * `guidedThrows.ts`, each die cut as a session cuts it (a square of the die's
 * size around where it was located, centred on its top face by perspective),
 * grouped by what the shipped network sees (`embeddingGroups.ts`) and each
 * group named once (`groupNaming.ts`). The result is labelled throws: the
 * caller keeps them as a labelled folder and builds the profile from that
 * folder exactly as `calibrate --from-labelled` would, so the folder remakes
 * the profile and can be labelled further by hand.
 */
import type { DieType } from '../../dice/types.js';
import { getDieType } from '../../dice/catalogue.js';
import { DicerigError } from '../../core/errors.js';
import { cropRgb, squareAround } from '../../core/image.js';
import type { Point, Rect, RgbImage } from '../../core/image.js';
import { seededRandom } from '../../stats/random.js';
import type { ChannelRegion } from '../channels.js';
import { describeD8 } from '../d8/describe.js';
import type { D8Description } from '../d8/describe.js';
import type { DieCrop } from '../faceRead.js';
import type { LearnedReader } from '../learned/reader.js';
import { dieEmbedding, doubtfulDice, embeddingSplit, groupByEmbedding, sameDieFaces } from './embeddingGroups.js';
import type { DieLook } from './embeddingGroups.js';
import { allowedNames, memberNames, nameGroups, SKIP_NAME, truthCounts } from './groupNaming.js';
import type { ClusterView, GroupNamingOptions } from './groupNaming.js';
import { diceIdsOf, LOOKS_COCKED } from './guided.js';
import type { CalibrationDice } from './guided.js';
import { collectGuidedThrows } from './guidedThrows.js';
import type { DoubtfulDie, GuidedThrowsOptions } from './guidedThrows.js';


export interface GuidedLearnedOptions extends GuidedThrowsOptions, GroupNamingOptions {
  readonly dice: CalibrationDice;
  /** The shipped network, as is: it groups the dice and its outline check sets the tilted-looking ones apart. */
  readonly reader: LearnedReader;
  /** Cuts a die's box as `calibrate --from-labelled` cuts a labelled box (`learnedCutter`, with the camera's field of view). */
  readonly cut: (image: RgbImage, box: Rect) => DieCrop;
  /** Seed of the grouping (the same throws and seed ask the same questions). */
  readonly seed: number;
  /** Groups of flat-looking dice to form (default three per face of the chosen dice). */
  readonly clusterCount?: number;
  readonly dieTypes?: readonly DieType[];
}

export interface LabelledThrow {
  readonly index: number;
  /** The frame's size (the frame is on disk, kept as it was taken). */
  readonly image: Pick<RgbImage, 'width' | 'height'>;
  /** The named dice: a square of the die's size around where it was located, and its class. */
  readonly dice: readonly { readonly box: Rect; readonly label: string }[];
}

/**
 * The named dice laid out as labelled throws, each throw's dice in the order given, with each die's line in its
 * throw's label file (from 1; undefined: not named), so a die listed to check can be found there.
 */
export function labelledThrows<I extends Pick<RgbImage, 'width' | 'height'>>(
  throws: readonly { readonly index: number; readonly image: I }[],
  dice: readonly { readonly throwIndex: number; readonly box: Rect; readonly label: string | undefined }[],
): { throws: { index: number; image: I; dice: { box: Rect; label: string }[] }[]; lines: (number | undefined)[] } {
  const out = throws.map((t) => ({ index: t.index, image: t.image, dice: [] as { box: Rect; label: string }[] }));
  const lines = dice.map(({ throwIndex, box, label }) => {
    const into = out[throwIndex]?.dice;
    if (label === undefined || into === undefined) return undefined;
    into.push({ box, label });
    return into.length;
  });
  return { throws: out, lines };
}

export interface GuidedLearnedResult {
  readonly reference: RgbImage;
  readonly referenceFile?: { readonly file: string; readonly sha256: string };
  readonly channels: readonly ChannelRegion[];
  readonly throws: readonly LabelledThrow[];
  /** Every class a die may be named, in the order a labelled folder's `classes.txt` lists them. */
  readonly classes: readonly string[];
  /** The dice's size across corners in the frames (the median of the flat dice measured), which cut them. */
  readonly dieSizePx: number;
  readonly clusters: readonly ClusterView[];
  /** Dice located but not used: touching others, or outside a channel. */
  readonly skippedDice: number;
  /** Named dice in which the network sees another named face more than their own: named wrong, or hard to read (kept). */
  readonly doubtful: readonly DoubtfulDie[];
}

/** How far the measured die size may lie from the one the dice were located by before the user is told. */
const MAX_SIZE_MISMATCH = 0.25;

/** Flat-looking dice under which the die size is the median of every die measured (a lens showing every die's sides). */
const MIN_FLAT_SIZES = 10;

/**
 * The dice's across-corners size: the median of the flat-looking dice an outline could be measured on, or of every
 * die measured when fewer than `MIN_FLAT_SIZES` look flat (on the renders most flat dice's outlines are long:
 * perspective), or `given` when none could be measured; with where it came from.
 */
function measuredDieSize(outlines: readonly (D8Description | string)[], given: number): { size: number; how: string } {
  const measured = outlines.filter((d): d is D8Description => typeof d !== 'string');
  const flat = measured.filter((d) => d.outline.elongation <= LOOKS_COCKED);
  const use = flat.length >= MIN_FLAT_SIZES ? flat : measured;
  if (use.length === 0) return { size: given, how: 'as given: no die outline could be measured' };
  const sizes = use.map((d) => d.outline.radius * 2).sort((a, b) => a - b);
  return { size: sizes[sizes.length >> 1] as number, how: `measured on ${use.length} ${use === flat ? 'flat-looking ' : ''}dice` };
}

/** A die's outline measured as the ring reader measures it, on a square 1.5 die sizes wide around where it lies. */
function outlineOf(image: RgbImage, centre: Point, dieSizePx: number): D8Description | string {
  return describeD8(cropRgb(image, squareAround(centre, dieSizePx * 1.5)));
}

/** How a die looks before grouping: tilted to the network's outline check, and with an outline longer than a flat d8's. */
export function lookOf(reader: LearnedReader, crop: DieCrop, image: RgbImage, centre: Point, dieSizePx: number, outline = outlineOf(image, centre, dieSizePx)): DieLook {
  const at = reader.model.cockedCheck?.at;
  return { tilted: at !== undefined && (reader.outlineScore(crop) ?? 0) >= at, elongated: typeof outline !== 'string' && outline.outline.elongation > LOOKS_COCKED };
}

/** Dice shown in a group's picture: all of them up to 48, else the 24 nearest its centre and the 24 farthest (where a die of another face would be). */
export function shownMembers(members: readonly number[]): number[] {
  return members.length <= 48 ? [...members] : [...members.slice(0, 24), ...members.slice(-24)];
}

/** Runs the guided steps and returns the labelled throws (the profile is built from them as a labelled folder). */
export async function runGuidedLearnedCalibration(options: GuidedLearnedOptions): Promise<GuidedLearnedResult> {
  const { log, reader } = options;
  const dice = diceIdsOf(options.dice).map((id) => getDieType(id, options.dieTypes ?? []));
  // Dice split from those they touch are kept: a session reads them, cut as they are cut here.
  const taken = await collectGuidedThrows({ ...options, splitDice: options.splitDice ?? true });
  const located = taken.throws.flatMap((t) => t.dice.map((die) => ({ throwIndex: t.index, die })));
  const split = located.filter((l) => l.die.split).length;
  log(
    `  ${located.length} dice located${split > 0 ? ` (${split} split from dice they touched)` : ''}${taken.skippedDice > 0 ? `, ${taken.skippedDice} skipped (touching and not split, or outside the channels)` : ''}.`,
  );
  if (located.length === 0) throw new DicerigError('No dice were found in any throw: check the die size and that the dice are in the channels.');

  // Cut as a session cuts: a square of the measured die size around the located centre (the cutter moves it onto the top face).
  // A split die's outline takes in the die it touches: it neither measures the size nor says the die lies long.
  // Each throw's frame is read once a pass (the outlines, then the crops at the size they measure), not held throughout.
  const perThrow = async <T>(each: (image: RgbImage, i: number) => T): Promise<T[]> => {
    const out: T[] = [];
    for (const t of taken.throws) {
      if (t.dice.length === 0) continue;
      const image = await taken.frame(t.index);
      for (let j = 0; j < t.dice.length; j++) out.push(each(image, out.length));
    }
    return out;
  };
  const outlines = await perThrow((image, i) => {
    const l = located[i] as (typeof located)[number];
    return l.die.split ? 'split from the dice it touched' : outlineOf(image, l.die.center, options.dieSizePx);
  });
  const { size: dieSizePx, how } = measuredDieSize(outlines, options.dieSizePx);
  const boxes = located.map((l) => ({ x: l.die.center.x - dieSizePx / 2, y: l.die.center.y - dieSizePx / 2, width: dieSizePx, height: dieSizePx }));
  const cut = await perThrow((image, i) => {
    const crop = options.cut(image, boxes[i] as Rect);
    return { crop, look: lookOf(reader, crop, image, located[i]?.die.center as Point, dieSizePx, outlines[i]) };
  });
  const crops = cut.map((c) => c.crop);
  log(`  die size ${dieSizePx.toFixed(1)} px across corners (${how}; --die-size ${options.dieSizePx} located them).`);
  // Dice are located by their expected area: far from it, lone dice count as two touching, or are lost.
  if (Math.abs(dieSizePx / options.dieSizePx - 1) > MAX_SIZE_MISMATCH) {
    log(`  warning: the dice measure ${Math.round(dieSizePx)} px, not the ${options.dieSizePx} px they were located by: run again on the kept throws with --die-size ${Math.round(dieSizePx)}.`);
  }

  log(`Step 4 of 4: naming groups of dice the network sees alike.`);
  const embeddings = crops.map((c) => dieEmbedding(reader, c));
  const looks = cut.map((c) => c.look);
  const k = options.clusterCount ?? 3 * dice.reduce((n, d) => n + d.symbols.length, 0);
  const groups = groupByEmbedding(embeddings, looks, k, seededRandom(options.seed));
  const named = await nameGroups(
    groups.map((g) => ({ id: g.id, members: g.members, looksCocked: g.look.tilted || g.look.elongated })),
    {
      view: (g) => {
        const truth = truthCounts(g.members.map((m) => located[m]?.die.truth));
        return { id: g.id, size: g.members.length, typical: shownMembers(g.members).map((m) => (crops[m] as DieCrop).image), looksCocked: g.looksCocked, ...(truth ? { truth } : {}) };
      },
      split: embeddingSplit(embeddings, options.seed),
    },
    options,
    dice,
  );
  const clusters = named.map((n) => n.view);
  const names = memberNames(named, located.length);

  // Kept, not left out: a die that is named right but hard to read is the very die a reader misreads, and leaving it
  // out would make the profile's misread bounds look better than they are. The user is shown them to check.
  const { throws, lines } = labelledThrows(taken.throws.map((t) => ({ index: t.index, image: { width: t.width, height: t.height } })), located.map((l, i) => ({ throwIndex: l.throwIndex, box: boxes[i] as Rect, label: names[i] })));
  const nearer = doubtfulDice(embeddings, names, sameDieFaces);
  const doubtful = [...nearer.entries()].map(([i, other]) => ({ throwIndex: located[i]?.throwIndex as number, centre: located[i]?.die.center as Point, label: names[i] as string, nearer: other, crop: (crops[i] as DieCrop).image, labelLine: lines[i] as number }));
  const classes = allowedNames(dice).filter((n) => n !== SKIP_NAME);
  return {
    reference: taken.reference,
    ...(taken.referenceFile ? { referenceFile: taken.referenceFile } : {}),
    channels: taken.channels,
    throws,
    classes,
    dieSizePx,
    clusters,
    skippedDice: taken.skippedDice,
    doubtful,
  };
}
