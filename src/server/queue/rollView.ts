/** How the API and the pages show a roll: its state and answer, and where its evidence is, never its pixels. */
import type { RollJob, RollView } from './rollJob.js';

/** `place`: its place in the queue while waiting; `streamSessionId`: the stream session its throws are stored in, once there is one. */
export function rollView(job: RollJob, place: number | undefined, streamSessionId: number | undefined): RollView {
  return {
    id: job.id,
    state: job.state,
    request: job.text,
    ...(job.by !== undefined ? { by: job.by } : {}),
    ...(place !== undefined ? { place } : {}),
    createdAt: job.createdAt,
    ...(job.startedAt !== undefined ? { startedAt: job.startedAt } : {}),
    ...(job.doneAt !== undefined ? { doneAt: job.doneAt } : {}),
    dice: (job.outcome?.dice ?? []).map((d) => {
      const { ref, ...rest } = d;
      return { ...rest, ...(ref !== undefined ? { evidence: `/api/rolls/${job.id}/evidence/${ref}.png` } : {}) };
    }),
    // Copies: a view outlives the call (the hub writes it out on the next turn) while the job goes on.
    partial: [...job.partial],
    ...(job.outcome ? { result: job.outcome.result, line: job.outcome.line } : {}),
    ...(job.error !== undefined ? { error: job.error } : {}),
    throws: [...job.throws],
    retumbled: [...job.retumbled],
    ...(streamSessionId !== undefined && job.throws.length > 0 ? { sessionId: streamSessionId } : {}),
    evidence: `/api/rolls/${job.id}/evidence`,
  };
}
