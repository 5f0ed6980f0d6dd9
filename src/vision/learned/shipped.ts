/**
 * The learned readers shipped with dicerig, by die type, and the crop cutter
 * each needs (top face found by perspective parallax).
 */
import type { DieCrop } from '../faceRead.js';
import type { Point, Rect, RgbImage } from '../../core/image.js';
import { topFaceCrop } from './crop.js';
import { xwingGlare } from './glare.js';
import { withCockedCheck, withPartner } from './model.js';
import type { LearnedModel } from './model.js';
import { cameraFromFov, offAxisDegrees, radialDirection, topFaceCentre } from './topFace.js';
import { d6Model } from './weights/d6.js';
import { xwingModel } from './weights/xwing.js';
import { xwingCockedModel } from './weights/xwingCocked.js';
import { xwingRadialModel } from './weights/xwingRadial.js';

/**
 * Shipped models by die type (`xwing` reads red and green d8s, with the cocked check and the partner network its
 * thresholds were set with, and declines a die whose top face is lost in a highlight).
 */
export const shippedLearnedModels: Readonly<Record<string, LearnedModel>> = {
  d6: d6Model,
  xwing: { ...withPartner(withCockedCheck(xwingModel, xwingCockedModel), withCockedCheck(xwingRadialModel, xwingCockedModel)), glare: xwingGlare },
};

/** Crop margin around the box the learned readers are given (the network samples `inputScale` x the die size around the centre). */
export const LEARNED_CROP_MARGIN = 1.5;

/** A cutter for labelled boxes: the top face's centre from the box, the frame size and the camera's horizontal field of view. */
export function learnedCutter(model: LearnedModel, hfovDeg: number, gain = 1): (image: RgbImage, box: Rect) => DieCrop {
  return (image, box) => topFaceCrop(image, box, { heightRatio: model.heightRatio, camera: cameraFromFov(image.width, image.height, hfovDeg), gain, margin: LEARNED_CROP_MARGIN });
}

/** How a session's pipeline cuts a located die for a learned reader: what `learnedPipelineCrop` gives for a frame's size and die size. */
export interface LearnedPipelineCrop {
  readonly centre: (located: Point) => Point;
  readonly radial: (located: Point) => number | undefined;
  readonly offAxis: (located: Point) => number;
  readonly scale: number;
}

/**
 * How the pipeline cuts a located die for `model` on frames of this size: centred on its top face (moved by the
 * parallax of a die `dieSizePx` across, seen by a camera of this horizontal field of view), `LEARNED_CROP_MARGIN` times
 * the die size, with the die's radial direction: as `learnedCutter` cuts labelled boxes.
 */
export function learnedPipelineCrop(model: LearnedModel, hfovDeg: number, frame: { readonly width: number; readonly height: number }, dieSizePx: number): LearnedPipelineCrop {
  const camera = cameraFromFov(frame.width, frame.height, hfovDeg);
  return { centre: (located) => topFaceCentre(located, dieSizePx, model.heightRatio, camera), radial: (located) => radialDirection(located, camera), offAxis: (located) => offAxisDegrees(located, camera), scale: LEARNED_CROP_MARGIN };
}
