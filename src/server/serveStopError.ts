/** Stopping the server did not go cleanly: every step still ran; this says which failed, and the rolls it abandoned. */
import { DicerigError } from '../core/errors.js';
import type { RollJob } from './queue/rollJob.js';

export class ServeStopError extends DicerigError {
  constructor(
    problems: string,
    readonly abandoned: readonly RollJob[],
  ) {
    super(`Stopped, but not cleanly: ${problems}`, { abandoned: abandoned.length });
  }
}
