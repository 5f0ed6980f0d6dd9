/**
 * Cameras for the guided calibration: the simulated camera (it throws the dice
 * itself and knows their faces) and a real V4L2 camera (the user clears the
 * platform and throws when asked; the frame is taken once the dice settle).
 */
import { existsSync } from 'node:fs';
import { systemClock } from '../core/clock.js';
import { DicerigError } from '../core/errors.js';
import type { CalibrationDice } from '../vision/calibration/guided.js';
import type { Prompt } from '../vision/calibration/groupNaming.js';
import type { CalibrationCamera } from '../vision/calibration/guidedThrows.js';
import type { RgbImage } from '../core/image.js';
import { SettleDetector } from '../vision/settle.js';
import type { LightingPresetName } from '../camera/sim/lighting.js';
import { SimulatedCamera } from '../camera/sim/simulatedCamera.js';
import { simDieClass } from '../camera/sim/writeLabelledFolder.js';
import type { Frame } from '../camera/frameSource.js';
import { cameraOpenError, v4l2Camera } from '../camera/v4l2Camera.js';
import { nextFrameWithin, noFrame, OPENING_MS } from './settleWatch.js';

export interface SimCalibrationCameraOptions {
  readonly seed: number;
  readonly lighting: LightingPresetName;
  readonly channels: number;
  readonly dicePerChannel?: number;
  readonly dice: CalibrationDice | 'd6';
  readonly cockedRate?: number;
  readonly dieSizePx?: number;
}

/**
 * The simulated rig: every throw is a new still frame; the truth comes with it. `close` (after the last throw) hands
 * its sensor memory to the next simulated camera made in the process.
 */
export function simCalibrationCamera(options: SimCalibrationCameraOptions): CalibrationCamera & { close(): Promise<void> } {
  const camera = new SimulatedCamera({
    seed: options.seed,
    lighting: options.lighting,
    channels: options.channels,
    dicePerChannel: options.dicePerChannel ?? 1,
    dice: options.dice === 'xwing' ? ['red', 'green'] : options.dice,
    cockedRate: options.cockedRate ?? 0.05,
    ...(options.dieSizePx !== undefined ? { dieSizePx: options.dieSizePx } : {}),
  });
  return {
    description: `the simulated camera (seed ${options.seed}, ${options.lighting} lighting)`,
    emptyPlatform: () => Promise.resolve(camera.emptyPlatform()),
    nextThrow: () => {
      const { image, truth } = camera.still();
      return Promise.resolve({ image, truth: truth.dice.map((d) => ({ center: d.center, label: simDieClass(d) })) });
    },
    close: () => {
      camera.release();
      return Promise.resolve();
    },
  };
}

export interface V4l2CalibrationCameraOptions {
  readonly device: string;
  readonly width?: number;
  readonly height?: number;
  /** Longest wait for the dice to settle after a throw (ms of frames). */
  readonly settleTimeoutMs?: number;
  /** Longest wait for any frame (ms): a camera that delivers none for this long is a fault, not a hang. Default 5000. */
  readonly noFrameMs?: number;
  readonly ffmpegPath?: string;
}

/**
 * Opens a real camera for calibration. Fails at once, with the device and the
 * fix in the message, when there is no camera (or ffmpeg) rather than after
 * the user has cleared the platform.
 */
export async function openV4l2CalibrationCamera(options: V4l2CalibrationCameraOptions, prompt: Prompt): Promise<CalibrationCamera & { close(): Promise<void> }> {
  if (!existsSync(options.device)) throw cameraOpenError(options.device, 'No such file or directory', '--camera to it');
  const source = v4l2Camera({ device: options.device, width: options.width ?? 1280, height: options.height ?? 720, ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}) });
  const frames = source[Symbol.asyncIterator]();
  const noFrameMs = options.noFrameMs ?? 5000;
  const next = async (within = noFrameMs): Promise<Frame> => {
    const r = await nextFrameWithin(frames, systemClock, within);
    if (r === 'late') {
      // ffmpeg is stuck, not ended: end it, so that the command can end too.
      await source.close();
      throw noFrame(source.description, within);
    }
    if (r.done === true) throw new DicerigError(`Camera ${options.device} stopped sending frames.`, { device: options.device });
    return r.value;
  };
  // One frame now: a camera that cannot be opened fails before any question is asked. Opening one takes seconds.
  await next(Math.max(noFrameMs, OPENING_MS));
  const timeout = options.settleTimeoutMs ?? 8000;
  const freshFrame = async (): Promise<Frame> => {
    // Frames queued while the user was busy are stale: skip half a second of them.
    const first = await next();
    let f = first;
    while (f.timestampMs - first.timestampMs < 500) f = await next();
    return f;
  };
  return {
    description: `camera ${options.device} (${source.controls})`,
    async emptyPlatform(): Promise<RgbImage> {
      await prompt('Clear every die off the platform, then press Enter. ');
      return (await freshFrame()).image;
    },
    async nextThrow(index: number) {
      await prompt(`Throw ${index + 1}: roll the dice into the channels, then press Enter. `);
      const detector = new SettleDetector();
      const start = await freshFrame();
      detector.push(start.image, start.timestampMs);
      for (;;) {
        const f = await next();
        const state = detector.push(f.image, f.timestampMs);
        if (state.settled) return { image: f.image };
        if (f.timestampMs - start.timestampMs > timeout) {
          throw new DicerigError(`The dice did not settle within ${timeout / 1000} s after throw ${index + 1}: check that nothing moves in view.`, { device: options.device });
        }
      }
    },
    close: () => source.close(),
  };
}
