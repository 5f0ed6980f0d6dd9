/**
 * A labelled folder read as whole frames, as a session reads throws: each
 * image located against its empty platform and every labelled die matched to
 * what the pipeline made of it (`vision/labelledFrame.ts`). A folder carries
 * its empty platforms as `empty/<name>.<ext>` beside `images/` (one per image,
 * as `vision simulate --empty-platform` and the renderer write them) or as one
 * `reference.png` (a rig's, for every image).
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { decodeImageFile } from '../camera/decode.js';
import { InputError } from '../core/errors.js';
import type { RgbImage } from '../core/image.js';
import type { FaceRead, FaceReader } from '../vision/faceRead.js';
import { readLabelledFrame } from '../vision/labelledFrame.js';
import type { LabelledEvaluation } from '../vision/labelledEval.js';
import type { PipelineOptions } from '../vision/pipeline.js';
import { readLabelledFolder } from './labelledFolder.js';
import { keptFaces } from './labelledCrops.js';

/** The folder a labelled folder's `images/` sits in (the dataset root), or the images folder itself. */
function datasetRoot(imagesDir: string): string {
  return basename(imagesDir) === 'images' ? dirname(imagesDir) : imagesDir;
}

/** Whether a labelled folder holds its empty platforms (`empty/` beside `images/`, or one `reference.png`). */
export function holdsEmptyPlatforms(imagesDir: string): boolean {
  const root = datasetRoot(imagesDir);
  return existsSync(join(root, 'empty')) || existsSync(join(root, 'reference.png'));
}

/**
 * Each image's empty-platform reference, by image path. A folder without them is refused, and so is one with
 * `empty/` that lacks some images' references, naming them: frames and crops are not mixed in one measure.
 */
function emptyReferences(imagesDir: string, imagePaths: readonly string[]): Map<string, string> {
  const root = datasetRoot(imagesDir);
  const emptyDir = join(root, 'empty');
  if (existsSync(emptyDir)) {
    const byName = new Map(readdirSync(emptyDir).map((f) => [basename(f, extname(f)), join(emptyDir, f)]));
    const found = new Map<string, string>();
    const lacking: string[] = [];
    for (const p of imagePaths) {
      const ref = byName.get(basename(p, extname(p)));
      if (ref === undefined) lacking.push(basename(p));
      else found.set(p, ref);
    }
    if (lacking.length > 0) {
      throw new InputError(`${emptyDir} has no empty platform for ${lacking.length} of the ${imagePaths.length} images (${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ', ...' : ''}): give each image its own, named as the image, or remove ${emptyDir} to read crops instead.`, { file: emptyDir });
    }
    return found;
  }
  const one = join(root, 'reference.png');
  if (!existsSync(one)) throw new InputError(`no empty platforms here to read whole frames against: keep each image's beside images/ as empty/<name> (as vision simulate --empty-platform writes them), or one reference.png for all`, { file: root });
  return new Map(imagePaths.map((p) => [p, one]));
}

export interface LabelledFrames {
  readonly classes: readonly string[];
  readonly images: number;
  /** One per labelled die kept, cocked ones included. */
  readonly reads: LabelledEvaluation['reads'];
  /** What was read past (label files with no image): to be shown the user. */
  readonly warnings: readonly string[];
}

/**
 * Reads every image of the folder against its reference with `reader` and the pipeline `options` a session would
 * use, keeping boxes whose class passes `keep`. Every box of an image is a die the pipeline locates, kept or not.
 */
export async function readLabelledFrames(imagesDir: string, labelsDir: string | undefined, reader: FaceReader, options: PipelineOptions, keep: (className: string) => boolean): Promise<LabelledFrames> {
  const folder = await readLabelledFolder(imagesDir, labelsDir, keptFaces(keep));
  const references = emptyReferences(imagesDir, folder.photos.map((p) => p.imagePath));
  const reads: LabelledEvaluation['reads'][number][] = [];
  // A rig's one reference is decoded once, not once an image.
  let last: { readonly path: string; readonly image: RgbImage } | undefined;
  for (const photo of folder.photos) {
    const frame = await decodeImageFile(photo.imagePath);
    const refPath = references.get(photo.imagePath) as string;
    if (last?.path !== refPath) last = { path: refPath, image: await decodeImageFile(refPath) };
    const reference = last.image;
    if (reference.width !== frame.width || reference.height !== frame.height) {
      throw new InputError(`the empty platform ${refPath} is ${reference.width}x${reference.height} but ${photo.imagePath} is ${frame.width}x${frame.height}: take the reference with the same camera and resolution.`, { file: refPath });
    }
    const boxes = photo.boxes.map((b) => ({ label: b.className, box: { x: b.box.x * frame.width, y: b.box.y * frame.height, width: b.box.width * frame.width, height: b.box.height * frame.height } }));
    const frameReads = readLabelledFrame(frame, reference, boxes, reader, options);
    boxes.forEach((b, i) => {
      if (keep(b.label)) reads.push({ group: photo.name, truth: b.label, read: frameReads[i] as FaceRead });
    });
  }
  return { classes: folder.classes, images: folder.photos.length, reads, warnings: folder.warnings };
}
