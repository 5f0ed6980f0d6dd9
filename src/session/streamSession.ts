import { DicerigError } from '../core/errors.js';
import type { SessionRecord } from '../store/records.js';

/** A session `run --resume` cannot go on with: serve's stream session holds the rolls viewers asked for, not a fairness run. */
export class StreamSessionError extends DicerigError {}

/** What a stream session left running is: nothing resumes it, and its rolls stand as they were asked and answered. */
export const STREAM_NOT_RESUMED = 'a stream session of dicerig serve: it is not resumed, its rolls stand as they are';

export function refuseStreamResume(session: SessionRecord): void {
  if (session.kind !== 'stream') return;
  throw new StreamSessionError(
    `session ${session.id} is a stream session of dicerig serve (the rolls viewers and the chat asked for): run --resume would roll a fairness run into it. ` +
      "Continue the fairness session serve started beside it, or start serve again for more stream rolls.",
    { session: session.id, kind: 'stream' },
  );
}
