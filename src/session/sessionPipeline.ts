/**
 * The pipeline options a session reads its throws with, for one family of dice: the die's area on the platform (a
 * cube's square, or a d8 lying on a face, a hexagon), the shadow rule (a red or green d8's own, see
 * `saturatedDiceLocateOptions`), the cocked limits, and the crop centred where the profile's
 * reader looks (a learned profile: the top face, by perspective). One place, so the measurement of a session's reading
 * on renders (`training/learned/sessionRecall.ts`) runs what sessions run.
 */
import { d6LocateOptions, xwingLocateOptions } from '../vision/locate.js';
import { defaultCockedLimits, type PipelineOptions } from '../vision/pipeline.js';
import type { ChosenReader } from '../vision-io/readerChoice.js';

/** Where a profile's reader wants its crop (`ChosenReader.pipelineCrop`'s answer). */
export type PipelineCrop = ReturnType<NonNullable<ChosenReader['pipelineCrop']>>;

export function sessionPipeline(family: 'pips' | 'xwing', dieSizePx: number, crop?: PipelineCrop): PipelineOptions {
  return {
    locate: family === 'pips' ? { ...d6LocateOptions, expectedDieArea: dieSizePx * dieSizePx * 0.97 } : xwingLocateOptions(dieSizePx),
    cocked: defaultCockedLimits,
    dieSizePx,
    cropScale: crop?.scale ?? 1.5,
    ...(crop ? { cropCentre: crop.centre, cropRadial: crop.radial, cropOffAxis: crop.offAxis } : {}),
  };
}
