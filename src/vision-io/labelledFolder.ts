/**
 * Reads a folder of labelled photos in the YOLO layout: images, a labels folder
 * with one `<name>.txt` per image (`<class> <cx> <cy> <w> <h>`, fractions of the
 * image size) and a `classes.txt` naming the classes one per line.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { InputError } from '../core/errors.js';
import type { Rect } from '../core/image.js';

export interface LabelledBox {
  /** Class name from `classes.txt`. */
  readonly className: string;
  readonly classIndex: number;
  /** Box in pixels of the image (once its size is known) or in fractions (before). */
  readonly box: Rect;
}

export interface LabelledPhoto {
  readonly name: string;
  readonly imagePath: string;
  /** Boxes in image fractions (0..1); multiply by the decoded width/height. */
  readonly boxes: readonly LabelledBox[];
}

export interface LabelledFolder {
  readonly classes: readonly string[];
  readonly photos: readonly LabelledPhoto[];
}

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.bmp', '.tif', '.tiff']);

/** Parses one YOLO label file's text. */
export function parseYoloLabels(text: string, classes: readonly string[], file: string): LabelledBox[] {
  const boxes: LabelledBox[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parts = line.split(/\s+/);
    if (parts.length !== 5) throw new InputError(`expected "<class> <cx> <cy> <w> <h>", found ${parts.length} fields`, { file, line: i + 1 });
    const nums = parts.map(Number);
    if (nums.some((v) => !Number.isFinite(v))) throw new InputError(`a field is not a number: "${line}"`, { file, line: i + 1 });
    const [c, x, y, w, h] = nums as [number, number, number, number, number];
    const className = classes[c];
    if (!Number.isInteger(c) || className === undefined) {
      throw new InputError(`class ${parts[0]} is not in classes.txt (which lists ${classes.length} classes)`, { file, line: i + 1 });
    }
    boxes.push({ className, classIndex: c, box: { x: x - w / 2, y: y - h / 2, width: w, height: h } });
  });
  return boxes;
}

/**
 * Reads the folder. `imagesDir` holds the photos; `labelsDir` (default
 * `<imagesDir>/../labels`, else `<imagesDir>/labels`) holds the label files and
 * `classes.txt`. Photos are sorted by file name, so splits by name are stable.
 */
export async function readLabelledFolder(imagesDir: string, labelsDir?: string): Promise<LabelledFolder> {
  // A mistyped folder is named as such, not as a missing classes.txt somewhere beside it.
  if (!existsSync(imagesDir)) throw new InputError(`no such folder: a labelled folder holds images/ and labels/ (or is the images folder itself)`, { file: imagesDir });
  const candidates = labelsDir ? [labelsDir] : [join(imagesDir, '..', 'labels'), join(imagesDir, 'labels')];
  let classesText: string | undefined;
  let labels = candidates[0] as string;
  for (const dir of candidates) {
    try {
      classesText = await readFile(join(dir, 'classes.txt'), 'utf8');
      labels = dir;
      break;
    } catch {
      // try the next candidate
    }
  }
  if (classesText === undefined) {
    throw new InputError(`no classes.txt found in ${candidates.join(' or ')}; a labelled folder needs one class name per line`, { file: candidates[0] });
  }
  const classes = classesText
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const names = (await readdir(imagesDir)).filter((f) => IMAGE_EXTENSIONS.has(extname(f).toLowerCase())).sort();
  const photos: LabelledPhoto[] = [];
  for (const file of names) {
    const stem = basename(file, extname(file));
    const labelFile = join(labels, `${stem}.txt`);
    let text: string;
    try {
      text = await readFile(labelFile, 'utf8');
    } catch {
      // An image without a label file is an image with no dice (YOLO convention).
      text = '';
    }
    photos.push({ name: stem, imagePath: join(imagesDir, file), boxes: parseYoloLabels(text, classes, labelFile) });
  }
  return { classes, photos };
}
