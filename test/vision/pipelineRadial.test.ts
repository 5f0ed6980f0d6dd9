import { describe, expect, it } from 'vitest';
import type { Point } from '../../src/core/image.js';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import type { DieCrop, FaceRead, FaceReader } from '../../src/vision/faceRead.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';

/** A reader that reads nothing and keeps every crop it is given. */
class KeepingReader implements FaceReader {
  readonly classifierVersion = 'keeping/1';
  readonly crops: DieCrop[] = [];
  read(crop: DieCrop): FaceRead {
    this.crops.push(crop);
    return { status: 'unreadable', confidence: 0, reason: 'kept', classifierVersion: this.classifierVersion, crop: crop.image };
  }
}

const SIZE = 48;

/** One still of a simulated four-channel rig, its empty platform, and the pipeline's options for its dice. */
function scene(seed: number) {
  const cam = new SimulatedCamera({ seed, lighting: 'studio', channels: 4, dieSizePx: SIZE });
  const options = { locate: { ...defaultLocateOptions, expectedDieArea: SIZE * SIZE * 0.97 }, cocked: defaultCockedLimits, dieSizePx: SIZE, cropScale: 1.5 };
  return { cam, reference: cam.emptyPlatform(), image: cam.still().image, options };
}

describe('the pipeline and the die\'s place in the frame', () => {
  it('gives the reader each located die\'s radial direction when told how to find it, and none otherwise', () => {
    const { cam, reference, image, options } = scene(4242);
    const centre = { x: image.width / 2, y: image.height / 2 };
    const radial = (p: Point): number => Math.atan2(p.y - centre.y, p.x - centre.x);
    const told = new KeepingReader();
    const result = readFrame(image, reference, cam.layout.channels, told, { ...options, cropRadial: radial });
    const read = result.readings.filter((r) => r.read.reason === 'kept');
    expect(read.length).toBeGreaterThan(0);
    expect(told.crops.length).toBe(read.length);
    told.crops.forEach((c, i) => expect(c.radial).toBeCloseTo(radial((read[i] as (typeof read)[number]).die.center), 12));
    const untold = new KeepingReader();
    readFrame(image, reference, cam.layout.channels, untold, options);
    expect(untold.crops.length).toBe(read.length);
    for (const c of untold.crops) expect(c.radial).toBeUndefined();
  });

  it("tells the reader where the die lies in a crop the frame's edge cut short, and nothing for a whole crop", () => {
    const { cam, reference, image, options } = scene(4243);
    const whole = new KeepingReader();
    readFrame(image, reference, cam.layout.channels, whole, options);
    expect(whole.crops.length).toBeGreaterThan(0);
    for (const c of whole.crops) expect(c.center).toBeUndefined();
    // Each die's crop centred 3 pixels from the frame's left edge (as a profile's top-face centre can lie).
    const atEdge = new KeepingReader();
    const result = readFrame(image, reference, cam.layout.channels, atEdge, { ...options, cropCentre: (p: Point) => ({ x: 3, y: p.y }) });
    const read = result.readings.filter((r) => r.read.reason === 'kept');
    expect(atEdge.crops.length).toBe(read.length);
    const pixel = (img: typeof image, x: number, y: number): number[] => [...img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3)];
    atEdge.crops.forEach((c, i) => {
      const at = c.center as Point;
      expect(at.x).toBe(3);
      // The crop's pixel at the centre it names is the frame's pixel at the centre asked for.
      const y = (read[i] as (typeof read)[number]).die.center.y;
      expect(pixel(c.image, 3, Math.floor(at.y))).toEqual(pixel(image, 3, Math.floor(y)));
    });
  });
});
