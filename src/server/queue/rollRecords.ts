/**
 * Each stream roll's answer, kept in the roll store: when a roll ends (done, failed, cancelled, abandoned) its
 * record (who asked what, the throws it took, the dice and result given, the evidence files) is a `stream-roll`
 * event of the stream session, sealed in the session's chain with the throws themselves. So a bot asking for a roll
 * after the server restarted, or long after it left the server's memory, gets the answer that was given; and a
 * viewer who disputes a roll can be shown the request, the throws and the pictures, all in the verified store.
 */
import { z } from 'zod';
import type { EventRecord } from '../../store/records.js';
import type { RollStore } from '../../store/rollStore.js';
import type { RollJob, RollView } from './rollJob.js';

export const STREAM_ROLL_EVENT = 'stream-roll';

/** The event detail a finished roll is kept as: its view, without what only a live page needs, and its evidence files. */
export function rollRecord(view: RollView, job: RollJob): Record<string, unknown> {
  const { place: _place, partial: _partial, evidence: _evidence, ...kept } = view;
  return {
    ...kept,
    dice: view.dice.map(({ evidence: _e, ...d }) => d),
    evidenceFiles: job.evidence.map((e) => ({ throwIndex: e.throwIndex, channel: e.channel, label: e.label, ...(e.path !== undefined ? { path: e.path, hash: e.hash } : {}) })),
  };
}

const recordSchema = z.looseObject({
  id: z.string(),
  state: z.enum(['done', 'failed', 'cancelled', 'abandoned']),
  request: z.string(),
  createdAt: z.number(),
  dice: z.array(z.looseObject({})),
  throws: z.array(z.number()),
  // Absent from the records of rolls kept before it was recorded.
  retumbled: z.array(z.looseObject({ index: z.number(), status: z.enum(['rerolled', 'void']), reason: z.string() })).default([]),
  evidenceFiles: z.array(z.looseObject({ throwIndex: z.number(), channel: z.number(), label: z.string(), path: z.string().optional(), hash: z.string().optional() })),
});

/** A kept roll as the API shows it, with its evidence as stored files (the pictures are no longer held in memory). */
export interface KeptRoll {
  readonly view: RollView;
  readonly evidenceFiles: readonly { readonly throwIndex: number; readonly channel: number; readonly label: string; readonly path?: string; readonly hash?: string }[];
  /** The stream session whose chain holds it. */
  readonly sessionId: number;
}

function keptRoll(e: EventRecord): KeptRoll | undefined {
  const parsed = recordSchema.safeParse(e.detail);
  if (!parsed.success) return undefined;
  const { evidenceFiles, ...view } = parsed.data;
  return { view: { ...(view as unknown as RollView), partial: [], evidence: `/api/rolls/${view.id}/evidence` }, evidenceFiles, sessionId: e.sessionId };
}

/** The kept roll with this id, if the store holds one. */
export function findKeptRoll(store: RollStore, id: string): KeptRoll | undefined {
  const [event] = store.findEvents(STREAM_ROLL_EVENT, { match: { key: 'id', value: id }, limit: 1 });
  return event === undefined ? undefined : keptRoll(event);
}
