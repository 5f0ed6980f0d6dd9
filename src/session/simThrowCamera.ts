/**
 * The simulated camera as a throw camera, paced on the session clock and
 * showing what the simulated dice rolled.
 *
 * Rendering a 1280x720 frame costs 15–30 ms, so a throw's frames can cost more
 * than everything else in the loop. Two modes:
 * - `all`: every frame of the throw (moving with motion blur, settling, still),
 *   one per 1/fps of session clock from the end of the motion: the settle
 *   detector sees what it would see on a real rig. A frame is rendered only
 *   when its image is looked at: about half of a throw's 10–25 frames are
 *   dropped unseen by the settle detector (right after strong motion).
 * - `rest`: the simulator knows when the dice stop, so only the rest pose is
 *   rendered, once, and shown from the rig's settle time on (its timing model's
 *   `settleMs`), frame after frame at the camera's rate: the settle detector
 *   runs and settles after its still-frame count, and the vision pipeline reads
 *   a fully rendered frame. One render per kept throw.
 */
import type { Frame } from '../camera/frameSource.js';
import type { SimulatedCamera, ThrowTruth } from '../camera/sim/simulatedCamera.js';
import type { Clock } from '../core/clock.js';
import type { MotionResult } from '../rig/driver.js';
import type { SimulatedDice } from './simulatedDice.js';
import type { ThrowCamera } from './throwCamera.js';

export type SimFramesMode = 'rest' | 'all';

export interface SimThrowCameraOptions {
  readonly camera: SimulatedCamera;
  readonly dice: SimulatedDice;
  readonly clock: Clock;
  readonly frames: SimFramesMode;
  /** `rest` mode, for a rig that does not model settling (a real or emulated board): dice rest this long after the motion. Default 350 ms. */
  readonly settleMs?: number;
  /** `rest` mode: most frames shown per throw before the camera gives up. Default 300 (10 s at 30 fps). */
  readonly maxFrames?: number;
}

export class SimThrowCamera implements ThrowCamera {
  readonly description: string;
  private truth: ThrowTruth | undefined;

  constructor(private readonly options: SimThrowCameraOptions) {
    this.description = `simulated camera (${options.frames === 'all' ? 'every frame rendered' : 'rest frame rendered'})`;
  }

  /** The ground truth of the last throw shown: what the dice rolled. */
  get lastTruth(): ThrowTruth | undefined {
    return this.truth;
  }

  watch(since: number, motion: MotionResult): AsyncIterable<Frame> {
    return this.options.frames === 'all' ? this.everyFrame(since) : this.restFrames(since, motion);
  }

  async close(): Promise<void> {}

  private async *everyFrame(since: number): AsyncGenerator<Frame> {
    const { camera, dice, clock } = this.options;
    const { frames, truth } = dice.choose(() => camera.throwSequence());
    this.truth = truth;
    const dt = 1000 / camera.fps;
    let index = 0;
    for await (const frame of frames) {
      const at = since + index * dt;
      const wait = at - clock.now();
      if (wait > 0) await clock.sleep(wait);
      // The image is left for the camera to render when first asked for: frames the settle detector drops are never rendered.
      yield {
        get image() {
          return frame.image;
        },
        timestampMs: at,
        index,
      };
      index++;
    }
  }

  private async *restFrames(since: number, motion: MotionResult): AsyncGenerator<Frame> {
    const { camera, dice, clock } = this.options;
    const { render, truth } = dice.choose(() => camera.plannedStill());
    const image = render();
    this.truth = truth;
    const settleMs = (motion as MotionResult & { settleMs?: number }).settleMs ?? this.options.settleMs ?? 350;
    const dt = 1000 / camera.fps;
    // The first frame the camera takes after the dice stopped.
    const first = Math.ceil(settleMs / dt);
    const limit = this.options.maxFrames ?? 300;
    for (let k = 0; k < limit; k++) {
      const at = since + (first + k) * dt;
      const wait = at - clock.now();
      if (wait > 0) await clock.sleep(wait);
      yield { image, timestampMs: at, index: first + k };
    }
  }
}
