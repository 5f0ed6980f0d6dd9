/**
 * Evidence images: the crop a die was read (or refused) from, written as PNG
 * beside the roll store with its SHA-256, so a rerolled throw can be shown and
 * a stored roll can be checked against its pixels later.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { encodePng } from '../camera/decode.js';
import type { RgbImage } from '../core/image.js';

export interface SavedEvidence {
  /** Path relative to the roll store's folder. */
  readonly path: string;
  /** Hex SHA-256 of the file's bytes. */
  readonly hash: string;
}

export interface EvidenceSink {
  /** Saves one image under a file name unique within the session. */
  save(image: RgbImage, name: string): Promise<SavedEvidence>;
}

/** Writes PNGs into `dir` (created on first use), recording paths relative to `base`. */
export function folderEvidence(dir: string, base: string): EvidenceSink {
  let made = false;
  return {
    async save(image, name) {
      if (!made) {
        await mkdir(dir, { recursive: true });
        made = true;
      }
      const bytes = await encodePng(image);
      const file = join(dir, `${name}.png`);
      await writeFile(file, bytes);
      return { path: relative(base, file), hash: createHash('sha256').update(bytes).digest('hex') };
    },
  };
}
