/**
 * Writes a throw to the store in one transaction: the throw, its rolls (with
 * their evidence images) and its problems as events; or a throw a fault voided.
 */
import type { RollInput } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import type { SavedEvidence } from './evidence.js';
import type { ThrowOutcome } from './throwOutcome.js';

export class ThrowCommitter {
  constructor(
    private readonly store: RollStore,
    private readonly sessionId: number,
  ) {}

  /**
   * Stores a judged throw; its index and the outcome stored. `settle`, when given, runs inside the write transaction
   * first and gives the outcome to store: nothing another process writes (a label) can come between it and the throw.
   */
  commit(startedAt: number, endedAt: number, judged: ThrowOutcome, evidence: ReadonlyMap<object, SavedEvidence>, settle?: () => ThrowOutcome): { index: number; outcome: ThrowOutcome } {
    const { store, sessionId } = this;
    return store.atomically(() => {
      const outcome = settle === undefined ? judged : settle();
      const rolls = rollInputsOf(outcome, evidence);
      const recorded = store.recordThrow(sessionId, { startedAt, endedAt, status: outcome.status, ...(outcome.why !== undefined ? { why: outcome.why } : {}), rolls });
      for (const p of outcome.problems) {
        const ev = evidence.get(p);
        store.recordEvent(sessionId, {
          at: endedAt,
          kind: p.kind,
          throwIndex: recorded.index,
          ...(p.die ? { dieId: p.die.record.id } : {}),
          detail: {
            reason: p.reason,
            ...(p.channel !== undefined ? { channel: p.channel } : {}),
            ...(p.details ? { details: p.details } : {}),
            ...(ev ? { evidencePath: ev.path, evidenceHash: ev.hash } : {}),
          },
        });
      }
      return { index: recorded.index, outcome };
    });
  }

  /** Stores a throw a fault interrupted: void, with the fault's message, no rolls; its index. */
  commitVoid(startedAt: number, endedAt: number, why: string): number {
    return this.store.atomically(() => this.store.recordThrow(this.sessionId, { startedAt, endedAt, status: 'void', why, rolls: [] }).index);
  }
}

/**
 * The store's rows for a judged throw's rolls, with their evidence. A declined die keeps its
 * place in a counted throw as an unresolved roll (in a re-tumbled one nothing counts anyway).
 * The fairness loop and stream rolling both store throws through this.
 */
export function rollInputsOf(outcome: { readonly status: ThrowOutcome['status'] | 'void' } & Pick<ThrowOutcome, 'rolls' | 'problems'>, evidence: ReadonlyMap<object, SavedEvidence>): RollInput[] {
  return outcome.rolls.map((r) => {
    const problem = outcome.problems.find((p) => p.die === r.die && p.crop === r.crop);
    const ev = evidence.get(r) ?? (problem ? evidence.get(problem) : undefined);
    return {
      dieId: r.die.record.id,
      channel: r.die.channel,
      ...(r.faceId !== undefined ? { faceId: r.faceId } : {}),
      ...(r.symbol !== undefined ? { symbol: r.symbol } : {}),
      confidence: Math.min(1, Math.max(0, r.confidence)),
      cocked: r.cocked,
      classifierVersion: r.classifierVersion,
      ...(ev ? { evidencePath: ev.path, evidenceHash: ev.hash } : {}),
      ...(r.unresolved === true && outcome.status === 'ok' ? { resolution: 'unresolved' as const } : {}),
    };
  });
}
