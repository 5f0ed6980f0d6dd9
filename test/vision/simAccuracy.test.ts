import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { defaultLocateOptions } from '../../src/vision/locate.js';
import { defaultCockedLimits, readFrame } from '../../src/vision/pipeline.js';
import type { PipelineOptions } from '../../src/vision/pipeline.js';

// `evening` is the held-out lighting preset: no threshold in src/vision was tuned on it.
const SIZE = 72;
const options: PipelineOptions = {
  locate: { ...defaultLocateOptions, expectedDieArea: SIZE * SIZE * 0.97 },
  cocked: defaultCockedLimits,
  dieSizePx: SIZE,
  cropScale: 1.5,
};

function run(cockedRate: number, sessions: number, throwsPerSession: number, seedBase: number) {
  const reader = new D6PipReader();
  const out = { flat: 0, correct: 0, wrong: 0, declinedFlat: 0, confidentWrong: 0, cocked: 0, cockedRead: 0, cockedFlagged: 0, flaggedByOutline: 0, missing: 0 };
  for (let s = 0; s < sessions; s++) {
    const cam = new SimulatedCamera({ seed: seedBase + s, lighting: 'evening', channels: 6, cockedRate, dieSizePx: SIZE });
    const reference = cam.emptyPlatform();
    for (let t = 0; t < throwsPerSession; t++) {
      const { image, truth } = cam.still();
      const result = readFrame(image, reference, cam.layout.channels, reader, options);
      for (const die of truth.dice) {
        const r = result.readings.find((x) => x.channel === die.channel);
        if (!r) {
          out.missing++;
          continue;
        }
        if (die.cocked) {
          out.cocked++;
          if (r.read.status === 'read') out.cockedRead++;
          if (r.read.status === 'cocked') out.cockedFlagged++;
          if (r.read.status === 'cocked' && r.read.cause === 'outline') out.flaggedByOutline++;
          continue;
        }
        out.flat++;
        if (r.read.status !== 'read') out.declinedFlat++;
        else if (r.read.symbol === die.face) out.correct++;
        else {
          out.wrong++;
          if (r.read.confidence >= reader.options.minConfidence) out.confidentWrong++;
        }
      }
    }
  }
  return out;
}

describe('D6 reading on the simulated camera under held-out lighting', () => {
  it('reads at least 99.9 % of flat dice correctly among those read, with no confident misread', () => {
    const r = run(0, 12, 16, 90_000);
    console.log(`flat: ${r.flat}, correct ${r.correct}, wrong ${r.wrong}, declined ${r.declinedFlat}, missing ${r.missing}`);
    // Measured once when written (held-out preset, seeds 90000..90011): 1152 flat dice, 1142 read correctly,
    // 0 misread, 10 declined (0.87 %).
    expect(r.flat).toBeGreaterThanOrEqual(1000);
    expect(r.missing).toBe(0);
    expect(r.confidentWrong).toBe(0);
    expect(r.correct / (r.correct + r.wrong)).toBeGreaterThanOrEqual(0.999);
    expect(r.declinedFlat / r.flat).toBeLessThanOrEqual(0.02);
  });

  it('never counts a cocked die as a face', () => {
    const r = run(0.6, 10, 10, 91_000);
    // Measured once when written (held-out preset, seeds 91000..91009): 377 cocked dice, 277 called cocked, 100
    // declined, none read; 223 flat dice, all read correctly.
    expect(r.cocked).toBeGreaterThanOrEqual(300);
    expect(r.cockedRead).toBe(0);
    expect(r.cockedFlagged / r.cocked).toBeGreaterThanOrEqual(0.6);
    // The pip reader never calls a die cocked: the pipeline's outline and surroundings checks did, and say so.
    expect(r.flaggedByOutline).toBe(r.cockedFlagged);
    // The flat dice among them are still read.
    expect(r.confidentWrong).toBe(0);
    expect(r.declinedFlat / r.flat).toBeLessThanOrEqual(0.03);
    console.log(`cocked: ${r.cocked}, flagged ${r.cockedFlagged}, read ${r.cockedRead}; flat ${r.flat}, declined ${r.declinedFlat}, wrong ${r.wrong}`);
  });
});
