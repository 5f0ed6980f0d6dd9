import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import type { RgbImage } from '../../src/core/image.js';
import { decliningReader } from '../../src/session/decliningReader.js';
import { misreadingReader } from '../../src/session/misreadingReader.js';
import { sameFrameReads } from '../../src/session/sameFrameReads.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { seededRandom } from '../../src/stats/random.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import type { FaceReader } from '../../src/vision/faceRead.js';
import { readFrame, type FrameReading } from '../../src/vision/pipeline.js';

/** What a session keeps of a frame's reading: where each die is and what was made of it. */
const kept = (r: FrameReading): unknown => ({
  located: r.located,
  reads: r.readings.map(({ channel, read }) => ({ channel, status: read.status, symbol: read.symbol, confidence: read.confidence, reason: read.reason, cause: read.cause })),
  empty: r.emptyChannels.map((e) => e.channel),
});

describe('reading the same frame again', () => {
  it("gives what reading it afresh gives, the simulated reader's misreads and declines drawn anew, without reading the dice again", () => {
    const camera = new SimulatedCamera({ seed: 51, cockedRate: 0.2 });
    const reference = camera.emptyPlatform();
    const channels = camera.layout.channels;
    const pipeline = sessionPipeline('pips', 72);
    const pips = new D6PipReader();
    let reads = 0;
    const counted: FaceReader = { classifierVersion: pips.classifierVersion, read: (crop) => (reads++, pips.read(crop)) };
    // The simulated reader as a session makes it, twice alike: one reads every frame afresh, the other through sameFrameReads.
    const simulated = (): ((inner: FaceReader) => FaceReader) => {
      const misreadRandom = seededRandom(5);
      const declineRandom = seededRandom(6);
      return (inner) => decliningReader(misreadingReader(inner, { '6>5': 0.2, '2>3': 0.2 }, misreadRandom), { '6': 0.4, '1': 0.3, '4': 0.2 }, declineRandom);
    };
    const afresh = simulated()(counted);
    const readAfresh = (image: RgbImage): FrameReading => readFrame(image, reference, channels, afresh, pipeline);
    const readOnce = sameFrameReads((image, r) => readFrame(image, reference, channels, r, pipeline), counted, simulated());
    let declined = 0;
    for (let t = 0; t < 6; t++) {
      const { image } = camera.still();
      // A throw's frame read, then re-read three times (the rest frame shown again), as a session re-reads a declined die.
      for (let again = 0; again < 4; again++) {
        const before = reads;
        const fresh = readAfresh(image);
        const freshReads = reads - before;
        const once = readOnce(image);
        expect(kept(once)).toEqual(kept(fresh));
        // Read afresh, the dice are read every time; through sameFrameReads, only the first time.
        expect(reads - before - freshReads).toBe(again === 0 ? freshReads : 0);
        declined += fresh.readings.filter((r) => r.read.status === 'unreadable').length;
      }
    }
    // The draws mattered: some dice were declined, and not every time alike.
    expect(declined).toBeGreaterThan(0);
  });
});
