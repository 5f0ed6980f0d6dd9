/**
 * Several labelled folders read as one: a reader's decline spread between faces is judged on a few dozen declines,
 * and one folder of a few hundred images is seldom enough (`spreadByChance.ts`). Classes are matched by name, so
 * folders whose classes.txt list them in another order, or list others, pool correctly. Their dice are read as crops
 * cut round the labelled boxes, or as whole frames against their empty platforms, as a session reads them.
 */
import { basename, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import type { CropCutter, LabelledCrops } from './labelledCrops.js';
import { labelledFolderPaths, readLabelledCrops } from './labelledCrops.js';
import { readLabelledFrames, type LabelledFrames } from './labelledFrames.js';
import type { FaceReader } from '../vision/faceRead.js';
import type { PipelineOptions } from '../vision/pipeline.js';

/** One folder of a pooled set: as given, and where its images and labels are (`labelledFolderPaths`). */
export interface PooledFolder {
  readonly dir: string;
  readonly images: string;
  readonly labels?: string;
}

/** Where each folder's images and labels are, as `labelledFolderPaths` finds them; `labels` only with one folder. */
export function pooledFolderPaths(dirs: readonly string[], labelsDir?: string): PooledFolder[] {
  if (dirs.length === 0) throw new InputError('no folder of labelled images given.');
  if (labelsDir !== undefined && dirs.length > 1) {
    throw new InputError(`--labels names one labels folder, but ${dirs.length} image folders were given: give each as a dataset folder holding images/ and labels/.`, { file: labelsDir });
  }
  const folders = dirs.map((dir) => ({ dir, ...labelledFolderPaths(dir, labelsDir) }));
  // By the images each names: a dataset folder and its images/ folder are the same images.
  const seen = new Map<string, string>();
  for (const { dir, images } of folders) {
    const full = resolve(images);
    const before = seen.get(full);
    if (before !== undefined) throw new InputError(`the folders ${before} and ${dir} hold the same images: their dice would be counted twice.`, { file: dir });
    seen.set(full, dir);
  }
  return folders;
}

/** The name each folder's images are known by in a pooled report: its own name, numbered where two share one. */
function folderTags(folders: readonly PooledFolder[]): string[] {
  const names = folders.map((f) => basename(resolve(f.dir)));
  return names.map((n, i) => (names.indexOf(n) === names.lastIndexOf(n) ? n : `${n}#${i + 1}`));
}

/**
 * Reads every folder with `read` and pools what it gives: classes by name, images summed, and with more than one folder
 * each image's group prefixed by its folder's name, so two folders' `img-001` stay two images (they do not share a light).
 */
async function pool<T extends { readonly group: string }>(
  folders: readonly PooledFolder[],
  read: (folder: PooledFolder) => Promise<{ readonly classes: readonly string[]; readonly images: number; readonly items: readonly T[]; readonly warnings: readonly string[] }>,
): Promise<{ classes: string[]; images: number; items: T[]; warnings: string[] }> {
  const tags = folderTags(folders);
  const classes: string[] = [];
  const items: T[] = [];
  const warnings: string[] = [];
  let images = 0;
  for (const [i, f] of folders.entries()) {
    const one = await read(f);
    for (const c of one.classes) if (!classes.includes(c)) classes.push(c);
    images += one.images;
    warnings.push(...one.warnings);
    for (const it of one.items) items.push(folders.length > 1 ? { ...it, group: `${tags[i] as string}/${it.group}` } : it);
  }
  return { classes, images, items, warnings };
}

/** Reads every folder's crops (as `readLabelledCrops`) and pools them. */
export async function readPooledCrops(folders: readonly PooledFolder[], keep: (className: string) => boolean, margin: number, cut?: CropCutter): Promise<LabelledCrops> {
  const { classes, images, items, warnings } = await pool(folders, async (f) => {
    const folder = await readLabelledCrops(f.images, f.labels, keep, margin, cut);
    return { ...folder, items: folder.crops };
  });
  return { classes, images, crops: items, warnings };
}

/** The folders' whole frames read as a session reads throws (`labelledFrames.ts`), pooled as crops are. */
export async function readPooledFrames(folders: readonly PooledFolder[], reader: FaceReader, options: PipelineOptions, keep: (className: string) => boolean): Promise<LabelledFrames> {
  const { classes, images, items, warnings } = await pool(folders, async (f) => {
    const framed = await readLabelledFrames(f.images, f.labels, reader, options, keep);
    return { ...framed, items: framed.reads };
  });
  return { classes, images, reads: items, warnings };
}
