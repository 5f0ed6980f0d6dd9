/**
 * What the session does when its camera stops delivering frames mid-throw (a
 * `CameraFaultError` from the settle watch): the throw is void (the dice moved
 * and were not read), and the camera is opened again once, as the rig driver
 * reconnects to a board. It counts as back only once it delivers a frame, so a
 * camera that does not come back stops the session before another tumble. A
 * camera that faults again before any throw was read is not reopened twice:
 * the session stops so a person can look at it.
 *
 * A Ctrl-C on the terminal reaches ffmpeg too, so a camera that stops may be
 * the user stopping the session: the pause before reopening lets the stop
 * arrive, and such a throw is said to be stopped by the user.
 */
import type { CameraFaultError, RecordingEndedError } from '../camera/cameraErrors.js';
import type { Clock } from '../core/clock.js';
import { firstFrameWithin, noFrameMs, OPENING_MS, type SettleRule } from './settleWatch.js';
import type { ThrowCamera } from './throwCamera.js';

/** Session-clock ms between a camera stopping and opening it again (a USB camera re-enumerates; a Ctrl-C arrives). */
export const REOPEN_PAUSE_MS = 1000;

export interface CameraRecoveryParts {
  readonly camera: ThrowCamera;
  readonly clock: Clock;
  readonly rule: SettleRule;
  readonly signal?: AbortSignal;
}

export type CameraComeback = { readonly back: true; readonly message: string } | { readonly back: false; readonly reason: string };

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export class CameraRecovery {
  private faultsInRow = 0;

  constructor(private readonly parts: CameraRecoveryParts) {}

  /** Camera faults since the last throw the camera showed (1 for a first fault). */
  get consecutive(): number {
    return this.faultsInRow;
  }

  /** The camera showed a throw: its faults in a row are over. */
  delivered(): void {
    this.faultsInRow = 0;
  }

  /** Counts a fault, then waits the reopening pause; true when the user stopped the session meanwhile (or before). */
  async pauseAfterFault(): Promise<boolean> {
    this.faultsInRow++;
    const { clock, signal } = this.parts;
    if (signal?.aborted !== true) await clock.sleep(REOPEN_PAUSE_MS, signal);
    return signal?.aborted === true;
  }

  /** Opens the camera again and waits for its first frame; why not, when it does not come back or is not worth a second try. */
  async reopen(fault: CameraFaultError): Promise<CameraComeback> {
    const { camera, clock, rule } = this.parts;
    const lost = (why: string): CameraComeback => ({
      back: false,
      reason: `${sentence(fault.message)}; ${why}. No more tumbles until it is back: resume with --resume once it delivers frames again.`,
    });
    if (this.faultsInRow > 1) return lost(`it stopped again after it had been opened again, before any throw was read`);
    if (camera.reopen === undefined) return lost('it cannot be opened again from here');
    try {
      await camera.reopen();
      const ms = Math.max(noFrameMs(rule), OPENING_MS);
      if (!(await firstFrameWithin(camera, clock, ms))) return lost(`opened again, it delivered no frame in ${ms / 1000} s`);
    } catch (e) {
      return lost(`opening it again failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { back: true, message: `${sentence(camera.description)} was opened again and delivers frames; the session goes on.` };
  }
}

/** The user stopped the session while the camera was watching a throw (a Ctrl-C ends ffmpeg too): why the throw is void. */
export function stoppedByUserWhy(fault: CameraFaultError): string {
  return `stopped by the user before the dice were read (${fault.message})`;
}

/** Why a session replaying a recording ends once the recording has no more frames. */
export function recordingEndedReason(ended: RecordingEndedError, lastThrow: number): string {
  return `The recording has run out: ${ended.message} after throw ${lastThrow}. The session ends here; its undecided dice are INCONCLUSIVE.`;
}
