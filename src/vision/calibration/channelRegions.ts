/**
 * Channel regions from the empty-platform reference: the platform is the
 * bright surface, channel walls are dark strips across it. Column brightness
 * (over the platform's middle rows) dips at every wall; the runs between dips
 * are the channels, and each channel's own row profile gives its height.
 */
import { rectChannel } from '../channels.js';
import type { ChannelRegion } from '../channels.js';
import { rgbToGray } from '../../core/image.js';
import type { RgbImage } from '../../core/image.js';

/** Runs of a profile that are not dark relative to their neighbourhood, longest first. */
function brightRuns(profile: readonly number[], window: number, ratio: number): { start: number; end: number }[] {
  const n = profile.length;
  const runs: { start: number; end: number }[] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    let bright = false;
    if (i < n) {
      // Dark relative to the brightest nearby: a wall is narrow, so a channel's floor is always within reach.
      let local = 0;
      for (let j = Math.max(0, i - window); j <= Math.min(n - 1, i + window); j++) local = Math.max(local, profile[j] as number);
      bright = (profile[i] as number) >= ratio * local;
    }
    if (bright && start < 0) start = i;
    if (!bright && start >= 0) {
      runs.push({ start, end: i });
      start = -1;
    }
  }
  return runs.sort((a, b) => b.end - b.start - (a.end - a.start));
}

/** Column (or row) means of a grey image over a band of rows (or columns). */
function meanProfile(data: Uint8Array, w: number, along: 'x' | 'y', from: number, to: number, length: number): number[] {
  return Array.from({ length }, (_, i) => {
    let s = 0;
    for (let k = from; k < to; k++) s += data[along === 'x' ? k * w + i : i * w + k] as number;
    return s / Math.max(1, to - from);
  });
}

/** A wall is darker than this fraction of the platform beside it. */
const DARK_RATIO = 0.75;

/**
 * Finds `count` channels side by side (walls vertical in the image). Returns
 * the channels left to right, or a sentence saying what was found instead.
 * Lighting gradients are allowed: walls are found as local dips, not by one
 * global threshold.
 */
export function detectChannelRegions(reference: RgbImage, count: number, dicePerChannel = 1): ChannelRegion[] | string {
  const { width: w, height: h, data } = rgbToGray(reference);
  const window = Math.max(8, Math.round(Math.min(w, h) * 0.06));
  // The platform's rows, then its channels' columns across the middle half of those rows.
  const rows = brightRuns(meanProfile(data, w, 'y', 0, w, h), window, DARK_RATIO)[0] ?? { start: 0, end: h };
  const y0 = rows.start + Math.floor((rows.end - rows.start) * 0.25);
  const y1 = rows.end - Math.floor((rows.end - rows.start) * 0.25);
  const runs = brightRuns(meanProfile(data, w, 'x', y0, y1, w), window, DARK_RATIO)
    .filter((r) => r.end - r.start >= w * 0.03)
    .sort((a, b) => a.start - b.start);
  if (runs.length !== count) {
    return `Found ${runs.length} channel${runs.length === 1 ? '' : 's'} between walls on the empty platform, expected ${count}: check that the platform is empty and evenly lit, or give the right channel count.`;
  }
  return runs.map((r, i) => {
    const vr = brightRuns(meanProfile(data, w, 'y', r.start, r.end, h), window, DARK_RATIO)[0] ?? rows;
    return rectChannel(i, { x: r.start, y: vr.start, width: r.end - r.start, height: vr.end - vr.start }, dicePerChannel);
  });
}
