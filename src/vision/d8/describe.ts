/**
 * Everything the d8 reader and calibration measure on one crop: the die's
 * outline (centre, size, elongation), its face colour and its icon features.
 */
import type { RgbImage } from '../../core/image.js';
import { balanceCrop, findDieOutline } from './dieOutline.js';
import type { DieOutline } from './dieOutline.js';
import { defaultIconGeometry, iconFeatures } from './iconFeatures.js';
import type { IconFeatureGeometry } from './iconFeatures.js';

export interface D8Description {
  readonly outline: DieOutline;
  readonly features: Float64Array;
}

/** Describes the die in `image`, or says in a sentence why no die could be measured. */
export function describeD8(image: RgbImage, geometry: IconFeatureGeometry = defaultIconGeometry): D8Description | string {
  const crop = balanceCrop(image);
  const outline = findDieOutline(crop);
  if (typeof outline === 'string') return outline;
  if (outline.cutOff) return 'The die touches the edge of its crop, so part of it is not visible.';
  return { outline, features: iconFeatures(crop, outline, geometry) };
}
