/**
 * The data hash recorded with trained weights (development time only): sha256 of a labelled folder's photos in
 * order, each photo's file name, image bytes and label file (an image without a label file holds no dice).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabelledPhoto } from '../../src/vision-io/labelledFolder.js';

export function dataHash(photos: readonly LabelledPhoto[], labelsDir: string): string {
  const hash = createHash('sha256');
  for (const photo of photos) {
    hash.update(photo.imagePath.split('/').pop() as string);
    hash.update(readFileSync(photo.imagePath));
    try {
      hash.update(readFileSync(join(labelsDir, `${photo.name}.txt`)));
    } catch {
      // an image without labels holds no dice
    }
  }
  return hash.digest('hex');
}
