/**
 * Writes a labelled folder's copy with every image regraded (`grade.ts`): the same labels, truth and classes, the
 * images blurred, graded and saved as JPEG at the grade's quality. The copy is written under `<to>.partial` and
 * renamed when complete, with a READY file inside, as the renderer writes its folders; its summary.json says what it
 * was made from.
 */
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/errors.js';
import { seededRandom } from '../../stats/random.js';
import { blurRgb, decodeImageFile, encodeJpeg } from '../decode.js';
import { gradePixels, GRADES, type GradeName } from './grade.js';
import { makeFolders } from '../../core/makeFolders.js';

export interface RegradeOptions {
  readonly from: string;
  readonly to: string;
  readonly grade: GradeName;
  /** Seeds the noise: image i of the sorted list gets `seededRandom(seed + i)`, so a copy is made again exactly. */
  readonly seed: number;
  readonly onProgress?: (done: number, total: number) => void;
}

const IMAGE = /\.(jpe?g|png)$/i;

/** Makes the regraded copy; returns how many images it regraded. */
export async function regradeFolder(options: RegradeOptions): Promise<number> {
  const { from, to, grade: name, seed } = options;
  const grade = GRADES[name];
  if (!existsSync(join(from, 'images')) || !existsSync(join(from, 'labels'))) {
    throw new InputError('not a labelled folder: it needs images/ and labels/ (the shared labelled-folder layout)', { file: from });
  }
  if (existsSync(to)) throw new InputError('the folder to write already exists; give a new one (nothing was changed)', { file: to });
  const images = (await readdir(join(from, 'images'))).filter((f) => IMAGE.test(f)).sort();
  if (images.length === 0) throw new InputError('no image (.jpg, .jpeg, .png) in images/', { file: join(from, 'images') });
  const partial = `${to}.partial`;
  await rm(partial, { recursive: true, force: true });
  makeFolders(join(partial, 'images'));
  await cp(join(from, 'labels'), join(partial, 'labels'), { recursive: true });
  if (existsSync(join(from, 'truth'))) await cp(join(from, 'truth'), join(partial, 'truth'), { recursive: true });
  for (const [i, file] of images.entries()) {
    const decoded = await decodeImageFile(join(from, 'images', file));
    const soft = grade.blurSigma > 0 ? await blurRgb(decoded, grade.blurSigma) : decoded;
    const graded = { ...soft, data: gradePixels(soft.data, grade, seededRandom(seed + i)) };
    // The labels name each image by its stem, so the copy keeps the stem and is a JPEG whatever the source was.
    await writeFile(join(partial, 'images', `${file.replace(IMAGE, '')}.jpg`), await encodeJpeg(graded, grade.jpegQuality));
    options.onProgress?.(i + 1, images.length);
  }
  const summaryFile = join(from, 'summary.json');
  const summary = existsSync(summaryFile) ? (JSON.parse(await readFile(summaryFile, 'utf8')) as Record<string, unknown>) : {};
  await writeFile(join(partial, 'summary.json'), `${JSON.stringify({ ...summary, regraded: { from, grade: name, ...grade, seed } }, null, 2)}\n`);
  await writeFile(join(partial, 'READY'), '');
  await rename(partial, to);
  return images.length;
}
