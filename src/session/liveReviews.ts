/**
 * Labels a person gives the session's unresolved rolls (`dicerig review`, in another process) while the session runs.
 * Each is taken in between the throws it was given between: a review stored when the session's last throw was N
 * (`afterThrow`) goes into the monitors after throw N's rolls and before throw N+1's, exactly where a rebuilt monitor
 * puts it (`readRollEvents`), so the live verdicts, the ones the run stores and a resumed run's are one and the same.
 */
import type { RollStore } from '../store/rollStore.js';
import type { DieTrack } from './dieTrack.js';
import type { MonitorSet } from './monitorSet.js';

export class LiveReviews {
  private lastId: number;

  constructor(
    private readonly store: RollStore,
    private readonly sessionId: number,
  ) {
    // The reviews stored so far are in the monitors already (`replayStored`).
    this.lastId = store.lastReviewId(sessionId);
  }

  /** Takes in the new reviews given while throw `afterThrow` was the session's last; returns the dice they decided. */
  take(monitors: MonitorSet, afterThrow: number): DieTrack[] {
    if (this.store.lastReviewId(this.sessionId) <= this.lastId) return [];
    const due = [];
    for (const r of this.store.reviews(this.sessionId, this.lastId)) {
      if (r.afterThrow > afterThrow) break;
      due.push(r);
    }
    if (due.length === 0) return [];
    this.lastId = (due.at(-1) as (typeof due)[number]).id;
    return monitors.applyReviews(this.store, this.sessionId, due);
  }
}
