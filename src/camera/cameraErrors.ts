/**
 * How a camera fails once it has delivered frames, as typed errors the session
 * can tell apart: a camera that stopped (ffmpeg exited, the device went away,
 * no frame for too long) is a fault to reopen the camera for, as the rig driver
 * reconnects to a board; a recording that ran out is the end of the input.
 */
import { DicerigError } from '../core/errors.js';

/** `no-frame`: the stream is open but no frame came; `ended`: the stream ended (ffmpeg exited, the device went away). */
export type CameraFaultKind = 'no-frame' | 'ended';

/** A camera that stopped delivering frames after it had started: names the camera and what ffmpeg last said. */
export class CameraFaultError extends DicerigError {
  constructor(
    message: string,
    /** The camera as its source describes it (e.g. `camera /dev/video0`). */
    readonly camera: string,
    readonly fault: CameraFaultKind,
    /** ffmpeg's last line on stderr, when it said anything. */
    readonly lastWords?: string,
    options?: { cause?: unknown },
  ) {
    super(message, { camera, fault, ...(lastWords !== undefined ? { stderr: lastWords } : {}) }, options);
  }
}

/** A recording (a replayed folder) has no more frames: the end of the input, not a fault. */
export class RecordingEndedError extends DicerigError {
  constructor(readonly camera: string) {
    super(`${camera} has no more frames`, { camera });
  }
}

/** The last non-empty line of a process's stderr (where ffmpeg says why it stopped), or undefined. */
export function lastLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.at(-1);
}
