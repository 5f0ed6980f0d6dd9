/**
 * A highlight over the top face. Under a light near the lens (a ring light, a ceiling panel) a glossy die's top face
 * can mirror the light: its centre turns clipped white and its icon is gone from the image. No reader can tell what
 * such a face holds, yet a network fine-tuned on a few hundred dice under other light reads it as a blank, sure of
 * itself (foreign-2 art under the test ring light: calibration/README.md). Whether a face is in the highlight depends
 * on where the die lies under the light, not on its face, so declining every such die keeps the reads unbiased.
 * Only for dice whose faces are coloured: a white die's face is near white everywhere.
 *
 * A blank read needs less highlight to be declined (`blankAt`): the absence of an icon says something only where an
 * icon would show, and a pale icon's white ink adds to the clipped share that a blank face under the same highlight
 * lacks, so one threshold for all declined icon faces two to four times as often as blanks.
 */
import type { DieCrop } from '../faceRead.js';

export interface GlareCheck {
  /**
   * Named in every reader's version after its face rules (`+glare/2`): the check runs at read time with the shipped
   * values, not a profile's, so a change to them must show in the roll log. Readers before `glare/2` named none.
   */
  readonly version: string;
  /** A die is declined when at least this share of its top face's central disk is clipped. */
  readonly at: number;
  /** A die read as a blank is declined from this share (at most `at`); without it, from `at` like any face. */
  readonly blankAt?: number;
  /** The disk's radius, as a fraction of the die's size (a d8's top face holds a disk of about a quarter). */
  readonly radius: number;
  /** A pixel is clipped when each of its channels is at least this (0..255). */
  readonly level: number;
}

/** The share of the top face's central disk (the crop's centre) whose pixels are clipped white. */
export function clippedShare(crop: DieCrop, check: Pick<GlareCheck, 'radius' | 'level'>): number {
  const { image, sizePx } = crop;
  const { width: w, height: h, data } = image;
  const cx = w / 2;
  const cy = h / 2;
  const r = check.radius * sizePx;
  let n = 0;
  let clipped = 0;
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(h - 1, Math.ceil(cy + r)); y++) {
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(w - 1, Math.ceil(cx + r)); x++) {
      // Pixel centres within the disk.
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > r * r) continue;
      const i = (y * w + x) * 3;
      n++;
      if ((data[i] as number) >= check.level && (data[i + 1] as number) >= check.level && (data[i + 2] as number) >= check.level) clipped++;
    }
  }
  return n === 0 ? 0 : clipped / n;
}

/**
 * The shipped X-Wing check. The radius is set by the geometry (the top face's inscribed disk is ~0.25 die sizes);
 * `at` is the lowest of 0.1..0.9 that declines at most 0.5 % of the flat dice read right in the non-test renders
 * (house tune-xwing, tune-xwing-151 and the train panel-light renders: 0.42 %; foreign-1 dev: none). `blankAt` is the
 * one of 0.1..0.25 at which blanks reach the check as often as icon faces do at `at` in all the non-test renders
 * (0.66 % against 0.69 %). The level was 220 (near clipping after JPEG) until 2026-11-29; a camera that softens and
 * tints its whites (blur, noise, a colour cast: `npm run regrade`) leaves a highlight's pixels just under it, where a
 * washed-out icon is read as a blank. At 210, on the dev renders under such looks it declined 5 such misreads for 12
 * correct reads (6 of them as rendered). training/README.md has the figures. `glare/2` is level 210; the readers at 220
 * named no glare version.
 */
export const xwingGlare: GlareCheck = { version: 'glare/2', at: 0.6, blankAt: 0.2, radius: 0.2, level: 210 };
