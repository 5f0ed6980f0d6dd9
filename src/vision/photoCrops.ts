/**
 * Crops for labelled boxes: the reader gets a square around each labelled die,
 * a little larger than the box so the die's outline is whole.
 */
import { cropRgb, squareAround } from '../core/image.js';
import type { Rect, RgbImage } from '../core/image.js';
import type { DieCrop } from './faceRead.js';

/** A die crop from a box in image fractions (YOLO) or pixels (`fractional: false`). */
export function cropForBox(image: RgbImage, box: Rect, fractional = true, margin = 1.3): DieCrop {
  const sx = fractional ? image.width : 1;
  const sy = fractional ? image.height : 1;
  const w = box.width * sx;
  const h = box.height * sy;
  const center = { x: (box.x + box.width / 2) * sx, y: (box.y + box.height / 2) * sy };
  // The labelled box includes visible side faces; the top face is about the smaller box side.
  const size = Math.min(w, h);
  return { image: cropRgb(image, squareAround(center, Math.max(w, h) * margin)), sizePx: size };
}
