/**
 * Image file decoding and encoding (JPEG, PNG, ...) through sharp, into the raw
 * RGB struct the vision core works on.
 */
import sharp from 'sharp';
import { InputError } from '../core/errors.js';
import type { RgbImage } from '../core/image.js';

/** Decodes an image file to RGB (alpha dropped, EXIF orientation applied). */
export async function decodeImageFile(file: string): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(file).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (cause) {
    throw new InputError(`cannot decode the image: ${(cause as Error).message}`, { file }, { cause });
  }
}

/** Encodes an RGB image as PNG bytes (evidence crops, debugging). */
export async function encodePng(image: RgbImage): Promise<Buffer> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .png()
    .toBuffer();
}
