/**
 * Memory the guided steps hold for their throws: every frame kept in memory (a camera that cannot read them back)
 * against frames read back from where they were kept (a folder of kept throws, as `calibrate --camera` and
 * `run --keep-frames` make). Target: what the steps hold does not grow with the frames, so a calibration of
 * hundreds of throws fits a small rig computer.
 */
import { simCalibrationCamera } from '../src/session/calibrationCameras.js';
import type { RgbImage } from '../src/core/image.js';
import { collectGuidedThrows, type CalibrationCamera, type GuidedThrows } from '../src/vision/calibration/guidedThrows.js';
import { report } from './measure.js';

const THROWS = 40;

/** Bytes of typed arrays alive after a full collection (`node --expose-gc`; without it, as they stand). */
function liveBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().arrayBuffers;
}

/** The simulated rig; read back, a frame is a new buffer of its size, as decoding its kept file gives (decoding's time is not measured here). */
function camera(readBack: boolean): CalibrationCamera {
  const sim = simCalibrationCamera({ seed: 5, lighting: 'studio', channels: 4, dicePerChannel: 2, dice: 'xwing' });
  const kept = new Map<number, { width: number; height: number }>();
  return {
    description: 'bench',
    emptyPlatform: () => sim.emptyPlatform(),
    nextThrow: async (i) => {
      const taken = await sim.nextThrow(i);
      kept.set(i, { width: taken.image.width, height: taken.image.height });
      return taken;
    },
    ...(readBack
      ? {
          reread: (i: number): Promise<RgbImage> => {
            const size = kept.get(i) as { width: number; height: number };
            return Promise.resolve({ ...size, data: new Uint8Array(size.width * size.height * 3) });
          },
        }
      : {}),
  };
}

async function held(readBack: boolean): Promise<{ mb: number; taken: GuidedThrows }> {
  const before = liveBytes();
  const taken = await collectGuidedThrows({ camera: camera(readBack), throws: THROWS, channels: 4, dicePerChannel: 2, dieSizePx: 72, log: () => undefined });
  return { mb: (liveBytes() - before) / 2 ** 20, taken };
}

export async function runGuidedBench(): Promise<void> {
  const inMemory = await held(false);
  const readBack = await held(true);
  report(`Guided calibration: memory held for ${THROWS} throws of 1280x720 (typed arrays alive after the throws are taken)`, [
    ['frames held in memory', `${inMemory.mb.toFixed(1)} MB`, `${(inMemory.mb / THROWS).toFixed(2)} MB a throw`],
    ['frames read back when needed', `${readBack.mb.toFixed(1)} MB`, `${(readBack.mb / THROWS).toFixed(2)} MB a throw (target: not growing with the throws)`],
    ['ratio', `${(inMemory.mb / Math.max(readBack.mb, 0.01)).toFixed(0)}x`, `(${inMemory.taken.throws.length} and ${readBack.taken.throws.length} throws)`],
  ]);
}
