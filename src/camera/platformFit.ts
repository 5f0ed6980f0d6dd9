/**
 * Whether a platform description fits the frames it will be laid on: every channel inside the empty-platform image,
 * and that image the size the camera delivers. A mismatch found only at the first throw crashed the session (a
 * RangeError from the locator, or an empty crop that could not be saved as evidence), after its row was written.
 */
import { ConfigError } from '../core/errors.js';
import type { RgbImage } from '../core/image.js';
import type { ChannelRegion } from '../vision/channels.js';

/** Where the channels came from, to name in the error: the config's rectangles or a calibration profile's. */
export type ChannelSource = 'config' | 'profile';

/** Refuses a channel that reaches outside a `width` x `height` frame, naming it by its config key. */
export function checkChannelsInFrame(channels: readonly ChannelRegion[], width: number, height: number, source: ChannelSource): void {
  channels.forEach((channel, i) => {
    const xs = channel.polygon.map((p) => p.x);
    const ys = channel.polygon.map((p) => p.y);
    const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    if (left >= 0 && top >= 0 && right <= width && bottom <= height) return;
    const key = source === 'config' ? `camera.channels[${i}]` : 'calibration';
    const whose = source === 'config' ? 'the rectangle' : `the profile's channel ${i + 1}`;
    throw new ConfigError(
      key,
      `${whose} spans x ${left}..${right}, y ${top}..${bottom}, outside the ${width}x${height} frame: ` +
        `every channel must lie inside the frame (measure the rectangles on a frame from this camera)`,
    );
  });
}

/** Refuses an empty-platform image of another size than the frames the camera is set to deliver. */
export function checkReferenceSize(reference: RgbImage, width: number, height: number, referenceFile: string, key: string): void {
  if (reference.width === width && reference.height === height) return;
  throw new ConfigError(
    key,
    `${referenceFile} is ${reference.width}x${reference.height}, but the camera is set to ${width}x${height} (camera.width, camera.height): ` +
      `take the empty platform again at the camera's size, or set camera.width and camera.height to the image's`,
  );
}

/** The same check for a frame as it arrives (a recording made at another size, a camera that changed mode). */
export function checkFrameSize(frame: RgbImage, reference: RgbImage, camera: string): void {
  if (frame.width === reference.width && frame.height === reference.height) return;
  throw new ConfigError(
    'camera.reference',
    `${camera} gave a ${frame.width}x${frame.height} frame, but the empty-platform image is ${reference.width}x${reference.height}: ` +
      `the reference and the channels must come from frames of this camera at this size`,
  );
}
