/**
 * One throw on demand, for rolling on stream: the rig idles until a roll is
 * asked for, then tumbles once, waits for the dice to be still and reads only
 * the channels the roll needs. Which channels are read is fixed before the
 * tumble, so reading a subset never biases what is stored.
 *
 * The same rules as the fairness loop: a cocked or extra die makes the throw
 * `rerolled` (stored with its problems), a die unreadable or not found is kept
 * as an unresolved roll, and either way the rig tumbles again for the viewer's
 * answer; a fault stores a `void` throw and the rig is brought back.
 * Every throw goes into the roll store (a session of kind `stream`), so the
 * dice rolled on stream add to their fairness record.
 */
import type { Clock } from '../core/clock.js';
import type { MotionResult, RigDriver } from '../rig/driver.js';
import { RigConnectError, RigError, RigFaultError } from '../rig/errors.js';
import { ThrowCommitter } from './throwCommitter.js';
import type { RollStore } from '../store/rollStore.js';
import type { RgbImage } from '../core/image.js';
import type { FrameReading } from '../vision/pipeline.js';
import { SettleDetector, defaultSettleOptions } from '../vision/settle.js';
import type { EvidenceSink, SavedEvidence } from './evidence.js';
import { watchUntilStill, type SettleRule } from './settleWatch.js';
import { CameraRecovery } from './cameraRecovery.js';
import type { SessionDie } from './sessionDie.js';
import type { ThrowCamera } from './throwCamera.js';
import { MissingStreak, missingDieMessage } from './missingStreak.js';
import { UnreadStreak } from './unreadStreak.js';
import { isJoined, judgeThrow, notSettledOutcome, type ProblemKind, type RollReading, type ThrowOutcome } from './throwOutcome.js';
import type { DeclineCause } from '../vision/faceRead.js';

export interface StreamRollerDeps {
  readonly rig: RigDriver;
  readonly camera: ThrowCamera;
  readonly readThrow: (image: RgbImage) => FrameReading;
  readonly store: RollStore;
  readonly clock: Clock;
  /** Epoch milliseconds at session-clock time 0. */
  readonly timeOrigin: number;
  /** Where each read die's crop is kept (every roll asked on stream links its evidence). */
  readonly evidence?: EvidenceSink;
}

export interface StreamPlan {
  /** The stream session the throws are stored in. */
  readonly sessionId: number;
  /** One die per channel. */
  readonly dice: readonly SessionDie[];
  readonly settle: SettleRule;
  readonly light?: number;
  /** Tumbles (re-tumbles and faults included) before a throw gives up. Default 12. */
  readonly maxAttempts?: number;
  /** Throws in a row a die may be missing from its channel before rolling gives up (`missingStreak.ts`). Default 3. */
  readonly maxConsecutiveMissing?: number;
  /** Throws in a row with no die read before rolling gives up: the session's rule (`unreadStreak.ts`). Default 25. */
  readonly maxConsecutiveUnread?: number;
}

/** One die as read by a stream throw. */
export interface StreamRead {
  readonly channel: number;
  readonly label: string;
  readonly type: string;
  readonly faceId?: string;
  readonly symbol: string;
  readonly confidence: number;
  readonly crop: RgbImage;
  readonly evidence?: SavedEvidence;
}

export interface StreamThrow {
  /** Index of the stored `ok` throw in the stream session. */
  readonly index: number;
  readonly reads: readonly StreamRead[];
  /** Tumbles it took (1 when nothing was re-tumbled). */
  readonly attempts: number;
}

/** Why a stream throw was tumbled again: a die cocked or unreadable (`rerolled`) or a rig fault (`void`). */
export interface StreamRetumble {
  readonly index: number;
  readonly status: 'rerolled' | 'void';
  readonly reason: string;
  /** The throw's problems as data (none for a `void` throw), for those who word them their own way (the overlay). */
  readonly problems: readonly { readonly kind: ProblemKind; readonly channel?: number; readonly cause?: DeclineCause }[];
}

export class StreamThrowError extends Error {
  constructor(
    message: string,
    readonly sessionId: number,
    /**
     * The stored throw that ended rolling, when one did (a die missing, or no die read, in too many throws in a row):
     * it did not count and is not tumbled again, so no `onRetumble` named it; a failed roll's answer names it from here.
     */
    readonly endedBy?: StreamRetumble,
  ) {
    super(message);
    this.name = 'StreamThrowError';
  }
}

/** A throw given up before its re-tumble because rolling is stopping (the throws already made stay stored). */
export class StreamStoppedError extends StreamThrowError {
  constructor(sessionId: number) {
    super('stopped before re-tumbling: rolling is stopping', sessionId);
    this.name = 'StreamStoppedError';
  }
}

/** No die was read in too many throws in a row (`unreadStreak.ts`): tumbling on reads nothing. The message says what the reader said. */
export class StreamUnreadError extends StreamThrowError {
  constructor(message: string, sessionId: number, endedBy?: StreamRetumble) {
    super(message, sessionId, endedBy);
    this.name = 'StreamUnreadError';
  }
}

/** The link to the rig is gone: the throw was not started and nothing was stored; `cause` is the driver's own account. */
export class StreamRigLostError extends StreamThrowError {
  constructor(
    readonly rigError: RigConnectError,
    sessionId: number,
  ) {
    super(`the rig is disconnected, so nothing was thrown or stored: ${rigError.message}`, sessionId);
    this.name = 'StreamRigLostError';
  }
}

export class StreamRoller {
  private readonly detector: SettleDetector;
  private prepared = false;
  /** Across requests: a die gone from the rig stops each request at once instead of adding unresolved rolls. */
  private readonly missing = new MissingStreak();
  /** Across requests too: a reader that reads nothing stops rolling, as it stops a session. */
  private readonly unread = new UnreadStreak();
  private readonly committer: ThrowCommitter;
  private readonly cameras: CameraRecovery;

  constructor(
    private readonly deps: StreamRollerDeps,
    private readonly plan: StreamPlan,
  ) {
    this.committer = new ThrowCommitter(deps.store, plan.sessionId);
    this.cameras = new CameraRecovery({ camera: deps.camera, clock: deps.clock, rule: plan.settle });
    this.detector = new SettleDetector(plan.settle.mode === 'detect' ? (plan.settle.detector ?? defaultSettleOptions) : defaultSettleOptions);
  }

  get sessionId(): number {
    return this.plan.sessionId;
  }

  /** Channels loaded with each die type id. */
  channelsByType(): Map<string, number[]> {
    const byType = new Map<string, number[]>();
    for (const d of this.plan.dice) byType.set(d.type.id, [...(byType.get(d.type.id) ?? []), d.channel]);
    return byType;
  }

  private now(): number {
    return this.deps.timeOrigin + this.deps.clock.now();
  }

  /**
   * Tumbles until the dice in `channels` are all read flat, storing every throw; calls `onRetumble` for each throw
   * that did not count. When `stopping` says so before a re-tumble, gives up with a StreamStoppedError instead.
   */
  async throwFor(channels: readonly number[], onRetumble: (r: StreamRetumble) => void = () => undefined, stopping: () => boolean = () => false): Promise<StreamThrow> {
    const dice = this.plan.dice.filter((d) => channels.includes(d.channel));
    if (dice.length !== new Set(channels).size) throw new StreamThrowError(`channels ${channels.join(', ')} are not all loaded`, this.plan.sessionId);
    const max = this.plan.maxAttempts ?? 12;
    let last = '';
    for (let attempt = 1; attempt <= max; attempt++) {
      if (attempt > 1 && stopping()) throw new StreamStoppedError(this.plan.sessionId);
      const startedAt = this.now();
      let motion: MotionResult;
      try {
        if (!this.prepared) {
          await this.bringBack();
          this.prepared = true;
        }
        motion = await this.deps.rig.tumble();
      } catch (e) {
        if (!(e instanceof RigError)) throw e;
        this.prepared = false;
        // A link that is gone (not reconnected, or given up) sent nothing: no die moved, so nothing is stored, and
        // tumbling again cannot help until the rig is connected again.
        if (e instanceof RigConnectError) throw new StreamRigLostError(e, this.plan.sessionId);
        last = e.message;
        const moved = !(e instanceof RigFaultError && !e.interrupted);
        if (moved) {
          const index = this.storeVoid(startedAt, e.message);
          onRetumble({ index, status: 'void', reason: e.message, problems: [] });
        }
        continue;
      }
      const seen = await watchUntilStill({ camera: this.deps.camera, clock: this.deps.clock, rule: this.plan.settle, detector: this.detector }, this.deps.clock.now(), motion);
      if ('ended' in seen) throw new StreamThrowError(`no throw can be read: ${seen.ended.message}`, this.plan.sessionId);
      if ('fault' in seen) {
        // Void (the dice moved unread), then the camera opened again once before the next tumble (`cameraRecovery.ts`).
        last = seen.fault.message;
        const index = this.storeVoid(startedAt, last);
        onRetumble({ index, status: 'void', reason: last, problems: [] });
        await this.cameras.pauseAfterFault();
        const comeback = await this.cameras.reopen(seen.fault);
        if (!comeback.back) throw new StreamThrowError(comeback.reason, this.plan.sessionId);
        continue;
      }
      this.cameras.delivered();
      if ('frames' in seen) await seen.frames.return?.();
      const outcome: ThrowOutcome = 'frame' in seen ? judgeThrow(this.deps.readThrow(seen.frame.image), dice) : notSettledOutcome(seen.reason);
      const evidence = await this.saveEvidence(outcome);
      // Stored as the fairness loop stores a throw (the problems' details too).
      const { index } = this.committer.commit(startedAt, Math.max(startedAt, this.now()), outcome, evidence);
      this.missing.add(outcome);
      this.unread.add(outcome);
      // A declined die, or one not found in its channel, stays stored as an unresolved roll (the fairness record
      // keeps it for review), but a viewer needs a face: the throw is tumbled again for the game's answer.
      const declined = outcome.rolls.filter((r) => r.unresolved === true);
      const counted = outcome.status === 'ok' && declined.length === 0;
      // The throw that ends rolling is stored and did not count either: named with the error, as a re-tumbled one is named.
      const notCounted = counted ? undefined : this.notCounted(index, outcome, declined);
      const gone = this.missing.longest(this.plan.maxConsecutiveMissing ?? 3);
      if (gone !== undefined) throw new StreamThrowError(missingDieMessage(gone), this.plan.sessionId, notCounted);
      const unread = this.unread.finding(this.plan.maxConsecutiveUnread ?? 25);
      if (unread !== undefined) throw new StreamUnreadError(unread, this.plan.sessionId, notCounted);
      if (notCounted === undefined) {
        const reads = outcome.rolls.map((r): StreamRead => {
          const ev = evidence.get(r);
          return {
            channel: r.die.channel,
            label: r.die.record.label,
            type: r.die.type.id,
            ...(r.faceId !== undefined ? { faceId: r.faceId } : {}),
            symbol: r.symbol ?? '',
            confidence: r.confidence,
            crop: r.crop,
            ...(ev ? { evidence: ev } : {}),
          };
        });
        return { index, reads, attempts: attempt };
      }
      last = notCounted.reason;
      onRetumble(notCounted);
    }
    throw new StreamThrowError(`no readable throw in ${max} tumbles; the last: ${last}`, this.plan.sessionId);
  }

  /** A stored throw that did not count (a die cocked, declined or not found), as a re-tumble names it: why, and its problems as data. */
  private notCounted(index: number, outcome: ThrowOutcome, declined: readonly RollReading[]): StreamRetumble {
    const why = (r: RollReading): string => {
      const p = outcome.problems.find((q) => q.die === r.die && (q.kind === 'missing' || q.kind === 'unreadable'));
      if (p?.kind === 'missing') return 'not found';
      return p !== undefined && isJoined(p) ? 'joined by its hard shadow' : 'declined by the reader';
    };
    const told = declined.map((r) => `${r.die.record.label} (channel ${r.die.channel}) ${why(r)}`);
    const reason = outcome.status === 'ok' ? `${told.join(', ')}; kept unresolved for review` : (outcome.why ?? 'rerolled');
    return { index, status: 'rerolled', reason, problems: outcome.problems.map((p) => ({ kind: p.kind, ...(p.channel !== undefined ? { channel: p.channel } : {}), ...(p.cause !== undefined ? { cause: p.cause } : {}) })) };
  }

  /** Light on and tumbler home (at the start and after a fault). */
  private async bringBack(): Promise<void> {
    if (this.plan.light !== undefined) await this.deps.rig.setLight(this.plan.light);
    await this.deps.rig.home();
  }

  /** Every read die's crop (a roll asked on stream links its evidence), and each problem's. */
  private async saveEvidence(outcome: ThrowOutcome): Promise<Map<object, SavedEvidence>> {
    const saved = new Map<object, SavedEvidence>();
    const sink = this.deps.evidence;
    if (sink === undefined) return saved;
    const index = this.deps.store.lastThrowIndex(this.plan.sessionId) + 1;
    for (const r of outcome.rolls) saved.set(r, await sink.save(r.crop, `t${index}-c${r.die.channel}`));
    for (const [i, p] of outcome.problems.entries()) {
      if (p.crop !== undefined) saved.set(p, await sink.save(p.crop, `t${index}-${p.channel !== undefined ? `c${p.channel}` : `x${i}`}-${p.kind}`));
    }
    return saved;
  }

  /** Stores a throw a fault interrupted (the dice may have moved): void, with the fault as its event; its index. */
  private storeVoid(startedAt: number, why: string): number {
    const endedAt = Math.max(startedAt, this.now());
    return this.deps.store.atomically(() => {
      const index = this.committer.commitVoid(startedAt, endedAt, why);
      this.deps.store.recordEvent(this.plan.sessionId, { at: endedAt, kind: 'fault', throwIndex: index, detail: { message: why } });
      return index;
    });
  }
}
