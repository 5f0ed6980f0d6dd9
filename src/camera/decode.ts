/**
 * Image file decoding and encoding (JPEG, PNG, ...) through sharp, into the raw
 * RGB struct the vision core works on.
 */
import sharp from 'sharp';
import { InputError } from '../core/errors.js';
import type { RgbImage } from '../core/image.js';

/** Decodes an image file to RGB (alpha dropped, EXIF orientation applied). */
export async function decodeImageFile(file: string): Promise<RgbImage> {
  return decodeSharp(sharp(file), file);
}

/** Decodes image bytes (JPEG, PNG, ...) to RGB, as `decodeImageFile` decodes the file `file` they came from or go to. */
export async function decodeImageBytes(bytes: Buffer, file: string): Promise<RgbImage> {
  return decodeSharp(sharp(bytes), file);
}

async function decodeSharp(input: ReturnType<typeof sharp>, file: string): Promise<RgbImage> {
  try {
    const { data, info } = await input.rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (cause) {
    throw new InputError(`cannot decode the image: ${(cause as Error).message}`, { file }, { cause });
  }
}

/** The raw pixels of `image` as sharp takes them. */
function rawSharp(image: RgbImage): ReturnType<typeof sharp> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** Encodes an RGB image as JPEG bytes at `quality` (1..100). */
export async function encodeJpeg(image: RgbImage, quality: number): Promise<Buffer> {
  return rawSharp(image).jpeg({ quality }).toBuffer();
}

/** `image` blurred by a Gaussian of `sigma` pixels (a softer lens). */
export async function blurRgb(image: RgbImage, sigma: number): Promise<RgbImage> {
  const { data, info } = await rawSharp(image).blur(sigma).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** Encodes an RGB image as PNG bytes (evidence crops, debugging). */
export async function encodePng(image: RgbImage): Promise<Buffer> {
  return rawSharp(image).png().toBuffer();
}
