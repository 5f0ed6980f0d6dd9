/**
 * The tray photos the shipped D6 networks never saw (`heldOutPhotos`), die by die, as a D6 check cuts crops: each
 * labelled face die cut round its box, 1.3 times its side. Development-time measurements only.
 */
import { join } from 'node:path';
import { decodeImageFile } from '../../src/camera/decode.js';
import { cropSquare, type RgbImage } from '../../src/core/image.js';
import { d6Die } from '../../src/dice/catalogue.js';
import { heldOutOf } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';

export interface TrayDie {
  /** The photo's path (dice in one photo share its light). */
  readonly photo: string;
  readonly label: string;
  readonly crop: RgbImage;
  /** The die's side in the photo, pixels. */
  readonly side: number;
}

/** The held-out photos' count and their face dice. */
export async function heldOutTrayDice(dir: string): Promise<{ photos: number; dice: TrayDie[] }> {
  const folder = await readLabelledFolder(join(dir, 'images'));
  const photos = heldOutOf(shippedD6Net, folder.photos);
  const dice: TrayDie[] = [];
  for (const photo of photos) {
    const image = await decodeImageFile(photo.imagePath);
    for (const b of photo.boxes) {
      if (!d6Die.symbols.includes(b.className)) continue;
      const side = Math.max(b.box.width * image.width, b.box.height * image.height);
      const centre = { x: (b.box.x + b.box.width / 2) * image.width, y: (b.box.y + b.box.height / 2) * image.height };
      dice.push({ photo: photo.imagePath, label: b.className, crop: cropSquare(image, centre, side * 1.3).image, side });
    }
  }
  return { photos: photos.length, dice };
}
