/**
 * Replay of an image folder (e.g. frames saved during a real run), sorted by
 * file name, decoded one at a time; timestamps from the frame index and `fps`.
 */
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { InputError } from '../core/errors.js';
import { decodeImageFile } from './decode.js';
import { frameSourceFrom } from './frameSource.js';
import type { Frame, FrameSource } from './frameSource.js';
import type { RgbImage } from '../core/image.js';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.bmp', '.tif', '.tiff']);

/** The folder's image files, in the order they are replayed. */
export async function replayedImages(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => IMAGE_EXTENSIONS.has(extname(f).toLowerCase())).sort();
  } catch (cause) {
    throw new InputError(`cannot read the image folder: ${(cause as Error).message}`, { file: dir }, { cause });
  }
}

/** The first frame a replay of `dir` gives, or undefined for a folder without images. */
export async function firstReplayedFrame(dir: string): Promise<RgbImage | undefined> {
  const first = (await replayedImages(dir))[0];
  return first === undefined ? undefined : decodeImageFile(join(dir, first));
}

export function folderReplay(dir: string, fps = 30): FrameSource {
  return frameSourceFrom(`folder ${dir}`, async function* (): AsyncGenerator<Frame> {
    const names = await replayedImages(dir);
    let index = 0;
    for (const name of names) {
      yield { image: await decodeImageFile(join(dir, name)), timestampMs: (index * 1000) / fps, index };
      index++;
    }
  });
}
