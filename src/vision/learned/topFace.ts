/**
 * Where the top face lies in the frame, by geometry. A camera above the
 * platform sees a die away from its optical centre obliquely: the side faces
 * turned towards the centre show, and the top face (nearer the lens) is pushed
 * outwards. The labelled box (or located blob) holds top and side faces; its
 * centre lies about halfway between the top face's centre and the bottom's.
 * So the top face's centre is the box centre moved away from the optical
 * centre by half the parallax of the die's height:
 *   shift = 0.5 · (heightRatio · sizePx / focalPx) · (boxCentre − opticalCentre)
 * (heightRatio: die height over its size as measured; sizePx / focalPx: the die's
 * size over its distance from the lens). The reader then looks at the top face,
 * not at the most visible icon, which may be a side face's.
 */
import type { Point } from '../../core/image.js';

export interface CameraGeometry {
  /** Optical centre in pixels (default: the frame's centre). */
  readonly opticalCentre: Point;
  /** Focal length in pixels: (width / 2) / tan(horizontal field of view / 2). */
  readonly focalPx: number;
}

/** Die height over its measured size: 1 for a cube measured by its side; ~0.58 for a d8 on a face measured across corners (0.816 a / 1.414 a). */
export const HEIGHT_RATIO = { d6: 1, d8: 0.577 } as const;

/** The camera of a frame of this size with this horizontal field of view (degrees), centred. */
export function cameraFromFov(width: number, height: number, hfovDeg: number): CameraGeometry {
  return { opticalCentre: { x: width / 2, y: height / 2 }, focalPx: width / 2 / Math.tan((hfovDeg * Math.PI) / 360) };
}

/**
 * Estimated top-face centre of a die whose silhouette (box) is centred at
 * `boxCentre`, `sizePx` across, on a frame seen by `camera`. `gain` scales the
 * parallax (1 from geometry alone; a calibration fits it, see `fitParallaxGain`).
 */
export function topFaceCentre(boxCentre: Point, sizePx: number, heightRatio: number, camera: CameraGeometry, gain = 1): Point {
  const k = 0.5 * gain * heightRatio * (sizePx / camera.focalPx);
  return { x: boxCentre.x + k * (boxCentre.x - camera.opticalCentre.x), y: boxCentre.y + k * (boxCentre.y - camera.opticalCentre.y) };
}

/**
 * The gain that best maps box centres to known top-face centres (least squares
 * on the shift, e.g. from a renderer's ground truth or hand-marked samples);
 * 1 when the samples say nothing (all at the optical centre).
 */
export function fitParallaxGain(samples: readonly { readonly boxCentre: Point; readonly topCentre: Point; readonly sizePx: number }[], heightRatio: number, camera: CameraGeometry): number {
  let num = 0;
  let den = 0;
  for (const s of samples) {
    const base = topFaceCentre(s.boxCentre, s.sizePx, heightRatio, camera, 1);
    const ux = base.x - s.boxCentre.x;
    const uy = base.y - s.boxCentre.y;
    num += ux * (s.topCentre.x - s.boxCentre.x) + uy * (s.topCentre.y - s.boxCentre.y);
    den += ux * ux + uy * uy;
  }
  return den > 1e-9 ? num / den : 1;
}

/**
 * The radial direction the radial networks turn every die to: down (+y). A crop with no direction (a die straight
 * below the lens) is read and trained as if it pointed this way.
 */
export const RADIAL_DOWN = Math.PI / 2;

/** The angle between the lens axis and the ray to `point`, degrees. */
export function offAxisDegrees(point: Point, camera: CameraGeometry): number {
  const r = Math.hypot(point.x - camera.opticalCentre.x, point.y - camera.opticalCentre.y);
  return (Math.atan(r / camera.focalPx) * 180) / Math.PI;
}

/** The direction from the optical centre to `point`, radians (atan2 of the y and x offsets); none at the centre itself. */
export function radialDirection(point: Point, camera: CameraGeometry): number | undefined {
  const dx = point.x - camera.opticalCentre.x;
  const dy = point.y - camera.opticalCentre.y;
  return dx === 0 && dy === 0 ? undefined : Math.atan2(dy, dx);
}
