import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { hardShadowPixels, isDieWithShadow } from '../../src/vision/hardShadow.js';
import { defaultLocateOptions, saturatedDiceLocateOptions } from '../../src/vision/locate.js';
import { filledFrame, paintRect } from '../support/paintedFrame.js';

const W = 60;
const H = 40;
const filled = (rgb: readonly [number, number, number]): RgbImage => filledFrame(W, H, rgb);
const paint = paintRect;
const all = { x: 0, y: 0, width: W, height: H };

describe('hard shadow in a blob', () => {
  it("counts the platform's colour made darker than the locator's shadow floor, and only inside the box", () => {
    const reference = filled([150, 150, 146]);
    const frame = filled([150, 150, 146]);
    paint(frame, 10, 10, 20, 10, [40, 40, 39]); // ratio 0.27: under the default floor of 0.45
    expect(hardShadowPixels(frame, reference, all, defaultLocateOptions)).toBe(200);
    expect(hardShadowPixels(frame, reference, { x: 20, y: 10, width: 40, height: 5 }, defaultLocateOptions)).toBe(50);
  });

  it('leaves out a soft shadow (the locator drops it already), a coloured die and a white one', () => {
    const reference = filled([150, 150, 146]);
    const frame = filled([150, 150, 146]);
    paint(frame, 0, 0, 10, 10, [90, 90, 88]); // ratio 0.6: soft shadow
    paint(frame, 10, 0, 10, 10, [200, 80, 20]); // an orange die
    paint(frame, 20, 0, 10, 10, [30, 60, 20]); // a dark green die: darker in every channel, but not evenly
    paint(frame, 30, 0, 10, 10, [236, 236, 230]); // a white die
    expect(hardShadowPixels(frame, reference, all, defaultLocateOptions)).toBe(0);
  });

  it("follows the rule it is given: under the saturated dice's floor of 0.1 only the darkest shadow is hard", () => {
    const reference = filled([150, 150, 146]);
    const frame = filled([150, 150, 146]);
    paint(frame, 0, 0, 10, 10, [40, 40, 39]); // 0.27
    paint(frame, 10, 0, 10, 10, [10, 10, 10]); // 0.07
    expect(hardShadowPixels(frame, reference, all, saturatedDiceLocateOptions)).toBe(100);
  });

  it('calls a blob one die and its shadow only when, without the shadow, about one die is left and the shadow is no speck', () => {
    const die = 400;
    expect(isDieWithShadow(2 * die, die, die)).toBe(true);
    expect(isDieWithShadow(2.4 * die, 1.3 * die, die)).toBe(true);
    // A cocked die showing two faces, or two dice: two dice are left (their dark pips are all the "shadow").
    expect(isDieWithShadow(2 * die, 0.3 * die, die)).toBe(false);
    // A black die's whole face passes for shadow: not one die left, so it is not called one.
    expect(isDieWithShadow(2 * die, 1.8 * die, die)).toBe(false);
    // Too little shadow to have made the blob big.
    expect(isDieWithShadow(1.5 * die, 0.2 * die, die)).toBe(false);
  });
});
