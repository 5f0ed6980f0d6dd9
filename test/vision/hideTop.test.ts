import { describe, expect, it } from 'vitest';
import { createRgb } from '../../src/core/image.js';
import type { RgbImage } from '../../src/core/image.js';
import { hideTopMiddle } from '../../src/vision/learned/hideTop.js';
import { seededRandom } from '../../src/stats/random.js';

/** A die on a platform: a body disc of radius 0.45 die sizes around (cx, cy), an icon disc of `icon` die sizes in its middle. */
function die(side: number, cx: number, cy: number, size: number, icon: number, iconColour: readonly number[]): RgbImage {
  // Noise fixed by position, so two dice that differ only in their icon have the same body.
  const noise = Array.from({ length: side * side }, seededRandom(3));
  const img = createRgb(side, side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / size;
      // A little noise on the body, so its colour is a median, not a constant.
      const colour = d < icon ? iconColour : d < 0.45 ? [40 + Math.floor((noise[y * side + x] as number) * 9), 140 + Math.floor((noise[(y * side + x + 7) % noise.length] as number) * 9), 60] : [200, 200, 190];
      for (let k = 0; k < 3; k++) img.data[(y * side + x) * 3 + k] = colour[k] as number;
    }
  }
  return img;
}

function pixel(img: RgbImage, x: number, y: number): number[] {
  const i = (y * img.width + x) * 3;
  return [img.data[i] as number, img.data[i + 1] as number, img.data[i + 2] as number];
}

describe("hiding the top face's middle", () => {
  it("paints the disc around the crop's middle in the median colour of the ring just outside it, and leaves every other pixel and the crop given alone", () => {
    const image = die(90, 45, 45, 60, 0.15, [250, 250, 250]);
    const before = Uint8Array.from(image.data);
    const hidden = hideTopMiddle({ image, sizePx: 60 }, 0.22);
    expect(image.data).toEqual(before);
    // The ring 0.22..0.30 die sizes lies on the body (noisy 40..48, 140..148, 60): its medians, computed here by sorting.
    const ring: number[][] = [[], [], []];
    for (let y = 0; y < 90; y++) for (let x = 0; x < 90; x++) {
      const d = Math.hypot(x + 0.5 - 45, y + 0.5 - 45) / 60;
      if (d >= 0.22 && d < 0.3) for (let k = 0; k < 3; k++) ring[k]!.push(pixel(image, x, y)[k]!);
    }
    const median = ring.map((v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!);
    expect(median[0]).toBeGreaterThanOrEqual(40);
    expect(median[0]).toBeLessThanOrEqual(48);
    expect(pixel(hidden.image, 45, 45)).toEqual(median);
    let changed = 0;
    for (let y = 0; y < 90; y++) for (let x = 0; x < 90; x++) {
      const inside = Math.hypot(x + 0.5 - 45, y + 0.5 - 45) < 0.22 * 60;
      if (inside) expect(pixel(hidden.image, x, y)).toEqual(median);
      else expect(pixel(hidden.image, x, y)).toEqual(pixel(image, x, y));
      if (inside) changed++;
    }
    // The disc's area, pi (0.22 x 60)^2, give or take its rim.
    expect(changed).toBeGreaterThan(520);
    expect(changed).toBeLessThan(575);
  });

  it('leaves no trace of which icon the face showed: two dice that differ only in their icon look the same once hidden', () => {
    const white = hideTopMiddle({ image: die(90, 45, 45, 60, 0.15, [250, 250, 250]), sizePx: 60 }, 0.22);
    const red = hideTopMiddle({ image: die(90, 45, 45, 60, 0.12, [220, 20, 20]), sizePx: 60 }, 0.22);
    expect(red.image.data).toEqual(white.image.data);
    // Unhidden, they differ.
    expect(die(90, 45, 45, 60, 0.12, [220, 20, 20]).data).not.toEqual(die(90, 45, 45, 60, 0.15, [250, 250, 250]).data);
  });

  it("hides around where the die lies when the frame's edge cut the crop short (its centre), not the crop's middle", () => {
    const image = die(90, 30, 52, 60, 0.15, [250, 250, 250]);
    const hidden = hideTopMiddle({ image, sizePx: 60, center: { x: 30, y: 52 } }, 0.22);
    expect(pixel(hidden.image, 30, 52)[0]).toBeLessThan(60);
    // The crop's middle lies on the body outside the disc: untouched.
    expect(pixel(hidden.image, 45, 38)).toEqual(pixel(image, 45, 38));
  });

  it('hides the same pixels however the die is turned: a quarter turn of the crop gives a quarter turn of the result', () => {
    // An asymmetric icon (a bar) on a crop of even side, turned about its exact middle.
    const side = 80;
    const image = die(side, 40, 40, 56, 0.15, [250, 250, 250]);
    for (let y = 30; y < 50; y++) for (let x = 38; x < 42; x++) image.data.set([10, 10, 200], (y * side + x) * 3);
    const turn = (img: RgbImage): RgbImage => {
      const out = createRgb(side, side);
      for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) out.data.set(pixel(img, x, y), ((side - 1 - x) * side + y) * 3);
      return out;
    };
    expect(hideTopMiddle({ image: turn(image), sizePx: 56 }, 0.22).image.data).toEqual(turn(hideTopMiddle({ image, sizePx: 56 }, 0.22).image).data);
  });

  it('refuses a radius that is not above zero, and hides nothing where no ring lies inside the crop', () => {
    const image = die(40, 20, 20, 30, 0.15, [250, 250, 250]);
    expect(() => hideTopMiddle({ image, sizePx: 30 }, 0)).toThrow(RangeError);
    expect(() => hideTopMiddle({ image, sizePx: 30 }, Number.NaN)).toThrow(/radius NaN/);
    // A centre far outside the image: neither disc nor ring touches it.
    const away = { image, sizePx: 30, center: { x: 500, y: 500 } };
    expect(hideTopMiddle(away, 0.22)).toBe(away);
  });
});
