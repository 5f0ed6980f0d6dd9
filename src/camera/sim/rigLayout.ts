/**
 * Geometry of the simulated rig as the camera sees it: a platform divided into
 * N channels by walls. Channel regions use the same type calibration will give.
 */
import { rectChannel } from '../../vision/channels.js';
import type { ChannelRegion } from '../../vision/channels.js';
import type { Rect } from '../../core/image.js';

export interface SimRigLayout {
  readonly width: number;
  readonly height: number;
  /** The platform inside the outer frame. */
  readonly platform: Rect;
  /** Inner area of each channel (where dice come to rest). */
  readonly channelRects: readonly Rect[];
  readonly walls: readonly Rect[];
  readonly channels: readonly ChannelRegion[];
}

/** Splits the platform into `count` side-by-side channels separated by walls `wallPx` wide. */
export function simulatedRigLayout(count: number, width = 1280, height = 720, dicePerChannel = 1, wallPx = 14): SimRigLayout {
  const margin = 24;
  const platform: Rect = { x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin };
  const inner = (platform.width - (count - 1) * wallPx) / count;
  const channelRects: Rect[] = [];
  const walls: Rect[] = [];
  for (let i = 0; i < count; i++) {
    const x = platform.x + i * (inner + wallPx);
    channelRects.push({ x, y: platform.y, width: inner, height: platform.height });
    if (i > 0) walls.push({ x: x - wallPx, y: platform.y, width: wallPx, height: platform.height });
  }
  return {
    width,
    height,
    platform,
    channelRects,
    walls,
    channels: channelRects.map((r, i) => rectChannel(i, r, dicePerChannel)),
  };
}
