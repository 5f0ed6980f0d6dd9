import { describe, expect, it } from 'vitest';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { d6LocateOptions, defaultLocateOptions, saturatedDiceLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits } from '../../src/vision/pipeline.js';

describe("a session's pipeline options", () => {
  it("expect a cube's square on the platform for pips and a d8's hexagon for X-Wing dice, and crop 1.5 die sizes around the located centre unless a profile says where", () => {
    const pips = sessionPipeline('pips', 40);
    expect(pips.locate.expectedDieArea).toBeCloseTo(0.97 * 1600, 9);
    const xwing = sessionPipeline('xwing', 40);
    // A regular hexagon across corners d has area (3 sqrt 3 / 8) d^2.
    expect(xwing.locate.expectedDieArea).toBeCloseTo(((3 * Math.sqrt(3)) / 8) * 1600, 9);
    for (const o of [pips, xwing]) {
      expect(o).toMatchObject({ dieSizePx: 40, cropScale: 1.5, cocked: defaultCockedLimits });
      expect(o.cropCentre).toBeUndefined();
      expect(o.cropRadial).toBeUndefined();
      expect(o.cropOffAxis).toBeUndefined();
    }
    const centre = (p: { x: number; y: number }) => ({ x: p.x + 3, y: p.y });
    const radial = () => 0.5;
    const offAxis = (p: { x: number; y: number }) => p.x / 2;
    const learned = sessionPipeline('xwing', 40, { centre, radial, offAxis, scale: 1.5 });
    expect(learned.cropCentre?.({ x: 10, y: 20 })).toEqual({ x: 13, y: 20 });
    expect(learned.cropRadial?.({ x: 10, y: 20 })).toBe(0.5);
    expect(learned.cropOffAxis?.({ x: 10, y: 20 })).toBe(5);
  });

  it("take a red or green d8's shadow rule for X-Wing dice and keep the default one for pips, with a face's ink counted as the die", () => {
    const { expectedDieArea: _x, ...xwing } = sessionPipeline('xwing', 40).locate;
    expect(xwing).toEqual(saturatedDiceLocateOptions);
    expect(xwing.shadowRatio[0]).toBeLessThan(defaultLocateOptions.shadowRatio[0]);
    expect(xwing.fillHolesUnder).toBeUndefined();
    const { expectedDieArea: _p, ...pips } = sessionPipeline('pips', 40).locate;
    expect(pips).toEqual(d6LocateOptions);
    const { fillHolesUnder, ...shadowRule } = pips;
    expect(shadowRule).toEqual(defaultLocateOptions);
    expect(fillHolesUnder).toBe(0.5);
  });
});
