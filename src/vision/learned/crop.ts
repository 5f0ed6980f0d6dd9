/**
 * Cutting a die's crop around its top face: the labelled box (or located blob)
 * centre moved by the perspective parallax (`topFaceCentre`), so the reader's
 * centre is the face that looks up, whatever icons the side faces show.
 */
import type { DieCrop } from '../faceRead.js';
import { cropSquare } from '../../core/image.js';
import type { Rect, RgbImage } from '../../core/image.js';
import { offAxisDegrees, radialDirection, topFaceCentre } from './topFace.js';
import type { CameraGeometry } from './topFace.js';

export interface TopFaceCropOptions {
  readonly heightRatio: number;
  readonly camera: CameraGeometry;
  /** Parallax gain (1: geometry alone; fitted at calibration). */
  readonly gain: number;
  /** Crop side over the die's size. */
  readonly margin: number;
}

/** The crop for a box given in image pixels; `sizePx` is the box's smaller side. */
export function topFaceCrop(image: RgbImage, box: Rect, options: TopFaceCropOptions): DieCrop {
  const sizePx = Math.min(box.width, box.height);
  const boxCentre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const centre = topFaceCentre(boxCentre, sizePx, options.heightRatio, options.camera, options.gain);
  const radial = radialDirection(boxCentre, options.camera);
  // The cut's image, and where the die lies in it when the frame's edge cut it short.
  const offAxisDeg = offAxisDegrees(boxCentre, options.camera);
  return { ...cropSquare(image, centre, Math.max(box.width, box.height) * options.margin), sizePx, ...(radial !== undefined ? { radial } : {}), offAxisDeg };
}
