/**
 * A labelled folder as crops: each image decoded once, a crop cut around every
 * labelled box (the reader gets what it would get from the rig), grouped by image.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';
import { COCKED_LABEL } from '../vision/labelledEval.js';
import { cropForBox } from '../vision/photoCrops.js';
import type { DieCrop } from '../vision/faceRead.js';
import type { Rect, RgbImage } from '../core/image.js';
import { decodeImageFile } from '../camera/decode.js';
import { notAFace } from '../vision/labelClass.js';
import { readLabelledFolder } from './labelledFolder.js';

export interface LabelledDieCrop {
  readonly crop: DieCrop;
  readonly label: string;
  /** Image name (without extension): the group dice share lighting in. */
  readonly group: string;
  /** Box in image fractions, as labelled. */
  readonly box: Rect;
}

export interface LabelledCrops {
  readonly classes: readonly string[];
  readonly images: number;
  readonly crops: readonly LabelledDieCrop[];
  /** What was read past (label files with no image): to be shown the user. */
  readonly warnings: readonly string[];
}

/**
 * Refuses a folder with no labelled flat die of the kind asked for (cocked ones aside: no face to read or fit), naming
 * the folder, the classes its classes.txt lists and what such dice's classes look like.
 */
export function requireFlatDice(folder: { readonly classes: readonly string[]; readonly crops: readonly { readonly label: string }[] }, dice: string, where: string): void {
  if (folder.crops.some((c) => c.label !== COCKED_LABEL)) return;
  const expected = dice === 'd6' ? 'D6 classes are 1 to 6' : 'X-Wing classes carry the colour: red-hit, green-evade, cocked ...';
  throw new InputError(`no labelled ${dice} dice in ${where} (classes.txt lists ${folder.classes.join(', ')}; ${expected}).`);
}

/**
 * Where a labelled folder's images and labels are: `DIR/images` and
 * `DIR/labels` when DIR is a dataset root (the layout of the shared datasets),
 * otherwise DIR itself holds the images.
 */
export function labelledFolderPaths(dir: string, labelsDir?: string): { images: string; labels?: string } {
  const nested = join(dir, 'images');
  if (existsSync(nested)) return { images: nested, ...(labelsDir !== undefined ? { labels: labelsDir } : existsSync(join(dir, 'labels')) ? { labels: join(dir, 'labels') } : {}) };
  return { images: dir, ...(labelsDir !== undefined ? { labels: labelsDir } : {}) };
}

/** The class check of a reading that keeps `keep`'s classes: each kept class must be a face of its die (`notAFace`). */
export function keptFaces(keep: (className: string) => boolean): (className: string) => string | undefined {
  return (c) => (keep(c) ? notAFace(c) : undefined);
}

/** How a die's crop is cut from its image and its labelled box (in pixels). */
export type CropCutter = (image: RgbImage, box: Rect) => DieCrop;

/** Reads the folder's crops, keeping boxes whose class passes `keep` (default: all); `cut` cuts them (default: a square around the box). */
export async function readLabelledCrops(imagesDir: string, labelsDir?: string, keep: (className: string) => boolean = () => true, margin = 1.3, cut?: CropCutter): Promise<LabelledCrops> {
  const folder = await readLabelledFolder(imagesDir, labelsDir, keptFaces(keep));
  const crops: LabelledDieCrop[] = [];
  for (const photo of folder.photos) {
    const boxes = photo.boxes.filter((b) => keep(b.className));
    if (boxes.length === 0) continue;
    const image = await decodeImageFile(photo.imagePath);
    for (const b of boxes) {
      const px = { x: b.box.x * image.width, y: b.box.y * image.height, width: b.box.width * image.width, height: b.box.height * image.height };
      crops.push({ crop: cut ? cut(image, px) : cropForBox(image, b.box, true, margin), label: b.className, group: photo.name, box: b.box });
    }
  }
  return { classes: folder.classes, images: folder.photos.length, crops, warnings: folder.warnings };
}
