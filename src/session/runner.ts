/**
 * The throw loop. One throw: tumble; watch the frames until the dice are
 * still (or wait a fixed time); read every die still being counted; if any is
 * cocked, unreadable, missing or joined by an extra die, the throw is stored
 * `rerolled` with its problems logged as events (evidence attached), else the
 * throw and its rolls are committed in one transaction; then the monitors are
 * updated, the stopping rules decide, and only then is the next tumble asked
 * for. A fault that interrupts a motion voids that throw (stored `void` with
 * the fault's message, never counted); the rig is brought back (light, home)
 * and the loop goes on, up to a number of faults in a row.
 *
 * Every dependency is injected (rig, camera, vision, store, clock, abort
 * signal, event sink), so the same loop runs a real rig in real time, the
 * demo on a simulated clock, and tests on scripted fakes. The monitors are
 * always rebuilt from the store's counted rolls, so a new session and a
 * resumed one (after a crash or power loss) run the same code.
 */
import type { Clock } from '../core/clock.js';
import type { Frame } from '../camera/frameSource.js';
import type { MotionResult, RigDriver } from '../rig/driver.js';
import { RigConnectError, RigError, RigFaultError, RigTimeoutError } from '../rig/errors.js';
import { DEFAULT_REREAD, rereadDeclined, type RereadRule } from './reread.js';
import { describeVerdict, type RigSuspectVerdict } from '../stats/verdict.js';
import type { RollStore } from '../store/rollStore.js';
import { monitorSentence, type SessionVerdicts } from '../stats/dieVerdict.js';
import type { FrameReading } from '../vision/pipeline.js';
import type { RgbImage } from '../core/image.js';
import { SettleDetector, defaultSettleOptions } from '../vision/settle.js';
import type { DieTrack } from './dieTrack.js';
import type { DieStatus, RunClock, SessionEvent, SessionEventSink, ThrowTotals } from './events.js';
import { withDiceOnDemand } from './diceOnDemand.js';
import { saveThrowEvidence, type EvidenceSink, type SavedEvidence } from './evidence.js';
import { HostTiming, type HostPhase } from './hostTiming.js';
import { MonitorSet, type DieOutcome } from './monitorSet.js';
import { allRetired } from './allRetired.js';
import type { RigCheckResult } from './rigCheck.js';
import type { SessionDie } from './sessionDie.js';
import { SessionTotals, storedTotals } from './sessionTotals.js';
import { formatHours } from './rollingTime.js';
import type { ThrowCamera } from './throwCamera.js';
import { ThrowCommitter } from './throwCommitter.js';
import { UnreadableFaces } from './unreadableFaces.js';
import { waitOutBusy } from './waitOutBusy.js';
import { LiveReviews } from './liveReviews.js';
import { judgeThrow, notSettledOutcome, retumbles, withoutDice, type ThrowOutcome } from './throwOutcome.js';
import { MissingStreak, missingDieMessage } from './missingStreak.js';
import { RerollStreak } from './rerollStreak.js';
import { UnreadStreak } from './unreadStreak.js';
import { watchUntilStill, type SettleRule, type Watched } from './settleWatch.js';
import { CameraRecovery, recordingEndedReason, stoppedByUserWhy } from './cameraRecovery.js';

export interface StoppingRules {
  readonly alpha: number;
  readonly delta: number;
  readonly budgetRolls: number;
  readonly budgetHours?: number;
  readonly rigCheckEvery: number;
  readonly rigCheckAlpha: number;
  readonly stopOnRigSuspect: boolean;
  readonly maxConsecutiveFaults: number;
  readonly maxConsecutiveRerolls: number;
  /** Throws in a row a die may be missing from its channel before the session stops (`missingStreak.ts`). */
  readonly maxConsecutiveMissing: number;
  /** Throws in a row with no die read before the session stops (`unreadStreak.ts`; default 25). */
  readonly maxConsecutiveUnread?: number;
}

export type { SettleRule } from './settleWatch.js';

export interface RunnerDeps {
  readonly rig: RigDriver;
  readonly camera: ThrowCamera;
  /** The vision pipeline, bound to the empty-platform reference, the channels and the reader. */
  readonly readThrow: (image: RgbImage) => FrameReading;
  readonly store: RollStore;
  /** The session clock: pacing, settle times, rolls per hour. */
  readonly clock: Clock;
  /** Epoch milliseconds at session-clock time 0 (stored times are epoch ms). */
  readonly timeOrigin: number;
  readonly onEvent?: SessionEventSink;
  /** Told at every event, none built for it: the fleet replicator's poke (the dice statuses cost a projection per die). */
  readonly onStored?: () => void;
  /** `onEvent` reads a throw's `dice` only while handling it, or the last throw's at `stopped`: worked out when read. */
  readonly diceOnDemand?: boolean;
  /** Aborting stops the session cleanly after the current throw (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Host time (e.g. `performance.now`), to measure the loop's own cost per throw; omit to skip. */
  readonly stopwatch?: () => number;
  readonly evidence?: EvidenceSink;
  /** Which crops to keep: the problem dice of rerolled throws (default), every roll, or none. */
  readonly evidenceMode?: 'rerolls' | 'all' | 'none';
  /** Keeps each frame a throw is read from (`dicerig run --keep-frames`), before it is read. */
  readonly keepFrame?: (image: RgbImage) => Promise<void>;
}

export interface RunnerPlan {
  readonly sessionId: number;
  /** One die per channel. */
  readonly dice: readonly SessionDie[];
  readonly stopping: StoppingRules;
  readonly settle: SettleRule;
  /** Light level to set at the start and after a fault (omit to leave the light alone). */
  readonly light?: number;
  /** True when this run continues a stored session. */
  readonly resumed?: boolean;
  /** True when the rolls are simulated (for the started event). */
  readonly simulated?: boolean;
  /** How a declined die is read again before it is kept unresolved (default `DEFAULT_REREAD`). */
  readonly reread?: RereadRule;
}

export { DEFAULT_REREAD, type RereadRule } from './reread.js';

export type StopKind = 'all-decided' | 'roll-budget' | 'time-budget' | 'rig-suspect' | 'faults' | 'rerolls' | 'missing-die' | 'unread' | 'user' | 'rig-lost' | 'camera-lost' | 'recording-ended';

export interface SessionResult {
  readonly sessionId: number;
  readonly state: 'finished' | 'stopped' | 'aborted';
  readonly stop: StopKind;
  /** Why the session stopped, in a sentence. */
  readonly reason: string;
  readonly dice: readonly DieOutcome[];
  /** The session's verdicts as made and stored (one DieVerdict per die, one error control): every consumer shows these. */
  readonly verdicts: SessionVerdicts;
  readonly totals: ThrowTotals;
  readonly clock: RunClock;
  /** The last rig check, if one ran in this run. */
  readonly rigCheck: RigCheckResult | null;
  readonly rigSuspect: RigSuspectVerdict | null;
  /** Host milliseconds the loop itself spent per throw of this run (settle detection, vision, store, statistics), when a stopwatch was given. */
  readonly hostMsPerThrow: readonly number[];
  /** Host milliseconds per phase over this run (when a stopwatch was given). */
  readonly hostPhaseMs: Readonly<Record<HostPhase, number>>;
  /** Session-clock settle times of this run's throws that settled. */
  readonly settleMs: readonly number[];
  /** Each re-read of a throw's declined dice in this run: host ms (vision) and session-clock ms (frames, light steps), when a stopwatch was given. */
  readonly rereadCost: readonly { readonly hostMs: number; readonly clockMs: number }[];
}

/** Said of every decided die: the rig flips every channel together. */
export const RETIRED_NOTE = 'no longer read or counted; the rig still tumbles it with the other dice, as all channels share one flip';

class Stop {
  constructor(
    readonly state: SessionResult['state'],
    readonly kind: StopKind,
    readonly reason: string,
  ) {}
}

/** Runs a session until a stopping rule fires; see the module comment. */
export async function runSession(deps: RunnerDeps, plan: RunnerPlan): Promise<SessionResult> {
  return new SessionRunner(deps, plan).run();
}

export class SessionRunner {
  private readonly monitors: MonitorSet;
  private readonly unreadable = new UnreadableFaces();
  private readonly totals: SessionTotals;
  private readonly committer: ThrowCommitter;
  private readonly reviews: LiveReviews;
  private readonly timing: HostTiming;
  private readonly cameraRecovery: CameraRecovery;
  private readonly detector: SettleDetector;
  private lastIndex: number;
  private consecutiveFaults = 0;
  private lastProblem = '';
  /** The throws in a row without a counted result: how many, and their problems (to name a likely cause when giving up on them). */
  private readonly streak = new RerollStreak();
  private readonly missing = new MissingStreak();
  private readonly unread = new UnreadStreak();
  private rigCheck: RigCheckResult | null = null;
  private rigSuspect: RigSuspectVerdict | null = null;
  private readonly settleTimes: number[] = [];
  private readonly rereadCost: { hostMs: number; clockMs: number }[] = [];

  constructor(
    private readonly deps: RunnerDeps,
    private readonly plan: RunnerPlan,
  ) {
    const { stopping } = plan;
    this.monitors = new MonitorSet(plan.dice, { alpha: stopping.alpha, delta: stopping.delta, budgetRolls: stopping.budgetRolls });
    this.detector = new SettleDetector(plan.settle.mode === 'detect' ? (plan.settle.detector ?? defaultSettleOptions) : defaultSettleOptions);
    this.totals = new SessionTotals(storedTotals(deps.store, plan.sessionId), deps.store.throwTimes(plan.sessionId));
    this.committer = new ThrowCommitter(deps.store, plan.sessionId);
    this.timing = new HostTiming(deps.stopwatch);
    this.lastIndex = deps.store.lastThrowIndex(plan.sessionId);
    this.monitors.replayStored(deps.store, plan.sessionId);
    this.reviews = new LiveReviews(deps.store, plan.sessionId);
    this.cameraRecovery = new CameraRecovery({ camera: deps.camera, clock: deps.clock, rule: plan.settle, ...(deps.signal ? { signal: deps.signal } : {}) });
  }

  /** One track per die, in channel order. */
  get tracks(): readonly DieTrack[] {
    return this.monitors.tracks;
  }

  async run(): Promise<SessionResult> {
    const { store } = this.deps;
    const { sessionId } = this.plan;
    this.totals.startRun(this.deps.clock.now());
    this.emit(() => ({
      type: 'started',
      at: this.now(),
      sessionId,
      resumed: this.plan.resumed === true,
      lastThrowIndex: this.lastIndex,
      simulated: this.plan.simulated === true,
      dice: this.statuses(),
      totals: this.totalsNow(),
      budgetRolls: this.plan.stopping.budgetRolls,
      ...(this.plan.stopping.budgetHours !== undefined ? { budgetHours: this.plan.stopping.budgetHours, rolledMs: this.totals.earlierRollingMs } : {}),
    }));
    const firstIndex = this.lastIndex;
    let stop: Stop | undefined;
    try {
      stop = this.allDecided() ?? this.timeBudgetSpent() ?? (await this.prepare());
      while (stop === undefined) {
        if (this.deps.signal?.aborted) {
          stop = new Stop('stopped', 'user', `Stopped by the user after throw ${this.lastIndex}.`);
          break;
        }
        stop = this.timeBudgetSpent() ?? (await this.oneThrow());
      }
    } catch (e) {
      // A failure before this run stored any throw (no camera, say) must not leave the session `running` forever.
      if (this.lastIndex === firstIndex) this.failedToStart(e);
      throw e;
    }
    const at = this.now();
    const verdicts = this.monitors.verdicts(this.rigSuspect);
    store.atomically(() => {
      store.recordEvent(sessionId, { at, kind: 'run-ended', detail: { state: stop.state, stop: stop.kind, reason: stop.reason, totals: this.totalsNow(), clock: this.runClock() } });
      store.saveVerdicts(sessionId, at, verdicts);
      store.endSession(sessionId, at, stop.state);
    });
    this.emit({ type: 'stopped', at, state: stop.state, reason: stop.reason, totals: this.totalsNow(), clock: this.runClock() });
    return {
      sessionId,
      state: stop.state,
      stop: stop.kind,
      reason: stop.reason,
      dice: this.monitors.outcomes(this.rigSuspect, verdicts),
      verdicts,
      totals: this.totalsNow(),
      clock: this.runClock(),
      rigCheck: this.rigCheck,
      rigSuspect: this.rigSuspect,
      hostMsPerThrow: this.timing.perThrow,
      hostPhaseMs: { ...this.timing.phases },
      settleMs: this.settleTimes,
      rereadCost: this.rereadCost,
    };
  }

  /** Tumble, watch until still, read, store, count: one throw. */
  private async oneThrow(): Promise<Stop | undefined> {
    const startedAt = this.now();
    let motion: MotionResult;
    try {
      motion = await this.deps.rig.tumble();
    } catch (e) {
      return this.tumbleFailed(e, startedAt);
    }
    this.timing.startThrow();
    const motionEnd = this.deps.clock.now();
    const seen = await watchUntilStill({ camera: this.deps.camera, clock: this.deps.clock, rule: this.plan.settle, detector: this.detector, timing: this.timing }, motionEnd, motion);
    if ('fault' in seen || 'ended' in seen) return this.cameraStopped(seen, startedAt);
    this.cameraRecovery.delivered();
    if ('frame' in seen) await this.deps.keepFrame?.(seen.frame.image);
    const t0 = this.timing.tick();
    let outcome: ThrowOutcome = 'frame' in seen ? judgeThrow(this.deps.readThrow(seen.frame.image), this.monitors.counted()) : notSettledOutcome(seen.reason);
    if ('frame' in seen) this.settleTimes.push(seen.settleMs);
    this.timing.tock(t0, 'vision');
    if ('frame' in seen) {
      outcome = await this.reread(outcome, seen.frames);
      await seen.frames.return?.();
    }
    const evidence = await this.saveEvidence(outcome);
    const stop = this.commit(startedAt, outcome, evidence, 'frame' in seen ? seen.settleMs : undefined);
    this.timing.endThrow();
    return stop;
  }

  /**
   * A throw the camera did not show (`cameraRecovery.ts`): a recording that ran out ends the session; otherwise the
   * throw is void, and the camera is opened again once before the next tumble, or the session stops.
   */
  private async cameraStopped(seen: Extract<Watched, { fault: unknown } | { ended: unknown }>, startedAt: number): Promise<Stop | undefined> {
    // Nothing was thrown for a recording that has no frames left: the input is over, not interrupted.
    if ('ended' in seen) return new Stop('finished', 'recording-ended', recordingEndedReason(seen.ended, this.lastIndex));
    const { fault } = seen;
    const user = await this.cameraRecovery.pauseAfterFault();
    const why = user ? stoppedByUserWhy(fault) : fault.message;
    const endedAt = Math.max(startedAt, this.now());
    const index = (this.lastIndex = this.committer.commitVoid(startedAt, endedAt, why));
    this.totals.countVoid({ index, startedAt, endedAt });
    this.lastProblem = why;
    this.streak.add(['void']);
    this.emitThrowEvent((dice) => ({ type: 'throw', at: endedAt, index, status: 'void', why, rolls: [], problems: [], dice, totals: this.totalsNow(), clock: this.runClock() }));
    if (user) return new Stop('stopped', 'user', `Stopped by the user during throw ${index}, which is stored void: its dice were not read.`);
    const detail = { fault: 'camera', message: fault.message, consecutive: this.cameraRecovery.consecutive, camera: fault.camera, ...(fault.lastWords !== undefined ? { stderr: fault.lastWords } : {}) };
    this.deps.store.recordEvent(this.plan.sessionId, { at: endedAt, kind: 'fault', throwIndex: index, detail });
    this.emit({ type: 'fault', at: endedAt, kind: 'camera', message: fault.message, consecutive: this.cameraRecovery.consecutive, voidedThrow: index });
    const comeback = await this.cameraRecovery.reopen(fault);
    if (!comeback.back) return new Stop('aborted', 'camera-lost', comeback.reason);
    this.deps.store.recordEvent(this.plan.sessionId, { at: this.now(), kind: 'recovered', detail: { camera: fault.camera } });
    this.emit({ type: 'recovered', at: this.now(), message: comeback.message });
    return undefined;
  }

  /** Reads a counted throw's declined dice again before anything moves (`reread.ts`); logs a `reread` event and counts both. */
  private async reread(outcome: ThrowOutcome, frames: AsyncIterator<Frame>): Promise<ThrowOutcome> {
    const t0 = this.timing.tick();
    const parts = { rig: this.deps.rig, clock: this.deps.clock, readThrow: this.deps.readThrow, rule: this.plan.reread ?? DEFAULT_REREAD, ...(this.plan.light !== undefined ? { light: this.plan.light } : {}) };
    const done = await rereadDeclined(parts, outcome, frames);
    if (done === null) return outcome;
    this.timing.tock(t0, 'vision');
    if (this.deps.stopwatch) this.rereadCost.push({ hostMs: this.deps.stopwatch() - t0, clockMs: done.clockMs });
    const still = done.declined.length - done.resolved;
    this.totals.countRereads(done.declined.length, done.resolved, still, Object.values(done.resolvedAs));
    this.deps.store.recordEvent(this.plan.sessionId, {
      at: this.now(),
      kind: 'reread',
      throwIndex: this.lastIndex + 1,
      detail: { declined: done.declined.length, resolved: done.resolved, unresolved: still, attempts: done.attempts, dice: done.declined.map((d) => d.record.label), resolvedAs: done.resolvedAs },
    });
    return done.outcome;
  }

  private async saveEvidence(outcome: ThrowOutcome): Promise<Map<object, SavedEvidence>> {
    const mode = this.deps.evidenceMode ?? 'rerolls';
    if (this.deps.evidence === undefined || mode === 'none') return new Map();
    const t0 = this.timing.tick();
    const saved = await saveThrowEvidence(this.deps.evidence, mode, outcome, this.lastIndex + 1);
    this.timing.tock(t0, 'evidence');
    return saved;
  }

  /** Stores the throw, its rolls and its problems in one transaction, then counts it, tells the listeners and applies the stopping rules. */
  private commit(startedAt: number, judged: ThrowOutcome, evidence: Map<object, SavedEvidence>, settleMs: number | undefined): Stop | undefined {
    const endedAt = Math.max(startedAt, this.now());
    const t0 = this.timing.tick();
    // Labels given meanwhile (`dicerig review`) go in where a rebuilt monitor puts them: before this throw or after it.
    // Those before it are taken inside the throw's write, so none slips in between: a die they decided was no longer
    // counted when this throw was stored, and its roll in it is not stored.
    let labelled: DieTrack[] = [];
    const { index, outcome } = this.committer.commit(startedAt, endedAt, judged, evidence, () => {
      labelled = this.reviews.take(this.monitors, this.lastIndex);
      return withoutDice(judged, new Set(labelled.map((t) => t.die)));
    });
    this.timing.tock(t0, 'store');
    const t1 = this.timing.tick();
    this.lastIndex = index;
    const ok = outcome.status === 'ok';
    const observed = ok ? this.monitors.observe(outcome) : { counted: 0, decided: [] as DieTrack[] };
    const { counted } = observed;
    const decided = [...labelled, ...observed.decided, ...this.reviews.take(this.monitors, index)];
    this.totals.countThrow(outcome, counted, { index, startedAt, endedAt });
    this.missing.add(outcome);
    this.unread.add(outcome);
    this.consecutiveFaults = 0;
    if (ok) {
      this.streak.clear();
    } else {
      this.lastProblem = outcome.why ?? 'rerolled';
      this.streak.add(outcome.problems.filter(retumbles).map((p) => p.kind));
    }
    this.emitThrow(endedAt, index, outcome, settleMs);
    for (const track of decided) this.announceDecision(track, endedAt);
    if (ok) this.noticeUnreadableFaces(endedAt);
    this.timing.tock(t1, 'stats');
    return this.afterThrow(ok, endedAt);
  }

  private emitThrow(at: number, index: number, outcome: ThrowOutcome, settleMs: number | undefined): void {
    this.emitThrowEvent((dice) => ({
      type: 'throw',
      at,
      index,
      status: outcome.status,
      ...(outcome.why !== undefined ? { why: outcome.why } : {}),
      ...(settleMs !== undefined ? { settleMs } : {}),
      rolls: outcome.rolls.map((r) => ({ label: r.die.record.label, ...(r.faceId !== undefined ? { faceId: r.faceId } : {}), ...(r.symbol !== undefined ? { symbol: r.symbol } : {}), cocked: r.cocked })),
      problems: outcome.problems.map((p) => ({ kind: p.kind, ...(p.die ? { label: p.die.record.label } : {}), ...(p.channel !== undefined ? { channel: p.channel } : {}), reason: p.reason })),
      dice,
      totals: this.totalsNow(),
      clock: this.runClock(),
    }));
  }

  private announceDecision(track: DieTrack, at: number): void {
    const verdict = track.verdict();
    // The same sentence the stored verdict carries (with its unresolved rolls), so the live pages and the report agree.
    const sentence = monitorSentence(track.monitor, track.categories.labels, track.categories.names);
    this.deps.store.recordEvent(this.plan.sessionId, {
      at,
      kind: 'verdict',
      throwIndex: this.lastIndex,
      dieId: track.die.record.id,
      detail: { verdict: verdict.kind, rolls: verdict.n, sentence, note: RETIRED_NOTE },
    });
    this.emit({ type: 'decided', at, label: track.die.record.label, verdict, sentence, retiredNote: RETIRED_NOTE });
  }

  /** Says once per die and run when its reader seems unable to read one of its faces (`unreadableFaces.ts`), and logs it. */
  private noticeUnreadableFaces(at: number): void {
    for (const { track, face, message } of this.unreadable.newlySeen(this.monitors.tracks)) {
      this.deps.store.recordEvent(this.plan.sessionId, { at, kind: 'unreadable-face', throwIndex: this.lastIndex, dieId: track.die.record.id, detail: { face, message } });
      this.emit({ type: 'unreadable-face', at, label: track.die.record.label, face, message });
    }
  }

  /** The stopping rules after a stored throw. */
  private afterThrow(ok: boolean, at: number): Stop | undefined {
    const { stopping } = this.plan;
    if (ok && this.totals.ok % stopping.rigCheckEvery === 0) {
      const stop = this.lookAtRig(this.totals.ok / stopping.rigCheckEvery, at);
      if (stop) return stop;
    }
    const all = this.allDecided();
    if (all) return all;
    const unread = this.unread.stopReason(stopping.maxConsecutiveUnread ?? 25);
    return this.missingLimit() ?? (unread !== undefined ? new Stop('aborted', 'unread', unread) : this.rerollLimit(true));
  }

  /** The stop once a die was missing from its channel in `stopping.maxConsecutiveMissing` throws in a row. */
  private missingLimit(): Stop | undefined {
    const run = this.missing.longest(this.plan.stopping.maxConsecutiveMissing);
    if (run === undefined) return undefined;
    return new Stop('aborted', 'missing-die', `${missingDieMessage(run)} Resume with --resume after fixing it.`);
  }

  /**
   * The stop once `stopping.maxConsecutiveRerolls` throws in a row gave no counted result. After a throw that was read,
   * `advise` ends the message with what to check: the streak's likely cause, or the dice, camera and calibration (after
   * a tumble the rig did not finish, its fault has been told already).
   */
  private rerollLimit(advise: boolean): Stop | undefined {
    if (this.streak.length < this.plan.stopping.maxConsecutiveRerolls) return undefined;
    const why = `${this.streak.length} throws in a row gave no counted result; the last: ${this.lastProblem}`;
    return new Stop('aborted', 'rerolls', advise ? `${why}. ${this.streak.likelyCause() ?? 'Check the dice, the camera and the calibration.'}` : why);
  }

  private allDecided(): Stop | undefined {
    if (!this.monitors.allRetired) return undefined;
    const tracks = this.monitors.tracks;
    const end = allRetired(tracks.length, tracks.filter((t) => t.verdict().kind === 'INCONCLUSIVE').length, this.plan.stopping.budgetRolls, this.totals.ok);
    return new Stop('finished', end.kind, end.reason);
  }

  private timeBudgetSpent(): Stop | undefined {
    const hours = this.plan.stopping.budgetHours;
    if (hours === undefined) return undefined;
    // The session's hours, over all its runs: a resumed run gets only what is left.
    if (this.totals.sessionHours() < hours) return undefined;
    return new Stop('finished', 'time-budget', `The time budget of ${formatHours(hours)} is spent (rolling time over all of the session's runs); undecided dice are INCONCLUSIVE.`);
  }

  private lookAtRig(look: number, at: number): Stop | undefined {
    const t0 = this.timing.tick();
    const result = this.monitors.checkRig(look, this.plan.stopping.rigCheckAlpha);
    this.timing.tock(t0, 'stats');
    this.rigCheck = result;
    const minAdjustedP = result.checks.reduce((m, c) => Math.min(m, c.adjustedP), 1);
    this.deps.store.recordEvent(this.plan.sessionId, {
      at,
      kind: 'rig-check',
      throwIndex: this.lastIndex,
      detail: { look, alpha: result.alpha, suspect: result.suspect, rolls: result.rolls, minAdjustedP, failed: result.verdict?.failedChecks ?? [] },
    });
    this.emit({ type: 'rig-check', at, look, alpha: result.alpha, suspect: result.suspect, rolls: result.rolls, minAdjustedP, verdict: result.verdict });
    if (!result.suspect || result.verdict === null) return undefined;
    this.rigSuspect ??= result.verdict;
    if (!this.plan.stopping.stopOnRigSuspect) return undefined;
    return new Stop('finished', 'rig-suspect', `${describeVerdict(result.verdict)} Fix the rig, then start a new session.`);
  }

  /** Marks a session whose run failed before its first throw: `never-started` when it has no throw at all, else `aborted` (it can be resumed). */
  private failedToStart(e: unknown): void {
    const at = this.now();
    const never = this.lastIndex === 0;
    const reason = e instanceof Error ? e.message : String(e);
    try {
      this.deps.store.recordEvent(this.plan.sessionId, { at, kind: never ? 'never-started' : 'run-failed', detail: { reason } });
      this.deps.store.endSession(this.plan.sessionId, at, never ? 'never-started' : 'aborted');
    } catch {
      // The store failing too: the original error is the one to report.
    }
  }

  /** Light on and tumbler home before the first throw; faults here count like any other. */
  private async prepare(): Promise<Stop | undefined> {
    try {
      if (this.plan.light !== undefined) await this.deps.rig.setLight(this.plan.light);
      await this.deps.rig.home();
      return undefined;
    } catch (e) {
      const stop = this.fault(e, undefined);
      return stop ?? (await this.recover());
    }
  }

  /** A tumble that did not finish: void the throw if the dice may have moved, then bring the rig back. */
  private async tumbleFailed(e: unknown, startedAt: number): Promise<Stop | undefined> {
    if (!(e instanceof RigError)) throw e;
    // A refused command, and a link already gone when the tumble was asked (a `RigConnectError`: the driver sends
    // nothing then; a link lost mid-motion rejects it as interrupted), moved nothing. An interrupted motion or a
    // timeout may have moved the dice.
    const moved = !(e instanceof RigConnectError) && !(e instanceof RigFaultError && !e.interrupted);
    let voided: number | undefined;
    if (moved) {
      const endedAt = Math.max(startedAt, this.now());
      const index = (voided = this.committer.commitVoid(startedAt, endedAt, e.message));
      this.lastIndex = index;
      this.totals.countVoid({ index, startedAt, endedAt });
      this.lastProblem = e.message;
      this.streak.add(['void']);
      this.emitThrowEvent((dice) => ({ type: 'throw', at: endedAt, index, status: 'void', why: e.message, rolls: [], problems: [], dice, totals: this.totalsNow(), clock: this.runClock() }));
    }
    const stop = this.fault(e, voided);
    if (stop) return stop;
    return this.rerollLimit(false) ?? this.recover();
  }

  /** Logs a fault; a stop when it is one too many in a row or the link is gone for good. */
  private fault(e: unknown, voidedThrow: number | undefined): Stop | undefined {
    if (!(e instanceof RigError)) throw e;
    this.consecutiveFaults++;
    const kind = e instanceof RigFaultError ? e.fault : e instanceof RigTimeoutError ? 'timeout' : 'link';
    const at = this.now();
    this.deps.store.recordEvent(this.plan.sessionId, {
      at,
      kind: 'fault',
      ...(voidedThrow !== undefined ? { throwIndex: voidedThrow } : {}),
      detail: { fault: kind, message: e.message, consecutive: this.consecutiveFaults, rig: e.rig },
    });
    this.emit({ type: 'fault', at, kind, message: e.message, consecutive: this.consecutiveFaults, ...(voidedThrow !== undefined ? { voidedThrow } : {}) });
    const max = this.plan.stopping.maxConsecutiveFaults;
    if (this.consecutiveFaults >= max) {
      return new Stop('aborted', 'faults', `The rig faulted ${this.consecutiveFaults} times in a row (the last: ${e.message}); stopped so a person can look at it. Resume with --resume after fixing it.`);
    }
    if (!(e instanceof RigFaultError) && !(e instanceof RigTimeoutError)) {
      // A link that could not be re-established (RigConnectError) or a closed driver: nothing to retry.
      return new Stop('aborted', 'rig-lost', `The rig is gone: ${e.message} Resume with --resume once it is back.`);
    }
    return undefined;
  }

  /** Brings the rig back after a fault: the light (a reset turns it off) and the tumbler home (a board still busy is waited out). */
  private async recover(): Promise<Stop | undefined> {
    for (;;) {
      try {
        if (this.plan.light !== undefined) await this.deps.rig.setLight(this.plan.light);
        await waitOutBusy(() => this.deps.rig.home(), this.deps.clock);
        const at = this.now();
        this.deps.store.recordEvent(this.plan.sessionId, { at, kind: 'recovered', detail: { reconnects: this.deps.rig.linkStats().reconnects } });
        this.emit({ type: 'recovered', at, message: 'The rig answered again; light restored and tumbler homed.' });
        return undefined;
      } catch (e) {
        const stop = this.fault(e, undefined);
        if (stop) return stop;
      }
    }
  }

  private now(): number {
    return this.deps.timeOrigin + this.deps.clock.now();
  }

  /** An event, or (for the throw events) how to build it: the dice statuses cost each undecided die a projection, built only for an `onEvent` listener. */
  private emit(event: SessionEvent | (() => SessionEvent)): void {
    try {
      this.deps.onStored?.();
      if (this.deps.onEvent !== undefined) this.deps.onEvent(typeof event === 'function' ? event() : event);
    } catch {
      // A display that fails must not stop the rig.
    }
  }

  private statuses(): ReturnType<MonitorSet['statuses']> {
    return this.monitors.statuses(this.rigSuspect);
  }

  /** A throw event, its dice worked out now or, with `diceOnDemand`, when first read (`diceOnDemand.ts`). */
  private emitThrowEvent(build: (dice: DieStatus[]) => Extract<SessionEvent, { type: 'throw' }>): void {
    const rigSuspect = this.rigSuspect; // as of this throw (a rig check after it may set it)
    this.emit(() => (this.deps.diceOnDemand === true ? withDiceOnDemand(build([]), () => this.monitors.statuses(rigSuspect), () => this.lastIndex) : build(this.statuses())));
  }

  private totalsNow(): ThrowTotals {
    return this.totals.snapshot();
  }

  private runClock(): RunClock {
    return this.totals.runClock(this.deps.timeOrigin, this.deps.clock.now(), this.plan.stopping.budgetHours !== undefined);
  }
}
