import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { readFrame } from '../../src/vision/pipeline.js';

// `evening` is the held-out lighting preset: no threshold in src/vision was tuned on it.
const SIZE = 72;
// What a session reads D6 throws with.
const options = sessionPipeline('pips', SIZE);

function run(cockedRate: number, sessions: number, throwsPerSession: number, seedBase: number, logoFace?: string) {
  const reader = new D6PipReader();
  const out = { flat: 0, correct: 0, wrong: 0, declinedFlat: 0, confidentWrong: 0, cocked: 0, cockedRead: 0, cockedFlagged: 0, flaggedByOutline: 0, missing: 0, logos: 0, logosCalledCocked: 0 };
  for (let s = 0; s < sessions; s++) {
    const logos = logoFace === undefined ? {} : { logoFaces: new Array<string>(6).fill(logoFace) };
    const cam = new SimulatedCamera({ seed: seedBase + s, lighting: 'evening', channels: 6, cockedRate, dieSizePx: SIZE, ...logos });
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
        if (die.face === logoFace) {
          out.logos++;
          if (r.read.status === 'cocked') out.logosCalledCocked++;
        }
        if (r.read.status !== 'read') out.declinedFlat++;
        else if (r.read.symbol === die.face) out.correct++;
        else {
          out.wrong++;
          if (r.read.confidence >= reader.options.minConfidence) out.confidentWrong++;
        }
      }
    }
    // The next session's camera takes this one's sensor memory.
    cam.release();
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
    // declined, none read; 223 flat dice, all read correctly. Since a face's ink is counted as the die (2026-12-05,
    // `fillHoles.ts`), 266 are called cocked and 11 more are declined as a blob of two dice: still none read.
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

  it("calls no flat die cocked for a logo on its face (a face-dependent re-tumble), and still reads no cocked die as a face", () => {
    // The limits of the fix (holes filled under half a die; the body's colour from a ring when the centre's face is
    // small) were set on simulated folders of seeds 3100..3400 under all five presets; these seeds were never looked
    // at before. Measured once when written: 194 flat logo 6s, none called cocked (7 before the fix); 106 cocked
    // dice, none read.
    const r = run(0.1, 20, 10, 92_000, '6');
    console.log(`logo 6s: ${r.logos}, called cocked ${r.logosCalledCocked}; cocked: ${r.cocked}, read ${r.cockedRead}`);
    expect(r.logos).toBeGreaterThanOrEqual(100);
    expect(r.logosCalledCocked).toBe(0);
    expect(r.cockedRead).toBe(0);
  });
});
