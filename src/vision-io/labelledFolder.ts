/**
 * Reads a folder of labelled photos in the YOLO layout: images, a labels folder
 * with one `<name>.txt` per image (`<class> <cx> <cy> <w> <h>`, fractions of the
 * image size) and a `classes.txt` naming the classes one per line. The labels
 * are ground truth every figure is measured against, so what cannot be right is
 * refused with its file and line, not read as a die the reader declined.
 */
import { existsSync, statSync } from 'node:fs';
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
  /** What was read but may not be what the user meant (label files with no image), one sentence each. */
  readonly warnings: readonly string[];
}

/** Why a class the reading keeps cannot be right (a face its die does not have), or undefined. */
export type ClassCheck = (className: string) => string | undefined;

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.bmp', '.tif', '.tiff']);

/** A few names and how many there are in all: "a.jpg, b.jpg, c.jpg and 5 more". */
function someOf(names: readonly string[], few = 3): string {
  return names.length <= few ? names.join(', ') : `${names.slice(0, few).join(', ')} and ${names.length - few} more`;
}

/** Why a box field cannot be a YOLO fraction, or undefined. A centre lies in the image; a size is above 0 and at most the image. */
function fieldProblem(name: string, value: number, size: boolean): string | undefined {
  const pixels = value > 1 ? ' (pixel coordinates? YOLO labels are fractions of the image size)' : '';
  if (!size) return value >= 0 && value <= 1 ? undefined : `${name} ${value} is not a fraction 0–1${pixels}`;
  if (value <= 0) return `${name} ${value} is not above 0: a box has a size`;
  return value <= 1 ? undefined : `${name} ${value} is more than the whole image${pixels}`;
}

/** Where the classes came from, to name a bad class by its line there. */
export interface ClassesSource {
  readonly file: string;
  /** The line of the file each class is on (blank lines are skipped, so not always its index + 1). */
  readonly lines: readonly number[];
  readonly check: ClassCheck;
}

/** Parses one YOLO label file's text; `source` (optional) refuses a class its check finds wrong, naming its classes.txt line. */
export function parseYoloLabels(text: string, classes: readonly string[], file: string, source?: ClassesSource): LabelledBox[] {
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
      throw new InputError(`class ${parts[0]} is not in classes.txt (which lists ${classes.length} classes, numbered from 0)`, { file, line: i + 1 });
    }
    const wrong = source?.check(className);
    if (wrong !== undefined) throw new InputError(`class ${c} is "${className}" (line ${source?.lines[c] ?? c + 1} of ${source?.file}): ${wrong}; correct classes.txt or this label.`, { file, line: i + 1 });
    const problem = fieldProblem('cx', x, false) ?? fieldProblem('cy', y, false) ?? fieldProblem('width', w, true) ?? fieldProblem('height', h, true);
    if (problem !== undefined) throw new InputError(`${problem}.`, { file, line: i + 1 });
    boxes.push({ className, classIndex: c, box: { x: x - w / 2, y: y - h / 2, width: w, height: h } });
  });
  return boxes;
}

/**
 * Reads the folder. `imagesDir` holds the photos; `labelsDir` (default
 * `<imagesDir>/../labels`, else `<imagesDir>/labels`) holds the label files and
 * `classes.txt`. Photos are sorted by file name, so splits by name are stable.
 * `check` refuses a class the reading keeps that cannot be right, where a label uses it.
 *
 * Every image needs its label file: an empty one is the YOLO way to say "no dice", a missing one may be labels
 * lost, and read as "no dice" it would silently count the image. A label file with no image is read past, with a warning.
 */
export async function readLabelledFolder(imagesDir: string, labelsDir?: string, check: ClassCheck = () => undefined): Promise<LabelledFolder> {
  // A mistyped folder is named as such, not as a missing classes.txt somewhere beside it.
  if (!existsSync(imagesDir)) throw new InputError(`no such folder: a labelled folder holds images/ and labels/ (or is the images folder itself)`, { file: imagesDir });
  if (!statSync(imagesDir).isDirectory()) throw new InputError(`is a file, not a folder: a labelled folder holds images/ and labels/ (or is the images folder itself)`, { file: imagesDir });
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
  const classesFile = join(labels, 'classes.txt');
  const all = classesText.split(/\r?\n/).map((s, i) => ({ name: s.trim(), line: i + 1 }));
  // A class's number is its line: a blank line among them would shift every class after it onto another face.
  const named = all.filter((l) => l.name !== '');
  const lastNamed = named.length > 0 ? (named[named.length - 1] as { line: number }).line : 0;
  const blank = all.find((l) => l.name === '' && l.line < lastNamed);
  if (blank !== undefined) {
    throw new InputError(`line ${blank.line} is blank, but later lines name classes: a class's number is its line (the first is 0), so a blank line shifts every class after it onto another; remove it`, { file: classesFile, line: blank.line });
  }
  const lines = named;
  const classes = lines.map((l) => l.name);
  const names = (await readdir(imagesDir)).filter((f) => IMAGE_EXTENSIONS.has(extname(f).toLowerCase())).sort();
  if (names.length === 0) throw new InputError(`no images here (looked for ${[...IMAGE_EXTENSIONS].join(', ')}): a labelled folder holds its photos in images/.`, { file: imagesDir });
  const labelFiles = (await readdir(labels)).filter((f) => f.endsWith('.txt') && f !== 'classes.txt');
  if (labelFiles.length === 0) throw new InputError(`no label files here beside classes.txt: each image needs <name>.txt, its dice one "<class> <cx> <cy> <w> <h>" a line (empty for an image with no dice).`, { file: labels });
  const stems = new Set(names.map((f) => basename(f, extname(f))));
  const labelStems = new Set(labelFiles.map((f) => basename(f, extname(f))));
  const unlabelled = names.filter((f) => !labelStems.has(basename(f, extname(f))));
  if (unlabelled.length > 0) {
    throw new InputError(
      `${unlabelled.length} of the ${names.length} images have no label file in ${labels} (${someOf(unlabelled)}): label them, or give an image with no dice an empty <name>.txt (a missing one may be labels lost).`,
      { file: imagesDir },
    );
  }
  const orphans = labelFiles.filter((f) => !stems.has(basename(f, extname(f)))).sort();
  const warnings =
    orphans.length > 0 ? [`${orphans.length} label file${orphans.length === 1 ? '' : 's'} in ${labels} ${orphans.length === 1 ? 'has' : 'have'} no image in ${imagesDir} and ${orphans.length === 1 ? 'was' : 'were'} not read (${someOf(orphans)}): an image of another format or name?`] : [];
  const source = { file: classesFile, lines: lines.map((l) => l.line), check };
  const photos: LabelledPhoto[] = [];
  for (const file of names) {
    const stem = basename(file, extname(file));
    const labelFile = join(labels, `${stem}.txt`);
    const text = await readFile(labelFile, 'utf8');
    photos.push({ name: stem, imagePath: join(imagesDir, file), boxes: parseYoloLabels(text, classes, labelFile, source) });
  }
  return { classes, photos, warnings };
}
