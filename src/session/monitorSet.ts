/**
 * Every die's monitor (one `DieTrack` per channel): rebuilt from the store's
 * counted rolls, fed each counted throw, asked for the statuses the events
 * show, and looked at together by the periodic rig check.
 */
import { sessionErrorControl, sentenceNames, sessionVerdicts, type ErrorControl, type RollEvent, type SessionVerdicts } from '../stats/dieVerdict.js';
import { describeVerdict, type RigSuspectVerdict } from '../stats/verdict.js';
import type { MonitorDecision } from '../stats/sequential.js';
import { isCannotTell, type ReviewRecord } from '../store/reviews.js';
import type { RollStore, StoredRollEvent } from '../store/rollStore.js';
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
  /** Of the die's rolls: read by the reader, labelled by a person, still unresolved. */
  readonly resolved?: number;
  readonly reviewed?: number;
  readonly unresolved?: number;
  /** Of the unresolved ones, those a person looked at and could not tell. */
  readonly cannotTell?: number;
}

/** A die's stored roll sequence as monitor calls (nothing changed), and the place of each of its unresolved rolls in it (by roll id). */
function walkStored(track: DieTrack, stored: readonly StoredRollEvent[]): { calls: RollEvent[]; positions: Map<number, number> } {
  const positions = new Map<number, number>();
  const calls: RollEvent[] = [];
  let n = 0;
  for (const e of stored) {
    if (e.kind === 'roll') {
      const face = track.categoryOf(e);
      if (face === undefined) continue;
      calls.push({ kind: 'roll', face });
      n++;
    } else if (e.kind === 'unresolved') {
      positions.set(e.rollId, n++);
      calls.push({ kind: 'unresolved' });
    } else if (e.kind === 'cannot-tell') {
      const position = positions.get(e.rollId);
      if (position !== undefined) calls.push({ kind: 'cannot-tell', position });
    } else if (e.kind === 'correction') {
      const position = positions.get(e.rollId);
      const face = isCannotTell(e) ? null : track.categoryOf(e);
      if (position !== undefined && face !== undefined) calls.push({ kind: 'correct', position, face });
    } else {
      const face = track.categoryOf(e);
      const position = positions.get(e.rollId);
      if (face !== undefined && position !== undefined) calls.push({ kind: 'review', position, face });
    }
  }
  return { calls, positions };
}

export interface MonitorSetRules extends Omit<MonitorRules, 'control'> {
  /** The session's alpha: spread over its dice by `sessionErrorControl`. */
  readonly alpha: number;
}

export class MonitorSet {
  readonly tracks: readonly DieTrack[];
  /** The session's one error control (Bonferroni across its dice). */
  readonly control: ErrorControl;

  constructor(dice: readonly SessionDie[], rules: MonitorSetRules) {
    this.control = sessionErrorControl(rules.alpha, Math.max(1, dice.length));
    this.tracks = dice.map((die) => new DieTrack(die, { control: this.control, delta: rules.delta, budgetRolls: rules.budgetRolls }));
  }

  /**
   * Rebuilds every die's monitor from the store (`replay`): its read rolls,
   * its unresolved rolls in their places and the reviews given since, in the
   * order they happened, so a resumed session decides as the first run did.
   */
  replayStored(store: RollStore, sessionId: number): void {
    const events = store.rollEvents(sessionId);
    for (const track of this.tracks) {
      for (const c of walkStored(track, events.get(track.die.record.id) ?? []).calls) {
        if (c.kind === 'review') {
          // A roll stored after its die's verdict (a live label decided it between the throw's read and its commit) was never in its monitor.
          if (track.monitor.isOpen(c.position)) track.monitor.review(c.position, c.face);
        } else if (c.kind === 'cannot-tell') {
          if (track.monitor.isOpen(c.position)) track.monitor.cannotTell(c.position);
        } else if (c.kind === 'correct') {
          // Only an answer the monitor took in can be corrected in it (see 'review' above).
          if (track.monitor.isAnswered(c.position)) track.monitor.correct(c.position, c.face);
        } else if (!track.retired) {
          // As a live run does (`DieTrack`): a die with a verdict is no longer counted.
          if (c.kind === 'roll') track.observe(c.face);
          else track.observeUnresolved();
        }
      }
    }
  }

  /**
   * Takes in labels a person gave (`dicerig review`, another process) while the session runs, in the order given: each
   * reviewed roll's face goes in its place in its die's monitor, as a rebuilt monitor (`replayStored`) would have it.
   * Returns the dice a label decided.
   */
  applyReviews(store: RollStore, sessionId: number, reviews: readonly ReviewRecord[]): DieTrack[] {
    if (reviews.length === 0) return [];
    const events = store.rollEvents(sessionId);
    const places = this.tracks.map((track) => walkStored(track, events.get(track.die.record.id) ?? []).positions);
    const decided: DieTrack[] = [];
    for (const review of reviews) {
      const i = places.findIndex((p) => p.has(review.rollId));
      const track = this.tracks[i];
      if (review.supersedes !== null) {
        // A correction, at the throw it was given: the roll counts with the right face (or none) from here on.
        const position = places[i]?.get(review.rollId);
        const face = isCannotTell(review) ? null : track?.categoryOf(review);
        if (track === undefined || position === undefined || face === undefined || !track.monitor.isAnswered(position)) continue;
        const was = track.retired;
        track.monitor.correct(position, face);
        if (!was && track.retired) decided.push(track);
        continue;
      }
      if (isCannotTell(review)) {
        // No face: the roll stays unresolved, and no advice counts on reviewing it.
        const position = places[i]?.get(review.rollId);
        if (track !== undefined && position !== undefined && track.monitor.isOpen(position)) track.monitor.cannotTell(position);
        continue;
      }
      const face = track?.categoryOf(review);
      if (track === undefined || face === undefined) continue;
      const position = places[i]?.get(review.rollId) as number;
      if (!track.monitor.isOpen(position)) continue; // stored after the die's verdict: never in its monitor
      const was = track.retired;
      track.monitor.review(position, face);
      if (!was && track.retired) decided.push(track);
    }
    return decided;
  }

  /** Dice still being read and counted. */
  counted(): SessionDie[] {
    return this.tracks.filter((t) => !t.retired).map((t) => t.die);
  }

  get allRetired(): boolean {
    return this.tracks.every((t) => t.retired);
  }

  /** Counts an `ok` throw's rolls (declined ones as unresolved): how many were read and counted, how many kept unresolved, and the dice this throw decided. */
  observe(outcome: ThrowOutcome): { counted: number; unresolved: number; decided: DieTrack[] } {
    let counted = 0;
    let unresolved = 0;
    const decided: DieTrack[] = [];
    for (const r of outcome.rolls) {
      const track = this.tracks.find((t) => t.die === r.die);
      if (track !== undefined && r.unresolved === true) {
        const kept = track.observeUnresolved();
        if (kept === undefined) continue;
        unresolved++;
        if (kept.decided) decided.push(track);
        continue;
      }
      const category = track?.categoryOf(r);
      if (track === undefined || category === undefined) continue;
      counted++;
      if (track.observe(category)) decided.push(track);
    }
    return { counted, unresolved, decided };
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
      const unread = t.retired ? undefined : t.monitor.unreadableFace();
      const state = t.monitor.state();
      const tally = Object.fromEntries(t.categories.labels.map((label, i) => [label, state.counts[i] ?? 0]));
      const needed = t.rollsStillNeeded();
      return {
        label: t.die.record.label,
        type: t.die.type.id,
        channel: t.die.channel,
        rolls: t.rolls,
        state: rigSuspect ? 'RIG_SUSPECT' : v.kind,
        decided: t.retired,
        rollsNeeded: needed ?? 0,
        budgetLeft: t.budgetLeft(),
        ...(needed === null ? { noVerdictInReach: true as const } : {}),
        // Which verdict the rolls still needed lead to, as the projection says (a fair die's noise points at UNFAIR).
        ...(!t.retired && v.kind === 'INCONCLUSIVE' && v.target !== null && needed !== null && needed > 0 ? { toward: v.target } : {}),
        logE: state.logE,
        unresolved: t.monitor.unresolved,
        tally,
        ...(unread !== undefined ? { unreadableFace: unread.label } : {}),
      };
    });
  }

  /** The session's verdicts, one `DieVerdict` per die under its one error control: made here, stored, shown as is. */
  verdicts(rigSuspect: RigSuspectVerdict | null): SessionVerdicts {
    return sessionVerdicts(
      this.control,
      this.tracks.map((t) => ({ label: t.die.record.label, monitor: t.monitor, labels: t.categories.labels, names: t.categories.names, misreads: t.misreads })),
      rigSuspect ? { rigSuspect } : {},
    );
  }

  /** Each die's verdict at the end of a run (its sentence from the session's DieVerdict when given). */
  outcomes(rigSuspect: RigSuspectVerdict | null, verdicts?: SessionVerdicts): DieOutcome[] {
    return this.tracks.map((t, i) => {
      const verdict: MonitorDecision | RigSuspectVerdict = rigSuspect ?? t.verdict();
      const made = verdicts?.dice[i];
      const state = t.monitor.state();
      return {
        label: t.die.record.label,
        type: t.die.type.id,
        channel: t.die.channel,
        rolls: t.rolls,
        verdict,
        sentence: made?.sentence ?? describeVerdict(verdict, undefined, sentenceNames(t.categories.labels, t.categories.names), state.unresolved),
        decidedAt: state.decidedAt,
        ...(made ? { resolved: made.resolved, reviewed: made.reviewed, unresolved: made.unresolved, cannotTell: state.cannotTell } : {}),
      };
    });
  }
}
