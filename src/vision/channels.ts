/**
 * Channel regions of the rig's platform: each channel holds the dice of one
 * slot. Today they come from the simulated rig's layout; later from calibration.
 */
import type { Point, Rect } from '../core/image.js';

export interface ChannelRegion {
  readonly id: number;
  /** Outline in frame pixels (any simple polygon, usually a rectangle). */
  readonly polygon: readonly Point[];
  /** How many dice the channel should hold after a throw. */
  readonly expectedDice: number;
}

/** A rectangular channel. */
export function rectChannel(id: number, rect: Rect, expectedDice = 1): ChannelRegion {
  const { x, y, width: w, height: h } = rect;
  return {
    id,
    polygon: [
      { x, y },
      { x: x + w, y },
      { x: x + w, y: y + h },
      { x, y: y + h },
    ],
    expectedDice,
  };
}

/** The smallest rectangle holding a channel's outline. */
export function channelBounds(channel: Pick<ChannelRegion, 'polygon'>): Rect {
  const xs = channel.polygon.map((p) => p.x);
  const ys = channel.polygon.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** Even-odd point-in-polygon test. */
export function pointInPolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i] as Point;
    const b = polygon[j] as Point;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** The channel containing `p`, if any. */
export function channelAt(p: Point, channels: readonly ChannelRegion[]): ChannelRegion | undefined {
  return channels.find((c) => pointInPolygon(p, c.polygon));
}
