/** Stopping the server did not go cleanly: every step still ran; this says which failed, and the rolls it abandoned. */
import { DicerigError } from '../core/errors.js';
import type { RollJob } from './queue/rollJob.js';

export class ServeStopError extends DicerigError {
  constructor(
    /** Each step that failed and why, one sentence each. */
    readonly problems: readonly string[],
    readonly abandoned: readonly RollJob[],
  ) {
    super(`Stopped, but not cleanly: ${problems.map((p) => p.replace(/\.\s*$/, '')).join('; ')}.`, { abandoned: abandoned.length });
  }
}
