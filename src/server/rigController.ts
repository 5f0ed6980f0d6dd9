/**
 * The one owner of the rig while the server runs. Two modes share it, never
 * at once: a fairness run (the session loop, watched live) and stream rolling
 * (the rig idles until a roll is asked for, then throws on demand). Every
 * throw in either mode goes into the roll store: the fairness session, or a
 * session of kind `stream`.
 *
 * It listens to the session by wrapping the parts it injects (the rig's
 * tumble, the vision pipeline) and by the session's own events, so the loop
 * itself knows nothing of the server.
 */
import { randomBytes } from 'node:crypto';
import type { RgbImage } from '../core/image.js';
import type { FrameReading } from '../vision/pipeline.js';
import type { RigDriver } from '../rig/driver.js';
import type { SessionEvent } from '../session/events.js';
import { runSession, type RunnerPlan } from '../session/runner.js';
import { runnerDeps, type OpenedSession } from '../session/setup.js';
import { StreamRigLostError, StreamRoller, StreamStoppedError, StreamThrowError, StreamUnreadError, type StreamRetumble } from '../session/streamRoller.js';
import { FairnessView } from './live/fairnessView.js';
import { LiveFrames, type LiveFrame, type Mode, type ThrowContext } from './live/liveFrames.js';
import type { LiveHub } from './live/hub.js';
import { watchedRig } from './live/watchedRig.js';
import { retumbleCodes } from './live/retumbleCode.js';
import { fairnessLiveEvents } from './live/fairnessEvents.js';
import { abandonedLine, RollAbandonedError, SERVER_STOPPING, type RollJob, type RollView } from './queue/rollJob.js';
import { findKeptRoll, rollRecord, STREAM_ROLL_EVENT, type KeptRoll } from './queue/rollRecords.js';
import { RollQueue } from './queue/rollQueue.js';
import { rollView } from './queue/rollView.js';
import { planThrows, refusal } from './rolls/channelPlan.js';
import { asKind, type DieKind, type RolledDie } from './rolls/dieKinds.js';
import { diceNeeded, performRoll } from './rolls/procedure.js';
import { awaitDice, readDie } from './queue/partialDice.js';
import { RigLink } from './rigLink.js';
import { ServeStopError } from './serveStopError.js';
import { storeFailure } from '../store/openStore.js';
import type { RollSpec } from './rolls/request.js';

export type { LiveFrame, Mode } from './live/liveFrames.js';
export { RollAbandonedError, SERVER_STOPPING, type EvidenceFrame, type RollJob, type RollView } from './queue/rollJob.js';

export interface RigControllerOptions {
  readonly opened: OpenedSession;
  readonly hub: LiveHub;
  /** Epoch milliseconds (Date.now). */
  readonly now: () => number;
  /** Host time for the fairness loop's own cost per throw (CPU time by default in serve). */
  readonly stopwatch?: () => number;
  readonly mode?: Mode;
  /** Most requests one client may have waiting. */
  readonly maxWaitingPerClient?: number;
  /** Most requests one chat user (by name) may have waiting: all of chat shares its token, so one client. */
  readonly maxWaitingPerChatUser?: number;
  readonly log?: (line: string) => void;
  /** The name of a session serve begins after its first (unique in the store; serveSessionName.ts). */
  readonly sessionName?: (kind: 'fairness' | 'stream') => string;
}

const KEEP_ROLLS = 200;
const HISTORY = 10;

export class RigController {
  mode: Mode;
  private readonly opened: OpenedSession;
  private readonly hub: LiveHub;
  readonly fairness: FairnessView;
  private fairnessSessionId: number;
  private fairnessEnded = false;
  private fairnessRun: { controller: AbortController; done: Promise<void>; stop: 'pause' | 'stop' | undefined } | undefined;
  private streamSessionId: number | undefined;
  private roller: StreamRoller | undefined;
  private streamPaused = false;
  /** Why stream rolling stopped by itself (no die read in too many throws), until it is started again. */
  private streamStopped: string | undefined;
  private busy: Promise<void> | undefined;
  readonly queue = new RollQueue<RollJob>();
  private readonly rolls = new Map<string, RollJob>();
  private readonly liveFrames: LiveFrames;
  private current: ThrowContext = { mode: 'fairness', counted: [] };
  private readonly rig: RigDriver;
  private readonly readThrow: (image: RgbImage) => FrameReading;
  private readonly link: RigLink;
  private closed = false;
  private closing: Promise<RollJob[]> | undefined;
  /** Host ms per fairness throw of the last run (the session's own measure). */
  lastHostMsPerThrow: readonly number[] = [];

  constructor(private readonly options: RigControllerOptions) {
    this.opened = options.opened;
    this.hub = options.hub;
    this.mode = options.mode ?? 'stream';
    this.fairnessSessionId = options.opened.session.id;
    // Keyed as the session counts them (and its statuses' tallies are): face ids of pip dice, symbols of X-Wing dice.
    const bySymbol = new Set(options.opened.plan.dice.filter((d) => d.level === 'symbol').map((d) => d.record.label));
    const counted = new Map<string, string[]>();
    for (const s of options.opened.store.dieRolls(this.fairnessSessionId)) {
      counted.set(s.die.label, s.symbols.map((sym, i) => (bySymbol.has(s.die.label) ? sym : s.faces[i] ?? sym) ?? ''));
    }
    this.fairness = new FairnessView(
      this.fairnessSessionId,
      options.opened.plan.dice.map((d) => ({ label: d.record.label, type: d.type.id, channel: d.channel, level: d.level })),
      counted,
      options.opened.config.stopping.alpha,
    );
    this.rig = watchedRig(options.opened.rig, () =>
      this.hub.publish({ type: 'throw-started', at: this.options.now(), mode: this.current.mode, ...(this.current.rollId ? { rollId: this.current.rollId } : {}), counted: this.current.counted }),
    );
    this.liveFrames = new LiveFrames(this.hub, options.opened.plan.dice, options.now);
    this.readThrow = (image) => {
      const reading = options.opened.readThrow(image);
      this.liveFrames.read(image, reading, this.current);
      return reading;
    };
    this.link = new RigLink({
      rig: options.opened.rig,
      rigId: options.opened.identity.rigId,
      now: options.now,
      log: (line) => options.log?.(line),
      onFault: (f) => this.hub.publish({ type: 'rig', state: 'fault', message: f.message, kind: f.kind, at: this.options.now() }),
      changed: () => this.hub.publish({ type: 'rig', at: this.options.now(), ...this.rigHealth() }),
    });
  }

  // ---- what the rig is doing -------------------------------------------------

  /** A kept frame (for its picture), if still kept. */
  frame(id: number): LiveFrame | undefined {
    return this.liveFrames.get(id);
  }

  // ---- modes and runs --------------------------------------------------------

  /** Switches mode: a fairness run in progress stops after its current throw (resumable). */
  async setMode(mode: Mode): Promise<void> {
    if (mode === this.mode) return;
    if (mode === 'stream' && this.fairnessRun) await this.stopFairness('pause');
    if (mode === 'fairness') await this.busy;
    this.mode = mode;
    this.publishMode();
    if (mode === 'stream') this.pump();
  }

  /** Start (or resume) the current mode. */
  async start(): Promise<void> {
    // Start connects a lost rig again; a fairness run does not start on a rig still gone (health and console say why).
    const linked = await this.link.ensure().then(() => true, () => false);
    if (this.mode === 'stream') {
      this.streamPaused = false;
      this.streamStopped = undefined;
      this.publishMode();
      this.pump();
      return;
    }
    if (this.fairnessRun || !linked) return;
    await this.busy;
    this.startFairness();
  }

  /** Pause: a fairness run stops after its current throw and can be resumed; stream rolling holds the queue. */
  async pause(): Promise<void> {
    if (this.mode === 'stream') {
      this.streamPaused = true;
      this.publishMode();
      return;
    }
    await this.stopFairness('pause');
  }

  /** Stop: a fairness run ends (the next start begins a new session); stream rolling cancels what is waiting. */
  async stop(): Promise<void> {
    if (this.mode === 'stream') {
      this.streamPaused = true;
      for (const q of this.queue.clear()) this.finish(q.item, 'cancelled', 'cancelled: stream rolling was stopped');
      this.publishQueue();
      this.publishMode();
      return;
    }
    await this.stopFairness('stop');
    this.fairnessEnded = true;
  }

  private publishMode(): void {
    this.hub.publish({ type: 'mode', ...this.modeState() });
  }

  modeState(): Record<string, unknown> {
    return {
      mode: this.mode,
      run: this.mode === 'fairness' ? this.fairness.run : this.streamStopped !== undefined ? 'stopped' : this.streamPaused ? 'paused' : 'ready',
      ...(this.mode === 'stream' && this.streamStopped !== undefined ? { stopped: this.streamStopped } : {}),
      fairnessSession: this.fairnessSessionId,
      ...(this.streamSessionId !== undefined ? { streamSession: this.streamSessionId } : {}),
    };
  }

  private startFairness(): void {
    const { store } = this.opened;
    const at = this.options.now();
    let resumed = store.lastThrowIndex(this.fairnessSessionId) > 0;
    const session = store.getSession(this.fairnessSessionId);
    if (this.fairnessEnded || session?.state === 'finished') {
      const fresh = store.createSession({ ...(this.options.sessionName ? { name: this.options.sessionName('fairness') } : {}), config: this.opened.config, simulated: this.opened.simulated, ...(this.opened.session.rigId !== null ? { rigId: this.opened.session.rigId } : {}), startedAt: at });
      this.fairnessSessionId = fresh.id;
      this.fairnessEnded = false;
      resumed = false;
      for (const d of this.fairness.dice) {
        for (const k of Object.keys(d.tally)) delete d.tally[k];
        Object.assign(d, { rolls: 0, logE: 0, trace: [], state: 'INCONCLUSIVE', decided: false });
        delete d.sentence;
      }
    } else if (session?.state !== 'running') {
      store.resumeSession(this.fairnessSessionId, at);
    }
    const plan: RunnerPlan = { ...this.opened.plan, sessionId: this.fairnessSessionId, resumed };
    const controller = new AbortController();
    this.current = { mode: 'fairness', counted: this.opened.plan.dice.map((d) => d.channel) };
    const evidence = this.opened.evidenceFor?.(this.fairnessSessionId);
    const deps = runnerDeps(
      { ...this.opened, rig: this.rig, readThrow: this.readThrow, ...(evidence ? { evidence } : {}) },
      {
        onEvent: (e) => this.onSessionEvent(e),
        signal: controller.signal,
        ...(this.options.stopwatch ? { stopwatch: this.options.stopwatch } : {}),
      },
    );
    const run = { controller, stop: undefined as 'pause' | 'stop' | undefined, done: Promise.resolve() };
    run.done = runSession(deps, plan)
      .then((result) => {
        this.lastHostMsPerThrow = result.hostMsPerThrow;
        if (run.stop === 'pause') this.fairness.run = 'paused';
      })
      .catch((e: unknown) => {
        this.fairness.run = 'aborted';
        this.fairness.reason = (e as Error).message;
        this.options.log?.(`fairness run failed: ${(e as Error).message}`);
      })
      .finally(() => {
        this.fairnessRun = undefined;
        this.publishMode();
        this.busy = undefined;
      });
    this.fairnessRun = run;
    this.busy = run.done;
    this.fairness.run = 'running';
    this.publishMode();
  }

  private async stopFairness(how: 'pause' | 'stop'): Promise<void> {
    const run = this.fairnessRun;
    if (!run) {
      if (how === 'stop') this.fairnessEnded = true;
      return;
    }
    run.stop = how;
    run.controller.abort();
    this.fairness.run = 'stopping';
    this.publishMode();
    await run.done;
  }

  private onSessionEvent(e: SessionEvent): void {
    this.fairness.onEvent(e);
    const now = this.options.now();
    for (const live of fairnessLiveEvents(e, this.fairness.dice, now)) this.hub.publish(live);
    switch (e.type) {
      case 'fault':
        // The run stops on a link that could not be made again (`runner.ts`): rolls and Start then reconnect.
        if (e.kind === 'link') this.link.lost(e.message);
        this.hub.publish({ type: 'rig', at: now, ...this.rigHealth() });
        break;
      case 'recovered':
        this.hub.publish({ type: 'rig', at: now, ...this.rigHealth() });
        break;
      case 'started':
      case 'stopped':
        this.publishMode();
        if (e.type === 'stopped') this.hub.publish({ type: 'run-ended', at: now, state: e.state, reason: e.reason });
        break;
    }
  }

  rigHealth(): Record<string, unknown> {
    const link = this.opened.rig.linkStats();
    return {
      ...this.fairness.rig,
      rig: this.opened.identity.rigId,
      driver: this.opened.identity.driver,
      firmware: this.opened.identity.firmware,
      simulated: this.opened.simulated,
      ...this.link.health(),
      link: { commands: link.commands, retransmits: link.retransmits, timeouts: link.timeouts, reconnects: link.reconnects, crcFailures: link.crcFailures },
    };
  }

  // ---- stream rolling ----------------------------------------------------------

  /** Loaded die type of each channel. */
  channelTypes(): string[] {
    return this.opened.plan.dice.map((d) => d.type.id);
  }

  /** Why this request cannot be rolled with the loaded dice (undefined when it can). */
  refuse(spec: RollSpec): string | undefined {
    return refusal(diceNeeded(spec).keys(), this.channelTypes());
  }

  /** Queues a roll. */
  submit(spec: RollSpec, client: string, text: string): RollJob {
    let resolve = (): void => undefined;
    const done = new Promise<void>((r) => (resolve = r));
    const job: RollJob = {
      id: randomBytes(5).toString('hex'),
      client,
      spec,
      text,
      ...(spec.by !== undefined ? { by: spec.by } : {}),
      state: 'queued',
      createdAt: this.options.now(),
      throws: [],
      retumbled: [],
      evidence: [],
      partial: [],
      done,
      resolve,
    };
    this.rolls.set(job.id, job);
    if (this.rolls.size > KEEP_ROLLS) {
      for (const [id, j] of this.rolls) {
        if (this.rolls.size <= KEEP_ROLLS) break;
        if (j.state !== 'queued' && j.state !== 'rolling') this.rolls.delete(id);
      }
    }
    this.queue.push({ id: job.id, client, item: job });
    this.publishQueue();
    this.hub.publish({ type: 'roll', roll: this.view(job) });
    this.pump();
    return job;
  }

  waitingFor(client: string): number {
    return this.queue.waitingFor(client);
  }

  /** How many requests this client has waiting asked by `by` (a chat user's name; undefined: asked by no name). */
  waitingAskedBy(client: string, by: string | undefined): number {
    // Chat names differ only in case on the chat services.
    const name = by?.toLowerCase();
    return this.queue.list().filter((q) => q.client === client && q.item.by?.toLowerCase() === name).length;
  }

  get maxWaitingPerChatUser(): number {
    return this.options.maxWaitingPerChatUser ?? 3;
  }

  get maxWaitingPerClient(): number {
    return this.options.maxWaitingPerClient ?? 20;
  }

  roll(id: string): RollJob | undefined {
    return this.rolls.get(id);
  }

  cancel(id: string): boolean {
    const job = this.rolls.get(id);
    if (!job || !this.queue.remove(id)) return false;
    this.finish(job, 'cancelled', 'cancelled by the client');
    this.publishQueue();
    return true;
  }

  private publishQueue(): void {
    this.hub.publish({ type: 'queue', queue: this.queueView() });
  }

  queueView(): { id: string; request: string; by?: string; place: number }[] {
    return this.queue.list().map((q, i) => ({ id: q.id, request: q.item.text, ...(q.item.by !== undefined ? { by: q.item.by } : {}), place: i + 1 }));
  }

  /** Takes the next request when the rig is free and stream rolling is on. */
  private pump(): void {
    if (this.closed || this.mode !== 'stream' || this.streamPaused || this.busy !== undefined) return;
    const next = this.queue.shift();
    if (!next) return;
    this.publishQueue();
    this.busy = this.runJob(next.item).finally(() => {
      this.busy = undefined;
      this.pump();
    });
  }

  private streamRoller(): StreamRoller {
    if (this.roller) return this.roller;
    const { store, config, simulated, session } = this.opened;
    const stream = store.createSession({ ...(this.options.sessionName ? { name: this.options.sessionName('stream') } : {}), kind: 'stream', config, simulated, ...(session.rigId !== null ? { rigId: session.rigId } : {}), startedAt: this.options.now() });
    this.streamSessionId = stream.id;
    const evidence = this.opened.evidenceFor?.(stream.id);
    this.roller = new StreamRoller(
      { rig: this.rig, camera: this.opened.camera, readThrow: this.readThrow, store, clock: this.opened.clock, timeOrigin: this.opened.timeOrigin, ...(evidence ? { evidence } : {}) },
      {
        sessionId: stream.id,
        dice: this.opened.plan.dice,
        settle: this.opened.plan.settle,
        maxConsecutiveMissing: this.opened.plan.stopping.maxConsecutiveMissing,
        ...(this.opened.plan.stopping.maxConsecutiveUnread !== undefined ? { maxConsecutiveUnread: this.opened.plan.stopping.maxConsecutiveUnread } : {}),
        ...(this.opened.plan.light !== undefined ? { light: this.opened.plan.light } : {}),
      },
    );
    this.publishMode();
    return this.roller;
  }

  private async runJob(job: RollJob): Promise<void> {
    job.state = 'rolling';
    job.startedAt = this.options.now();
    this.hub.publish({ type: 'roll', roll: this.view(job) });
    const types = this.channelTypes();
    try {
      await this.link.ensure();
      const roller = this.streamRoller();
      const rollDice = async (kinds: readonly DieKind[], why: string, replaces?: readonly number[]): Promise<RolledDie[]> => {
        const out: RolledDie[] = [];
        const plans = planThrows(kinds, types);
        // Each die is shown pending, in the order asked (a reroll in its die's place), before it is thrown (partialDice.ts).
        const places = replaces ?? kinds.map((_, i) => job.partial.length + i);
        const was = awaitDice(job.partial, plans, places, this.opened.plan.dice.map((d) => ({ label: d.record.label, type: d.type.id })), kinds);
        this.hub.publish({ type: 'roll', roll: this.view(job) });
        for (const plan of plans) {
          const channels = plan.slots.map((s) => s.channel);
          // Checked before each throw, so a stop lets the throw under way finish and be stored, and starts no other.
          if (this.closed) throw new RollAbandonedError(job.id);
          this.current = { mode: 'stream', rollId: job.id, counted: channels, kinds: new Map(plan.slots.map((s) => [s.channel, kinds[s.index] as DieKind])) };
          const thrown = await roller.throwFor(
            channels,
            (r: StreamRetumble) => {
              job.retumbled.push({ index: r.index, status: r.status, reason: r.reason });
              this.hub.publish({ type: 'retumble', mode: 'stream', at: this.options.now(), rollId: job.id, index: r.index, status: r.status, reason: r.reason, ...retumbleCodes(r.status, r.problems) });
            },
            () => this.closed,
          );
          job.throws.push(thrown.index);
          for (const s of plan.slots) {
            const read = thrown.reads.find((r) => r.channel === s.channel);
            if (read === undefined) throw new Error(`channel ${s.channel} was not read`);
            const n = job.evidence.push({ throwIndex: thrown.index, channel: read.channel, label: read.label, crop: read.crop, ...(read.evidence ? { path: read.evidence.path, hash: read.evidence.hash } : {}) });
            const die = { ...asKind(kinds[s.index] as DieKind, read), ref: String(n - 1) };
            out[s.index] = die;
            readDie(job.partial, places[s.index] as number, read, die, was[s.index]);
          }
          this.hub.publish({ type: 'throw', mode: 'stream', at: this.options.now(), rollId: job.id, index: thrown.index, status: 'ok', why, reads: thrown.reads.map((r) => ({ channel: r.channel, label: r.label, symbol: r.symbol, faceId: r.faceId ?? null })) });
          this.hub.publish({ type: 'roll', roll: this.view(job) });
        }
        return out;
      };
      job.outcome = await performRoll(job.spec, rollDice);
      this.finish(job, 'done');
    } catch (e) {
      // The stored throw that ended rolling (a die missing, or none read, too often) did not count either: named as the re-tumbled ones are.
      if (e instanceof StreamThrowError && e.endedBy !== undefined) job.retumbled.push({ index: e.endedBy.index, status: e.endedBy.status, reason: e.endedBy.reason });
      if (e instanceof StreamRigLostError) this.link.lost(e.rigError.message);
      if (e instanceof RollAbandonedError || e instanceof StreamStoppedError) this.finish(job, 'abandoned', new RollAbandonedError(job.id).message);
      else if (e instanceof StreamUnreadError) this.stopUnread(job, e.message);
      else this.finish(job, 'failed', e instanceof StreamRigLostError ? (this.link.failure() ?? e.message) : this.storeMessage(e));
    } finally {
      this.current = { mode: this.mode, counted: [] };
    }
  }

  /**
   * No die read in too many throws in a row (the session's rule): tumbling on would read nothing, so stream rolling
   * stops as a session does, holding the queue, until the streamer has looked at the camera and starts it again.
   */
  private stopUnread(job: RollJob, finding: string): void {
    const reason = `${finding} Stream rolling stopped: check the calibration (one made for this camera, light and die size) and the camera, then press Start on the dashboard (POST /api/run {"action": "start"}).`;
    this.streamPaused = true;
    this.streamStopped = reason;
    this.finish(job, 'failed', reason);
    this.publishMode();
    this.hub.publish({ type: 'run-ended', mode: 'stream', at: this.options.now(), state: 'stopped', reason });
  }

  private finish(job: RollJob, state: 'done' | 'failed' | 'cancelled' | 'abandoned', error?: string): void {
    job.state = state;
    job.doneAt = this.options.now();
    if (error !== undefined) job.error = error;
    this.hub.publish({ type: 'roll', roll: this.view(job) });
    this.keep(job);
    job.resolve();
  }

  /** Keeps the finished roll's answer in the stream session's chain (rollRecords.ts); a roll that never reached the rig has no session. */
  private keep(job: RollJob): void {
    if (this.streamSessionId === undefined) return;
    try {
      this.opened.store.recordEvent(this.streamSessionId, { at: this.options.now(), kind: STREAM_ROLL_EVENT, detail: rollRecord(this.view(job), job) });
    } catch (e) {
      // The throws are stored already; only the answer's record is missing, and the console says so.
      this.options.log?.(`The answer to roll ${job.id} (${job.state}) could not be kept in the roll store: ${this.storeMessage(e)}`);
    }
  }

  /** An error's message, a full disk's (raw ENOSPC or SQLITE_FULL) naming the store's disk and its free space. */
  private storeMessage(e: unknown): string {
    const f = storeFailure(e, this.opened.store.path, true);
    return f instanceof Error ? f.message : String(f);
  }

  /** A roll no longer held in memory (older, or from before a restart), as the roll store keeps it. */
  keptRoll(id: string): KeptRoll | undefined {
    return findKeptRoll(this.opened.store, id);
  }

  view(job: RollJob): RollView {
    return rollView(job, job.state === 'queued' ? this.queue.placeOf(job.id) : undefined, this.streamSessionId);
  }

  /** This server's finished rolls, newest first (a page reconnecting after a restart starts empty, not with an old roll). */
  history(): RollView[] {
    return [...this.rolls.values()]
      .filter((j) => j.state === 'done')
      .sort((a, b) => (b.doneAt ?? 0) - (a.doneAt ?? 0))
      .slice(0, HISTORY)
      .map((j) => this.view(j));
  }

  /** Everything a page needs on (re)connecting. */
  snapshot(): Record<string, unknown> {
    const last = this.liveFrames.latest();
    const rolling = [...this.rolls.values()].find((j) => j.state === 'rolling');
    return {
      serverNow: this.options.now(),
      ...this.modeState(),
      errorControl: this.fairness.errorControl,
      dice: this.fairness.dice,
      totals: this.fairness.totals ?? null,
      rigCheck: this.fairness.rigCheck ?? null,
      rigHealth: this.rigHealth(),
      channels: this.opened.plan.dice.map((d) => ({ channel: d.channel, label: d.record.label, type: d.type.id })),
      queue: this.queueView(),
      rolling: rolling ? this.view(rolling) : null,
      history: this.history(),
      frame: last ? this.liveFrames.info(last) : null,
    };
  }

  /** This server's sessions still marked running in the roll store (what quitting at once would leave so). */
  runningSessions(): { readonly id: number; readonly kind: 'fairness' | 'stream' }[] {
    const { store } = this.opened;
    const ours = [{ id: this.fairnessSessionId, kind: 'fairness' as const }, ...(this.streamSessionId !== undefined ? [{ id: this.streamSessionId, kind: 'stream' as const }] : [])];
    return ours.filter((s) => store.getSession(s.id)?.state === 'running');
  }

  /** The roll being thrown now, if any: what quitting at once would leave without an answer. */
  rollUnderWay(): RollJob | undefined {
    return [...this.rolls.values()].find((j) => j.state === 'rolling');
  }

  /** True once closing began: no roll is taken any more. */
  get stopping(): boolean {
    return this.closed;
  }

  /**
   * Stops for shutdown: every waiting roll is abandoned at once, the one rolling after its current throw, and a
   * fairness run pauses after its current throw; each abandoned roll is named in the log and on the live stream,
   * and its waiting callers are answered. Returns the rolls abandoned.
   */
  close(): Promise<RollJob[]> {
    return (this.closing ??= this.shutDown());
  }

  private async shutDown(): Promise<RollJob[]> {
    this.closed = true;
    this.link.close();
    const waiting = this.queue.clear().map((q) => q.item);
    const rolling = [...this.rolls.values()].find((j) => j.state === 'rolling');
    this.hub.publish({ type: 'server-stopping', at: this.options.now(), message: SERVER_STOPPING, abandoned: waiting.map((j) => j.id), ...(rolling ? { rolling: rolling.id } : {}) });
    for (const job of waiting) this.finish(job, 'abandoned', new RollAbandonedError(job.id).message);
    if (waiting.length > 0) this.publishQueue();
    // Said now, not after the throw under way: a second Ctrl-C during it quits before anything else is said.
    for (const job of waiting) this.options.log?.(abandonedLine(job));
    if (this.fairnessRun) await this.stopFairness('pause');
    await this.busy;
    const abandoned = [...(rolling?.state === 'abandoned' ? [rolling] : []), ...waiting];
    if (rolling?.state === 'abandoned') this.options.log?.(abandonedLine(rolling));
    const { store } = this.opened;
    const at = this.options.now();
    // Each session is ended even if another cannot be (a full disk): the server closes either way, then says why.
    const failed: string[] = [];
    for (const id of [this.fairnessSessionId, this.streamSessionId]) {
      try {
        if (id !== undefined && store.getSession(id)?.state === 'running') store.endSession(id, at, 'stopped');
      } catch (e) {
        failed.push(`session ${id} stays marked running: ${this.storeMessage(e)}`);
      }
    }
    if (failed.length > 0) throw new ServeStopError(failed, abandoned);
    return abandoned;
  }
}

