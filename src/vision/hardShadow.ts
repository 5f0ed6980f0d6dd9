/**
 * How much of a blob is hard shadow: the platform's own colour, darker in
 * every channel than the locator's shadow rule lets go (`LocateOptions.shadowRatio`),
 * so joined to the die that casts it. A blob too big for one die in a one-die
 * channel is a die joined by its shadow when what is left without that shadow
 * is about one die; a cocked die showing two faces, or two dice, leave about
 * two. A die's own dark pips count as shadow here too, which the bounds allow for.
 */
import type { Rect, RgbImage } from '../core/image.js';
import type { LocateOptions } from './locate.js';

/** Pixels inside `box` that are hard shadow against the empty-platform reference. */
export function hardShadowPixels(frame: RgbImage, reference: RgbImage, box: Rect, options: Pick<LocateOptions, 'threshold' | 'shadowRatio' | 'shadowChromaTolerance'>): number {
  const [lo] = options.shadowRatio;
  const tol = options.shadowChromaTolerance;
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(frame.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(frame.height, Math.ceil(box.y + box.height));
  const f = frame.data;
  const r = reference.data;
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, o = (y * frame.width + x0) * 3; x < x1; x++, o += 3) {
      const fr = f[o] as number;
      const fg = f[o + 1] as number;
      const fb = f[o + 2] as number;
      const rr = r[o] as number;
      const rg = r[o + 1] as number;
      const rb = r[o + 2] as number;
      // Darker than the platform in every channel by more than the locator's change threshold.
      if (rr - fr <= options.threshold || rg - fg <= options.threshold || rb - fb <= options.threshold) continue;
      const kr = fr / (rr + 1);
      const kg = fg / (rg + 1);
      const kb = fb / (rb + 1);
      if (kr >= lo || kg >= lo || kb >= lo) continue;
      if (Math.max(kr, kg, kb) - Math.min(kr, kg, kb) <= tol) count++;
    }
  }
  return count;
}

/** A blob of `area` pixels, `shadow` of them hard shadow, is one die and its shadow when, without the shadow, it is about one die of `dieArea`. */
export function isDieWithShadow(area: number, shadow: number, dieArea: number): boolean {
  const rest = (area - shadow) / dieArea;
  return shadow >= 0.3 * dieArea && rest >= 0.5 && rest < 1.5;
}
