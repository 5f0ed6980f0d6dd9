/**
 * Every die's monitor (one `DieTrack` per channel): rebuilt from the store's
 * counted rolls, fed each counted throw, asked for the statuses the events
 * show, and looked at together by the periodic rig check.
 */
import { describeVerdict, type RigSuspectVerdict } from '../stats/verdict.js';
import type { MonitorDecision } from '../stats/sequential.js';
import type { RollStore } from '../store/rollStore.js';
import { DieTrack, type MonitorRules } from './dieTrack.js';
import type { DieStatus } from './events.js';
import { checkRig, type RigCheckResult } from './rigCheck.js';
import type { SessionDie } from './sessionDie.js';
import type { ThrowOutcome } from './throwOutcome.js';

export interface DieOutcome {
  readonly label: string;
  readonly type: string;
  readonly channel: number;
  readonly rolls: number;
  readonly verdict: MonitorDecision | RigSuspectVerdict;
  readonly sentence: string;
  /** Counted rolls when the verdict was reached (null while undecided). */
  readonly decidedAt: number | null;
}

export class MonitorSet {
  readonly tracks: readonly DieTrack[];

  constructor(dice: readonly SessionDie[], rules: MonitorRules) {
    this.tracks = dice.map((die) => new DieTrack(die, rules));
  }

  /** Rebuilds every die's monitor from the session's counted rolls, in throw order. */
  replayStored(store: RollStore, sessionId: number): void {
    const byId = new Map(this.tracks.map((t) => [t.die.record.id, t]));
    for (const series of store.dieRolls(sessionId)) {
      const track = byId.get(series.die.id);
      if (track === undefined) continue;
      series.symbols.forEach((symbol, i) => {
        const category = track.categoryOf({ faceId: series.faces[i] ?? null, symbol });
        if (category !== undefined) track.observe(category);
      });
    }
  }

  /** Dice still being read and counted. */
  counted(): SessionDie[] {
    return this.tracks.filter((t) => !t.retired).map((t) => t.die);
  }

  get allRetired(): boolean {
    return this.tracks.every((t) => t.retired);
  }

  /** Counts an `ok` throw's rolls: how many were counted, and the dice this throw decided. */
  observe(outcome: ThrowOutcome): { counted: number; decided: DieTrack[] } {
    let counted = 0;
    const decided: DieTrack[] = [];
    for (const r of outcome.rolls) {
      const track = this.tracks.find((t) => t.die === r.die);
      const category = track?.categoryOf(r);
      if (track === undefined || category === undefined) continue;
      counted++;
      if (track.observe(category)) decided.push(track);
    }
    return { counted, decided };
  }

  /** The serial and rig checks over every die's sequence so far (look number `look` of the session). */
  checkRig(look: number, alpha: number): RigCheckResult {
    return checkRig(
      this.tracks.map((t) => ({
        label: t.die.record.label,
        sequence: t.sequence,
        expected: t.categories.expected,
        labels: t.categories.labels,
        ...(t.categories.opposite ? { opposite: t.categories.opposite } : {}),
      })),
      look,
      alpha,
    );
  }

  /** Each die's state for an event; every die is RIG_SUSPECT once the rig is. */
  statuses(rigSuspect: RigSuspectVerdict | null): DieStatus[] {
    return this.tracks.map((t) => {
      const v = t.verdict();
      return {
        label: t.die.record.label,
        type: t.die.type.id,
        channel: t.die.channel,
        rolls: t.rolls,
        state: rigSuspect ? 'RIG_SUSPECT' : v.kind,
        decided: t.retired,
        rollsNeeded: t.rollsStillNeeded(),
        logE: t.monitor.state().logE,
      };
    });
  }

  /** Each die's verdict at the end of a run. */
  outcomes(rigSuspect: RigSuspectVerdict | null): DieOutcome[] {
    return this.tracks.map((t) => {
      const verdict: MonitorDecision | RigSuspectVerdict = rigSuspect ?? t.verdict();
      return {
        label: t.die.record.label,
        type: t.die.type.id,
        channel: t.die.channel,
        rolls: t.rolls,
        verdict,
        sentence: describeVerdict(verdict),
        decidedAt: t.monitor.state().decidedAt,
      };
    });
  }
}
